/*
 * Phone buttons' tokens (tap-token.c): one made is checked good only for
 * its own ask, choice, host and dialog, under its key, until it expires;
 * a token changed anywhere, or made for anything else, is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tap-token.h"

#define ANSWER	"v1:5d41402abc4b2a76b9719d911017c592" \
	"5d41402abc4b2a76b9719d911017c592:3:9f2c:12:4711-4712-99"

static unsigned char	key[TAP_KEY_LEN];

static int
setup(void **state)
{
	int	i;

	(void)state;
	for (i = 0; i < TAP_KEY_LEN; i++)
		key[i] = (unsigned char)(i * 7 + 1);
	return (0);
}

static void
make(uint32_t ask, char choice, int64_t exp, const char *host,
    char out[TAP_TOKEN_LEN])
{
	struct tap_token	t;

	strcpy(t.helper, "Hx_9-a");
	t.ask = ask;
	t.choice = choice;
	t.expires = exp;
	assert_int_equal(tap_token_make(key, &t, host, ANSWER, out), 0);
}

static void
test_round_trip(void **state)
{
	char			 tok[TAP_TOKEN_LEN];
	struct tap_token	 t;

	(void)state;
	make(7, TAP_ALLOW, 2000000000, NULL, tok);
	assert_null(tap_token_check(key, tok, NULL, ANSWER, 1999999999, &t));
	assert_int_equal(t.ask, 7);
	assert_int_equal(t.choice, TAP_ALLOW);
	assert_int_equal(t.expires, 2000000000);
	make(9, '2', 2000000000, NULL, tok);	/* a question's option 2 */
	assert_null(tap_token_check(key, tok, NULL, ANSWER, 0, &t));
	assert_int_equal(t.choice, '2');
	assert_string_equal(tap_choice_name(t.choice), "2");
	make(8, TAP_DENY, 2000000000, "devbox/work", tok);
	assert_null(tap_token_check(key, tok, "devbox/work", ANSWER, 0, &t));
	assert_int_equal(t.choice, TAP_DENY);
	/* (the longest: still under Telegram's 64 bytes) */
	make(UINT32_MAX - 1, TAP_ALWAYS, 999999999999, NULL, tok);
	assert_true(strlen(tok) < TAP_TOKEN_LEN);
	assert_null(tap_token_check(key, tok, NULL, ANSWER, 0, &t));
	t.expires = 1000000000000;	/* (beyond what lisa makes) */
	assert_int_equal(tap_token_make(key, &t, NULL, ANSWER, tok), -1);
	t.expires = 5;
	strcpy(t.helper, "Hx.9-a");	/* (not a helper's name) */
	assert_int_equal(tap_token_make(key, &t, NULL, ANSWER, tok), -1);
}

static void
test_expired(void **state)
{
	char			 tok[TAP_TOKEN_LEN];
	struct tap_token	 t;

	(void)state;
	make(1, TAP_ALLOW, 1000, NULL, tok);
	assert_string_equal(tap_token_check(key, tok, NULL, ANSWER, 1000, &t),
	    "the button has expired");
	assert_null(tap_token_check(key, tok, NULL, ANSWER, 999, &t));
}

/* Bound to what it was made for: nothing else checks good. */
static void
test_bound(void **state)
{
	char			 tok[TAP_TOKEN_LEN];
	struct tap_token	 t;
	unsigned char		 other[TAP_KEY_LEN];

	(void)state;
	make(3, TAP_ALLOW, 5000, "devbox", tok);
	assert_non_null(tap_token_check(key, tok, NULL, ANSWER, 0, &t));
	assert_non_null(tap_token_check(key, tok, "gpu1", ANSWER, 0, &t));
	assert_non_null(tap_token_check(key, tok, "devbox",
	    "v1:5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592"
	    ":4:9f2c:12:4711-4712-99", 0, &t));	/* the next dialog */
	memcpy(other, key, sizeof other);
	other[0] ^= 1;
	assert_non_null(tap_token_check(other, tok, "devbox", ANSWER, 0, &t));
	assert_null(tap_token_check(key, tok, "devbox", ANSWER, 0, &t));
}

/* Each part changed, the MAC kept: refused (a deny made an allow, ...). */
static void
test_tampered(void **state)
{
	char			 tok[TAP_TOKEN_LEN], bad[TAP_TOKEN_LEN * 2];
	const char		*mac;
	struct tap_token	 t;

	(void)state;
	make(42, TAP_DENY, 5000, NULL, tok);
	mac = strrchr(tok, '.') + 1;
	snprintf(bad, sizeof bad, "t1.Hx_9-a.42.a.5000.%s", mac);
	assert_non_null(tap_token_check(key, bad, NULL, ANSWER, 0, &t));
	snprintf(bad, sizeof bad, "t1.Hx_9-a.42.A.5000.%s", mac);
	assert_non_null(tap_token_check(key, bad, NULL, ANSWER, 0, &t));
	snprintf(bad, sizeof bad, "t1.Hx_9-a.43.d.5000.%s", mac);
	assert_non_null(tap_token_check(key, bad, NULL, ANSWER, 0, &t));
	snprintf(bad, sizeof bad, "t1.Hx_9-a.42.d.9000.%s", mac);
	assert_non_null(tap_token_check(key, bad, NULL, ANSWER, 0, &t));
	snprintf(bad, sizeof bad, "t1.Hx_9-b.42.d.5000.%s", mac);
	assert_non_null(tap_token_check(key, bad, NULL, ANSWER, 0, &t));
	/* (a leading zero: another spelling of the same number, refused) */
	snprintf(bad, sizeof bad, "t1.Hx_9-a.042.d.5000.%s", mac);
	assert_non_null(tap_token_check(key, bad, NULL, ANSWER, 0, &t));
	strcpy(bad, tok);
	bad[strlen(bad) - 1] = bad[strlen(bad) - 1] == 'A' ? 'B' : 'A';
	assert_string_equal(tap_token_check(key, bad, NULL, ANSWER, 0, &t),
	    "not a button lisa made for this dialog");
	assert_null(tap_token_check(key, tok, NULL, ANSWER, 0, &t));
}

static void
test_malformed(void **state)
{
	static const char	*bad[] = {
		"", "t1", "t1.", "t1.1.a.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-.1.a.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-aa.1.a.5.AAAAAAAAAAAAAAAAAAAAAA", "t1.Hx_9-a.1.a.5",
		"t2.Hx_9-a.1.a.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a.1.x.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a.1.0.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a.1.a.5.AAAAAAAAAAAAAAAAAAAAA",	/* 21 */
		"t1.Hx_9-a.1.a.5.AAAAAAAAAAAAAAAAAAAAAAA",	/* 23 */
		"t1.Hx_9-a.1.a.5.AAAAAAAAAAAAAAAAAAAA=A",
		"t1.Hx_9-a.-1.a.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a.1.a.-5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a..a.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a.1.aa.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a.4294967295.a.5.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a.1.a.99999999999999999999.AAAAAAAAAAAAAAAAAAAAAA",
		"t1.Hx_9-a.1.a.5.AAAAAAAAAAAAAAAAAAAAAA.x",
		"t1.Hx_9-a.1.a.5 .AAAAAAAAAAAAAAAAAAAAAA",
		("t1.Hx_9-a.1.a.5.AAAAAAAAAAAAAAAAAAAAAA"
		    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
	};
	struct tap_token	 t;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (tap_token_parse(bad[i], &t) == NULL)
			fail_msg("taken: \"%s\"", bad[i]);
	}
	assert_null(tap_token_parse("t1.Hx_9-a.1.a.5.AAAAAAAAAAAAAAAAAAAAAA",
	    &t));
	assert_string_equal(t.helper, "Hx_9-a");
	assert_non_null(tap_token_parse(NULL, &t));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_expired),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_tampered),
		cmocka_unit_test(test_malformed),
	};

	return (cmocka_run_group_tests(tests, setup, NULL));
}
