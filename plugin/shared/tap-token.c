/*
 * Phone buttons' tokens: "t1.HELPER.ASK.CHOICE.EXPIRES.MAC", HELPER six
 * characters that name the helper that made it (a MAC of its tmux
 * server's instance: helpers of several servers may read one reply
 * topic, and each leaves the others' taps alone), MAC the first 16 bytes
 * of HMAC-SHA-256 under the user's key (made once, 0600, in lisa's state
 * directory) over the helper, the ask, the choice, the expiry, the host
 * (empty: this one) and the ask's answer token (answer-token.c: the
 * tmux server's instance, the pane, its incarnation, the count of
 * dialogs seen there and the dialog's fingerprint).
 *
 * So a token cannot be made without the key, names one choice on one
 * dialog of one agent, and ends. That it is used at most once is the
 * helper's to keep (it remembers the asks it sent); what the screen
 * shows when the tap arrives is answer.c's to check, as for lisa answer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "sha256.h"
#include "tap-token.h"

#define TAP_MAC_LEN	16
#define TAP_MAC_B64	22		/* 16 bytes, base64url, no padding */
#define TAP_EXPIRES_MAX	1000000000000LL	/* unix seconds: year 33658 */

static const char tap_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static void
tap_b64url(const unsigned char *in, size_t n, char *out)
{
	size_t		i;
	uint32_t	v;
	int		bits = 0;

	v = 0;
	for (i = 0; i < n; i++) {
		v = (v << 8) | in[i];
		bits += 8;
		while (bits >= 6) {
			bits -= 6;
			*out++ = tap_b64[(v >> bits) & 63];
		}
	}
	if (bits > 0)
		*out++ = tap_b64[(v << (6 - bits)) & 63];
	*out = '\0';
}

/* The MAC of T bound to HOST and ANSWER, base64url. */
static void
tap_mac(const unsigned char key[TAP_KEY_LEN], const struct tap_token *t,
    const char *host, const char *answer, char out[TAP_MAC_B64 + 1])
{
	struct buf	b;
	unsigned char	mac[SHA256_LEN];

	/* The parts, a NUL after each but the last. */
	buf_init(&b);
	buf_printf(&b, "lisa-tap-1%c%s%c%" PRIu32 "%c%c%c%" PRId64 "%c%s%c%s",
	    0, t->helper, 0, t->ask, 0, t->choice, 0, t->expires, 0,
	    host != NULL ? host : "", 0, answer);
	sha256_hmac(key, TAP_KEY_LEN, b.data, b.len, mac);
	buf_free(&b);
	tap_b64url(mac, TAP_MAC_LEN, out);
}

/* allow, deny, always, or a question's option by its number (1-9). */
static int
tap_choice_ok(char c)
{
	return (c == TAP_ALLOW || c == TAP_DENY || c == TAP_ALWAYS ||
	    (c >= '1' && c <= '9'));
}

/* T's token for the ask bound to HOST (NULL: here) and ANSWER; 0 if made. */
int
tap_token_make(const unsigned char key[TAP_KEY_LEN], const struct tap_token *t,
    const char *host, const char *answer, char out[TAP_TOKEN_LEN])
{
	char	mac[TAP_MAC_B64 + 1];
	int	n;

	if (!tap_choice_ok(t->choice) || t->expires < 0 ||
	    t->expires >= TAP_EXPIRES_MAX || answer == NULL ||
	    strlen(t->helper) != TAP_HELPER_LEN ||
	    strspn(t->helper, tap_b64) != TAP_HELPER_LEN)
		return (-1);
	tap_mac(key, t, host, answer, mac);
	n = snprintf(out, TAP_TOKEN_LEN, "t1.%s.%" PRIu32 ".%c.%" PRId64 ".%s",
	    t->helper, t->ask, t->choice, t->expires, mac);
	return (n > 0 && n < TAP_TOKEN_LEN ? 0 : -1);
}

/* A run of decimal digits, whole, below LIMIT; -1 if not. */
static int64_t
tap_num(const char *s, size_t n, int64_t limit)
{
	int64_t	v = 0;
	size_t	i;

	/* (18 digits cannot overflow; the limits are far below) */
	if (n == 0 || n > 18 || (n > 1 && s[0] == '0'))
		return (-1);
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (-1);
		v = v * 10 + (s[i] - '0');
	}
	return (v < limit ? v : -1);
}

/* TOKEN's parts into T; NULL if it has lisa's form, else why not. */
const char *
tap_token_parse(const char *token, struct tap_token *t)
{
	const char	*p, *dot;
	int64_t		 v;

	if (token == NULL || strlen(token) >= TAP_TOKEN_LEN ||
	    strncmp(token, "t1.", 3) != 0)
		return ("not a button lisa made");
	p = token + 3;
	if (strspn(p, tap_b64) != TAP_HELPER_LEN || p[TAP_HELPER_LEN] != '.')
		return ("not a button lisa made");
	memcpy(t->helper, p, TAP_HELPER_LEN);
	t->helper[TAP_HELPER_LEN] = '\0';
	p += TAP_HELPER_LEN + 1;
	if ((dot = strchr(p, '.')) == NULL ||
	    (v = tap_num(p, (size_t)(dot - p), UINT32_MAX)) == -1)
		return ("not a button lisa made");
	t->ask = (uint32_t)v;
	p = dot + 1;
	if (!tap_choice_ok(p[0]) || p[1] != '.')
		return ("not a button lisa made");
	t->choice = p[0];
	p += 2;
	if ((dot = strchr(p, '.')) == NULL ||
	    (v = tap_num(p, (size_t)(dot - p), TAP_EXPIRES_MAX)) == -1)
		return ("not a button lisa made");
	t->expires = v;
	p = dot + 1;
	if (strlen(p) != TAP_MAC_B64 || strspn(p, tap_b64) != TAP_MAC_B64)
		return ("not a button lisa made");
	return (NULL);
}

/*
 * Is TOKEN lisa's, for the ask bound to HOST and ANSWER, and not expired
 * at NOW (unix seconds)? NULL and its parts in T if so, else why not.
 */
const char *
tap_token_check(const unsigned char key[TAP_KEY_LEN], const char *token,
    const char *host, const char *answer, int64_t now, struct tap_token *t)
{
	const char	*why;
	char		 mac[TAP_MAC_B64 + 1];

	if ((why = tap_token_parse(token, t)) != NULL)
		return (why);
	tap_mac(key, t, host, answer, mac);
	if (!sha256_equal_hex(mac, strrchr(token, '.') + 1))
		return ("not a button lisa made for this dialog");
	if (now >= t->expires)
		return ("the button has expired");
	return (NULL);
}

/* The name of the helper of tmux server INSTANCE, under KEY, into OUT. */
void
tap_helper_id(const unsigned char key[TAP_KEY_LEN], const char *instance,
    char out[TAP_HELPER_LEN + 1])
{
	unsigned char	mac[SHA256_LEN];
	char		msg[128], b64[12];
	int		n;

	n = snprintf(msg, sizeof msg, "lisa-tap-helper%c%s", 0, instance);
	sha256_hmac(key, TAP_KEY_LEN, msg, (size_t)n < sizeof msg ? (size_t)n :
	    sizeof msg - 1, mac);
	tap_b64url(mac, 4, b64);
	memcpy(out, b64, TAP_HELPER_LEN);
	out[TAP_HELPER_LEN] = '\0';
}

const char *
tap_choice_name(char c)
{
	static const char	*digits[] = { "1", "2", "3", "4", "5", "6", "7",
	    "8", "9" };

	if (c >= '1' && c <= '9')
		return (digits[c - '1']);
	switch (c) {
	case TAP_ALLOW:
		return ("allow");
	case TAP_DENY:
		return ("deny");
	case TAP_ALWAYS:
		return ("always");
	}
	return ("?");
}
