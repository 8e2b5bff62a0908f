/*
 * Every colour lisa sets on the status line, the window badges and the
 * pane borders reads: WCAG's contrast ratio, at least 4.5:1 for text,
 * computed from the formats lisa builds, against tmux's default bar (green
 * under xterm's palette and under tango's, GNOME Terminal's and many
 * others'), the terminal's black background (borders) and the bars of
 * catppuccin (each flavour), dracula and nord.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "util.h"
#include "ui-format.h"

#define MIN_RATIO 4.5

struct rgb {
	int	r, g, b;
};

/* The 16 colours that terminals remap: xterm's and tango's. */
static const struct rgb xterm16[16] = {
	{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
	{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
	{ 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 }, { 255, 255, 0 },
	{ 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 }
};
static const struct rgb tango16[16] = {
	{ 46, 52, 54 }, { 204, 0, 0 }, { 78, 154, 6 }, { 196, 160, 0 },
	{ 52, 101, 164 }, { 117, 80, 123 }, { 6, 152, 154 }, { 211, 215, 207 },
	{ 85, 87, 83 }, { 239, 41, 41 }, { 138, 226, 52 }, { 252, 233, 79 },
	{ 114, 159, 207 }, { 173, 127, 168 }, { 52, 226, 226 },
	{ 238, 238, 236 }
};
static const char *names16[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"brightblack", "brightred", "brightgreen", "brightyellow",
	"brightblue", "brightmagenta", "brightcyan", "brightwhite"
};

/* A bar: what lisa reads of it (status-style) and what it shows. */
struct bar {
	const char		*name;
	const char		*style;		/* status-style, expanded */
	const struct rgb	*palette;	/* the terminal's 16 */
	struct rgb		 bg;		/* under lisa's text */
	struct rgb		 fg;		/* the bar's own text */
};
static const struct bar bars[] = {
	{ "tmux default, xterm", "bg=green,fg=black", xterm16,
	  { 0, 205, 0 }, { 0, 0, 0 } },
	{ "tmux default, tango", "bg=green,fg=black", tango16,
	  { 78, 154, 6 }, { 46, 52, 54 } },
	/* lisa's catppuccin module: its text on module_text_bg (surface0). */
	{ "catppuccin mocha", "bg=#1e1e2e", xterm16,
	  { 0x31, 0x32, 0x44 }, { 0xcd, 0xd6, 0xf4 } },
	{ "catppuccin frappe", "bg=#303446", xterm16,
	  { 0x41, 0x45, 0x59 }, { 0xc6, 0xd0, 0xf5 } },
	{ "catppuccin macchiato", "bg=#24273a", xterm16,
	  { 0x36, 0x3a, 0x4f }, { 0xca, 0xd3, 0xf5 } },
	{ "catppuccin latte", "bg=#eff1f5", xterm16,
	  { 0xcc, 0xd0, 0xda }, { 0x4c, 0x4f, 0x69 } },
	{ "dracula", "bg=#44475a,fg=#f8f8f2", xterm16,
	  { 0x44, 0x47, 0x5a }, { 0xf8, 0xf8, 0xf2 } },
	/* nord-tmux: bg=black, which nord's terminal palette makes nord1. */
	{ "nord", "bg=black,fg=white", xterm16,
	  { 0x3b, 0x42, 0x52 }, { 0xd8, 0xde, 0xe9 } },
};
/* Borders: the terminal's background. */
static const struct bar border_bar = { "pane border (black)", "", xterm16,
	{ 0, 0, 0 }, { 229, 229, 229 } };

static int
colour_rgb(const char *c, size_t n, const struct rgb *palette,
    struct rgb *out)
{
	static const int	 cube[] = { 0, 95, 135, 175, 215, 255 };
	char			 s[32];
	unsigned int		 r, g, b;
	int			 i;

	if (n >= sizeof s)
		return (-1);
	memcpy(s, c, n);
	s[n] = '\0';
	if (strncmp(s, "colour", 6) == 0 || strncmp(s, "color", 5) == 0) {
		i = atoi(s + (s[5] == 'r' ? 6 : 5));
		if (i < 16)
			*out = palette[i];
		else if (i >= 232)
			out->r = out->g = out->b = 8 + 10 * (i - 232);
		else {
			i -= 16;
			out->r = cube[i / 36];
			out->g = cube[(i / 6) % 6];
			out->b = cube[i % 6];
		}
		return (0);
	}
	if (s[0] == '#' && sscanf(s + 1, "%2x%2x%2x", &r, &g, &b) == 3) {
		out->r = (int)r;
		out->g = (int)g;
		out->b = (int)b;
		return (0);
	}
	for (i = 0; i < 16; i++) {
		if (strcasecmp(s, names16[i]) == 0) {
			*out = palette[i];
			return (0);
		}
	}
	return (-1);
}

static double
channel(int v)
{
	double	c = v / 255.0;

	return (c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
}

static double
luminance(struct rgb c)
{
	return (0.2126 * channel(c.r) + 0.7152 * channel(c.g) +
	    0.0722 * channel(c.b));
}

static double
contrast(struct rgb a, struct rgb b)
{
	double	la = luminance(a), lb = luminance(b);

	return (la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) /
	    (la + 0.05));
}

/*
 * Walk a format's #[...] styles in order: every state lisa sets a colour
 * in (or reverses) must reach MIN_RATIO. Branches of a conditional are
 * walked one after the other; each sets its colours before its text and
 * returns to the default after, which the walk checks as it goes.
 */
static int
check_styles(const char *what, const char *fmt, const struct bar *bar,
    int *checked)
{
	const char	*p = fmt, *end, *a, *v, *start;
	struct rgb	 fg, bg, f, b, t;
	int		 has_fg = 0, has_bg = 0, reverse = 0, bad = 0;
	size_t		 n;
	double		 r;

	*checked = 0;

	while ((p = strstr(p, "#[")) != NULL) {
		start = p += 2;
		if ((end = strchr(p, ']')) == NULL)
			fail_msg("%s: unterminated style", what);
		for (a = p; a < end; a += n) {
			a += strspn(a, ", #");
			if (a >= end)
				break;
			/* An escaped comma is "#,": stop at either. */
			for (n = 0; a + n < end && a[n] != ',' && a[n] != ' ' &&
			    !(a[n] == '#' && a[n + 1] == ','); n++)
				;
			/* Every format starts at the bar's: pop is back there. */
			if ((n == 7 && strncmp(a, "default", 7) == 0) ||
			    (n == 11 && strncmp(a, "pop-default", 11) == 0))
				has_fg = has_bg = reverse = 0;
			else if (n == 7 && strncmp(a, "reverse", 7) == 0)
				reverse = 1;
			else if (n == 9 && strncmp(a, "noreverse", 9) == 0)
				reverse = 0;
			else if (n > 3 && (strncmp(a, "fg=", 3) == 0 ||
			    strncmp(a, "bg=", 3) == 0)) {
				v = a + 3;
				if (n - 3 == 7 && strncmp(v, "default", 7) == 0) {
					if (*a == 'f')
						has_fg = 0;
					else
						has_bg = 0;
				} else if (colour_rgb(v, n - 3, bar->palette,
				    *a == 'f' ? &fg : &bg) != 0)
					fail_msg("%s: colour %.*s unknown", what,
					    (int)(n - 3), v);
				else if (*a == 'f')
					has_fg = 1;
				else
					has_bg = 1;
			}
		}
		p = end + 1;
		if (!has_fg && !has_bg && !reverse)
			continue;	/* the bar's own */
		f = has_fg ? fg : bar->fg;
		b = has_bg ? bg : bar->bg;
		if (reverse) {
			t = f;
			f = b;
			b = t;
		}
		r = contrast(f, b);
		(*checked)++;
		if (r < MIN_RATIO) {
			print_message("%s on %s: #[%.*s] is (%d,%d,%d) on "
			    "(%d,%d,%d), %.2f:1\n", what, bar->name,
			    (int)(end - start), start, f.r, f.g, f.b, b.r, b.g,
			    b.b, r);
			bad++;
		}
	}
	return (bad);
}

static void
test_lisa_colours_read(void **state)
{
	struct ui_config	 cfg;
	struct buf		 b;
	struct ui_pane		 f;
	size_t			 i;
	int			 ascii, n, bad = 0, g, r;

	(void)state;
	buf_init(&b);
	for (ascii = 0; ascii < 2; ascii++) {
		for (i = 0; i < sizeof bars / sizeof bars[0]; i++) {
			ui_config_defaults(&cfg);
			cfg.ascii = ascii;
			cfg.light = uiformat_style_light(bars[i].style);
			buf_reset(&b);
			/* The status line: its error, and each group's item. */
			uiformat_status(&b, &cfg);
			/* (an item, its count, then @lisa_item_end) */
			for (g = 0; g < UI_NGROUPS; g++) {
				uiformat_item(&b, &cfg, g, 1);
				buf_adds(&b, "1#[default]");
			}
			uiformat_item(&b, &cfg, UI_ASKS, 0);
			buf_adds(&b, "1#[default]");
			bad += check_styles("status", b.data, &bars[i], &n);
			/* Every group and the error were checked. */
			assert_true(n >= UI_NGROUPS + 1);
			buf_reset(&b);
			uiformat_waiting(&b, &cfg);
			bad += check_styles("waiting", b.data, &bars[i], &n);
			assert_int_equal(n, cfg.light ? 1 : 0);
			buf_reset(&b);
			for (r = 0; r < 8; r++)
				uiformat_badge_icon(&b, &cfg, r);
			bad += check_styles("badge", b.data, &bars[i], &n);
			assert_true(n >= UI_NGROUPS);
			ui_config_free(&cfg);
		}
		ui_config_defaults(&cfg);
		cfg.ascii = ascii;
		cfg.light = 1;	/* a border is drawn dark whatever the bar */
		buf_reset(&b);
		/* A pane's @lisa in every state, the watchdog's mark on it. */
		for (r = 0; r < 8; r++) {
			memset(&f, 0, sizeof f);
			f.rank = r;
			f.group = r == 0 ? UI_ASKS : r == 1 ? UI_CRASHED :
			    r == 2 ? UI_STUCK : r == 3 ? UI_WAITING : r == 4 ?
			    UI_DEGRADED : r == 7 ? UI_DONE : UI_WORKING;
			f.agent = "claude";
			f.word = "word";
			f.watchdog = "warn";
			f.context = -1;
			uiformat_pane(&b, &cfg, &f, 1);
		}
		bad += check_styles("border", b.data, &border_bar, &n);
		/* Every state and the watchdog's mark. */
		assert_true(n >= UI_NGROUPS + 1);
		ui_config_free(&cfg);
	}
	buf_free(&b);
	assert_int_equal(bad, 0);
}

/* The check fails where it should: tmux's plain colours on the bars. */
static void
test_check_can_fail(void **state)
{
	static const struct {
		const char	*fmt;
		int		 bar;
	} weak[] = {
		{ "#[fg=colour22]x", 0 },	/* the old "done", xterm: 3.7 */
		{ "#[fg=colour90]x", 0 },	/* ... stuck, xterm: 4.1 */
		{ "#[fg=colour88]x", 1 },	/* ... crashed, tango: 2.9 */
		{ "#[reverse]x", 1 },		/* tango's black on its green */
	};
	size_t	 i;
	int	 n;
	double	 r;

	(void)state;
	for (i = 0; i < sizeof weak / sizeof weak[0]; i++) {
		assert_int_equal(check_styles("weak", weak[i].fmt,
		    &bars[weak[i].bar], &n), 1);
		assert_int_equal(n, 1);
	}
	/* The findings' numbers, as measured. */
	r = contrast(bars[0].bg, (struct rgb){ 0, 95, 0 });
	assert_true(r > 3.6 && r < 3.8);
	r = contrast(bars[1].bg, (struct rgb){ 0, 0, 0 });
	assert_true(r > 5.8 && r < 6.0);
	/* Red on black, the old border's watchdog mark: 3.6:1. */
	r = contrast(xterm16[1], border_bar.bg);
	assert_true(r < MIN_RATIO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lisa_colours_read),
		cmocka_unit_test(test_check_can_fail),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
