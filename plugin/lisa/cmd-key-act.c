/*
 * lisa key act: what the agents menu's actions run (cmd-menu.c makes the
 * menu): the action, on the pane and agent the menu showed, by this lisa
 * as a command; what it said goes to the client's message line.
 */
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

/*
 * What tmux's prompt left in buffer NAME (through %%%, quoted by tmux),
 * the buffer deleted; NULL if none or empty.
 */
char *
menu_buffer_take(struct lisa_ctx *ctx, const char *name)
{
	char		*out = NULL;
	const char	*show[] = { "show-buffer", "-b", name, NULL };
	const char	*del[] = { "delete-buffer", "-b", name, NULL };
	size_t		 len;

	if (client_tmux(ctx, &out, show) != 0 || out == NULL) {
		free(out);
		return (NULL);
	}
	len = strlen(out);
	while (len > 0 && out[len - 1] == '\n')
		out[--len] = '\0';
	{
		char	*o2 = NULL;

		client_tmux(ctx, &o2, del);
		free(o2);
	}
	if (*out == '\0') {
		free(out);
		return (NULL);
	}
	return (out);
}

/* The reply tmux's prompt left in buffer lisa-reply-N, deleted; or NULL. */
static char *
menu_reply_text(struct lisa_ctx *ctx, const char *n)
{
	char	name[32];

	snprintf(name, sizeof name, "lisa-reply-%s", n);
	return (menu_buffer_take(ctx, name));
}

/*
 * Run this lisa with ARGV against this server; the last line it said
 * (stdout and stderr) in OUT, for the client's message line.
 */
void
menu_run_lisa(struct lisa_ctx *ctx, const char *const *argv, char *out,
    size_t len)
{
	const char	*full[16];
	char		*self = client_self(), *nl;
	int		 p[2], status, i, n = 0;
	ssize_t		 r;
	pid_t		 pid;
	size_t		 got = 0;

	*out = '\0';
	full[n++] = self;
	full[n++] = "-S";
	full[n++] = ctx->sid.socket;
	for (i = 0; argv[i] != NULL && n < 15; i++)
		full[n++] = argv[i];
	full[n] = NULL;
	if (pipe(p) != 0 || (pid = fork()) == -1) {
		free(self);
		return;
	}
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execv(self, (char *const *)full);
		_exit(127);
	}
	close(p[1]);
	while (got < len - 1 &&
	    (r = read(p[0], out + got, len - 1 - got)) > 0)
		got += (size_t)r;
	close(p[0]);
	waitpid(pid, &status, 0);
	free(self);
	out[got] = '\0';
	while (got > 0 && out[got - 1] == '\n')
		out[--got] = '\0';
	if ((nl = strrchr(out, '\n')) != NULL)
		memmove(out, nl + 1, strlen(nl + 1) + 1);
}

/*
 * lisa key act CLIENT WHAT:PANE:INCARNATION: run `lisa WHAT PANE --expect
 * INCARNATION` (the pane and agent the menu showed: refused if the agent
 * ended or another took its place since) and show its last line of output
 * on the client. Without PANE, the client's pane. An answer's is the
 * dialog's token (answer.c), whole, colons and all.
 */
int
cmd_key_act(struct lisa_ctx *ctx, const char *client, const char *arg)
{
	char	*pane, out[512], what[16], *inc = NULL;
	char	*copy, *orig, *reply = NULL;

	if (arg == NULL)
		return (menu_message(ctx, client, "lisa: no pane"));
	orig = copy = xstrdup(arg);
	strlcpy(what, strsep(&copy, ":"), sizeof what);
	pane = copy != NULL ? strsep(&copy, ":") : NULL;
	if (copy != NULL && *copy != '\0')
		inc = copy;
	if (strcmp(what, "reply") == 0 && pane != NULL && *pane != '%' &&
	    inc != NULL) {
		/* The text tmux's prompt put in a buffer: read, then gone. */
		xasprintf(&reply, "%%%s", pane);
		pane = reply;
		if ((reply = menu_reply_text(ctx, pane + 1)) == NULL) {
			free(orig);
			free(pane);
			return (menu_message(ctx, client, "lisa: no reply"));
		}
	} else if (pane != NULL && pane[0] == '%')
		pane = xstrdup(pane);
	else if ((pane = menu_client_pane(ctx, client)) == NULL) {
		free(orig);
		return (menu_message(ctx, client, "lisa: no pane"));
	}
	{
		const char	*argv[8];
		int		 a = 0;

		/* (each as the menu showed it: the pane and its agent) */
		if (strcmp(what, "fallback") == 0) {
			argv[a++] = "retry";
			argv[a++] = pane;
			argv[a++] = "--fallback";
		} else if (reply != NULL || (inc != NULL &&
		    (strcmp(what, "allow") == 0 || strcmp(what, "deny") == 0 ||
		    (*what >= '1' && *what <= '9' && what[1] == '\0')))) {
			argv[a++] = "answer";
			argv[a++] = pane;
			if (reply != NULL)
				argv[a++] = "--reply";
			argv[a++] = reply != NULL ? reply : what;
			argv[a++] = "--expect";
			argv[a++] = inc;
		} else {
			argv[a++] = what;
			argv[a++] = pane;
			if (inc != NULL && (strcmp(what, "nudge") == 0 ||
			    strcmp(what, "kill") == 0)) {
				argv[a++] = "--expect";
				argv[a++] = inc;
			}
		}
		argv[a] = NULL;
		menu_run_lisa(ctx, argv, out, sizeof out);
	}
	free(pane);
	free(orig);
	free(reply);
	{
		struct buf	b;

		buf_init(&b);
		menu_text(&b, *out != '\0' ? out : "lisa: done");
		return (menu_message(ctx, client, b.data));
	}
}

