/*
 * The formats lisa hands to tmux: escaping of the user's text, option
 * validation, and a structural check of every format built - braces
 * balanced and every conditional with its two branches, under the rules
 * tmux's own format_skip() uses ('#' escapes ",#{}:"). What they look like
 * on screen is in tests/integration/test-ui.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"
#include "ui-format.h"
#include "testlib.h"

/* Skip to the end of a #{...} starting at s[0] == '#', s[1] == '{'. */
static const char *
skip_block(const char *s)
{
	int	depth = 0;

	for (; *s != '\0'; s++) {
		if (s[0] == '#' && s[1] == '{') {
			depth++;
			s++;
			continue;
		}
		if (s[0] == '#' && s[1] != '\0' && strchr(",#}:", s[1]) != NULL) {
			s++;
			continue;
		}
		if (*s == '}' && --depth == 0)
			return (s);
	}
	return (NULL);
}

/* Top-level commas of a conditional's body ("?cond,a,b"). */
static int
commas(const char *body, size_t len)
{
	const char	*p = body, *end = body + len, *q;
	int		 n = 0;

	for (; p < end; p++) {
		if (p[0] == '#' && p + 1 < end && p[1] == '{') {
			q = skip_block(p);
			assert_non_null(q);
			p = q;
			continue;
		}
		if (p[0] == '#' && p + 1 < end && strchr(",#}:", p[1]) != NULL) {
			p++;
			continue;
		}
		if (*p == ',')
			n++;
	}
	return (n);
}

/* Every #{ closes, and every #{?...} has a condition and two branches. */
static void
check_format(const char *f)
{
	const char	*p, *end;

	for (p = f; *p != '\0'; p++) {
		if (p[0] == '#' && p[1] == '{') {
			end = skip_block(p);
			if (end == NULL)
				fail_msg("unbalanced at: %s", p);
			if (p[2] == '?' && commas(p + 3, (size_t)(end - p - 3)) < 2)
				fail_msg("conditional without branches: %.*s",
				    (int)(end - p + 1), p);
			continue;
		}
		if (p[0] == '#' && p[1] != '\0')
			p++;
	}
}

static void
test_escape(void **state)
{
	struct buf	b;

	buf_init(&b);
	uiformat_escape(&b, "a#b,c}d #[fg=red]");
	assert_string_equal(b.data, "a##b#,c#}d ##[fg=red]");
	buf_free(&b);
}

static void
test_replace(void **state)
{
	char	*s;

	s = uiformat_replace("x #{lisa_status} y #{lisa_status}",
	    "#{lisa_status}", "Z");
	assert_string_equal(s, "x Z y Z");
	free(s);
	s = uiformat_replace("none here", "#{lisa_status}", "Z");
	assert_string_equal(s, "none here");
	free(s);
	s = uiformat_replace("abc", "", "Z");
	assert_string_equal(s, "abc");
	free(s);
}

static void
test_config(void **state)
{
	struct ui_config	cfg;

	ui_config_defaults(&cfg);
	assert_int_equal(ui_config_set(&cfg, "@lisa-color-waiting", "#ff8800"),
	    0);
	assert_int_equal(ui_config_set(&cfg, "@lisa-color-waiting", "red,bold"),
	    -1);
	assert_int_equal(ui_config_set(&cfg, "@lisa-color-waiting",
	    "red]#[bg=blue"), -1);
	assert_int_equal(ui_config_set(&cfg, "@lisa-colour-crashed",
	    "colour196"), 0);
	assert_string_equal(cfg.color[UI_CRASHED], "colour196");
	assert_int_equal(ui_config_set(&cfg, "@lisa-status-order",
	    "crashed, waiting crashed"), 0);
	assert_int_equal(cfg.norder, 2);
	assert_int_equal(cfg.order[0], UI_CRASHED);
	assert_int_equal(cfg.order[1], UI_WAITING);
	assert_int_equal(ui_config_set(&cfg, "@lisa-status-order", "nope"), -1);
	assert_int_equal(cfg.norder, 2);
	assert_int_equal(ui_config_set(&cfg, "@lisa-window-badge", "maybe"),
	    -1);
	assert_int_equal(ui_config_set(&cfg, "@lisa-window-badge", "off"), 0);
	assert_int_equal(cfg.window_badge, 0);
	assert_int_equal(ui_config_set(&cfg, "@lisa-grace", "1"), 1);
	assert_int_equal(ui_config_set(&cfg, "@lisa-icon-nosuch", "x"), 1);
	ui_config_free(&cfg);
}

static void
test_groups(void **state)
{
	assert_int_equal(ui_group_of(ST_IN_PROGRESS), UI_WORKING);
	assert_int_equal(ui_group_of(ST_JUST_STARTED), UI_WORKING);
	assert_int_equal(ui_group_of(ST_WAITING_INPUT), UI_WAITING);
	assert_int_equal(ui_group_of(ST_COMPLETED), UI_DONE);
	assert_int_equal(ui_group_of(ST_NONE), -1);
	assert_int_equal(ui_group_of(ST_NOT_FOUND), -1);
	assert_int_equal(ui_group_find("stuck"), UI_STUCK);
	assert_string_equal(ui_group_name(UI_DEGRADED), "degraded");

	/* Two kinds of waiting: a dialog (read or not yet) asks. */
	assert_int_equal(ui_group_of_verdict(ST_WAITING_INPUT, "permission"),
	    UI_ASKS);
	assert_int_equal(ui_group_of_verdict(ST_WAITING_INPUT, "question"),
	    UI_ASKS);
	assert_int_equal(ui_group_of_verdict(ST_WAITING_INPUT, "limit"),
	    UI_ASKS);
	assert_int_equal(ui_group_of_verdict(ST_WAITING_INPUT, ""), UI_ASKS);
	assert_int_equal(ui_group_of_verdict(ST_WAITING_INPUT, "prompt"),
	    UI_WAITING);
	assert_int_equal(ui_group_of_verdict(ST_WAITING_INPUT, "error"),
	    UI_WAITING);
	assert_int_equal(ui_group_of_verdict(ST_CRASHED, "permission"),
	    UI_CRASHED);
	assert_string_equal(ui_verdict_word(ST_WAITING_INPUT, "trust"), "asks");
	assert_string_equal(ui_verdict_word(ST_WAITING_INPUT, "prompt"),
	    "your turn");
	assert_int_equal(ui_group_find("asks"), UI_ASKS);
	/* Worst first: asks, crashed, stuck, then your turn. */
	assert_true(UI_ASKS < UI_CRASHED && UI_CRASHED < UI_STUCK &&
	    UI_STUCK < UI_WAITING);
}

static void
test_natural_order(void **state)
{
	assert_true(ui_natcmp("b2", "b10") < 0);
	assert_true(ui_natcmp("b10", "b2") > 0);
	assert_true(ui_natcmp("b19", "b2") > 0);
	assert_true(ui_natcmp("b02", "b2") == 0);
	assert_true(ui_natcmp("b2", "b2x") < 0);
	assert_true(ui_natcmp("a:9", "a:10") < 0);
	assert_true(ui_natcmp("api", "web") < 0);
	assert_true(ui_natcmp("", "a") < 0);
	assert_int_equal(ui_natcmp("same", "same"), 0);
	/* A number longer than any integer is still compared by its digits. */
	assert_true(ui_natcmp("x123456789012345678901", "x99") > 0);
}

static void
test_status_format(void **state)
{
	struct ui_config	cfg;
	struct buf		b;

	ui_config_defaults(&cfg);
	buf_init(&b);
	uiformat_status(&b, &cfg);
	check_format(b.data);
	/* Every agent's letter read once, put into a format of the items
	 * (agents that ask first) by a substitution whose replacement is
	 * expanded twice; the separator before the first item goes. */
	assert_non_null(strstr(b.data, "#{s/^ //:#{?@lisa_down,,"
	    "#{E:#{s|^(.*)$|####{?####{n#{l:;}s/[^a]//#{l:;}l#{l::}\\1###}###,"
	    "####{E#{l::}@lisa_item_asks###}"));
	assert_non_null(strstr(b.data, "#[push-default]"));
	buf_reset(&b);
	uiformat_item(&b, &cfg, UI_ASKS, 1);
	check_format(b.data);
	assert_string_equal(b.data, " #[fg=colour16#,bg=colour220]\u2691 ");

	/* Hostile icons and separators stay text. */
	ui_config_set(&cfg, "@lisa-icon-working", "a,}#{b}");
	ui_config_set(&cfg, "@lisa-status-separator", " | ,/");
	buf_reset(&b);
	uiformat_item(&b, &cfg, UI_WORKING, 1);
	check_format(b.data);
	assert_non_null(strstr(b.data, "a#,#}##{b#}"));
	assert_true(strncmp(b.data, " | #,/#[", 8) == 0);
	buf_reset(&b);
	uiformat_status(&b, &cfg);
	check_format(b.data);
	/* (a delimiter the separator has not, the regex's own escaped) */
	assert_non_null(strstr(b.data, "#{s!^ \\| #,/!!:"));
	/* (the chip alone, for #{lisa_asks}: no separator) */
	buf_reset(&b);
	uiformat_item(&b, &cfg, UI_ASKS, 0);
	assert_true(strncmp(b.data, "#[fg=colour16#,", 15) == 0);

	cfg.ascii = 1;
	free(cfg.icon[UI_WORKING]);
	cfg.icon[UI_WORKING] = NULL;
	buf_reset(&b);
	uiformat_item(&b, &cfg, UI_WORKING, 1);
	check_format(b.data);
	assert_non_null(strstr(b.data, "#[fg=colour81]> "));
	buf_free(&b);
	ui_config_free(&cfg);
}

static void
test_badge_and_border(void **state)
{
	struct ui_config	cfg;
	struct ui_pane		f;
	struct buf		b;
	const char		*def = "#I:#W#{?window_flags,#{window_flags}, }";

	ui_config_defaults(&cfg);
	buf_init(&b);
	/* tmux's default format: the trailing space gives way to a badge. */
	assert_int_equal(uiformat_badge(&b, def), 1);
	check_format(b.data);
	assert_true(strncmp(b.data, "#I:#W#{?window_flags,#{window_flags},}"
	    "#{E:##{E:@lisa_badge_#{?#{==:#{window_panes},1},", 84) == 0);
	buf_reset(&b);
	assert_int_equal(uiformat_badge(&b, "#W"), 0);
	check_format(b.data);
	assert_true(strncmp(b.data, "#W#{E:##{E:@lisa_badge_", 23) == 0);
	buf_reset(&b);
	uiformat_badge_icon(&b, &cfg, 0);
	check_format(b.data);
	assert_non_null(strstr(b.data, "#{?@lisa_down,?,#[fg=colour16#,"));

	/* The user's border format is the other branch, untouched. */
	buf_reset(&b);
	uiformat_border(&b, &cfg, "#{pane_index}, #{pane_title}");
	check_format(b.data);
	assert_non_null(strstr(b.data, "#{E:@lisa}"));
	assert_non_null(strstr(b.data, ",#{pane_index}, #{pane_title}}"));

	/* A pane's @lisa: the hidden head, then the border's text, the
	 * agent's words shown as text ("#(" never runs, "%" stays one). */
	memset(&f, 0, sizeof f);
	f.rank = 0;
	f.group = UI_ASKS;
	f.agent = "claude";
	f.state = "waiting_input";
	f.word = "your turn";
	f.detail = "permission";
	f.asks = "touch #(x) #[bg=red]##[y] 5%";
	f.since = 1000;
	f.context = 42;
	buf_reset(&b);
	uiformat_pane(&b, &cfg, &f, 1);
	check_format(b.data);
	assert_true(strncmp(b.data, "#{?,aa|claude|waiting_input|permission"
	    "||42|,}#[push-default] claude \u00b7 ", 60) == 0);
	assert_non_null(strstr(b.data,
	    "touch ####(x) ##[bg=red]####[y] 5%%"));
	assert_non_null(strstr(b.data, "#{e|-:%s,1000}"));
	assert_non_null(strstr(b.data, " \u00b7 42%%"));
	/* A name holding the head's own characters cannot shift a field. */
	f.agent = "a|b,#{c}%";
	buf_reset(&b);
	uiformat_pane(&b, &cfg, &f, 0);
	assert_string_equal(b.data,
	    "#{?,aa|a_b___c__|waiting_input|permission||42|,}");
	/* A pane that shows a remote agent: the head only. */
	f.agent = NULL;
	f.rank = 3;
	buf_reset(&b);
	uiformat_pane(&b, &cfg, &f, 1);
	assert_true(strncmp(b.data, "#{?,dr|", 7) == 0);
	assert_null(strstr(b.data, "push-default"));
	buf_free(&b);
	ui_config_free(&cfg);
}

/*
 * #{lisa_waiting}: one loop over the windows; a session name's '#'s
 * doubled once more where tmux's #{l:} halves them (3.4 and later).
 */
static void
test_places_format(void **state)
{
	struct ui_config	cfg;
	struct buf		b;

	ui_config_defaults(&cfg);
	buf_init(&b);
	uiformat_places(&b, &cfg);
	check_format(b.data);
	assert_null(strstr(b.data, "s/####/########/"));
	assert_non_null(strstr(b.data, "#{E:#{s/[#}%%]/_/;s|^(.*)$|"));
	assert_non_null(strstr(b.data, ".#{q/h:session_name}:"));
	/* (the whole: one loop over the windows, not one a group) */
	assert_non_null(strstr(b.data, "#{S:#{W:"));
	assert_null(strstr(strstr(b.data, "#{S:#{W:") + 1, "#{S:#{W:"));
	cfg.literal_unescapes = 1;
	buf_reset(&b);
	uiformat_places(&b, &cfg);
	check_format(b.data);
	assert_non_null(strstr(b.data,
	    "#{E:#{s/####/########/;s/[#}%%]/_/;s|^(.*)$|"));
	buf_free(&b);
	ui_config_free(&cfg);
}

static void
test_word_in(void **state)
{
	const char	*l = "main:1 work:12 x:3";

	assert_true(ui_word_in(l, strlen(l), "main:1"));
	assert_true(ui_word_in(l, strlen(l), "x:3"));
	assert_false(ui_word_in(l, strlen(l), "work:1"));
	assert_false(ui_word_in(l, strlen(l), "main"));
	assert_false(ui_word_in("", 0, "a"));
	assert_false(ui_word_in(NULL, 0, "a"));	/* an empty struct buf */
}

/* Colours that read on the status bar: tmux's default green is light. */
static void
test_light_status_bar(void **state)
{
	struct ui_config	cfg;
	struct ui_pane		f;
	struct buf		b;

	(void)state;
	assert_true(uiformat_style_light("bg=green,fg=black"));
	assert_true(uiformat_style_light("fg=black,bg=colour231"));
	assert_true(uiformat_style_light("bg=#d0d0d0"));
	assert_true(uiformat_style_light("bg=colour2"));
	assert_false(uiformat_style_light("bg=colour236,fg=colour250"));
	assert_false(uiformat_style_light("bg=default"));
	assert_false(uiformat_style_light("fg=white"));
	assert_false(uiformat_style_light(""));
	assert_false(uiformat_style_light(NULL));
	assert_false(uiformat_style_light("bg=#1e1e2e"));
	assert_false(uiformat_style_light("bg=green,bg=black"));

	ui_config_defaults(&cfg);
	cfg.light = 1;
	buf_init(&b);
	uiformat_item(&b, &cfg, UI_WORKING, 1);
	assert_null(strstr(b.data, "fg=colour81"));
	assert_non_null(strstr(b.data, "#[fg=colour16]"));
	/* Borders are on the terminal's background: the dark palette. */
	memset(&f, 0, sizeof f);
	f.group = UI_WORKING;
	f.rank = 5;
	f.agent = "claude";
	f.word = "working";
	f.context = -1;
	buf_reset(&b);
	uiformat_pane(&b, &cfg, &f, 1);
	assert_non_null(strstr(b.data, "fg=colour81"));
	/* The user's own colour wins over either palette. */
	assert_int_equal(ui_config_set(&cfg, "@lisa-color-asks", "yellow"), 0);
	buf_reset(&b);
	uiformat_item(&b, &cfg, UI_ASKS, 1);
	assert_non_null(strstr(b.data, "#[fg=yellow]"));
	assert_null(strstr(b.data, "colour220"));
	buf_free(&b);
	ui_config_free(&cfg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_natural_order),
		cmocka_unit_test(test_status_format),
		cmocka_unit_test(test_badge_and_border),
		cmocka_unit_test(test_word_in),
		cmocka_unit_test(test_light_status_bar),
		cmocka_unit_test(test_places_format),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
