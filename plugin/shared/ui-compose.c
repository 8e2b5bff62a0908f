/*
 * One option a pane (issue 45): tmux writes every command a client sends
 * into its message log, so a transition must be one set-option. The
 * helper writes @lisa on the pane, ready to draw, and everything else
 * (window badges, counts, the places that wait) is derived from those by
 * formats that tmux expands on redraw (docs/performance.md, U2).
 *
 * @lisa is "#{?,RF|agent|state|detail|watchdog|context|,}" then the
 * border's text. The #{?,...,} draws nothing (its condition is empty);
 * inside it R is the pane's rank letter (a: asks ... h: done, worst
 * first), read back with #{=-1:#{=5:@lisa}} (two trims, no regex), and F
 * says whose it is (a: an agent of this pane, r: a remote agent this
 * pane shows). The fields after it are lisa's own words, made safe for a
 * format; the border text is read with #{E:@lisa}: text from the agent
 * goes in with its '#'s escaped twice, once for the expansion and once
 * for the drawing ("#(" never runs, "#[" is no style: uiformat_text), and
 * each '%' as two (the expansion is strftime's first).
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ui-format.h"

/* Each rank's letters: where a count looks (UI groups by rank). */
static const char *ui_group_letters[UI_NGROUPS] = {
	"a", "b", "c", "d", "e", "fg", "h"
};

/* A pane's rank letter: worst first, so the smallest letter wins. */
#define UI_RANK "#{=-1:#{=5:@lisa}}"
/*
 * A window once, though linked into several sessions (link-window, or a
 * session group): in the first session its list names. (A session whose
 * name holds a ',' is not found there: such a linked window is not
 * counted. A window linked twice into one session is counted twice.)
 */
#define UI_ONCE(x) "#{?window_linked,#{?#{==:#{session_name}," \
	"#{s/,.*//:window_linked_sessions_list}}," x ",}," x "}"

char
uiformat_rank_letter(int rank)
{
	return (rank < 0 || rank > 7 ? '\0' : (char)('a' + rank));
}

/* A word of lisa's for the hidden fields: nothing a format would read. */
static void
uiformat_field(struct buf *b, const char *s)
{
	if (s == NULL)
		s = "";
	for (; *s != '\0'; s++) {
		if (strchr("#,{}%|\\\n\t", *s) != NULL ||
		    (u_char)*s < 0x20)
			buf_addc(b, '_');
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '|');
}

/*
 * Text from the agent, for a value read with #{E:}: shown as it is. The
 * expansion halves a run of '#'s, but copies one of two or more before a
 * '[' as it is (a style, for the drawing); the drawing halves what it
 * gets. So a run of k '#'s goes in as 4k, or as 2k before a '['.
 */
static void
uiformat_text(struct buf *b, const char *s)
{
	size_t	k, i;

	for (; *s != '\0'; s++) {
		if (*s == '#') {
			for (k = 0; s[k] == '#'; k++)
				;
			for (i = 0; i < (s[k] == '[' ? 2 : 4) * k; i++)
				buf_addc(b, '#');
			s += k - 1;
		} else if (*s == '%')
			buf_adds(b, "%%");
		else if ((u_char)*s < 0x20 || *s == 0x7f)
			buf_addc(b, ' ');
		else
			buf_addc(b, *s);
	}
}

/* The hidden head of @lisa. */
static void
uiformat_head(struct buf *b, const struct ui_pane *f, char flag)
{
	char	ctx[16];

	buf_printf(b, "#{?,%c%c|", uiformat_rank_letter(f->rank), flag);
	uiformat_field(b, f->agent);
	uiformat_field(b, f->state);
	uiformat_field(b, f->detail);
	uiformat_field(b, f->watchdog);
	if (f->context >= 0)
		snprintf(ctx, sizeof ctx, "%d", f->context);
	else
		*ctx = '\0';
	uiformat_field(b, ctx);
	buf_adds(b, ",}");
}

/* Seconds since SINCE, in the border's expansion (strftime's %s). */
static void
uiformat_age(struct buf *b, long long since)
{
	char	age[64];

	snprintf(age, sizeof age, "#{e|-:%%s,%lld}", since);
	buf_printf(b, "#{?#{e|<:%s,60},%ss,"
	    "#{?#{e|<:%s,3600},#{e|/:%s,60}m,"
	    "#{?#{e|<:%s,86400},#{e|/:%s,3600}h,"
	    "#{e|/:%s,86400}d}}}", age, age, age, age, age, age, age);
}

/*
 * A pane's @lisa: " claude · ◐ your turn · prompt · 2m " after the hidden
 * head; only the head when the user draws borders of their own (border)
 * or the pane only shows a remote agent (f->agent NULL).
 */
void
uiformat_pane(struct buf *b, const struct ui_config *cfg,
    const struct ui_pane *f, int body)
{
	struct ui_config	dark = *cfg;
	int			g;

	if (f->agent == NULL) {
		uiformat_head(b, f, 'r');
		return;
	}
	uiformat_head(b, f, 'a');
	if (!body)
		return;
	/* Borders are drawn on the terminal's background, not the bar's. */
	dark.light = 0;
	g = f->group;
	buf_adds(b, "#[push-default] ");
	uiformat_text(b, f->agent);
	buf_adds(b, " \u00b7 ");
	uiformat_chip(b, &dark, g, g == UI_ASKS ? "asks" : f->word, NULL);
	if (f->detail != NULL && *f->detail != '\0') {
		buf_adds(b, " \u00b7 ");
		uiformat_text(b, f->detail);
	}
	if (f->asks != NULL && *f->asks != '\0') {
		buf_adds(b, " \u00b7 ");
		uiformat_text(b, f->asks);
	}
	if (f->watchdog != NULL && *f->watchdog != '\0') {
		buf_adds(b, " \u00b7 #[" UI_WATCHDOG_STYLE "]\u26a0 ");
		uiformat_text(b, f->watchdog);
		buf_adds(b, "#[default]");
	}
	if (f->since > 0) {
		buf_adds(b, " \u00b7 ");
		uiformat_age(b, f->since);
	}
	if (f->context >= 0)
		buf_printf(b, " \u00b7 %d%%%%", f->context);
	buf_adds(b, " #[pop-default]");
}

/*
 * A window's worst rank letter: a window of one pane is its active pane's
 * (a window's format sees it), no loop; else every pane's letter, and
 * the smallest kept by one substitution a letter.
 */
void
uiformat_window_rank(struct buf *b)
{
	int	i;

	buf_adds(b, "#{?#{==:#{window_panes},1}," UI_RANK ",#{");
	for (i = 0; i < 8; i++)
		buf_printf(b, "%ss/.*%c.*/%c/", i == 0 ? "" : ";", 'a' + i,
		    'a' + i);
	buf_adds(b, ":#{P:" UI_RANK "}}}");
}

/*
 * Every agent's rank letter: from a loop over the panes while the helper
 * sees few (a few µs a pane on a redraw), then the fleet's (@lisa_remote,
 * before its '|'); past UI_LOOP_MAX panes the helper writes them all in
 * @lisa_summary ("LETTERS|PLACES") and no loop is expanded.
 */
#define UI_LETTERS \
	"#{?@lisa_summary,#{s/[|].*//:@lisa_summary}," \
	"#{S:#{W:" UI_ONCE("#{P:" UI_RANK "}") "}}" \
	"#{s/[|].*//:@lisa_remote}}"

/* @lisa_n_<group> (g -1: all agents): how many, "" for none. */
void
uiformat_count(struct buf *b, int g)
{
	const char	*letters = g < 0 ? "a-h" : ui_group_letters[g];

	/* A helper that died: nothing counted is current. */
	buf_printf(b, "#{?@lisa_down,,#{s/^0$//:#{n;s/[^%s]//:" UI_LETTERS
	    "}}}", letters);
}

/*
 * A format as the replacement of a substitution: expanded twice before
 * it is used (when the modifier is read and when it is applied), and
 * read first as a modifier's argument, which ends at a bare ';' or ':'.
 * (No '#[' in it: a run of '#'s before '[' is never halved.)
 */
static void
uiformat_twice(struct buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '#':
			buf_adds(b, "####");
			break;
		case '}':
			buf_adds(b, "###}");
			break;
		case ',':
			buf_adds(b, "###,");
			break;
		case ';':
			buf_adds(b, "#{l:;}");
			break;
		case ':':
			buf_adds(b, "#{l::}");
			break;
		default:
			buf_addc(b, *s);
		}
	}
}

/*
 * The status line's items for the groups in order, the letters counted
 * once: the substitution puts them (\1) into a format of one item a group
 * whose counts read them as a literal, and #{E:} expands that. An item is
 * @lisa_item_<group> (separator, style, icon), the count, @lisa_item_end.
 */
void
uiformat_items(struct buf *b, const char *item, const int *order, int n)
{
	struct buf	 t;
	const char	*l;
	int		 i;

	buf_init(&t);
	for (i = 0; i < n; i++) {
		l = ui_group_letters[order[i]];
		buf_printf(&t, "#{?#{n;s/[^%s]//;l:\\1},#{E:%s%s}"
		    "#{n;s/[^%s]//;l:\\1}#{E:@lisa_item_end},}", l, item,
		    ui_group_name(order[i]), l);
	}
	buf_adds(b, "#{?@lisa_down,,#{E:#{s|^(.*)$|");
	uiformat_twice(b, t.data);
	buf_adds(b, "|:" UI_LETTERS "}}}");
	buf_free(&t);
}

/*
 * @lisa_places: session:window of each window whose agents need the
 * human: those that ask first, then crashed or stuck, then at their
 * prompt, each in tmux's order (a window once, under its worst); then the
 * fleet's (@lisa_remote, between its '|'s). Past UI_LOOP_MAX panes, the
 * helper's (@lisa_summary, after its '|').
 *
 * One loop over the windows makes ".LETTERS.SESSION:INDEX" a window
 * (a session's name has no '.' or ':', and a modifier's argument no
 * ':'), and three substitutions on that, put into a format as its
 * literal, keep each group's windows. In the name, '}' and '%' are made
 * '_' (so that it stays inside the literal and strftime leaves it alone:
 * "#}" and "%%" as the format is read and strftime'd), and its '#'s,
 * doubled for the drawing by q/h, are doubled again where #{l:} halves
 * them (tmux 3.4 and later).
 */
#define UI_ITEM ".#{P:" UI_RANK "}.#{q/h:session_name}:#{window_index}"
/* (an argument of s/// is expanded twice: "####" is one '#') */
#define UI_HASHES "s/####/########/;"
#define UI_KEEP(drop) "#{l;" drop "s/[.][a-h]*[.]/ /:\\1}"
void
uiformat_places(struct buf *b, const struct ui_config *cfg)
{
	buf_adds(b, "#{?@lisa_down,,#{?@lisa_summary,"
	    "#{q/h;s/^[^|]*[|]//:@lisa_summary},#{s/^ //;s/ $//:#{E:#{");
	/* (on the whole text: one regex, not one a window) */
	if (cfg->literal_unescapes)
		buf_adds(b, UI_HASHES);
	buf_adds(b, "s/[#}%%]/_/;s|^(.*)$|");
	uiformat_twice(b,
	    /* those that ask */
	    UI_KEEP("s/[.][b-h]*[.][^.]*//;")
	    /* crashed or stuck, and none asks */
	    UI_KEEP("s/[.][a-h]*a[a-h]*[.][^.]*//;s/[.][d-h]*[.][^.]*//;")
	    /* at their prompt, and none of those */
	    UI_KEEP("s/[.][a-h]*[abc][a-h]*[.][^.]*//;s/[.][e-h]*[.][^.]*//;"));
	buf_adds(b, "|:#{S:#{W:" UI_ONCE(UI_ITEM) "}}}} ");
	buf_adds(b, "#{q/h;s/^[^|]*[|]([^|]*[|]).*/\\1/;s/[|]$//:@lisa_remote}}}}");
}
