/*
 * Formats for the status line, window list and pane borders. tmux expands
 * them on every redraw, so they only read @lisa_* options: the helper writes
 * those when something changes, and a redraw costs what any format costs.
 *
 * Everything of the user's (icons, separator) is escaped for the place it
 * lands: inside #{?...} a bare ',' or '}' would end the branch, and '#'
 * starts a format or a style.
 */
#include <sys/types.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"
#include "ui-format.h"

static const char *ui_group_names[UI_NGROUPS] = {
	"asks", "crashed", "stuck", "waiting", "degraded", "working", "done"
};
static const char *ui_icons[UI_NGROUPS] = {
	"\u2691", "\u2716", "\u2016", "\u25d0", "\u25cc", "\u25cf",
	"\u2714"
};
static const char *ui_icons_ascii[UI_NGROUPS] = {
	"?", "!", "~", "_", ".", ">", "+"
};
/*
 * Each group's style, chosen by measured contrast (WCAG, 4.5:1 for text;
 * tests/unit/contrast_test.c computes it from these): only colours of the
 * 256 palette's fixed part (16-255), which no terminal theme remaps. The
 * urgent groups are chips, their own background under the glyph, so they
 * read on any bar: green, tango's darker green, catppuccin's, dracula's
 * and nord's. The others colour only the glyph: on a dark bar (a dark
 * theme, or the terminal's background) a light shade of their hue; on a
 * light one, tmux's default green among them, black, as no hue but a dark
 * blue reaches 4.5:1 on tango's green.
 */
static const char *ui_styles[UI_NGROUPS] = {
	"fg=colour16,bg=colour220", "fg=colour231,bg=colour160",
	"fg=colour231,bg=colour90", "fg=colour229", "fg=colour250",
	"fg=colour81", "fg=colour114"
};
static const char *ui_styles_light[UI_NGROUPS] = {
	"fg=colour16,bg=colour220", "fg=colour231,bg=colour160",
	"fg=colour231,bg=colour90", "fg=colour16", "fg=colour16",
	"fg=colour16", "fg=colour16"
};
/* A helper that sees nothing: the crashed chip, on any bar. */
#define UI_ERROR_STYLE "fg=colour231#,bg=colour160"
/* Text on a light bar. */
#define UI_TEXT_LIGHT "fg=colour16"
/*
 * Agents that ask, first; then an earlier issue's example order: working,
 * waiting, done, crashed, stuck.
 */
static const int ui_default_order[] = {
	UI_ASKS, UI_WORKING, UI_WAITING, UI_DONE, UI_CRASHED, UI_STUCK,
	UI_DEGRADED
};

/*
 * What a state option can say, worst first. A window's and a session's
 * (@lisa_window_state, @lisa_session_state) say "asking" where an agent
 * of theirs asks; a pane's @lisa_state stays the classifier's, its
 * @lisa_detail telling (ui_detail_asks).
 */
static const struct {
	const char	*name;
	enum cls_state	 st;
	int		 group;
} ui_states[] = {
	{ "asking", ST_WAITING_INPUT, UI_ASKS },
	{ "crashed", ST_CRASHED, UI_CRASHED },
	{ "stuck", ST_STUCK, UI_STUCK },
	{ "waiting_input", ST_WAITING_INPUT, UI_WAITING },
	{ "degraded", ST_DEGRADED, UI_DEGRADED },
	{ "in_progress", ST_IN_PROGRESS, UI_WORKING },
	{ "just_started", ST_JUST_STARTED, UI_WORKING },
	{ "completed", ST_COMPLETED, UI_DONE },
};
#define UI_NSTATES (sizeof ui_states / sizeof ui_states[0])

const char *
ui_group_name(int g)
{
	return (g >= 0 && g < UI_NGROUPS ? ui_group_names[g] : "none");
}

/* A group as a menu heads it: the two kinds of waiting told apart. */
const char *
ui_group_title(int g)
{
	if (g == UI_ASKS)
		return ("asks you");
	if (g == UI_WAITING)
		return ("your turn");
	return (ui_group_name(g));
}

int
ui_group_find(const char *name)
{
	int	g;

	for (g = 0; g < UI_NGROUPS; g++) {
		if (strcmp(ui_group_names[g], name) == 0)
			return (g);
	}
	return (-1);
}

int
ui_group_of(enum cls_state st)
{
	switch (st) {
	case ST_CRASHED:
		return (UI_CRASHED);
	case ST_WAITING_INPUT:
		return (UI_WAITING);
	case ST_STUCK:
		return (UI_STUCK);
	case ST_DEGRADED:
		return (UI_DEGRADED);
	case ST_JUST_STARTED:
	case ST_IN_PROGRESS:
		return (UI_WORKING);
	case ST_COMPLETED:
		return (UI_DONE);
	default:
		return (-1);
	}
}

/*
 * Does a waiting agent with this detail ask (a dialog, a question, a
 * limit it needs you for), rather than wait at its prompt after a turn
 * ("prompt", or a turn that ended in an "error")? A dialog not read yet
 * has no detail: it asks.
 */
int
ui_detail_asks(const char *detail)
{
	return (detail == NULL || (strcmp(detail, "prompt") != 0 &&
	    strcmp(detail, "error") != 0));
}

/* The group of a verdict: a waiting agent's detail says which. */
int
ui_group_of_verdict(enum cls_state st, const char *detail)
{
	if (st == ST_WAITING_INPUT && ui_detail_asks(detail))
		return (UI_ASKS);
	return (ui_group_of(st));
}

/*
 * A verdict's place among the state options' values, worst first (a
 * window's and a session's state is their worst pane's); -1 if none.
 */
int
ui_state_rank(enum cls_state st, const char *detail)
{
	size_t	i;
	int	g = ui_group_of_verdict(st, detail);

	for (i = 0; i < UI_NSTATES; i++) {
		if (ui_states[i].st == st && ui_states[i].group == g)
			return ((int)i);
	}
	return (-1);
}

/* A group's first rank (its letter in @lisa, ui-compose.c). */
int
ui_group_rank(int g)
{
	size_t	i;

	for (i = 0; i < UI_NSTATES; i++) {
		if (ui_states[i].group == g)
			return ((int)i);
	}
	return (-1);
}

/* What a state option says for a rank: "asking", a state's name. */
const char *
ui_state_rank_name(int rank)
{
	if (rank < 0 || (size_t)rank >= UI_NSTATES)
		return (NULL);
	return (ui_states[rank].name);
}

/* Does an agent of the group need the human (the places, prefix + A)? */
int
ui_group_needs_you(int g)
{
	return (g == UI_ASKS || g == UI_CRASHED || g == UI_STUCK ||
	    g == UI_WAITING);
}

/* The same, for a verdict: "asks" where a waiting agent asks. */
const char *
ui_verdict_word(enum cls_state st, const char *detail)
{
	if (ui_group_of_verdict(st, detail) == UI_ASKS)
		return ("asks");
	return (ui_state_word(st));
}

/*
 * Names as a human sorts them: a run of digits by its number, so b2 comes
 * before b10; otherwise byte by byte.
 */
int
ui_natcmp(const char *a, const char *b)
{
	const char	*da, *db;
	size_t		 na, nb;

	while (*a != '\0' && *b != '\0') {
		if (isdigit((u_char)*a) && isdigit((u_char)*b)) {
			while (*a == '0' && isdigit((u_char)a[1]))
				a++;
			while (*b == '0' && isdigit((u_char)b[1]))
				b++;
			for (da = a; isdigit((u_char)*da); da++)
				;
			for (db = b; isdigit((u_char)*db); db++)
				;
			na = (size_t)(da - a);
			nb = (size_t)(db - b);
			if (na != nb)
				return (na < nb ? -1 : 1);
			for (; a < da; a++, b++) {
				if (*a != *b)
					return ((u_char)*a < (u_char)*b ? -1 : 1);
			}
			continue;
		}
		if (*a != *b)
			return ((u_char)*a < (u_char)*b ? -1 : 1);
		a++;
		b++;
	}
	if (*a == *b)
		return (0);
	return (*a == '\0' ? -1 : 1);
}

/* What a border says for a state: short, a human's word. */
const char *
ui_state_word(enum cls_state st)
{
	switch (st) {
	case ST_JUST_STARTED:
		return ("starting");
	case ST_IN_PROGRESS:
		return ("working");
	case ST_WAITING_INPUT:
		return ("your turn");
	case ST_COMPLETED:
		return ("done");
	case ST_CRASHED:
		return ("crashed");
	case ST_STUCK:
		return ("stuck");
	case ST_DEGRADED:
		return ("degraded");
	default:
		return ("");
	}
}

void
ui_config_defaults(struct ui_config *cfg)
{
	size_t	i;

	memset(cfg, 0, sizeof *cfg);
	for (i = 0; i < sizeof ui_default_order / sizeof ui_default_order[0];
	    i++)
		cfg->order[cfg->norder++] = ui_default_order[i];
	cfg->window_badge = 1;
	cfg->pane_border = 1;
}

void
ui_config_free(struct ui_config *cfg)
{
	int	g;

	for (g = 0; g < UI_NGROUPS; g++) {
		free(cfg->icon[g]);
		free(cfg->color[g]);
	}
	free(cfg->separator);
	free(cfg->border);
	memset(cfg, 0, sizeof *cfg);
}

/* A colour goes into #[fg=...]: a name, colourN or #rrggbb, nothing else. */
static int
ui_color_valid(const char *v)
{
	size_t	n = strlen(v);

	return (n > 0 && n < 32 && strspn(v, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#") == n);
}

static int
ui_onoff(const char *v, int *out)
{
	if (strcmp(v, "on") == 0 || strcmp(v, "1") == 0 ||
	    strcmp(v, "yes") == 0)
		*out = 1;
	else if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0 ||
	    strcmp(v, "no") == 0)
		*out = 0;
	else
		return (-1);
	return (0);
}

/* The order option: group names separated by spaces or commas. */
static int
ui_config_order(struct ui_config *cfg, const char *v)
{
	char	*copy, *p, *word;
	int	 order[UI_NGROUPS], n = 0, g, i;

	copy = p = xstrdup(v);
	while ((word = strsep(&p, " ,")) != NULL) {
		if (*word == '\0')
			continue;
		if ((g = ui_group_find(word)) == -1) {
			free(copy);
			return (-1);
		}
		for (i = 0; i < n; i++) {
			if (order[i] == g)
				break;
		}
		if (i == n && n < UI_NGROUPS)
			order[n++] = g;
	}
	free(copy);
	memcpy(cfg->order, order, sizeof order);
	cfg->norder = n;
	return (0);
}

/*
 * One @lisa-* option. 1: not a UI option; -1: bad value (the default
 * stays); 0: taken.
 */
int
ui_config_set(struct ui_config *cfg, const char *name, const char *v)
{
	int	g;

	if (strncmp(name, "@lisa-", 6) != 0)
		return (1);
	name += 6;
	if (strncmp(name, "icon-", 5) == 0) {
		if ((g = ui_group_find(name + 5)) == -1 || strlen(v) > 32)
			return (g == -1 ? 1 : -1);
		free(cfg->icon[g]);
		cfg->icon[g] = xstrdup(v);
		return (0);
	}
	if (strncmp(name, "color-", 6) == 0 ||
	    strncmp(name, "colour-", 7) == 0) {
		g = ui_group_find(name + (name[4] == 'r' ? 6 : 7));
		if (g == -1)
			return (1);
		if (!ui_color_valid(v))
			return (-1);
		free(cfg->color[g]);
		cfg->color[g] = xstrdup(v);
		return (0);
	}
	if (strcmp(name, "status-order") == 0)
		return (ui_config_order(cfg, v));
	if (strcmp(name, "status-separator") == 0) {
		if (strlen(v) > 16)
			return (-1);
		free(cfg->separator);
		cfg->separator = xstrdup(v);
		return (0);
	}
	if (strcmp(name, "border-format") == 0) {
		free(cfg->border);
		cfg->border = *v != '\0' ? xstrdup(v) : NULL;
		return (0);
	}
	if (strcmp(name, "ascii") == 0)
		return (ui_onoff(v, &cfg->ascii));
	if (strcmp(name, "window-badge") == 0)
		return (ui_onoff(v, &cfg->window_badge));
	if (strcmp(name, "pane-border") == 0)
		return (ui_onoff(v, &cfg->pane_border));
	if (strcmp(name, "fields") == 0)
		return (ui_onoff(v, &cfg->fields));
	if (strcmp(name, "resume-resurrect") == 0)
		return (ui_onoff(v, &cfg->resume_resurrect));
	return (1);
}

static const char *
ui_icon(const struct ui_config *cfg, int g)
{
	if (cfg->icon[g] != NULL)
		return (cfg->icon[g]);
	return (cfg->ascii ? ui_icons_ascii[g] : ui_icons[g]);
}

/* The group's style: the user's colour (the glyph only), else lisa's. */
static void
ui_style(const struct ui_config *cfg, int g, char *out, size_t len)
{
	if (cfg->color[g] != NULL)
		snprintf(out, len, "fg=%s", cfg->color[g]);
	else
		strlcpy(out, cfg->light ? ui_styles_light[g] : ui_styles[g],
		    len);
}

/* Perceived brightness, 0-255, of an RGB colour. */
static int
ui_luma(int r, int g, int b)
{
	return ((299 * r + 587 * g + 114 * b) / 1000);
}

/* The brightness of a tmux colour, or -1 if it says nothing (default). */
static int
ui_colour_luma(const char *c)
{
	static const struct {
		const char	*name;
		int		 luma;
	} names[] = {
		{ "black", 0 }, { "red", 60 }, { "green", 120 },
		{ "yellow", 180 }, { "blue", 40 }, { "magenta", 90 },
		{ "cyan", 150 }, { "white", 200 }, { "brightblack", 100 },
		{ "brightred", 140 }, { "brightgreen", 190 },
		{ "brightyellow", 230 }, { "brightblue", 120 },
		{ "brightmagenta", 160 }, { "brightcyan", 210 },
		{ "brightwhite", 255 },
	};
	static const int	 cube[] = { 0, 95, 135, 175, 215, 255 };
	unsigned int		 r, g, b;
	int			 n;
	size_t			 i;

	if (strncmp(c, "colour", 6) == 0 || strncmp(c, "color", 5) == 0) {
		n = atoi(c + (c[5] == 'r' ? 6 : 5));
		if (n < 0 || n > 255)
			return (-1);
		if (n < 16)
			return (ui_colour_luma(names[n].name));
		if (n >= 232)
			return (8 + 10 * (n - 232));
		n -= 16;
		return (ui_luma(cube[n / 36], cube[(n / 6) % 6], cube[n % 6]));
	}
	if (*c == '#' && sscanf(c + 1, "%2x%2x%2x", &r, &g, &b) == 3)
		return (ui_luma((int)r, (int)g, (int)b));
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcasecmp(c, names[i].name) == 0)
			return (names[i].luma);
	}
	return (-1);
}

/*
 * Is a status-style's background light ("bg=green", tmux's default)? The
 * last bg= wins, as in tmux; none, or default/terminal: the terminal's
 * background, taken as dark.
 */
int
uiformat_style_light(const char *style)
{
	const char	*p, *bg = NULL;
	char		 c[32];
	size_t		 n;
	int		 luma;

	if (style == NULL)
		return (0);
	for (p = style; (p = strstr(p, "bg=")) != NULL; p += 3) {
		if (p == style || p[-1] == ',' || p[-1] == ' ')
			bg = p + 3;
	}
	if (bg == NULL)
		return (0);
	n = strcspn(bg, ", ");
	if (n >= sizeof c)
		return (0);
	memcpy(c, bg, n);
	c[n] = '\0';
	luma = ui_colour_luma(c);
	return (luma >= 110);
}

/* Text shown as is, even inside a conditional's branch. */
void
uiformat_escape(struct buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '#' || *s == ',' || *s == '}')
			buf_addc(b, '#');
		buf_addc(b, *s);
	}
}

/*
 * "icon" (and word, count) in the group's style, then back to what the
 * caller had: every caller wraps its items in #[push-default], so default
 * is the style around them. A chip is as wide as its text: the layout is
 * the same whatever the style.
 */
void
uiformat_chip(struct buf *b, const struct ui_config *cfg, int g,
    const char *word, const char *count)
{
	char	style[64];

	ui_style(cfg, g, style, sizeof style);
	/* In a conditional's branch, a bare ',' would end it. */
	buf_adds(b, "#[");
	uiformat_escape(b, style);
	buf_adds(b, "]");
	uiformat_escape(b, ui_icon(cfg, g));
	if (word != NULL) {
		buf_addc(b, ' ');
		buf_adds(b, word);
	}
	if (count != NULL) {
		buf_addc(b, ' ');
		buf_adds(b, count);
	}
	buf_adds(b, "#[default]");
}

/*
 * A regex that matches s as it is, for a format's s/// (its arguments
 * are expanded first: '#', ',' and '}' escaped for that).
 */
static void
uiformat_literal_re(struct buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		if (strchr("\\.[]()*+?{}|^$", *s) != NULL)
			buf_addc(b, '\\');
		if (*s == '#' || *s == ',' || *s == '}')
			buf_addc(b, '#');
		buf_addc(b, *s);
	}
}

/* A chip's start: its style and icon, then its count, then the end. */
static void
uiformat_lead(struct buf *b, const struct ui_config *cfg, int g)
{
	uiformat_chip(b, cfg, g, NULL, "");
	b->len -= strlen("#[default]");
	b->data[b->len] = '\0';
}

/*
 * @lisa_item_<group>: a status item before its count, after the
 * separator; @lisa_chip_<group> the same without (#{lisa_asks}).
 */
void
uiformat_item(struct buf *b, const struct ui_config *cfg, int g, int sep)
{
	if (sep)
		uiformat_escape(b, cfg->separator != NULL ?
		    cfg->separator : " ");
	uiformat_lead(b, cfg, g);
}

/*
 * #{lisa_status}: "● 3 ◐ 1 ✖ 1", only groups with a count, nothing without
 * agents; every agent's letter read once (uiformat_items), and the
 * separator before the first item goes.
 */
void
uiformat_status(struct buf *b, const struct ui_config *cfg)
{
	const char	*sep = cfg->separator != NULL ? cfg->separator : " ";
	const char	*wrap;

	/* The substitution's own delimiter: one the separator has not. */
	for (wrap = "/!~&=+@"; *wrap != '\0'; wrap++) {
		if (strchr(sep, *wrap) == NULL)
			break;
	}
	if (*wrap == '\0')
		sep = "";	/* (then the first item keeps it) */
	buf_adds(b, "#[push-default]");
	/* A helper that sees nothing says so where the counts would be. */
	buf_adds(b, "#{?@lisa_error,#[" UI_ERROR_STYLE "] #{q/h:@lisa_error} "
	    "#[default] ,}");
	if (*sep != '\0') {
		buf_printf(b, "#{s%c^", *wrap);
		uiformat_literal_re(b, sep);
		buf_printf(b, "%c%c:", *wrap, *wrap);
	}
	uiformat_items(b, "@lisa_item_", cfg->order, cfg->norder);
	if (*sep != '\0')
		buf_adds(b, "}");
	buf_adds(b, "#[pop-default]");
}

/* #{lisa_asks}: how many agents ask, as its chip; nothing when none. */
void
uiformat_asks(struct buf *b)
{
	static const int	asks = UI_ASKS;

	buf_adds(b, "#[push-default]");
	uiformat_items(b, "@lisa_chip_", &asks, 1);
	buf_adds(b, "#[pop-default]");
}

/*
 * #{lisa_waiting}: session:window of every pane that waits, escaped, and
 * cut at UI_WAITING_WIDTH columns with "…" (the count says how many; the
 * menu has them all), so a status line keeps its clock when many wait.
 * tmux cuts after the escaping: a cut between "##" leaves "#…", text.
 * On a light bar in black: the bar's own black may be a grey (tango's).
 */
#define UI_WAITING_WIDTH "20"
#define UI_WAITING "#{=/" UI_WAITING_WIDTH "/\u2026:#{E:@lisa_places}}"
void
uiformat_waiting(struct buf *b, const struct ui_config *cfg)
{
	if (cfg->light)
		buf_adds(b, "#[push-default]#[" UI_TEXT_LIGHT "]" UI_WAITING
		    "#[pop-default]");
	else
		buf_adds(b, UI_WAITING);
}

/*
 * @lisa_badge_<letter>: the badge of a window whose worst agent has that
 * rank. A helper that died: no verdict is current, "?".
 */
void
uiformat_badge_icon(struct buf *b, const struct ui_config *cfg, int rank)
{
	buf_adds(b, "#[push-default] #{?@lisa_down,?,");
	uiformat_chip(b, cfg, ui_states[rank].group, NULL, NULL);
	buf_adds(b, "}#[pop-default]");
}

/*
 * After a window's name: the icon of its worst agent, the window's rank
 * expanded once and its badge taken from @lisa_badge_<letter>. tmux's
 * default format ends with the flags or a space; there the space gives
 * way to the badge, so "1:api ●" and "2:web* ◐" read alike: 1 if so, and
 * @lisa_badge_ (no agent) gives the space back.
 */
#define UI_FLAGS_OR_SPACE "#{?window_flags,#{window_flags}, }"
int
uiformat_badge(struct buf *b, const char *user)
{
	size_t	n = strlen(user), m = strlen(UI_FLAGS_OR_SPACE);
	int	flags = 0;

	if (n >= m && strcmp(user + n - m, UI_FLAGS_OR_SPACE) == 0) {
		buf_add(b, user, n - m);
		buf_adds(b, "#{?window_flags,#{window_flags},}");
		flags = 1;
	} else
		buf_adds(b, user);
	buf_adds(b, "#{E:##{E:@lisa_badge_");
	uiformat_window_rank(b);
	buf_adds(b, "#}}");
	return (flags);
}

/*
 * Agent panes' border: their @lisa, composed by the helper; the user's own
 * format (user) on the others.
 */
void
uiformat_border(struct buf *b, const struct ui_config *cfg, const char *user)
{
	buf_adds(b, "#{?#{==:#{=-1:#{=6:@lisa}},a},");
	/*
	 * A helper that died: its verdicts and their clocks are stale. (Its
	 * format has a backslash: in an option of lisa's, ui-install.c.)
	 */
	buf_adds(b, "#{?@lisa_down,#{E:@lisa_border_down},");
	if (cfg->border != NULL)
		buf_adds(b, cfg->border);	/* the user's, as written */
	else
		buf_adds(b, "#{E:@lisa}");
	buf_adds(b, "},");
	buf_adds(b, user);
	buf_addc(b, '}');
}

/* Is word one of the space-separated words in list (len bytes)? */
int
ui_word_in(const char *list, size_t len, const char *word)
{
	size_t		 n = strlen(word);
	const char	*p, *end;

	/* An empty buffer has no data at all (NULL + 0 is undefined). */
	if (list == NULL || len == 0)
		return (0);
	p = list;
	end = list + len;
	while (p < end) {
		if ((size_t)(end - p) >= n && memcmp(p, word, n) == 0 &&
		    (p + n == end || p[n] == ' '))
			return (1);
		if ((p = memchr(p, ' ', (size_t)(end - p))) == NULL)
			break;
		p++;
	}
	return (0);
}

/* s with every "what" replaced by "with"; a new string. */
char *
uiformat_replace(const char *s, const char *what, const char *with)
{
	struct buf	 b;
	const char	*hit;
	size_t		 n = strlen(what);

	buf_init(&b);
	while (n != 0 && (hit = strstr(s, what)) != NULL) {
		buf_add(&b, s, (size_t)(hit - s));
		buf_adds(&b, with);
		s = hit + n;
	}
	buf_adds(&b, s);
	return (buf_detach(&b));
}
