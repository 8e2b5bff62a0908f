/*
 * {"cmd":"tmux","argv":[...]}: a key's own tmux command (cmd-key-to.c),
 * run on one of the helper's control connections instead of by a tmux
 * client started for it. prefix A to a remote agent asked tmux five to
 * seven things (its host's window, two options, the window made or
 * respawned and marked), each a process; here each is a line on a
 * connection that is already open.
 *
 * Only commands that return at once: a menu, a prompt, a confirm or a
 * wait would hold that connection's queue and with it everything lisa
 * hears of the session. Nothing here may change what a user looks at:
 * a window is made with -d, a message is printed (-p), never shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"

#define KEY_TMUX_MAX_ARGS	24
#define KEY_TMUX_WAIT_MS	2000	/* tmux did not answer: say so */

struct key_tmux {
	struct listener_conn	*lc;		/* NULL once it went away */
	int			 session;	/* whose connection runs it */
	struct loop_timer	 timer;
	TAILQ_ENTRY(key_tmux)	 entry;
};
static TAILQ_HEAD(, key_tmux) key_tmuxes = TAILQ_HEAD_INITIALIZER(key_tmuxes);

/*
 * The commands a key may run here, and the flag each must carry (for
 * new-window, -d: not selected; for display-message, -p: printed).
 */
static const struct {
	const char	*name;
	const char	*needs;
} key_tmux_allowed[] = {
	{ "display-message", "-p" },
	{ "list-clients", NULL },
	{ "list-windows", NULL },
	{ "new-window", "-d" },
	{ "respawn-pane", NULL },
	{ "set-option", NULL },
	{ "show-options", NULL },
};

static int
key_tmux_allow(char **argv, int argc)
{
	size_t	i;
	int	j;

	for (i = 0; i < sizeof key_tmux_allowed / sizeof key_tmux_allowed[0];
	    i++) {
		if (strcmp(argv[0], key_tmux_allowed[i].name) != 0)
			continue;
		if (key_tmux_allowed[i].needs == NULL)
			return (1);
		/* Its own word, before the command's words end (-- or one
		 * not a flag): not a -p that is text. */
		for (j = 1; j < argc && argv[j][0] == '-' &&
		    strcmp(argv[j], "--") != 0; j++) {
			if (strcmp(argv[j], key_tmux_allowed[i].needs) == 0)
				return (1);
		}
		return (0);
	}
	return (0);
}

static void
key_tmux_finish(struct key_tmux *kt, struct buf *b)
{
	if (kt->lc != NULL)
		listener_send(kt->lc, b);
	loop_timer_del(&kt->timer);
	TAILQ_REMOVE(&key_tmuxes, kt, entry);
	free(kt);
}

static void
key_tmux_cb(__unused struct ctl_client *c, int ok, const char *body,
    size_t len, void *arg)
{
	struct key_tmux	*kt = arg;
	struct buf	 b, out;

	buf_init(&out);
	buf_add(&out, body, len);
	if (len != 0)
		buf_addc(&out, '\n');	/* as a tmux client prints it */
	buf_addc(&out, '\0');
	buf_init(&b);
	buf_printf(&b, "{\"ok\":true,\"status\":%d", ok ? 0 : 1);
	json_key(&b, ok ? "out" : "error");
	json_cstr(&b, out.data);
	buf_addc(&b, '}');
	key_tmux_finish(kt, &b);
	buf_free(&b);
	buf_free(&out);
}

static void
key_tmux_timeout(void *arg)
{
	struct key_tmux	*kt = arg;
	struct session	*s;
	struct buf	 b;

	/* Its reply, if it comes, finds nobody. */
	if ((s = session_find(kt->session)) != NULL && s->ctl != NULL)
		ctl_client_cancel_arg(s->ctl, kt);
	buf_init(&b);
	buf_adds(&b, "{\"ok\":false,\"error\":\"tmux did not answer\"}");
	key_tmux_finish(kt, &b);
	buf_free(&b);
}

/* The connection with the least waiting on it: a quiet session's. */
static struct session *
key_tmux_session(void)
{
	struct session	*s, *best = NULL;
	size_t		 n, least = 0;

	RB_FOREACH(s, sessions, &sessions) {
		if (!s->attached || s->closing || s->broken || s->ctl == NULL)
			continue;
		n = ctl_client_inflight(s->ctl) + (s->behind ? 1000 : 0);
		if (best == NULL || n < least) {
			best = s;
			least = n;
		}
	}
	return (best);
}

/* Run it and answer lc when tmux has; 0, or -1 with *cause. */
int
key_tmux_request(struct listener_conn *lc, struct json_doc *d,
    const char **cause)
{
	struct key_tmux	*kt;
	struct session	*s;
	struct buf	 cmd;
	char		*argv[KEY_TMUX_MAX_ARGS];
	int		 arr, argc, i, rc = -1;

	arr = json_get(d, 0, "argv");
	argc = json_array_size(d, arr);
	if (argc <= 0 || argc > KEY_TMUX_MAX_ARGS) {
		*cause = "argv: one tmux command, its words";
		return (-1);
	}
	memset(argv, 0, sizeof argv);
	for (i = 0; i < argc; i++) {
		if (json_tok_str(d, json_array_item(d, arr, i),
		    &argv[i]) != 0 || argv[i] == NULL) {
			*cause = "argv: strings only";
			goto out;
		}
	}
	if (!key_tmux_allow(argv, argc)) {
		*cause = "not a command a key runs here";
		goto out;
	}
	if ((s = key_tmux_session()) == NULL) {
		*cause = "no session to ask tmux from";
		goto out;
	}
	buf_init(&cmd);
	ctl_quote_argv(&cmd, argv, argc);
	buf_addc(&cmd, '\0');
	kt = xcalloc(1, sizeof *kt);
	kt->lc = lc;
	kt->session = s->id;
	loop_timer_init(&kt->timer, key_tmux_timeout, kt);
	TAILQ_INSERT_TAIL(&key_tmuxes, kt, entry);
	if (session_send(s, cmd.data, key_tmux_cb, kt) != 0) {
		TAILQ_REMOVE(&key_tmuxes, kt, entry);
		free(kt);
		*cause = "the session's connection is closing";
	} else {
		loop_timer_add(&kt->timer, KEY_TMUX_WAIT_MS);
		rc = 0;
	}
	buf_free(&cmd);
out:
	for (i = 0; i < argc; i++)
		free(argv[i]);
	return (rc);
}

void
key_tmux_conn_gone(struct listener_conn *lc)
{
	struct key_tmux	*kt;

	TAILQ_FOREACH(kt, &key_tmuxes, entry) {
		if (kt->lc == lc)
			kt->lc = NULL;
	}
}

/* The helper stops: its connections (and their replies) go with it. */
void
key_tmux_close(void)
{
	struct key_tmux	*kt;

	while ((kt = TAILQ_FIRST(&key_tmuxes)) != NULL) {
		loop_timer_del(&kt->timer);
		TAILQ_REMOVE(&key_tmuxes, kt, entry);
		free(kt);
	}
}
