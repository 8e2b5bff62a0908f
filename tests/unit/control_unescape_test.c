/*
 * %output decoding: known vectors, and the property that matters - any byte
 * stream, cut into chunks at arbitrary points (mid-UTF-8, mid-escape
 * sequence) and escaped the way tmux does, decodes back to the same bytes.
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
check(const char *in, const char *want, size_t wantlen)
{
	char	out[256];
	size_t	n;

	n = ctl_unescape(in, strlen(in), out);
	assert_int_equal(n, wantlen);
	assert_memory_equal(out, want, wantlen);
}

static void
test_vectors(void **state)
{
	check("", "", 0);
	check("plain text", "plain text", 10);
	check("\\033[1mbold\\033[0m", "\033[1mbold\033[0m", 12);
	check("a\\015\\012b", "a\r\nb", 4);
	check("back\\134slash", "back\\slash", 10);
	check("\\000nul", "\0nul", 4);
	check("caf\xc3\xa9 \xe2\x9c\xb3", "caf\xc3\xa9 \xe2\x9c\xb3", 9);
	check("\x7f", "\x7f", 1);
	check("\\037", "\037", 1);
}

/* Malformed escapes are kept literally: losing bytes would be worse. */
static void
test_malformed_kept(void **state)
{
	check("a\\", "a\\", 2);
	check("a\\0", "a\\0", 3);
	check("a\\01", "a\\01", 4);
	check("\\9xx", "\\9xx", 4);
	check("\\400", "\\400", 4);
	check("\\08x", "\\08x", 4);
}

/* Escape like tmux's control_append_data, then decode chunk by chunk. */
static void
test_property_roundtrip(void **state)
{
	struct buf	 esc, dec;
	unsigned char	*src;
	size_t		 len, off, chunk, n;
	int		 iter;
	char		*out;

	test_rng_init();
	for (iter = 0; iter < 2000; iter++) {
		len = test_rng_below(iter < 1000 ? 64 : 8192);
		src = malloc(len + 1);
		for (off = 0; off < len; off++) {
			switch (test_rng_below(4)) {
			case 0:	/* control bytes and backslashes */
				src[off] = "\033\\\r\n\a\0\t"[test_rng_below(7)];
				break;
			case 1:	/* UTF-8 lead/continuation bytes */
				src[off] = (unsigned char)(0x80 +
				    test_rng_below(0x80));
				break;
			default:
				src[off] = (unsigned char)test_rng();
				break;
			}
		}
		buf_init(&dec);
		for (off = 0; off < len; off += chunk) {
			chunk = 1 + test_rng_below(len - off < 300 ?
			    len - off : 300);
			buf_init(&esc);
			ctl_escape(src + off, chunk, &esc);
			/* What tmux writes never contains a raw newline. */
			assert_null(memchr(esc.data, '\n', esc.len));
			out = malloc(esc.len + 1);
			n = ctl_unescape(esc.data, esc.len, out);
			buf_add(&dec, out, n);
			free(out);
			buf_free(&esc);
		}
		assert_int_equal(dec.len, len);
		if (len != 0)
			assert_memory_equal(dec.data, src, len);
		buf_free(&dec);
		free(src);
	}
}

/* tmux 3.4/3.5 command output back to bytes, and when that is exact. */
static void
test_unvis(void **state)
{
	char	*out;

	/* 3.4: every '$' as "\$"; nothing else escaped: exact. */
	assert_int_equal(ctl_unvis("#(echo \\$USER) \\$x #[fg=red]", 1,
	    &out), 0);
	assert_string_equal(out, "#(echo $USER) $x #[fg=red]");
	free(out);
	/* 3.5: '$' raw; \177, \r, \037 decoded, but not exact. */
	assert_int_equal(ctl_unvis("a$b\\177c\\rd\\037e", 0, &out), -1);
	assert_string_equal(out, "a$b\177c\rd\037e");
	free(out);
	/* A user's backslash: kept, and said to be ambiguous. */
	assert_int_equal(ctl_unvis("x\\y\\", 0, &out), -1);
	assert_string_equal(out, "x\\y\\");
	free(out);
	assert_int_equal(ctl_unvis("plain", 1, &out), 0);
	assert_string_equal(out, "plain");
	free(out);
}

/*
 * tmux 3.2a's capture-pane -J, as it came from a 40-column pane: each
 * trailing run one space, runs inside a line kept, the last line too.
 */
static void
test_unpad(void **state)
{
	static const struct {
		const char	*in, *want;
	} v[] = {
		{ "abc                 \n", "abc \n" },
		{ "\xe2\x9d\xaf                   \n", "\xe2\x9d\xaf \n" },
		{ "a   b    \nc\n  \n", "a   b \nc\n \n" },
		{ "> ", "> " },
		{ "end    ", "end " },
		{ "", "" },
		{ "none\n", "none\n" },
	};
	char	buf[64];
	size_t	i, n;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		n = strlen(v[i].in);
		memcpy(buf, v[i].in, n);
		n = ctl_unpad(buf, n);
		buf[n] = '\0';
		assert_string_equal(buf, v[i].want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_malformed_kept),
		cmocka_unit_test(test_property_roundtrip),
		cmocka_unit_test(test_unvis),
		cmocka_unit_test(test_unpad),
	};

	return (cmocka_run_group_tests_name("control_unescape", tests, NULL,
	    NULL));
}
