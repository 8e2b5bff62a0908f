/*
 * Gemini CLI's files: a limit is told from the chat log's error record
 * (lines as Gemini CLI 0.61.0 wrote them against the mock's daily-quota
 * 429), and projects.json names the project's directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "gemini-file.h"

#define META "{\"sessionId\":\"e93072e2-0294\",\"projectHash\":\"87ed\"," \
	"\"startTime\":\"2026-11-25T20:07:35.809Z\",\"lastUpdated\":" \
	"\"2026-11-25T20:07:35.809Z\",\"kind\":\"main\"}"
#define USER "{\"id\":\"979c6962\",\"timestamp\":\"2026-11-25T20:07:55.945Z\"," \
	"\"type\":\"user\",\"content\":[{\"text\":\"#mock limit 1 please\"}]}"
#define SET "{\"$set\":{\"lastUpdated\":\"2026-11-25T20:07:55.946Z\"}}"
#define LIMIT "{\"id\":\"a30f61a5\",\"timestamp\":\"2026-11-25T20:08:09.275Z\"," \
	"\"type\":\"error\",\"content\":\"[API Error: You have exhausted your " \
	"daily quota on this model.]\\nPlease wait and try again later.\"}"
#define INFO "{\"id\":\"5151c285\",\"timestamp\":\"2026-11-25T20:08:09.276Z\"," \
	"\"type\":\"info\",\"content\":\"This request failed. Press F12 for " \
	"diagnostics.\"}"
#define DROP "{\"id\":\"b1\",\"type\":\"error\",\"content\":\"Model stream " \
	"ended without a finish reason.\"}"
#define ANSWER "{\"id\":\"2da168f8\",\"type\":\"gemini\",\"content\":" \
	"\"Mock answer.\",\"tokens\":null,\"model\":\"gemini-3.8-flash\"}"

static enum transcript_event
ev(const char *line)
{
	return (gemini_chat_event(line, strlen(line)));
}

static void
test_chat_events(void **state)
{
	assert_int_equal(ev(META), TX_NONE);
	assert_int_equal(ev(SET), TX_NONE);
	assert_int_equal(ev(INFO), TX_NONE);
	assert_int_equal(ev(USER), TX_WORKING);
	assert_int_equal(ev(ANSWER), TX_WORKING);
	assert_int_equal(ev(LIMIT), TX_LIMIT);
	/* Another error is not a limit, and says the limit is past. */
	assert_int_equal(ev(DROP), TX_WORKING);
	/* The limit's words typed by someone are not a limit. */
	assert_int_equal(ev("{\"id\":\"u\",\"type\":\"user\",\"content\":"
	    "\"Usage limit reached\"}"), TX_WORKING);
	/* Broken or odd lines say nothing. */
	assert_int_equal(ev("{\"id\":\"x\",\"type\":\"error\""), TX_NONE);
	assert_int_equal(ev("{\"type\":\"error\",\"content\":\"Quota "
	    "exceeded\"}"), TX_NONE);
	assert_int_equal(ev("{\"id\":\"x\",\"type\":\"error\",\"content\":"
	    "[\"exhausted your daily quota\"]}"), TX_WORKING);
	assert_int_equal(ev("not json \"type\""), TX_NONE);
}

static void
test_project_id(void **state)
{
	const char	*json = "{\n  \"projects\": {\n    \"/tmp/gh/work\": "
			    "\"work\",\n    \"/a/b\": \"../x\",\n    \"/c\": "
			    "\"..\"\n  }\n}";
	char		 id[64];

	assert_int_equal(gemini_project_id(json, strlen(json), "/tmp/gh/work",
	    id, sizeof id), 0);
	assert_string_equal(id, "work");
	assert_int_equal(gemini_project_id(json, strlen(json), "/tmp/gh",
	    id, sizeof id), -1);
	/* Never a path out of Gemini's tmp directory. */
	assert_int_equal(gemini_project_id(json, strlen(json), "/a/b",
	    id, sizeof id), -1);
	assert_int_equal(gemini_project_id(json, strlen(json), "/c",
	    id, sizeof id), -1);
	assert_int_equal(gemini_project_id(json, strlen(json), "/tmp/gh/work",
	    id, 4), -1);
	assert_int_equal(gemini_project_id("{\"projects\":", 12, "/c", id,
	    sizeof id), -1);
}

static void
test_chat_head(void **state)
{
	const char	*line = "{\"sessionId\":\"69e98bf1-85cf\",\"projectHash\":"
			    "\"d2\",\"startTime\":\"2026-11-27T15:28:06.867Z\","
			    "\"kind\":\"main\"}";
	char		 id[64];
	int64_t		 start;

	assert_int_equal(gemini_chat_head(line, strlen(line), id, sizeof id,
	    &start), 0);
	assert_string_equal(id, "69e98bf1-85cf");
	assert_true(start == 1795793286867LL);
	/* No time, or not one: the id still; the start unknown. */
	line = "{\"sessionId\":\"a\",\"startTime\":\"now\"}";
	assert_int_equal(gemini_chat_head(line, strlen(line), id, sizeof id,
	    &start), 0);
	assert_true(start == 0);
	line = "{\"startTime\":\"2026-11-27T15:28:06Z\"}";
	assert_int_equal(gemini_chat_head(line, strlen(line), id, sizeof id,
	    &start), -1);
	assert_string_equal(id, "");
	assert_true(start == 1795793286000LL);
	/* An id too long for the space is no id; nor is a line cut short. */
	line = "{\"sessionId\":\"69e98bf1-85cf\"}";
	assert_int_equal(gemini_chat_head(line, strlen(line), id, 8, &start),
	    -1);
	assert_int_equal(gemini_chat_head(line, 10, id, sizeof id, &start), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chat_events),
		cmocka_unit_test(test_project_id),
		cmocka_unit_test(test_chat_head),
	};

	return (cmocka_run_group_tests_name("gemini_file", tests, NULL, NULL));
}
