/* JSON: output stays valid whatever bytes go in; bad input is an error. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"

static void
expect_str(const char *in, size_t len, const char *want)
{
	struct buf	b;

	buf_init(&b);
	json_str(&b, in, len);
	assert_string_equal(b.data, want);
	buf_free(&b);
}

static void
test_write(void **state)
{
	expect_str("plain", 5, "\"plain\"");
	expect_str("q\"b\\", 4, "\"q\\\"b\\\\\"");
	expect_str("\n\t\001\x7f", 4, "\"\\n\\t\\u0001\\u007f\"");
	expect_str("\xe2\x9c\xb3 ok", 6, "\"\xe2\x9c\xb3 ok\"");
	/* Invalid UTF-8: lone continuation, truncated, overlong, surrogate. */
	expect_str("\x80", 1, "\"\\ufffd\"");
	expect_str("a\xe2\x9c", 3, "\"a\\ufffd\\ufffd\"");
	expect_str("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"");
	expect_str("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"");
	expect_str("\0", 1, "\"\\u0000\"");
}

static void
test_read(void **state)
{
	const char	*text = "{\"cmd\":\"hook\",\"nested\":{\"a\":[1,{\"b\":2}]},"
			    "\"args\":[\"%3\",\"7\",\"\"],\"n\":-42,\"t\":true,"
			    "\"s\":\"caf\\u00e9 \\ud83d\\ude00 \\n\"}";
	struct json_doc	*d;
	char		*cause = NULL, *s;
	long long	 n;
	int		 args, b;

	d = json_parse(text, strlen(text), &cause);
	assert_non_null(d);
	s = json_get_str(d, 0, "cmd");
	assert_string_equal(s, "hook");
	free(s);
	args = json_get(d, 0, "args");
	assert_int_equal(json_array_size(d, args), 3);
	assert_int_equal(json_tok_str(d, json_array_item(d, args, 2), &s), 0);
	assert_string_equal(s, "");
	free(s);
	assert_int_equal(json_get_int(d, 0, "n", &n), 0);
	assert_int_equal(n, -42);
	assert_int_equal(json_get_bool(d, 0, "t", &b), 0);
	assert_int_equal(b, 1);
	s = json_get_str(d, 0, "s");
	assert_string_equal(s, "caf\xc3\xa9 \xf0\x9f\x98\x80 \n");
	free(s);
	assert_int_equal(json_get(d, 0, "missing"), -1);
	assert_null(json_get_str(d, 0, "n"));
	assert_int_equal(json_get_int(d, 0, "cmd", &n), -1);
	json_free(d);
}

static void
test_bad_input(void **state)
{
	static const char *bad[] = { "", "{", "{\"a\":", "[1,2", "\"open",
	    "{\"a\" 1}", "}" };
	struct json_doc	*d;
	char		*cause;
	size_t		 i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		d = json_parse(bad[i], strlen(bad[i]), &cause);
		if (d != NULL)
			fail_msg("accepted bad JSON: %s", bad[i]);
		assert_non_null(cause);
		free(cause);
	}
}

/* Items found in order, out of order and in two arrays in turn. */
static void
test_array_items(void **state)
{
	const char	*text = "{\"a\":[{\"x\":[1,2]},3,[4,[5]],\"s\"],"
			    "\"b\":[10,{\"y\":11},12]}";
	struct json_doc	*d;
	char		*cause = NULL, *s;
	long long	 v;
	int		 a, b, i;

	(void)state;
	d = json_parse(text, strlen(text), &cause);
	assert_non_null(d);
	a = json_get(d, 0, "a");
	b = json_get(d, 0, "b");
	for (i = 0; i < 2; i++) {
		assert_int_equal(json_type(d, json_array_item(d, a, 0)),
		    JSON_T_OBJECT);
		assert_int_equal(json_type(d, json_array_item(d, a, 2)),
		    JSON_T_ARRAY);
		assert_int_equal(json_get_int(d, json_array_item(d, b, 1), "y",
		    &v), 0);
		assert_int_equal(v, 11);
		assert_int_equal(json_tok_str(d, json_array_item(d, a, 3), &s),
		    0);
		assert_string_equal(s, "s");
		free(s);
		assert_int_equal(json_array_item(d, a, 4), -1);
		assert_int_equal(json_type(d, json_array_item(d, a, 1)),
		    JSON_T_PRIMITIVE);
		assert_int_equal(json_type(d, json_array_item(d, b, 2)),
		    JSON_T_PRIMITIVE);
		assert_int_equal(json_array_item(d, b, -1), -1);
	}
	/* A nested array's items, then its parent's again. */
	i = json_array_item(d, a, 2);
	assert_int_equal(json_type(d, json_array_item(d, i, 1)), JSON_T_ARRAY);
	assert_int_equal(json_type(d, json_array_item(d, a, 3)),
	    JSON_T_STRING);
	json_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_array_items),
	};

	return (cmocka_run_group_tests_name("json", tests, NULL, NULL));
}
