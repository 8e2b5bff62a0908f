/*
 * SHA-256 against FIPS 180-4's examples (and the NIST CAVP long message),
 * HMAC-SHA-256 against RFC 4231's test cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sha256.h"

static void
digest(const void *p, size_t n, char hex[SHA256_HEX])
{
	struct sha256	c;
	unsigned char	d[SHA256_LEN];

	sha256_init(&c);
	sha256_add(&c, p, n);
	sha256_end(&c, d);
	sha256_hex(d, hex);
}

static void
test_vectors(void **state)
{
	char		hex[SHA256_HEX];
	const char	*two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	const char	*four = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklm"
	    "ghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

	(void)state;
	digest("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855");
	digest("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	digest(two, strlen(two), hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039"
	    "a33ce45964ff2167f6ecedd419db06c1");
	digest(four, strlen(four), hex);
	assert_string_equal(hex, "cf5b16a778af8380036ce59e7b049237"
	    "0b249b11e8f07a51afac45037afee9d1");
}

/* A million 'a', given in pieces that straddle blocks. */
static void
test_million(void **state)
{
	struct sha256	c;
	unsigned char	d[SHA256_LEN];
	char		hex[SHA256_HEX], a[997];
	size_t		left = 1000000, n;

	(void)state;
	memset(a, 'a', sizeof a);
	sha256_init(&c);
	while (left > 0) {
		n = left < sizeof a ? left : sizeof a;
		sha256_add(&c, a, n);
		left -= n;
	}
	sha256_end(&c, d);
	sha256_hex(d, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
	    "f1809a48a497200e046d39ccc7112cd0");
}

static void
hmac(const void *k, size_t kn, const void *m, size_t mn, char hex[SHA256_HEX])
{
	unsigned char	d[SHA256_LEN];

	sha256_hmac(k, kn, m, mn, d);
	sha256_hex(d, hex);
}

static void
test_hmac_rfc4231(void **state)
{
	unsigned char	k[131], m[50];
	char		hex[SHA256_HEX];
	const char	*big = "This is a test using a larger than block-size key "
	    "and a larger than block-size data. The key needs to be hashed "
	    "before being used by the HMAC algorithm.";

	(void)state;
	memset(k, 0x0b, 20);		/* case 1 */
	hmac(k, 20, "Hi There", 8, hex);
	assert_string_equal(hex, "b0344c61d8db38535ca8afceaf0bf12b"
	    "881dc200c9833da726e9376c2e32cff7");
	hmac("Jefe", 4, "what do ya want for nothing?", 28, hex); /* case 2 */
	assert_string_equal(hex, "5bdcc146bf60754e6a042426089575c7"
	    "5a003f089d2739839dec58b964ec3843");
	memset(k, 0xaa, 20);		/* case 3 */
	memset(m, 0xdd, 50);
	hmac(k, 20, m, 50, hex);
	assert_string_equal(hex, "773ea91e36800e46854db8ebd09181a7"
	    "2959098b3ef8c122d9635514ced565fe");
	memset(k, 0xaa, 131);		/* case 6: a key longer than a block */
	hmac(k, 131, "Test Using Larger Than Block-Size Key - Hash Key First",
	    54, hex);
	assert_string_equal(hex, "60e431591ee0b67f0d8a26aacbf5b77f"
	    "8e0bc6213728c5140546040f0ee37f54");
	hmac(k, 131, big, strlen(big), hex);	/* case 7 */
	assert_string_equal(hex, "9b09ffa71b942fcb27635fbcd5b0e944"
	    "bfdc63644f0713938a7f51535c3a35e2");
}

static void
test_equal(void **state)
{
	(void)state;
	assert_true(sha256_equal_hex("abc", "abc"));
	assert_false(sha256_equal_hex("abc", "abd"));
	assert_false(sha256_equal_hex("abc", "ab"));
	assert_false(sha256_equal_hex("", "a"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_million),
		cmocka_unit_test(test_hmac_rfc4231),
		cmocka_unit_test(test_equal),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
