/*
 * The token an answer names a dialog by (lisa status --json's
 * question.token, lisa answer --expect): this tmux server's instance, the
 * pane, its incarnation (its process, its agent's pid and start), the
 * count of dialogs lisa has seen there, and the dialog's fingerprint
 * (question.c). An answer is carried out only for a token that is, whole,
 * the pane's at that moment (answer.c).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "watch.h"

/*
 * The token of pane P's dialog with fingerprint FP, as lisa status --json
 * prints it: "v1:FP:SEQ:INSTANCE:PANE:INCARNATION". SEQ counts the
 * dialogs lisa saw there: a dialog drawn again after an answer, the same
 * to the byte, is another dialog with another token.
 */
void
answer_token(struct pane *p, const char *fp, char *out, size_t len)
{
	char	inc[64];

	act_incarnation(p, inc, sizeof inc);
	snprintf(out, len, "v1:%s:%llu:%s:%d:%s", fp,
	    (unsigned long long)(p->watch != NULL ? p->watch->question_seq :
	    0), lisad.instance, p->id, inc);
}

/*
 * Is TOKEN one lisa printed, whole? NULL if its form is, else why not;
 * then which part differs from pane P's now (NULL: none, or only the
 * dialog, which the screen decides).
 */
const char *
answer_token_check(struct pane *p, const char *token)
{
	char		 copy[ANSWER_TOKEN_LEN], *f[6], *s, inc[64];
	size_t		 i, n = 0;

	if (strlen(token) >= sizeof copy)
		return ("not a token lisa printed (lisa status --json: "
		    "question.token)");
	strlcpy(copy, token, sizeof copy);
	for (s = copy; n < 6 && s != NULL; n++)
		f[n] = strsep(&s, ":");
	if (n != 6 || s != NULL || strcmp(f[0], "v1") != 0 ||
	    strlen(f[1]) != SHA256_HEX - 1 || strspn(f[1],
	    "0123456789abcdef") != SHA256_HEX - 1 || *f[2] == '\0' ||
	    strspn(f[2], "0123456789") != strlen(f[2]))
		return ("not a token lisa printed, or a part of one (lisa "
		    "status --json: question.token)");
	if (strcmp(f[3], lisad.instance) != 0)
		return ("the token is another tmux server's");
	for (i = 0; f[4][i] != '\0' && isdigit((unsigned char)f[4][i]); i++)
		;
	if (i == 0 || f[4][i] != '\0' || atoi(f[4]) != p->id)
		return ("the token is another pane's");
	act_incarnation(p, inc, sizeof inc);
	if (strcmp(f[5], inc) != 0)
		return ("the pane is not what it was when you chose (its "
		    "agent ended or another took its place)");
	return (NULL);
}
