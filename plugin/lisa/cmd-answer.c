/*
 * lisa answer PANE [allow|yes|y|deny|no|n|always|N] [--reply TEXT]
 * [--expect TOKEN]: the dialog the pane's agent waits on, answered by the
 * helper with the agent's own key, once, after it has checked that the
 * dialog on screen is the one the token names (answer.c). Only these
 * words choose; free text is a reply only when said so (--reply): the
 * dialog declined, then TEXT typed at the agent's prompt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisa.h"

/* Before anything is asked of anyone: the words, or a usage error. */
void
cmd_answer_check(const struct lisa_cmd *c, const char *what,
    const char *reply)
{
	const char	*choice = what != NULL ? question_choice(what) : NULL;

	if (what == NULL && reply == NULL)
		args_usage_error(c, "answer with allow (yes, y), deny (no, n), "
		    "always, an option's number, or --reply TEXT");
	if (what != NULL && choice == NULL)
		args_usage_error(c, "not a choice: \"%s\" (allow, yes, y, deny, "
		    "no, n, always or an option's number; a reply is --reply "
		    "TEXT)", what);
	if (reply != NULL && choice != NULL && strcmp(choice, "deny") != 0)
		args_usage_error(c, "--reply declines the dialog: it goes "
		    "with deny or alone, not with %s", what);
	if (reply != NULL && *reply == '\0')
		args_usage_error(c, "--reply: an empty reply");
}

int
cmd_answer(struct lisa_ctx *ctx, const char *target, const char *what,
    const char *reply, const char *expect)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*pane, *cause = NULL, *v[7];
	static const char *keys[] = { "asked", "subject", "chose", "key",
	    "now", "typed", "hook_subject" };
	char		 first[256];
	int		 i;

	/* (client_resolve said why, in tmux's words) */
	if ((pane = client_resolve(ctx, target)) == NULL)
		return (1);
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"answer\",\"pane\":");
	json_cstr(&req, pane);
	if (what != NULL) {
		json_key(&req, "what");
		json_cstr(&req, question_choice(what));
	}
	if (reply != NULL) {
		json_key(&req, "reply");
		json_cstr(&req, reply);
	}
	if (expect != NULL) {
		json_key(&req, "expect");
		json_cstr(&req, expect);
	}
	buf_adds(&req, "}\n");
	if (client_call_ms(ctx, req.data, &d, &cause, CLIENT_ANSWER_MS) != 0) {
		fprintf(stderr, "lisa: %s not answered: %s\n", pane, cause);
		free(cause);
		buf_free(&req);
		free(pane);
		return (1);
	}
	for (i = 0; i < 7; i++)
		v[i] = json_get_str(d, 0, keys[i]);
	/* (the command's first line: the whole is in lisa status --json) */
	question_first_line(v[1] != NULL ? v[1] : "", first, sizeof first);
	printf("lisa: %s: \"%s\"%s%s%s answered \"%s\" (key %s)", pane,
	    v[0] != NULL ? v[0] : "", *first != '\0' ? " (" : "", first,
	    *first != '\0' ? ")" : "", v[2] != NULL ? v[2] : "",
	    v[3] != NULL ? v[3] : "?");
	if (v[5] != NULL)
		printf(", then typed \"%s\"", v[5]);
	printf("; now %s\n", v[4] != NULL ? v[4] : "?");
	for (i = 0; i < 7; i++)
		free(v[i]);
	json_free(d);
	buf_free(&req);
	free(pane);
	return (0);
}
