/*
 * The classifier where an agent's own file or screen has a way of its own:
 * pi's failed tries withdrawn as it retries, Cline's spinner turning over
 * its dialogs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "classify.h"
#include "classify-base.h"

/*
 * pi writes a failed try as an error and withdraws it when it retries: an
 * error is the turn's end only once it has stood 500 ms, and the
 * classifier asks to be run again then. While it stands younger, a
 * retrying pane (its output going) is working; a screen at the prompt
 * left from before is not taken for its end either.
 */
static void
test_pi_error_settles(void **state)
{
	struct cls_input	in = { BASE, .pi_session = 1,
				    .transcript = TX_LIMIT,
				    .transcript_at = NOW - 100,
				    .last_output = NOW - 50 };
	struct cls_result	r;

	classify(&in, &r);
	assert_int_equal(r.state, ST_IN_PROGRESS);
	assert_true(r.recheck_at != 0 && r.recheck_at <= NOW - 100 + 500);
	in.transcript = TX_API_ERROR;
	classify(&in, &r);
	assert_int_equal(r.state, ST_IN_PROGRESS);
	/* Stood its 500 ms: the end, named as pi's. */
	in.transcript_at = NOW - 500;
	classify(&in, &r);
	assert_int_equal(r.state, ST_WAITING_INPUT);
	assert_string_equal(r.detail, "error");
	assert_string_equal(r.reason, "pi_session_api_error");
	in.transcript = TX_LIMIT;
	classify(&in, &r);
	assert_string_equal(r.reason, "pi_session_limit");
	/* Not pi: another agent's error is its end at once. */
	in.pi_session = 0;
	in.transcript_at = NOW - 100;
	classify(&in, &r);
	assert_string_equal(r.reason, "claude_transcript_limit");
}

/*
 * Cline's spinner turns over its dialogs, and its file says "running"
 * over a question: while it works its screen is read once a debounce, and
 * a dialog read since its file said so is a wait; an older read, or one
 * three debounces old, is not.
 */
static void
test_spinner_dialog(void **state)
{
	struct cls_input	in = { BASE, .cline_session = 1,
				    .session = SS_BUSY,
				    .session_at = NOW - 3000,
				    .last_output = NOW - 50,
				    .output_rate = 750 };
	struct cls_result	r;

	(void)state;
	classify(&in, &r);
	assert_int_equal(r.state, ST_IN_PROGRESS);
	assert_string_equal(r.reason, "cline_session_busy");
	in.dialog_spinner = 1;
	classify(&in, &r);
	assert_int_equal(r.state, ST_IN_PROGRESS);
	assert_true(r.want_capture);	/* never read: read it */
	in.screen = SCREEN_QUESTION|SCREEN_PROMPT;
	in.screen_at = NOW - 200;
	classify(&in, &r);
	assert_int_equal(r.state, ST_WAITING_INPUT);
	assert_string_equal(r.detail, "question");
	assert_string_equal(r.reason, "screen_dialog_spinner");
	assert_true(r.recheck_at == NOW - 200 + 1500);
	/* Read before the file said busy: that dialog is gone. */
	in.screen_at = NOW - 3500;
	classify(&in, &r);
	assert_int_equal(r.state, ST_IN_PROGRESS);
	assert_true(r.want_capture);
	/* Its file says it waits: the screen says for what. */
	in.session = SS_WAITING;
	in.screen = SCREEN_PERMISSION|SCREEN_PROMPT;
	in.screen_at = NOW - 100;
	classify(&in, &r);
	assert_string_equal(r.detail, "permission");
	assert_string_equal(r.reason, "cline_session_waiting");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pi_error_settles),
		cmocka_unit_test(test_spinner_dialog),
	};

	return (cmocka_run_group_tests_name("classify_agents", tests, NULL,
	    NULL));
}
