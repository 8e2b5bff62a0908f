/*
 * tmux hooks. There is no control-mode notification for a pane's death, so
 * pane-died (fired at once for panes kept by remain-on-exit) runs
 * `lisa _hook` in the background into our socket; session-created covers
 * the moment no control client is attached to tell us, and only then
 * runs anything (@lisa_ears, session.c). None waits: a
 * hook that holds tmux's global queue holds every notification, and one
 * held for a session killed meanwhile crashes tmux (GitHub issue 5244).
 * client-detached fires when our own control clients go, as they do when
 * the helper dies: `lisa _hook` then finds no helper and says so in the
 * status line (a clean stop takes the hooks out first). It runs nothing
 * while the session it fires for still has a client of ours (a control
 * client without a terminal is named client-PID): a human's detach, or a
 * killed session (tmux then names another), costs no process. Ours live
 * at [LISA_HOOK_INDEX] of each hook array and leave the user's alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"

/*
 * The hook body: run-shell [-b] "'lisa' _hook 'socket' EVENT ARGS". Three
 * layers of quoting: shell (our paths), format (run-shell expands '#', so
 * paths get "##"), and tmux command syntax (ctl_quote). Always -b: tmux
 * goes on at once; `lisa _hook` prints nothing (tmux would show it).
 */
static char *
hooks_body(const char *event, const char *args)
{
	struct buf	sh, fmt, cmd;

	buf_init(&sh);
	ctl_shell_quote(&sh, lisad.lisa_bin);
	buf_adds(&sh, " _hook ");
	ctl_shell_quote(&sh, lisad.sockpath);
	buf_printf(&sh, " %s", event);
	buf_init(&fmt);
	ctl_format_escape(&fmt, sh.data);
	if (args != NULL)
		buf_printf(&fmt, " %s", args);	/* our own formats */
	buf_init(&cmd);
	buf_adds(&cmd, "run-shell -b ");
	ctl_quote(&cmd, fmt.data, fmt.len);
	buf_free(&sh);
	buf_free(&fmt);
	return (buf_detach(&cmd));
}

/* One hook of ours set (body) or unset (NULL), as a line of a script. */
static void
hooks_line(struct buf *script, const char *hook, const char *body)
{
	buf_printf(script, "set-hook -g%s %s[%d]", body == NULL ? "u" : "",
	    hook, LISA_HOOK_INDEX);
	if (body != NULL) {
		buf_addc(script, ' ');
		ctl_quote_str(script, body);
	}
	buf_addc(script, '\n');
}

/*
 * A hook whose body runs only when the format COND is empty (if-shell
 * -F: a format, no process).
 */
static void
hooks_line_unless(struct buf *script, const char *hook, const char *cond,
    const char *body)
{
	struct buf	wrap;

	buf_init(&wrap);
	buf_printf(&wrap, "if-shell -F '#{?%s,,1}' ", cond);
	ctl_quote_str(&wrap, body);
	hooks_line(script, hook, wrap.data);
	buf_free(&wrap);
}

/* All in one tmux process (a process each was most of a start's cost). */
int
hooks_install(void)
{
	struct buf	 script;
	char		*body;
	int		 rc;

	buf_init(&script);
	if (lisad.dead_hook) {
		/* (its pid: a hook that comes after a respawn is stale) */
		body = hooks_body("pane-died", "'#{pane_id}' "
		    "'#{pane_dead_status}' '#{pane_dead_signal}' '#{pane_pid}'");
		hooks_line(&script, "pane-died", body);
		free(body);
	}
	body = hooks_body("session-created", "'#{session_id}'");
	hooks_line_unless(&script, "session-created", "@lisa_ears", body);
	free(body);
	body = hooks_body("client-detached", "'#{socket_path}'");
	hooks_line_unless(&script, "client-detached",
	    "#{m:*client-*,#{session_attached_list}}", body);
	free(body);
	/*
	 * A death notice of the helper before us (lisa.c) is over, and its
	 * ears are gone (ours are set once a client is attached). Our first
	 * session list unsets them too, but only if tmux answers it: here
	 * it costs a line of a script already sent.
	 */
	buf_adds(&script, "set-option -gqu @lisa_error\n"
	    "set-option -gqu @lisa_down\n"
	    "set-option -gqu @lisa_ears\n");
	rc = tmux_source(script.data) == 0 ? 0 : -1;
	buf_free(&script);
	lisad.hooks_installed = (rc == 0);
	if (rc != 0)
		log_warnx("could not install tmux hooks");
	return (rc);
}

void
hooks_remove(void)
{
	struct buf	script;

	buf_init(&script);
	hooks_line(&script, "pane-died", NULL);
	hooks_line(&script, "session-created", NULL);
	hooks_line(&script, "client-detached", NULL);
	buf_adds(&script, "set-option -gqu @lisa_ears\n");
	tmux_source(script.data);
	buf_free(&script);
	lisad.hooks_installed = 0;
}
