/*
 * Going to a remote agent (docs/fleet.md): a local window that runs
 * `ssh -t HOST tmux attach -t %N` for that host, made once and reused: a
 * jump to another pane of the same host respawns it there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisa.h"

/* The window of a host's jumps: window option @lisa_jump = HOST. */
static char *
jump_window(struct lisa_ctx *ctx, const char *host)
{
	const char	*argv[] = { "list-windows", "-a", "-F",
			    "#{window_id} #{@lisa_jump}", NULL };

	return (client_tmux_find(ctx, argv, '@', host));
}

/*
 * The shell command the window runs: the user's ssh, -t, the host, and
 * tmux -u attach at the pane there (the remote shell's words quoted for
 * it).
 */
static char *
jump_command(struct lisa_ctx *ctx, const char *host, int id)
{
	const char	*argv[] = { "show-options", "-gqv", "@lisa-ssh-command",
			    NULL };
	const char	*targv[] = { "show-options", "-gqv",
			    "@lisa-remote-tmux", NULL };
	struct buf	 b, remote;
	char		*ssh = NULL, *tmux = NULL, *dest, *sock;

	if (client_tmux(ctx, &ssh, argv) != 0 || ssh == NULL || *ssh == '\0') {
		free(ssh);
		ssh = xstrdup("ssh");
	}
	/* The user's own text for the remote shell (a path, env PATH=...). */
	if (client_tmux(ctx, &tmux, targv) != 0 || tmux == NULL ||
	    *tmux == '\0') {
		free(tmux);
		tmux = xstrdup("tmux");
	}
	dest = xstrdup(host);
	if ((sock = strchr(dest, '/')) != NULL)
		*sock++ = '\0';
	buf_init(&remote);
	buf_adds(&remote, tmux);
	free(tmux);
	/*
	 * It draws into a pane of this tmux, which takes UTF-8 whatever
	 * locale the remote shell starts with (without -u every glyph of
	 * it became "_" where ssh set none).
	 */
	buf_adds(&remote, " -u");
	if (sock != NULL) {
		buf_adds(&remote, " -L ");
		ctl_shell_quote(&remote, sock);
	}
	buf_printf(&remote, " attach -t %%%d", id);
	buf_init(&b);
	buf_printf(&b, "exec %s -t -- ", ssh);
	ctl_shell_quote(&b, dest);
	buf_addc(&b, ' ');
	ctl_shell_quote(&b, remote.data);
	buf_free(&remote);
	free(ssh);
	free(dest);
	return (buf_detach(&b));
}

/* The session CLIENT looks at ("$N"), or NULL. */
static char *
jump_client_session(struct lisa_ctx *ctx, const char *client)
{
	const char	*argv[] = { "list-clients", "-F",
			    "#{session_id} #{client_name}", NULL };
	char		*id, *target = NULL;

	if ((id = client_tmux_find(ctx, argv, '$', client)) != NULL)
		xasprintf(&target, "%s:", id);
	free(id);
	return (target);
}

/* lisa key jump CLIENT %N@HOST */
int
cmd_key_jump(struct lisa_ctx *ctx, const char *client, const char *target)
{
	const char	*at;
	char		*host, *win, *sh, *name, *out = NULL;
	int		 id, rc;

	if (!fleet_is_target(target)) {
		fprintf(stderr, "lisa: key jump: %%N@HOST\n");
		return (2);
	}
	at = strchr(target, '@');
	id = atoi(target + 1);
	host = xstrdup(at + 1);
	sh = jump_command(ctx, host, id);
	if ((win = jump_window(ctx, host)) != NULL) {
		/* There already: attach at this pane instead. */
		const char *argv[] = { "respawn-pane", "-k", "-t", win, sh,
		    NULL };

		rc = client_tmux_all(ctx, &out, argv);
	} else {
		/* In the client's session (else tmux's current one). */
		name = jump_client_session(ctx, client);
		{
			char	   *hname = ctl_format_str(host);
			const char *argv[] = { "new-window", "-d", "-P", "-F",
			    "#{window_id}", "-n", hname, "-t",
			    name != NULL ? name : "", sh, NULL };

			if (name == NULL) {
				argv[7] = sh;
				argv[8] = NULL;
			}
			rc = client_tmux(ctx, &out, argv);
			free(hname);
		}
		free(name);
		if (rc == 0 && out != NULL && out[0] == '@')
			win = xstrdup(out);
	}
	/* What the window shows, for lisa key next (lisa stop unsets it). */
	if (win != NULL) {
		const char *set1[] = { "set-option", "-wq", "-t", win,
		    "@lisa_jump", host, NULL };
		const char *set2[] = { "set-option", "-wq", "-t", win,
		    "@lisa_jump_target", target, NULL };
		char	*o2 = NULL;

		struct buf	 req;
		struct json_doc	*d;
		char		*cause = NULL;

		client_tmux_all(ctx, &o2, set1);
		free(o2);
		o2 = NULL;
		client_tmux_all(ctx, &o2, set2);
		free(o2);
		/* The helper badges the window with the agent's state. */
		buf_init(&req);
		buf_adds(&req, "{\"cmd\":\"jump\",\"window\":");
		json_cstr(&req, win);
		buf_adds(&req, ",\"target\":");
		json_cstr(&req, target);
		buf_adds(&req, "}\n");
		if (client_call(ctx, req.data, &d, &cause) == 0)
			json_free(d);
		free(cause);
		buf_free(&req);
	}
	free(out);
	free(sh);
	free(host);
	if (win == NULL) {
		fprintf(stderr, "lisa: no window for %s\n", target);
		return (1);
	}
	{
		char	*argv[] = { (char *)"switch-client", (char *)"-c",
			    (char *)client, (char *)"-t", win };

		return (menu_exec(ctx, argv, 5));
	}
}
