/*
 * The stderr summary of a run: head/tail/total by the rules (first 20,
 * last 50, everything in the head up to 70), lines cut at 500 bytes on a
 * UTF-8 boundary, the same result however the stream is chunked.
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
#include "run-stderr.h"
#include "testlib.h"

static char *
summary(const char *data, size_t len, size_t chunk)
{
	struct run_stderr	rs;
	struct buf		b;
	size_t			off, n;

	run_stderr_init(&rs);
	for (off = 0; off < len; off += n) {
		n = chunk == 0 ? 1 + test_rng() % 97 : chunk;
		if (n > len - off)
			n = len - off;
		run_stderr_feed(&rs, data + off, n);
	}
	run_stderr_finish(&rs);
	buf_init(&b);
	run_stderr_json(&b, &rs);
	run_stderr_free(&rs);
	return (buf_detach(&b));
}

static char *
numbered(int lines)
{
	struct buf	b;
	int		i;

	buf_init(&b);
	for (i = 1; i <= lines; i++)
		buf_printf(&b, "line %d\n", i);
	return (buf_detach(&b));
}

/* "line A\nline B..." as a JSON string. */
static char *
range(int a, int b)
{
	struct buf	out;
	int		i;

	buf_init(&out);
	buf_addc(&out, '"');
	for (i = a; i <= b; i++)
		buf_printf(&out, "%sline %d", i == a ? "" : "\\n", i);
	buf_addc(&out, '"');
	return (buf_detach(&out));
}

static void
check_lines(int lines, int head_to, int tail_from, int truncated)
{
	char	*in = numbered(lines), *got, *want, *h, *t;

	h = head_to > 0 ? range(1, head_to) : xstrdup("\"\"");
	if (tail_from > 0) {
		t = range(tail_from, lines);
		xasprintf(&want, "{\"head\":%s,\"tail\":%s,\"truncated\":%s,"
		    "\"total_lines\":%d}", h, t, truncated ? "true" : "false",
		    lines);
		free(t);
	} else
		xasprintf(&want, "{\"head\":%s,\"truncated\":%s,"
		    "\"total_lines\":%d}", h, truncated ? "true" : "false",
		    lines);
	got = summary(in, strlen(in), 4096);
	assert_string_equal(got, want);
	free(got);
	got = summary(in, strlen(in), 0);	/* random chunks */
	assert_string_equal(got, want);
	free(got);
	free(in);
	free(want);
	free(h);
}

static void
test_head_tail_total(void **state)
{
	check_lines(200, 20, 151, 1);
	check_lines(70, 70, 0, 0);
	check_lines(71, 20, 22, 1);
	check_lines(1, 1, 0, 0);
}

static void
test_empty_and_unterminated(void **state)
{
	char	*got;

	got = summary("", 0, 1);
	assert_string_equal(got, "{\"head\":\"\",\"truncated\":false,"
	    "\"total_lines\":0}");
	free(got);
	got = summary("a\r\nlast", 8, 3);
	assert_string_equal(got, "{\"head\":\"a\\nlast\","
	    "\"truncated\":false,\"total_lines\":2}");
	free(got);
}

static void
test_utf8_cut(void **state)
{
	struct buf	 b;
	char		*got, *want;
	int		 i;

	assert_int_equal(utf8_cut("abc", 3, 5), 3);
	assert_int_equal(utf8_cut("ab\xc3\xa9", 4, 3), 2);
	assert_int_equal(utf8_cut("ab\xc3\xa9", 4, 4), 4);
	assert_int_equal(utf8_cut("a\xe2\x82\xac", 4, 3), 1);
	assert_int_equal(utf8_cut("\x80\x80\x80\x80\x80\x80", 6, 5), 5);

	/* 600 bytes: "x" then 2-byte characters; byte 500 splits one. */
	buf_init(&b);
	buf_addc(&b, 'x');
	for (i = 0; i < 300; i++)
		buf_adds(&b, "\xc3\xa9");
	buf_addc(&b, '\n');
	got = summary(b.data, b.len, 0);
	buf_reset(&b);
	buf_adds(&b, "{\"head\":\"x");
	for (i = 0; i < 249; i++)	/* 1 + 249 * 2 = 499 bytes */
		buf_adds(&b, "\xc3\xa9");
	buf_adds(&b, "\",\"truncated\":false,\"total_lines\":1}");
	want = buf_detach(&b);
	assert_string_equal(got, want);
	free(got);
	free(want);
}

static void
test_long_lines_bounded(void **state)
{
	struct run_stderr	rs;
	char			big[100000];
	int			i;

	memset(big, 'y', sizeof big);
	run_stderr_init(&rs);
	for (i = 0; i < 50; i++)
		run_stderr_feed(&rs, big, sizeof big);
	run_stderr_feed(&rs, "\nshort\n", 7);
	run_stderr_finish(&rs);
	assert_int_equal(rs.total, 2);
	assert_int_equal(strlen(rs.first[0]), RUN_LINE_MAX);
	assert_string_equal(rs.first[1], "short");
	assert_true(rs.line.len == 0);
	run_stderr_free(&rs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_head_tail_total),
		cmocka_unit_test(test_empty_and_unterminated),
		cmocka_unit_test(test_utf8_cut),
		cmocka_unit_test(test_long_lines_bounded),
	};

	test_rng_init();
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
