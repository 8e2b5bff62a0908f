/*
 * Claude Code's session file and transcript tail, as tables: what each
 * text means, and that garbage, cut lines and other processes' files
 * give no signal rather than a wrong one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "claude-file.h"

static void
test_session(void **state)
{
	static const struct {
		const char		*text;
		int			 rc;
		int			 stale;
		enum session_status	 status;
		const char		*id;
	} cases[] = {
		{ "{\"pid\":7,\"procStart\":\"99\",\"status\":\"busy\","
		  "\"sessionId\":\"abc\"}", 0, 0, SS_BUSY, "abc" },
		{ "{\"pid\":7,\"status\":\"idle\"}", 0, 0, SS_IDLE, "" },
		{ "{\"pid\":7,\"status\":\"waiting\"}", 0, 0, SS_WAITING, "" },
		/* 2.1.332: a turn over, a background shell running. */
		{ "{\"pid\":7,\"status\":\"shell\"}", 0, 0, SS_SHELL, "" },
		{ "{\"pid\":7}", 0, 0, SS_NONE, "" },
		{ "{\"pid\":7,\"procStart\":\"98\",\"status\":\"busy\"}",
		  0, 1, SS_NONE, "" },
		{ "{\"pid\":8,\"status\":\"busy\"}", -1, 0, SS_NONE, "" },
		{ "{\"pid\":\"7\",\"status\":\"busy\"}", -1, 0, SS_NONE, "" },
		{ "{\"pid\":7,\"status\":\"dancing\"}", -1, 0, SS_NONE, "" },
		{ "[7]", -1, 0, SS_NONE, "" },
		{ "{\"pid\":7,\"status\":\"bu", -1, 0, SS_NONE, "" },
		{ "\x7f" "ELF\x02\x01", -1, 0, SS_NONE, "" },
		{ "", -1, 0, SS_NONE, "" },
	};
	struct claude_session	 cs;
	char			*cause;
	size_t			 i;
	int			 rc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rc = claude_session_parse(cases[i].text, strlen(cases[i].text),
		    7, 99, &cs, &cause);
		if (rc != cases[i].rc || (rc == 0 &&
		    (cs.stale != cases[i].stale ||
		    cs.status != cases[i].status ||
		    strcmp(cs.id, cases[i].id) != 0)))
			fail_msg("case %zu: %s", i, cases[i].text);
		if ((rc != 0) != (cause != NULL))
			fail_msg("case %zu: cause", i);
		free(cause);
	}
}

#define U_GO "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":" \
	"\"text\",\"text\":\"go\"}]}}\n"
#define U_INT "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":" \
	"\"text\",\"text\":\"[Request interrupted by user]\"}]}}\n"
#define A_OK "{\"type\":\"assistant\",\"message\":{}}\n"
#define A_ERR "{\"type\":\"assistant\",\"isApiErrorMessage\":true}\n"
/* Claude 2.1.197 on HTTP 429, as it writes it. */
#define A_LIM "{\"type\":\"assistant\",\"isApiErrorMessage\":true," \
	"\"error\":\"rate_limit\",\"apiErrorStatus\":429}\n"
#define A_429 "{\"type\":\"assistant\",\"isApiErrorMessage\":true," \
	"\"apiErrorStatus\":429}\n"
#define DONE "{\"type\":\"system\",\"subtype\":\"turn_duration\"}\n"

static void
test_transcript(void **state)
{
	static const struct {
		const char		*text;
		int			 cut;
		enum transcript_event	 ev;
	} cases[] = {
		{ U_GO, 0, TX_WORKING },
		{ U_GO A_OK, 0, TX_WORKING },
		{ U_GO A_OK DONE, 0, TX_TURN_DONE },
		{ U_GO A_ERR DONE, 0, TX_API_ERROR },
		{ U_GO A_ERR, 0, TX_API_ERROR },
		{ U_GO A_LIM DONE, 0, TX_LIMIT },
		{ U_GO A_429, 0, TX_LIMIT },
		{ A_LIM U_GO, 0, TX_WORKING },
		{ U_GO U_INT DONE, 0, TX_INTERRUPTED },
		{ A_OK DONE "garbage\n{\"type\":", 0, TX_TURN_DONE },
		{ "{\"type\":\"summary\"}\n", 0, TX_NONE },
		/* A cut first line is not read, even if it parses. */
		{ A_ERR, 1, TX_NONE },
		{ A_ERR A_OK, 1, TX_WORKING },
		{ "", 0, TX_NONE },
		{ "\n\n\n", 0, TX_NONE },
	};
	size_t	i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (claude_transcript_tail(cases[i].text, strlen(cases[i].text),
		    cases[i].cut) != cases[i].ev)
			fail_msg("case %zu: %s", i, cases[i].text);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_transcript),
	};

	return (cmocka_run_group_tests_name("claude_file", tests, NULL, NULL));
}
