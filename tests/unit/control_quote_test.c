/*
 * The quoting function: what it produces for hostile text, and that the
 * result is always one safe command argument. (The round trip through a
 * real tmux server is in tests/integration.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "control.h"
#include "testlib.h"

static void
expect(const char *in, const char *want)
{
	struct buf	b;

	buf_init(&b);
	ctl_quote_str(&b, in);
	assert_string_equal(b.data, want);
	buf_free(&b);
}

static void
test_quote_vectors(void **state)
{
	expect("", "\"\"");
	expect("plain", "\"plain\"");
	expect("a\"b", "\"a\\\"b\"");
	expect("back\\slash", "\"back\\\\slash\"");
	expect("$HOME ~user", "\"\\$HOME \\~user\"");
	expect("#{pane_id} #[fg=red]", "\"#{pane_id} #[fg=red]\"");
	expect("a;b {c}", "\"a;b {c}\"");
	expect("line\nbreak\ttab", "\"line\\012break\\011tab\"");
	expect("caf\xc3\xa9", "\"caf\\303\\251\"");
	expect("\x7f\x01", "\"\\177\\001\"");
	expect("'single'", "\"'single'\"");
}

/* Whatever the input, the output is printable ASCII with no newline. */
static void
test_quote_property(void **state)
{
	struct buf	b;
	char		in[256];
	size_t		i, len;
	int		iter;

	test_rng_init();
	for (iter = 0; iter < 20000; iter++) {
		len = test_rng_below(sizeof in);
		for (i = 0; i < len; i++)
			in[i] = (char)(1 + test_rng_below(255));
		buf_init(&b);
		ctl_quote(&b, in, len);
		assert_true(b.len >= 2);
		assert_int_equal(b.data[0], '"');
		assert_int_equal(b.data[b.len - 1], '"');
		for (i = 0; i < b.len; i++) {
			assert_true((unsigned char)b.data[i] >= 0x20 &&
			    (unsigned char)b.data[i] < 0x7f);
		}
		/* Every '"' inside is escaped. */
		for (i = 1; i + 1 < b.len; i++) {
			if (b.data[i] == '\\') {
				i++;
				continue;
			}
			assert_true(b.data[i] != '"' && b.data[i] != '$' &&
			    b.data[i] != '~');
		}
		buf_free(&b);
	}
}

static void
test_format_and_shell(void **state)
{
	struct buf	b;

	buf_init(&b);
	ctl_format_escape(&b, "a#{b}##c");
	assert_string_equal(b.data, "a##{b}####c");
	buf_reset(&b);
	ctl_shell_quote(&b, "it's $(rm -rf) `x`");
	assert_string_equal(b.data, "'it'\\''s $(rm -rf) `x`'");
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_vectors),
		cmocka_unit_test(test_quote_property),
		cmocka_unit_test(test_format_and_shell),
	};

	return (cmocka_run_group_tests_name("control_quote", tests, NULL,
	    NULL));
}
