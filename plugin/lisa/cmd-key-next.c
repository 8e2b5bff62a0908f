/*
 * lisa key next CLIENT: jump to the next agent that needs the human (those
 * that ask first, then crashed, stuck, and those at their prompt), after
 * the one the client shows, cycling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisa.h"

/*
 * Could CURRENT be a jump window (cmd-jump.c)? Not where the key said it
 * is not, nor an agent's own pane: then tmux need not be asked.
 */
static int
menu_maybe_jump(struct lisa_ctx *ctx, char **cand, size_t n,
    const char *current)
{
	size_t	i;

	if (*ctx->key_pane != '\0')
		return (ctx->key_jump);
	for (i = 0; i < n; i++) {
		if (!fleet_is_target(cand[i]) && strcmp(cand[i], current) == 0)
			return (0);
	}
	return (1);
}

/*
 * Every agent that needs you, in the order prefix A goes through them:
 * the helper's (@lisa_waiting's) order, asked of it by pane; from the
 * whole list where the helper is older than the request.
 */
static char **
menu_needs(struct lisa_ctx *ctx, size_t *n)
{
	/* As the menu and the badges rank them: the worst first. */
	static const int	 order[] = { UI_ASKS, UI_CRASHED, UI_STUCK,
				    UI_WAITING };
	struct json_doc		*d;
	struct menu_agent	*list;
	char			**cand, *cause = NULL;
	size_t			 nl, i, j;
	int			 arr, k;

	*n = 0;
	if (client_call(ctx, "{\"cmd\":\"needs\"}\n", &d, &cause) == 0) {
		arr = json_get(d, 0, "panes");
		k = json_array_size(d, arr);
		cand = xcalloc(k > 0 ? (size_t)k : 1, sizeof *cand);
		for (i = 0; k > 0 && i < (size_t)k; i++) {
			if (json_tok_str(d, json_array_item(d, arr, (int)i),
			    &cand[*n]) == 0 && cand[*n] != NULL)
				(*n)++;
		}
		json_free(d);
		return (cand);
	}
	if (cause == NULL || strcmp(cause, "unknown cmd") != 0) {
		fprintf(stderr, "lisa: %s\n", cause != NULL ? cause : "?");
		free(cause);
		return (NULL);
	}
	free(cause);
	if (menu_agents(ctx, &list, &nl, NULL, NULL) != 0)
		return (NULL);
	cand = xcalloc(nl + 1, sizeof *cand);
	for (j = 0; j < sizeof order / sizeof order[0]; j++) {
		for (i = 0; i < nl; i++) {
			if (list[i].group == order[j])
				cand[(*n)++] = xstrdup(list[i].pane);
		}
	}
	menu_free(list, nl);
	return (cand);
}

/*
 * Those that ask first, then crashed, stuck, and those at their prompt;
 * after the current one, cycling.
 */
int
cmd_key_next(struct lisa_ctx *ctx, const char *client)
{
	size_t	 ncand, i, pick;
	char	**cand, *current, pane[64];
	char	*argv[5];

	if (escalate_next(ctx, client))
		return (0);
	if ((cand = menu_needs(ctx, &ncand)) == NULL)
		return (1);
	if (ncand == 0) {
		free(cand);
		return (menu_message(ctx, client,
		    "lisa: no agent needs you"));
	}
	current = menu_client_pane(ctx, client);
	/* In a jump window: the remote pane it shows is the current one. */
	if (current != NULL && menu_maybe_jump(ctx, cand, ncand, current)) {
		const char	*q[] = { "display-message", "-p", "-t",
				    current, "#{@lisa_jump_target}", NULL };
		char		*jt = NULL;

		if (client_tmux(ctx, &jt, q) == 0 && jt != NULL &&
		    fleet_is_target(jt)) {
			free(current);
			current = jt;
		} else
			free(jt);
	}
	pick = 0;
	for (i = 0; current != NULL && i < ncand; i++) {
		if (strcmp(cand[i], current) == 0) {
			pick = (i + 1) % ncand;
			break;
		}
	}
	strlcpy(pane, cand[pick], sizeof pane);
	free(current);
	for (i = 0; i < ncand; i++)
		free(cand[i]);
	free(cand);
	if (fleet_is_target(pane))
		return (cmd_key_jump(ctx, client, pane));
	argv[0] = (char *)"switch-client";
	argv[1] = (char *)"-c";
	argv[2] = (char *)client;
	argv[3] = (char *)"-t";
	argv[4] = pane;
	return (menu_exec(ctx, argv, 5));
}
