/*
 * pi's files and screens: lines and screens as pi 1.6.0 wrote and drew
 * them against the scripted server (tests/agents/mock_chat.py) in tmux:
 * how a turn ended, a failed try it withdrew to retry, its session's
 * header and directory, its models.json window, its usage.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "agent.h"
#include "pi-file.h"
#include "usage.h"

#define HEAD "{\"type\":\"session\",\"version\":3,\"id\":" \
	"\"01a22fbc-a0a9-7716-8ff2-82c9dc97ae4e\",\"timestamp\":" \
	"\"2026-12-01T03:53:40.778Z\",\"cwd\":\"/work/try/pi2/work\"}"
#define MODEL "{\"type\":\"model_change\",\"id\":\"7c41d735\",\"parentId\":" \
	"null,\"timestamp\":\"2026-12-01T00:55:43.297Z\",\"provider\":" \
	"\"mock\",\"modelId\":\"mock-1\"}"
#define USER "{\"type\":\"message\",\"id\":\"6583139f\",\"parentId\":" \
	"\"3169a6b9\",\"timestamp\":\"2026-12-01T00:55:52.328Z\",\"message\":" \
	"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":" \
	"\"#mock slow 6\"}],\"timestamp\":1796086552321}}"
#define ANSWER(stop, in, out, err) "{\"type\":\"message\",\"id\":\"641271ef\"," \
	"\"parentId\":\"6583139f\",\"timestamp\":\"2026-12-01T00:55:58.493Z\"," \
	"\"message\":{\"role\":\"assistant\",\"content\":[],\"api\":" \
	"\"openai-completions\",\"provider\":\"mock\",\"model\":\"mock-1\"," \
	"\"usage\":{\"input\":" in ",\"output\":" out ",\"cacheRead\":0," \
	"\"cacheWrite\":0,\"reasoning\":0,\"totalTokens\":120,\"cost\":" \
	"{\"input\":0,\"output\":0,\"total\":0}},\"stopReason\":\"" stop "\"" \
	err ",\"timestamp\":1796086567178}}"
#define E500 ",\"errorMessage\":\"500: {\\\"message\\\":\\\"mock error " \
	"500\\\",\\\"type\\\":\\\"server_error\\\"}\""
#define E429 ",\"errorMessage\":\"429: {\\\"message\\\":\\\"Rate limit " \
	"reached for requests. Please try again in 30s.\\\",\\\"code\\\":" \
	"\\\"rate_limit_exceeded\\\"}\""
#define WITHDRAWN "{\"type\":\"context_edit\",\"id\":\"1a441ca0\"," \
	"\"parentId\":\"f047af4a\",\"timestamp\":\"2026-12-01T03:54:20.805Z\"," \
	"\"targetId\":\"f047af4a\",\"replacement\":null}"

static enum transcript_event
ev(const char *line)
{
	return (pi_session_event(line, strlen(line)));
}

static void
test_session_events(void **state)
{
	(void)state;
	assert_int_equal(ev(HEAD), TX_NONE);
	assert_int_equal(ev(MODEL), TX_NONE);
	assert_int_equal(ev(USER), TX_WORKING);
	assert_int_equal(ev(ANSWER("stop", "100", "20", "")), TX_TURN_DONE);
	assert_int_equal(ev(ANSWER("toolUse", "100", "20", "")), TX_WORKING);
	assert_int_equal(ev(ANSWER("aborted", "0", "0", "")), TX_INTERRUPTED);
	assert_int_equal(ev(ANSWER("error", "0", "0", E500)), TX_API_ERROR);
	assert_int_equal(ev(ANSWER("error", "0", "0", E429)), TX_LIMIT);
	/* The failed try withdrawn for a retry: working again. */
	assert_int_equal(ev(WITHDRAWN), TX_WORKING);
	/* Bad or cut lines say nothing. */
	assert_int_equal(ev("{\"type\":\"message\""), TX_NONE);
	assert_int_equal(pi_session_event(USER, 40), TX_NONE);
	assert_int_equal(ev("{\"type\":\"message\",\"message\":3}"), TX_NONE);
	assert_int_equal(ev("[\"type\"]"), TX_NONE);
}

static void
test_session_head(void **state)
{
	char	id[64], name[64];
	int64_t	start;

	(void)state;
	assert_int_equal(pi_session_head(HEAD, strlen(HEAD), id, sizeof id,
	    &start), 0);
	assert_string_equal(id, "01a22fbc-a0a9-7716-8ff2-82c9dc97ae4e");
	assert_true(start == 1796097220778LL);
	/* Not a header; an id that is no id; no room. */
	assert_int_equal(pi_session_head(USER, strlen(USER), id, sizeof id,
	    &start), -1);
	assert_string_equal(id, "");
	assert_int_equal(pi_session_head("{\"type\":\"session\",\"id\":"
	    "\"$(x)\"}", 30, id, sizeof id, &start), -1);
	assert_int_equal(pi_session_head(HEAD, strlen(HEAD), id, 8, &start),
	    -1);

	pi_session_dir_name("/work/try/pi2/work", name, sizeof name);
	assert_string_equal(name, "--work-try-pi2-work--");
	pi_session_dir_name("/a:b\\c", name, sizeof name);
	assert_string_equal(name, "--a-b-c--");
	pi_session_dir_name("/", name, sizeof name);
	assert_string_equal(name, "----");
	pi_session_dir_name("/abcdef", name, 10);
	assert_string_equal(name, "");
}

static void
test_models_window(void **state)
{
	const char	*m = "{\"providers\":{\"local\":{\"baseUrl\":\"x\","
	    "\"models\":[{\"id\":\"other\",\"contextWindow\":8000},{\"id\":"
	    "\"mock-1\",\"contextWindow\":200000,\"cost\":{\"input\":1}}]}}}";

	(void)state;
	assert_true(pi_models_window(m, strlen(m), "mock-1") == 200000);
	assert_true(pi_models_window(m, strlen(m), "other") == 8000);
	assert_true(pi_models_window(m, strlen(m), "none") == 0);
	assert_true(pi_models_window(m, strlen(m), "") == 0);
	assert_true(pi_models_window("{\"providers\":[]}", 16, "x") == 0);
	assert_true(pi_models_window(m, 20, "mock-1") == 0);
}

static void
test_usage(void **state)
{
	struct usage	u;
	const char	*l;

	(void)state;
	usage_init(&u);
	l = ANSWER("stop", "150000", "20", "");
	assert_int_equal(usage_pi_line(&u, l, strlen(l)), 1);
	assert_true(u.context == 150000);
	assert_true(u.total[USAGE_OUTPUT] == 20);
	assert_string_equal(u.model, "mock-1");
	/* A failed try used nothing: not the context's word. */
	l = ANSWER("error", "0", "0", E500);
	assert_int_equal(usage_pi_line(&u, l, strlen(l)), 0);
	assert_true(u.context == 150000);
	assert_int_equal(usage_pi_line(&u, USER, strlen(USER)), 0);
	l = ANSWER("stop", "-5", "20", "");
	assert_int_equal(usage_pi_line(&u, l, strlen(l)), -1);
}

struct screen_case {
	const char	*screen;
	unsigned	 want;
};

#define RULE "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\n"
#define FOOT "/work/try/pi2/work\n\xe2\x86\x91" "300 \xe2\x86\x93" "60 " \
	"0.7%/200k (auto)                        mock-1\n"

/* pi's screens (the lines above its input box, and its footer). */
static const struct screen_case screens[] = {
	{ RULE RULE FOOT, SCREEN_PROMPT },
	{ "0.0%/200k (auto)                mock-1\n", SCREEN_PROMPT },
	{ " lisa conformance filler text\n\xe2\x94\x80\xe2\x94\x80 \xe2\xa0\xbc"
	  " Working \xe2\x94\x80\xe2\x94\x80\n" RULE FOOT,
	  SCREEN_BUSY|SCREEN_PROMPT },
	{ " $ sleep 6\n Elapsed 2.0s\n\xe2\x94\x80\xe2\x94\x80 \xe2\xa0\xa7"
	  " Working \xe2\x94\x80\n" RULE FOOT,
	  SCREEN_TOOL|SCREEN_BUSY|SCREEN_PROMPT },
	{ " $ sleep 6\n (no output)\n Took 6.0s\n" RULE RULE FOOT,
	  SCREEN_PROMPT },
	{ " Error: 500: {\"message\":\"mock error 500\"}\n\xe2\x94\x80\xe2\x94"
	  "\x80 \xe2\xa0\x87 Retrying (1/3) in 1s... (escape to cancel) \xe2"
	  "\x94\x80\n" RULE FOOT, SCREEN_RETRYING|SCREEN_PROMPT },
	{ " #mock stall\n Operation aborted\n" RULE RULE FOOT,
	  SCREEN_INTERRUPTED|SCREEN_PROMPT },
	{ RULE FOOT "To resume this session:\npi --session 01a22fbc-a0a9-7716"
	  "\nbash-5.2# \n", SCREEN_EXITED|SCREEN_PROMPT },
	{ " Trust project folder?\n /work/x\n", SCREEN_TRUST },
	/* What a model writes is not pi's own row. */
	{ " I am Working on it; Retrying (1/3) in 2s\n", 0 },
};

static void
test_screens(void **state)
{
	const struct agent_profile	*pi;
	size_t				 i;
	unsigned			 got;
	int				 sig;

	(void)state;
	char				*cause = NULL;

	assert_int_equal(agent_load("/nonexistent/agents.json", &cause), 0);
	pi = agent_by_name("pi");
	assert_non_null(pi);
	assert_true(pi->pi_files);
	for (i = 0; i < sizeof screens / sizeof screens[0]; i++) {
		got = agent_screen(pi, screens[i].screen, &sig);
		if (got != screens[i].want)
			fail_msg("pi screen %zu: got %#x want %#x", i, got,
			    screens[i].want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_events),
		cmocka_unit_test(test_session_head),
		cmocka_unit_test(test_models_window),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_screens),
	};

	return (cmocka_run_group_tests_name("pi_file", tests, NULL, NULL));
}
