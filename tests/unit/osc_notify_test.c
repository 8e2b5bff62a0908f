/*
 * Terminal notification sequences: the right one per terminal, wrapped
 * for a tmux or screen in between, and no control character from a name
 * ever inside one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "osc-notify.h"

static char *
build(int kind, int wrap, const char *line, const char *title,
    const char *body)
{
	struct buf	b;

	buf_init(&b);
	nterm_build(&b, kind, wrap, 7, line, title, body);
	return (buf_detach(&b));
}

static void
test_parse(void **state)
{
	assert_int_equal(nterm_parse("off"), NTERM_OFF);
	assert_int_equal(nterm_parse("auto"), NTERM_AUTO);
	assert_int_equal(nterm_parse("on"), NTERM_AUTO);
	assert_int_equal(nterm_parse("osc9"), NTERM_OSC9);
	assert_int_equal(nterm_parse("osc777"), NTERM_OSC777);
	assert_int_equal(nterm_parse("osc99"), NTERM_OSC99);
	assert_int_equal(nterm_parse("osc8"), -1);
	assert_string_equal(nterm_name(NTERM_OSC777), "osc777");
}

static void
test_pick(void **state)
{
	int	wrap;

	/* XTVERSION's answer first, then TERM. */
	assert_int_equal(nterm_pick(NTERM_AUTO, "xterm-256color",
	    "iTerm2 3.5.4", &wrap), NTERM_OSC9);
	assert_int_equal(wrap, NTERM_DIRECT);
	assert_int_equal(nterm_pick(NTERM_AUTO, "xterm-kitty", "", &wrap),
	    NTERM_OSC99);
	assert_int_equal(nterm_pick(NTERM_AUTO, "xterm-256color",
	    "kitty(0.39.1)", &wrap), NTERM_OSC99);
	assert_int_equal(nterm_pick(NTERM_AUTO, "foot", "foot(1.20.2)", &wrap),
	    NTERM_OSC777);
	assert_int_equal(nterm_pick(NTERM_AUTO, "rxvt-unicode-256color", "",
	    &wrap), NTERM_OSC777);
	assert_int_equal(nterm_pick(NTERM_AUTO, "xterm-ghostty", "", &wrap),
	    NTERM_OSC9);
	assert_int_equal(nterm_pick(NTERM_AUTO, "xterm-256color",
	    "WezTerm 20240203", &wrap), NTERM_OSC9);
	/* Unknown: nothing (the Linux console prints what it cannot parse). */
	assert_int_equal(nterm_pick(NTERM_AUTO, "linux", "", &wrap), NTERM_OFF);
	assert_int_equal(nterm_pick(NTERM_AUTO, "xterm-256color", "XTerm(390)",
	    &wrap), NTERM_OFF);
	/* A tmux in between: OSC 9, wrapped. */
	assert_int_equal(nterm_pick(NTERM_AUTO, "screen-256color", "tmux 3.5a",
	    &wrap), NTERM_OSC9);
	assert_int_equal(wrap, NTERM_TMUX);
	assert_int_equal(nterm_pick(NTERM_AUTO, "tmux-256color", "", &wrap),
	    NTERM_OSC9);
	assert_int_equal(wrap, NTERM_TMUX);
	/* screen answers no XTVERSION. */
	nterm_pick(NTERM_AUTO, "screen.xterm-256color", "", &wrap);
	assert_int_equal(wrap, NTERM_SCREEN);
	/* A mode the user chose is kept, whatever the terminal. */
	assert_int_equal(nterm_pick(NTERM_OSC777, "linux", "", &wrap),
	    NTERM_OSC777);
	assert_int_equal(wrap, NTERM_DIRECT);
	assert_int_equal(nterm_pick(NTERM_OFF, "xterm-kitty", "", &wrap),
	    NTERM_OFF);
}

static void
test_sequences(void **state)
{
	char	*s;

	s = build(NTERM_OSC9, NTERM_DIRECT, "lisa: claude in w:1 waits",
	    "claude waits", "w:1");
	assert_string_equal(s, "\033]9;lisa: claude in w:1 waits\a");
	free(s);
	s = build(NTERM_OSC777, NTERM_DIRECT, "x", "claude; waits", "w:1 · a");
	assert_string_equal(s, "\033]777;notify;claude, waits;w:1 · a\a");
	free(s);
	/* base64 of "claude waits" and "w:1". */
	s = build(NTERM_OSC99, NTERM_DIRECT, "x", "claude waits", "w:1");
	assert_string_equal(s,
	    "\033]99;i=lisa7:d=0:e=1;Y2xhdWRlIHdhaXRz\033\\"
	    "\033]99;i=lisa7:d=1:e=1:p=body;dzox\033\\");
	free(s);
}

static void
test_wrapped(void **state)
{
	char	*s;

	s = build(NTERM_OSC9, NTERM_TMUX, "hi", "", "");
	assert_string_equal(s, "\033Ptmux;\033\033]9;hi\a\033\\");
	free(s);
	/* Two sequences, two wraps; every ESC inside doubled. */
	s = build(NTERM_OSC99, NTERM_TMUX, "", "a", "bc");
	assert_string_equal(s,
	    "\033Ptmux;\033\033]99;i=lisa7:d=0:e=1;YQ==\033\033\\\033\\"
	    "\033Ptmux;\033\033]99;i=lisa7:d=1:e=1:p=body;YmM=\033\033\\"
	    "\033\\");
	free(s);
	/* screen: no doubling, and BEL, as an ST would end its DCS. */
	s = build(NTERM_OSC99, NTERM_SCREEN, "", "a", "bc");
	assert_string_equal(s,
	    "\033P\033]99;i=lisa7:d=0:e=1;YQ==\a\033\\"
	    "\033P\033]99;i=lisa7:d=1:e=1:p=body;YmM=\a\033\\");
	free(s);
}

/* A session named with escapes cannot end the sequence or start one. */
static void
test_untrusted_text(void **state)
{
	char	*s, *p;

	s = build(NTERM_OSC9, NTERM_DIRECT,
	    "a\033]0;pwned\a\x9b\xc2\x9b\tb\xff\xe2\x82", "", "");
	assert_string_equal(s, "\033]9;a?]0;pwned???? b???\a");
	for (p = s + 1; p[1] != '\0'; p++)
		assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
	free(s);
	/* Capped, and never cut inside a character. */
	{
		char	long_text[600];
		size_t	i;

		for (i = 0; i + 2 < sizeof long_text; i += 2)
			memcpy(long_text + i, "\xc3\xa9", 2);
		long_text[i] = '\0';
		s = build(NTERM_OSC9, NTERM_DIRECT, long_text, "", "");
		assert_int_equal(strlen(s), 4 + NTERM_TEXT_MAX + 1);
		free(s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_sequences),
		cmocka_unit_test(test_wrapped),
		cmocka_unit_test(test_untrusted_text),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
