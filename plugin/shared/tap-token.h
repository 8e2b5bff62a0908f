/*
 * The token a phone's button carries (issue 47, docs/phone.md): which
 * ask, which choice, until when, and a MAC that binds them to the
 * dialog the user read. Short enough for Telegram's callback_data (64
 * bytes) and an ntfy action's URL.
 */
#ifndef LISA_TAP_TOKEN_H
#define LISA_TAP_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#define TAP_KEY_LEN	32
#define TAP_HELPER_LEN	6	/* the helper's name in a token */
#define TAP_TOKEN_LEN	64	/* with its NUL: Telegram's limit, whole */

/* What a token names; the binding (host, answer token) stays with lisa. */
struct tap_token {
	char		 helper[TAP_HELPER_LEN + 1];	/* which helper's */
	uint32_t	 ask;		/* the helper's number for the ask */
	char		 choice;	/* TAP_ALLOW, TAP_DENY, TAP_ALWAYS, 1-9 */
	int64_t		 expires;	/* unix seconds */
};

#define TAP_ALLOW	'a'
#define TAP_DENY	'd'
#define TAP_ALWAYS	'A'

int		 tap_token_make(const unsigned char [TAP_KEY_LEN],
		     const struct tap_token *, const char *, const char *,
		     char [TAP_TOKEN_LEN]);
const char	*tap_token_parse(const char *, struct tap_token *);
const char	*tap_token_check(const unsigned char [TAP_KEY_LEN],
		     const char *, const char *, const char *, int64_t,
		     struct tap_token *);
void		 tap_helper_id(const unsigned char [TAP_KEY_LEN],
		     const char *, char [TAP_HELPER_LEN + 1]);
const char	*tap_choice_name(char);

#endif
