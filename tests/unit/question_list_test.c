/*
 * Dialogs whose options are not numbered (question-list.c): Continue's
 * CLI 1.5.47 (npm @continuedev/cli), captured from the real CLI on the
 * conformance mock (its box drawn 60 columns wide here, 120 there; the
 * note's line as it was): a list whose selection is a pointer, a tool's
 * and one of its own questions, a busy row turning over both.
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

static const char *cn_permission =
    "● #mock run touch lisa-perm\n"
    "\n"
    "● I will run the command now.\n"
    "\n"
    "\n"
    "○ Bash(touch lisa-perm)\n"
    "\n"
    " ⡯⡾⡯  ( 7s • esc to interrupt )\n"
    "╭──────────────────────────────────────────────────────────╮\n"
    "│                                                          │\n"
    "│  Bash(touch lisa-perm)                                   │\n"
    "│                                                          │\n"
    "│  ⎿ Will run: touch lisa-perm                             │\n"
    "│                                                          │\n"
    "│  Would you like to continue?                             │\n"
    "│                                                          │\n"
    "│  Note: Dangerous commands will be blocked regardless of your preference.│\n"
    "│                                                          │\n"
    "│  > Continue (tab)                                        │\n"
    "│    Continue + don't ask again (shift+tab)                │\n"
    "│    No, and tell Continue what to do differently (esc)    │\n"
    "│                                                          │\n"
    "╰──────────────────────────────────────────────────────────╯\n"
    "  /work                                       ◉ Continue CLI\n";

static const char *cn_question =
    "● #mock ask Which color?\n"
    "\n"
    "● I have a question.\n"
    "\n"
    "\n"
    "○ Ask Question(Which color?)\n"
    "\n"
    " ⣿⣿⣿  ( 3s • esc to interrupt )\n"
    "╭──────────────────────────────────────────────────────────╮\n"
    "│                                                          │\n"
    "│  ? Which color?                                          │\n"
    "│                                                          │\n"
    "│    ❯ Option A                                            │\n"
    "│      Option B                                            │\n"
    "│      (or start typing for custom answer)                 │\n"
    "│                                                          │\n"
    "│  ↑/↓ navigate, Enter select                              │\n"
    "│                                                          │\n"
    "╰──────────────────────────────────────────────────────────╯\n"
    "\n"
    "  /work                                       ◉ Continue CLI\n";

/*
 * open-codex 0.1.31 (npm open-codex, a fork of Codex's first, TypeScript
 * CLI), captured from the real CLI on the mock: its "$ CMD" in its box
 * over the question, each option its key in parentheses.
 */
static const char *ox_permission =
    "    I will run the command now.\n"
    "    command\n"
    "\n"
    "    $ touch lisa-perm\n"
    "\n"
    "╭──────────────────────────────────────────────────────────╮\n"
    "│Shell Command                                             │\n"
    "│                                                          │\n"
    "│$ touch lisa-perm                                         │\n"
    "│                                                          │\n"
    "│Allow command?                                            │\n"
    "│                                                          │\n"
    "│  ❯ Yes (y)                                               │\n"
    "│    Yes, always approve this exact command for this session (a)│\n"
    "│    Edit or give feedback (e)                             │\n"
    "│    No, and keep going (n)                                │\n"
    "│    No, and stop for now (esc)                            │\n"
    "╰──────────────────────────────────────────────────────────╯\n";


/* S with its first OLD replaced by NEW (a new string). */
static char *
replace(const char *s, const char *old, const char *new)
{
	const char	*at = strstr(s, old);
	size_t		 off, nlen = strlen(new), tail;
	char		*out;

	/* Built by hand: through xasprintf(&out), gcc -O3 took AT for OUT's. */
	assert_non_null(at);
	off = at - s;
	tail = strlen(s + off + strlen(old));
	out = xmalloc(off + nlen + tail + 1);
	memcpy(out, s, off);
	memcpy(out + off, new, nlen);
	memcpy(out + off + nlen, s + off + strlen(old), tail + 1);
	return (out);
}

static void
test_continue_permission(void **state)
{
	struct question	q = { 0 }, r = { 0 };
	char		key[16], *s, *t;

	(void)state;
	assert_int_equal(question_from_screen("permission", cn_permission,
	    &q), 0);
	assert_int_equal(q.noptions, 3);
	assert_string_equal(q.options[0], "Continue (tab)");
	assert_string_equal(q.options[1],
	    "Continue + don't ask again (shift+tab)");
	assert_string_equal(q.options[2],
	    "No, and tell Continue what to do differently (esc)");
	assert_int_equal(q.selected, 0);
	assert_string_equal(q.text, "Would you like to continue?");
	assert_string_equal(q.tool, "shell");
	assert_string_equal(q.subject, "touch lisa-perm");
	assert_int_equal(q.top_seen, 1);
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_int_equal(question_option_key(&q, "always", key, sizeof key),
	    1);
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	/* (a number is an option's place where none is drawn) */
	assert_int_equal(question_option_key(&q, "3", key, sizeof key), 2);
	assert_int_equal(question_option_key(&q, "4", key, sizeof key), -1);

	/* The pointer moved: the same dialog, the other one selected. */
	t = replace(cn_permission, "> Continue (tab)", "  Continue (tab)");
	s = replace(t, "  No, and tell", "> No, and tell");
	free(t);
	assert_int_equal(question_from_screen("permission", s, &r), 0);
	assert_int_equal(r.selected, 2);
	assert_string_equal(r.fingerprint, q.fingerprint);
	question_free(&r);
	free(s);

	/* Another command: another dialog. */
	s = replace(cn_permission, "  Bash(touch lisa-perm)",
	    "  Bash(touch lisa-perX)");
	assert_int_equal(question_from_screen("permission", s, &r), 0);
	assert_string_equal(r.subject, "touch lisa-perX");
	assert_string_not_equal(r.fingerprint, q.fingerprint);
	question_free(&r);
	free(s);
	question_free(&q);
}

static void
test_continue_question(void **state)
{
	struct question	q = { 0 }, r = { 0 };
	char		key[16], *s, *t;

	(void)state;
	assert_int_equal(question_from_screen("question", cn_question, &q),
	    0);
	assert_int_equal(q.noptions, 2);
	assert_string_equal(q.options[0], "Option A");
	assert_string_equal(q.options[1], "Option B");
	assert_int_equal(q.selected, 0);
	assert_string_equal(q.text, "Which color?");
	assert_string_equal(q.tool, "");
	assert_string_equal(q.subject, "");
	assert_int_equal(question_option_key(&q, "2", key, sizeof key), 1);
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key),
	    -1);

	/* Down: the pointer on B, the same dialog. */
	t = replace(cn_question, "\xe2\x9d\xaf Option A", "  Option A");
	s = replace(t, "  Option B", "\xe2\x9d\xaf Option B");
	free(t);
	assert_int_equal(question_from_screen("question", s, &r), 0);
	assert_int_equal(r.selected, 1);
	assert_string_equal(r.fingerprint, q.fingerprint);
	question_free(&r);
	free(s);
	question_free(&q);
}

static void
test_open_codex_permission(void **state)
{
	struct question	q = { 0 };
	char		key[16], *s;

	(void)state;
	assert_int_equal(question_from_screen("permission", ox_permission,
	    &q), 0);
	assert_int_equal(q.noptions, 5);
	assert_string_equal(q.options[0], "Yes (y)");
	assert_string_equal(q.options[4], "No, and stop for now (esc)");
	assert_int_equal(q.selected, 0);
	assert_string_equal(q.text, "Allow command?");
	assert_string_equal(q.tool, "shell");
	assert_string_equal(q.subject, "touch lisa-perm");
	assert_int_equal(q.top_seen, 1);
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "y");
	assert_int_equal(question_option_key(&q, "always", key, sizeof key),
	    1);
	assert_string_equal(key, "a");
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 3);
	assert_string_equal(key, "n");
	question_free(&q);

	/* The box's "$", not the conversation's over it. */
	s = replace(ox_permission, "    $ touch lisa-perm", "    $ rm -rf x");
	assert_int_equal(question_from_screen("permission", s, &q), 0);
	assert_string_equal(q.subject, "touch lisa-perm");
	question_free(&q);
	free(s);
}

/* A pointer alone, or one item: no list. */
static void
test_list_needs_two(void **state)
{
	struct question	q = { 0 };

	(void)state;
	assert_int_equal(question_from_screen("question",
	    "  ? Pick\n\n  > Only one\n\n  tips\n", &q), -1);
	question_free(&q);
	assert_int_equal(question_from_screen("question",
	    "  some output\n  > a shell prompt\n", &q), -1);
	question_free(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_continue_permission),
		cmocka_unit_test(test_continue_question),
		cmocka_unit_test(test_open_codex_permission),
		cmocka_unit_test(test_list_needs_two),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
