/*
 * lisa answer PANE allow|deny|always|N|TEXT: the dialog the pane's agent
 * waits on, answered by the helper with the agent's own key, after it has
 * checked that the dialog on screen is the one the user saw (answer.c).
 * TEXT, anything that is not a choice, is a reply: the dialog declined,
 * then TEXT typed at the agent's prompt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisa.h"

int
cmd_answer(struct lisa_ctx *ctx, const char *target, const char *what,
    const char *expect)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*pane, *cause = NULL, *v[6];
	static const char *keys[] = { "asked", "subject", "chose", "key",
	    "now", "typed" };
	int		 i;

	if (target == NULL || what == NULL)
		args_usage_error(lisa_cmd_find("answer"), "it needs a PANE and what to "
		    "answer (allow, deny, always, a number or a reply)");
	/* (client_resolve said why, in tmux's words) */
	if ((pane = client_resolve(ctx, target)) == NULL)
		return (1);
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"answer\",\"pane\":");
	json_cstr(&req, pane);
	json_key(&req, question_is_choice(what) ? "what" : "reply");
	json_cstr(&req, what);
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
	for (i = 0; i < 6; i++)
		v[i] = json_get_str(d, 0, keys[i]);
	printf("lisa: %s: \"%s\"%s%s%s answered \"%s\" (key %s)", pane,
	    v[0] != NULL ? v[0] : "", v[1] != NULL && *v[1] != '\0' ? " (" :
	    "", v[1] != NULL ? v[1] : "", v[1] != NULL && *v[1] != '\0' ? ")" :
	    "", v[2] != NULL ? v[2] : "", v[3] != NULL ? v[3] : "?");
	if (v[5] != NULL)
		printf(", then typed \"%s\"", v[5]);
	printf("; now %s\n", v[4] != NULL ? v[4] : "?");
	for (i = 0; i < 6; i++)
		free(v[i]);
	json_free(d);
	buf_free(&req);
	free(pane);
	return (0);
}
