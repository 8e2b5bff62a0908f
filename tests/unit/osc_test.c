/* The output-stream scanner: sequences found whole, wherever chunks split. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "osc.h"
#include "util.h"

struct got {
	struct buf	log;	/* "N:payload|" per OSC, "BEL|", "p" prefix */
};

static void
on_ev(const struct osc_event *ev, void *arg)
{
	struct got	*g = arg;

	if (ev->passthrough)
		buf_addc(&g->log, 'p');
	if (ev->kind == OSC_EV_BEL)
		buf_adds(&g->log, "BEL|");
	else {
		buf_printf(&g->log, "%d:", ev->number);
		buf_add(&g->log, ev->payload, ev->len);
		buf_addc(&g->log, '|');
	}
}

/* Scan in one piece, then cut at every point: the result must not change. */
static void
expect(const char *in, const char *want)
{
	struct osc_scanner	sc;
	struct got		g;
	size_t			len = strlen(in), cut;

	buf_init(&g.log);
	osc_init(&sc);
	osc_scan(&sc, in, len, on_ev, &g);
	assert_string_equal(g.log.data != NULL ? g.log.data : "", want);
	for (cut = 1; cut < len; cut++) {
		buf_reset(&g.log);
		osc_init(&sc);
		osc_scan(&sc, in, cut, on_ev, &g);
		osc_scan(&sc, in + cut, len - cut, on_ev, &g);
		if (strcmp(g.log.data != NULL ? g.log.data : "", want) != 0)
			fail_msg("cut at %zu: got [%s] want [%s]", cut,
			    g.log.data, want);
	}
	buf_free(&g.log);
}

static void
test_titles(void **state)
{
	expect("\033]0;\xe2\x9c\xb3 Claude Code\007", "0:\xe2\x9c\xb3 Claude Code|");
	expect("\033]2;title\033\\", "2:title|");
	expect("text\033]0;\007more", "0:|");
	expect("\033]0;a\033]0;b\007", "0:b|");	/* first aborted */
	expect("\033]0;abc\030\033]0;d\007", "0:d|");	/* CAN aborts */
}

static void
test_codex_and_marks(void **state)
{
	expect("\033]7501;state=working:app=codex\033\\",
	    "7501:state=working:app=codex|");
	expect("\033]7501;state=blocked:app=codex:kind=permission\033\\x",
	    "7501:state=blocked:app=codex:kind=permission|");
	expect("\033]133;A\007$ \033]133;B\007ls\033]133;C\007out"
	    "\033]133;D;2\007", "133:A|133:B|133:C|133:D;2|");
	expect("\033]9;4;1;50\007", "9:4;1;50|");
	expect("\033]ab\007", "-1:ab|");
	expect("\033]7501\007", "7501:|");
}

static void
test_bel_and_passthrough(void **state)
{
	expect("ding\007dong", "BEL|");
	/* Claude iterm2 channel: OSC 9 inside tmux passthrough. */
	expect("\033Ptmux;\033\033]9;Claude needs your permission\007\033\\",
	    "p9:Claude needs your permission|");
	/* Gemini: OSC 777 in passthrough, then a bare BEL. */
	expect("\033Ptmux;\033\033]777;notify;Gemini CLI;Run finished\007"
	    "\033\\\007", "p777:notify;Gemini CLI;Run finished|BEL|");
	/* kitty, ST-terminated inside. */
	expect("\033Ptmux;\033\033]99;i=1:d=0:p=title;Claude Code"
	    "\033\033\\\033\\", "p99:i=1:d=0:p=title;Claude Code|");
	/* Another DCS (not tmux;): ignored, and it does not eat the rest. */
	expect("\033P1$r0m\033\\\033]0;t\007", "0:t|");
}

static void
test_skips_other_sequences(void **state)
{
	expect("\033[38;5;208mred\033[0m\033[?2004h\033(B\033=\033>",
	    "");
	/* A BEL inside a CSI-like junk does not count twice. */
	expect("\033[1;2\007", "BEL|");
	/* SOS/PM/APC strings are ignored to ST. */
	expect("\033_apc \007 text\033\\\033]0;x\007", "0:x|");
	/* UTF-8 and 0x7f-0xff in ground text are text. */
	expect("caf\xc3\xa9 \xe2\xa0\x82 \x7f", "");
}

static void
test_overflow_dropped(void **state)
{
	struct osc_scanner	sc;
	struct got		g;
	char			big[OSC_MAX + 64];

	buf_init(&g.log);
	osc_init(&sc);
	osc_scan(&sc, "\033]0;", 4, on_ev, &g);
	memset(big, 'x', sizeof big);
	osc_scan(&sc, big, sizeof big, on_ev, &g);
	osc_scan(&sc, "\007\033]0;ok\007", 8, on_ev, &g);
	assert_string_equal(g.log.data, "0:ok|");
	buf_free(&g.log);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_titles),
		cmocka_unit_test(test_codex_and_marks),
		cmocka_unit_test(test_bel_and_passthrough),
		cmocka_unit_test(test_skips_other_sequences),
		cmocka_unit_test(test_overflow_dropped),
	};

	return (cmocka_run_group_tests_name("osc", tests, NULL, NULL));
}
