/*
 * Cline CLI's session file and screens: text as Cline 3.0.65 wrote and
 * drew it against the scripted server (tests/agents/mock_chat.py) in
 * tmux: its state ("running", "pending" while a dialog waits, "idle"),
 * its id and directory; its dialogs, its busy row, its prompt, its
 * goodbye.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "agent.h"
#include "cline-file.h"

#define SESSION(status) "{\n  \"version\": 1,\n  \"session_id\": " \
	"\"1796098066592_d5jqd\",\n  \"source\": \"cli\",\n  \"pid\": 17202,\n" \
	"  \"started_at\": \"2026-12-01T04:07:46.599Z\",\n  \"exit_code\": " \
	"null,\n  \"status\": \"" status "\",\n  \"interactive\": true,\n" \
	"  \"provider\": \"openai-compatible\",\n  \"model\": \"mock-model\",\n" \
	"  \"cwd\": \"/work/try/cl2/work\",\n  \"workspace_root\": " \
	"\"/work/try/cl2/work\",\n  \"prompt\": \"<user_input mode=\\\"act\\\">" \
	"#mock run touch lisa-perm</user_input>\"\n}\n"

static int
parse(const char *text, struct cline_session *cs)
{
	return (cline_session_parse(text, strlen(text), cs));
}

static void
test_session(void **state)
{
	struct cline_session	cs;

	(void)state;
	assert_int_equal(parse(SESSION("running"), &cs), 0);
	assert_int_equal(cs.status, SS_BUSY);
	assert_string_equal(cs.id, "1796098066592_d5jqd");
	assert_string_equal(cs.cwd, "/work/try/cl2/work");
	assert_true(cs.started == 1796098066599LL);
	assert_int_equal(parse(SESSION("pending"), &cs), 0);
	assert_int_equal(cs.status, SS_WAITING);
	assert_int_equal(parse(SESSION("idle"), &cs), 0);
	assert_int_equal(cs.status, SS_IDLE);
	/* A run's ends are its prompt again; a word we do not know, none. */
	assert_int_equal(parse(SESSION("failed"), &cs), 0);
	assert_int_equal(cs.status, SS_IDLE);
	assert_int_equal(parse(SESSION("cancelled"), &cs), 0);
	assert_int_equal(cs.status, SS_IDLE);
	assert_int_equal(parse(SESSION("thinking"), &cs), 0);
	assert_int_equal(cs.status, SS_NONE);
	/* Not a session: no id, an id that is no id, half a file. */
	assert_int_equal(parse("{\"status\":\"running\"}", &cs), -1);
	assert_int_equal(parse("{\"session_id\":\"$(x) y\"}", &cs), -1);
	assert_int_equal(cline_session_parse(SESSION("idle"), 60, &cs), -1);
	assert_int_equal(parse("[]", &cs), -1);
	/* A cwd that is no absolute path is none. */
	assert_int_equal(parse("{\"session_id\":\"1796098066592_d5jqd\","
	    "\"cwd\":\"work\"}", &cs), 0);
	assert_string_equal(cs.cwd, "");
	assert_true(cs.started == 0);
}

struct screen_case {
	const char	*screen;
	unsigned	 want;
};

#define RULE "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\n"
#define FOOT " mock-model (100) $0.00                  \xe2\x97\x8b Plan " \
	"\xe2\x97\x8f Act (Tab)\n work\n Auto-approve all disabled (Shift+Tab)\n"

static const struct screen_case screens[] = {
	{ RULE "\xe2\x9d\xaf Ask anything...\n" RULE FOOT, SCREEN_PROMPT },
	{ " \xe2\x9d\xaf #mock error 500\n \xe2\xa0\xa6 Thinking... (esc to "
	  "cancel)\n" RULE "\xe2\x9d\xaf Ask anything...\n" RULE FOOT,
	  SCREEN_BUSY|SCREEN_PROMPT },
	{ " * I will run the command now.\n \xe2\xa0\xa7 run_commands(touch "
	  "lisa-perm)\n Cline needs permission\n Approve tool call?\n "
	  "run_commands\n   $ touch lisa-perm\n  [y] Approve   [n] Deny\n" FOOT,
	  SCREEN_PERMISSION|SCREEN_PROMPT },
	{ " * I have a question.\n \xe2\xa0\x8b ask_question(Which option?)\n"
	  " Cline is asking a question\n Which option?\n  > Option A\n    "
	  "Option B\n    Type a response...\n" FOOT,
	  SCREEN_QUESTION|SCREEN_PROMPT },
	{ " * Error: mock error 500\n" RULE "\xe2\x9d\xaf Ask anything...\n"
	  RULE FOOT, SCREEN_ERROR|SCREEN_PROMPT },
	{ "Session Summary\n  ID        1796098000767_lghl2\n  Continue  "
	  "cline --id 1796098000767_lghl2\nbash-5.2# \n", SCREEN_EXITED },
};

static void
test_screens(void **state)
{
	const struct agent_profile	*cl;
	size_t				 i;
	unsigned			 got;
	int				 sig;
	char				*cause = NULL;

	(void)state;
	assert_int_equal(agent_load("/nonexistent/agents.json", &cause), 0);
	cl = agent_by_name("cline");
	assert_non_null(cl);
	assert_true(cl->cline_files && cl->dialog_spinner);
	for (i = 0; i < sizeof screens / sizeof screens[0]; i++) {
		got = agent_screen(cl, screens[i].screen, &sig);
		if (got != screens[i].want)
			fail_msg("cline screen %zu: got %#x want %#x", i, got,
			    screens[i].want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_screens),
	};

	return (cmocka_run_group_tests_name("cline_file", tests, NULL, NULL));
}
