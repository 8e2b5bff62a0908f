/*
 * Run records: what lisa run writes reads back the same, and a record
 * whose id could not be ours (it names a file) is refused - the fuzzer
 * found ids of invalid UTF-8 that never settled through parse and write.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "run-record.h"

static void
test_roundtrip(void **state)
{
	const char	*text = "{\"id\":\"r1a2b3c4d\",\"name\":\"claude\","
	    "\"argv\":[\"claude\",\"--x\"],\"attempt\":2,\"pane\":\"%3\","
	    "\"exit_code\":3,\"lifecycle\":\"finished\"}";
	struct run	 r, r2;
	struct buf	 b;
	char		*cause = NULL;

	assert_int_equal(run_parse(text, strlen(text), &r, &cause), 0);
	assert_string_equal(r.id, "r1a2b3c4d");
	assert_int_equal(r.argc, 2);
	assert_int_equal(r.exit_code, 3);
	buf_init(&b);
	run_json(&b, &r);
	assert_int_equal(run_parse(b.data, b.len, &r2, &cause), 0);
	assert_string_equal(r2.argv[1], "--x");
	assert_string_equal(r2.pane, "%3");
	assert_int_equal(r2.attempt, 2);
	run_free(&r);
	run_free(&r2);
	buf_free(&b);
}

static void
test_bad_ids(void **state)
{
	static const char *ids[] = {
		"\"r\\u00e9\"", "\"r\xa0\xa0\"", "\"../x\"", "\"a/b\"", "\"\"",
		"\"r123456789012345678901234567890123\"", "\"r 1\"",
	};
	struct run	 r;
	char		*text, *cause;
	size_t		 i;

	for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		xasprintf(&text, "{\"id\":%s,\"argv\":[\"x\"]}", ids[i]);
		cause = NULL;
		if (run_parse(text, strlen(text), &r, &cause) == 0)
			fail_msg("id %s accepted", ids[i]);
		assert_non_null(cause);
		free(cause);
		free(text);
	}
	assert_true(run_id_valid("r1a2b3c4d"));
	assert_false(run_id_valid("../r1"));
	cause = NULL;
	assert_int_equal(run_read("/tmp", "../etc/passwd", &r, &cause), -1);
	assert_non_null(strstr(cause, "not a run id"));
	free(cause);
}

/*
 * A pane is %N or none. The fuzzer's: bytes that strlcpy into pane[16]
 * cut inside a character, so that writing never settled; and a quote
 * that the helper's respawn-pane -t '...' took as the end of its word.
 */
static void
test_bad_panes_dropped(void **state)
{
	static const char *panes[] = {
		"\"\xae\xae\xae\xf2\xae\xae\xae\xae\xae\xae\xae\xae\xae\xae\xae\xae\xae\xae\"",
		"\"%1' ; run-shell 'touch /tmp/x\"", "\"%\"", "\"3\"",
		"\"%12345678901\"", "\"%1 \"", "\"#{pane_id}\"",
	};
	struct run	 r, r2;
	struct buf	 b;
	char		*text, *cause = NULL;
	size_t		 i;

	for (i = 0; i < sizeof panes / sizeof panes[0]; i++) {
		xasprintf(&text, "{\"id\":\"r1\",\"argv\":[\"x\"],"
		    "\"pane\":%s}", panes[i]);
		if (run_parse(text, strlen(text), &r, &cause) != 0)
			fail_msg("record with pane %s refused: %s", panes[i],
			    cause);
		if (r.pane[0] != '\0')
			fail_msg("pane %s kept as '%s'", panes[i], r.pane);
		buf_init(&b);
		run_json(&b, &r);
		assert_int_equal(run_parse(b.data, b.len, &r2, &cause), 0);
		assert_string_equal(r2.pane, "");
		run_free(&r);
		run_free(&r2);
		buf_free(&b);
		free(text);
	}
	assert_true(run_pane_valid("%0"));
	assert_true(run_pane_valid("%123456789"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_bad_ids),
		cmocka_unit_test(test_bad_panes_dropped),
	};

	return (cmocka_run_group_tests_name("run", tests, NULL, NULL));
}
