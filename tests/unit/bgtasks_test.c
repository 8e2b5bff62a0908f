/*
 * Background work from Claude Code's transcript: started by a tool_result,
 * ended by Claude's own <task-notification>; nothing else counts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "bgtasks.h"

/* As Claude Code 2.1.332 writes them (shortened). */
#define STARTED(id) \
	"{\"type\":\"user\",\"isSidechain\":false,\"message\":{\"role\":" \
	"\"user\",\"content\":[{\"tool_use_id\":\"toolu_1\",\"type\":" \
	"\"tool_result\",\"content\":\"Command running in background with " \
	"ID: " id ". Output is being written to: /tmp/x/" id ".output.\"," \
	"\"is_error\":false}]}}"
#define ENDED(id, status) \
	"{\"type\":\"user\",\"isSidechain\":false,\"message\":{\"role\":" \
	"\"user\",\"content\":\"<task-notification>\\n<task-id>" id \
	"</task-id>\\n<status>" status "</status>\\n<summary>Background " \
	"command completed (exit code 0)</summary>\\n</task-notification>\"}}"

static int
feed(struct bgtasks *b, const char *line)
{
	return (bgtasks_claude_line(b, line, strlen(line)));
}

static void
test_started_and_ended(void **state)
{
	struct bgtasks	b;

	bgtasks_init(&b);
	assert_int_equal(feed(&b, STARTED("buhct2kqs")), 1);
	assert_int_equal(feed(&b, STARTED("b2")), 1);
	assert_int_equal(b.n, 2);
	/* The same line read again changes nothing. */
	assert_int_equal(feed(&b, STARTED("b2")), 0);
	assert_int_equal(feed(&b, ENDED("buhct2kqs", "running")), 0);
	assert_int_equal(feed(&b, ENDED("buhct2kqs", "completed")), 1);
	assert_int_equal(b.n, 1);
	assert_string_equal(b.id[0], "b2");
	/* One we never saw start: nothing to end. */
	assert_int_equal(feed(&b, ENDED("other", "failed")), 0);
	assert_int_equal(feed(&b, ENDED("b2", "killed")), 1);
	assert_int_equal(b.n, 0);
}

static void
test_not_tasks(void **state)
{
	struct bgtasks	b;

	bgtasks_init(&b);
	/* The words in a typed prompt or an answer are not a task. */
	assert_int_equal(feed(&b, "{\"type\":\"user\",\"message\":{\"role\":"
	    "\"user\",\"content\":\"Command running in background with ID: "
	    "x1\"}}"), 0);
	assert_int_equal(feed(&b, "{\"type\":\"assistant\",\"message\":{"
	    "\"content\":[{\"type\":\"text\",\"text\":\"Command running in "
	    "background with ID: x2\"}]}}"), 0);
	/* A subagent's side chain is its own. */
	assert_int_equal(feed(&b, "{\"type\":\"user\",\"isSidechain\":true,"
	    "\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":"
	    "\"Command running in background with ID: x3.\"}]}}"), 0);
	assert_int_equal(b.n, 0);
	/* Broken JSON that names a task: refused, not counted. */
	assert_int_equal(feed(&b, "{\"content\":\"Command running in "
	    "background with ID: x4"), -1);
	/* An id that is not a short word. */
	assert_int_equal(feed(&b, STARTED("")), 0);
	assert_int_equal(feed(&b, STARTED("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")),
	    0);
	assert_int_equal(b.n, 0);
}

static void
test_bounded(void **state)
{
	struct bgtasks	b;
	char		line[1024];
	int		i;

	bgtasks_init(&b);
	for (i = 0; i < BGTASKS_MAX + 5; i++) {
		snprintf(line, sizeof line, "{\"type\":\"user\",\"message\":{"
		    "\"content\":[{\"type\":\"tool_result\",\"content\":"
		    "\"Command running in background with ID: t%d.\"}]}}", i);
		feed(&b, line);
	}
	assert_int_equal(b.n, BGTASKS_MAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_started_and_ended),
		cmocka_unit_test(test_not_tasks),
		cmocka_unit_test(test_bounded),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
