/*
 * A question read off a screen that still shows an earlier turn (issue
 * 45): after a denied dialog, Claude Code's "⎿ Interrupted · What should
 * Claude do instead?" stays above the next question, and its '?' is not
 * that question's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"
#include "question.h"

static const char *claude_question_after_deny =
    "● Bash(touch x)\n"
    "  ⎿  Interrupted · What should Claude do instead?\n"
    "\n"
    "> \n"
    " ☐ Choice\n"
    "Pick one\n"
    "❯ 1. Option A\n"
    "  2. Option B\n"
    "Enter to select · ↑/↓ to navigate · Esc to cancel\n";

/* The same, the earlier turn's result right over the question. */
static const char *codex_after_result =
    "  ⎿  Is this the file you meant?\n"
    "Would you like to run the following command?\n"
    "$ touch y\n"
    "› 1. Yes, proceed (y)\n"
    "  3. No, and tell Codex what to do differently (esc)\n";

static void
test_question_after_deny(void **state)
{
	struct question	q;

	(void)state;
	assert_int_equal(question_from_screen("question",
	    claude_question_after_deny, &q), 0);
	assert_string_equal(q.text, "Pick one");
	assert_int_equal(q.noptions, 2);
	assert_string_equal(q.options[0], "1. Option A");
	question_free(&q);
	assert_int_equal(question_from_screen("permission",
	    codex_after_result, &q), 0);
	assert_string_equal(q.text,
	    "Would you like to run the following command?");
	assert_string_equal(q.subject, "touch y");
	question_free(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_question_after_deny),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
