/*
 * Acting on an agent pane: lisa nudge, lisa kill, lisa retry. The menu's
 * actions run these.
 */
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

/* The pane's classification, from the helper; NULL if none. */
struct json_doc *
act_status(struct lisa_ctx *ctx, const char *pane, int *obj)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*cause = NULL;

	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"status\",\"pane\":");
	json_cstr(&req, pane);
	buf_adds(&req, "}\n");
	if (client_call(ctx, req.data, &d, &cause) != 0) {
		free(cause);
		buf_free(&req);
		return (NULL);
	}
	buf_free(&req);
	*obj = json_get(d, 0, "pane");
	return (d);
}

/* Does the pane have a `lisa run` record (2: one with a fallback)? */
static int
act_has_run(struct lisa_ctx *ctx, const char *pane)
{
	struct run	*list;
	size_t		 n, i;
	int		 found = 0;

	if (run_list(ctx, &list, &n, 0) != 0)
		return (0);
	for (i = 0; i < n; i++) {
		if (strcmp(list[i].pane, pane) == 0)
			found = list[i].fallback != NULL ? 2 : 1;
		run_free(&list[i]);
	}
	free(list);
	return (found);
}

/*
 * The dialog it waits on, as lisa read it: its token (what an answer
 * from the menu names) and what it asks, in a line.
 */
static void
act_question(struct json_doc *d, int q, struct act_facts *f)
{
	char	*fp, *kind, *subject, *text, *o;
	int	 arr, i, n;

	if (q < 0 || (fp = json_get_str(d, q, "token")) == NULL)
		return;
	kind = json_get_str(d, q, "kind");
	subject = json_get_str(d, q, "subject");
	text = json_get_str(d, q, "text");
	strlcpy(f->token, fp, sizeof f->token);
	question_asks(kind, subject, text, f->asks, sizeof f->asks);
	if (kind != NULL)
		strlcpy(f->kind, kind, sizeof f->kind);
	/* Its options as drawn ("1. Option A"): a question's answers. */
	arr = json_get(d, q, "options");
	n = arr == -1 ? 0 : json_array_size(d, arr);
	for (i = 0; i < n && f->noptions < QUESTION_MAX_OPTIONS; i++) {
		if (json_tok_str(d, json_array_item(d, arr, i), &o) != 0)
			continue;
		strlcpy(f->options[f->noptions++], o, sizeof f->options[0]);
		free(o);
	}
	free(fp);
	free(kind);
	free(subject);
	free(text);
}

/* What the menu needs to know to offer only the actions that apply. */
void
act_facts(struct lisa_ctx *ctx, const char *pane, struct act_facts *f)
{
	struct json_doc	*d;
	char		*agent, *state, *detail;
	int		 obj, run;

	memset(f, 0, sizeof *f);
	if ((d = act_status(ctx, pane, &obj)) != NULL && obj >= 0) {
		agent = json_get_str(d, obj, "agent");
		state = json_get_str(d, obj, "state");
		f->agent = agent != NULL && *agent != '\0';
		f->ended = state != NULL && (strcmp(state, "crashed") == 0 ||
		    strcmp(state, "completed") == 0);
		detail = json_get_str(d, obj, "detail");
		f->dialog = guard_verdict(state, detail) != NULL;
		free(detail);
		detail = json_get_str(d, obj, "incarnation");
		if (detail != NULL)
			strlcpy(f->incarnation, detail, sizeof f->incarnation);
		free(detail);
		act_question(d, json_get(d, obj, "question"), f);
		free(agent);
		free(state);
	}
	if (d != NULL)
		json_free(d);
	run = act_has_run(ctx, pane);
	f->run = run != 0;
	f->fallback = run == 2;
}

/* Does the helper see an agent in the pane (alive, or ended)? */
int
act_has_agent(struct lisa_ctx *ctx, const char *pane)
{
	struct json_doc	*d;
	char		*agent;
	int		 obj, has;

	if ((d = act_status(ctx, pane, &obj)) == NULL || obj < 0)
		return (0);
	agent = json_get_str(d, obj, "agent");
	has = agent != NULL && *agent != '\0';
	free(agent);
	json_free(d);
	return (has);
}

/*
 * The pane an action is for: given explicitly (never the current pane by
 * default: a nudge typed into a plain shell runs there), one tmux has,
 * and one with an agent (kill: or a run record) unless forced. NULL after
 * saying why.
 */
/* The pane an action names ("%N"); NULL after saying why. */
static char *
act_target(struct lisa_ctx *ctx, const char *verb, const char *target)
{
	if (target == NULL) {
		fprintf(stderr, "lisa: %s needs a PANE (e.g. lisa %s %%3)\n",
		    verb, verb);
		return (NULL);
	}
	/* (client_resolve said why, in tmux's words) */
	return (client_resolve(ctx, target));
}

static char *
act_pane(struct lisa_ctx *ctx, const char *verb, const char *target,
    int force)
{
	char	*pane;

	if ((pane = act_target(ctx, verb, target)) == NULL)
		return (NULL);
	if (force || act_has_agent(ctx, pane) ||
	    (strcmp(verb, "kill") == 0 && act_has_run(ctx, pane)))
		return (pane);
	fprintf(stderr, "lisa: %s has no agent; nothing done (--force to %s "
	    "it anyway)\n", pane, verb);
	free(pane);
	return (NULL);
}

/*
 * lisa nudge PANE [TEXT]: the helper types the text literally (send-keys
 * -l, every byte quoted, so ';', '#{}', quotes and newlines arrive as they
 * are), then Enter half a second later; it reads the screen before each
 * and refuses a dialog, a busy agent or a pane that changed (act.c).
 * --force passes the dialog and busy checks, and says what it typed into.
 */
int
cmd_nudge(struct lisa_ctx *ctx, const char *target, const char *text,
    int force, const char *expect)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*pane, *cause = NULL, *past, *choice;

	if ((pane = act_target(ctx, "nudge", target)) == NULL)
		return (1);
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"nudge\",\"pane\":");
	json_cstr(&req, pane);
	buf_adds(&req, ",\"text\":");
	json_cstr(&req, text != NULL ? text : "continue");
	if (expect != NULL) {
		buf_adds(&req, ",\"expect\":");
		json_cstr(&req, expect);
	}
	buf_printf(&req, ",\"force\":%s}\n", force ? "true" : "false");
	if (client_call(ctx, req.data, &d, &cause) != 0) {
		fprintf(stderr, "lisa: %s not nudged: %s\n", pane, cause);
		free(cause);
		buf_free(&req);
		free(pane);
		return (1);
	}
	/* (client_call answered an error above: this is a nudge done) */
	past = json_get_str(d, 0, "forced_past");
	choice = json_get_str(d, 0, "choice");
	if (past != NULL)
		fprintf(stderr, "lisa: forced: the text went into a %s "
		    "dialog%s%s%s\n", past, choice != NULL &&
		    *choice != '\0' ? " and Enter picked \"" : "",
		    choice != NULL ? choice : "", choice != NULL &&
		    *choice != '\0' ? "\"" : "");
	printf("lisa: nudged %s\n", pane);
	free(past);
	free(choice);
	json_free(d);
	buf_free(&req);
	free(pane);
	return (0);
}

/* lisa kill PANE: the helper ends the pane's processes (TERM, then KILL). */
int
cmd_kill(struct lisa_ctx *ctx, const char *target, int force,
    const char *expect)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*pane, *cause = NULL, *err;
	int		 ok = 0;

	if ((pane = act_pane(ctx, "kill", target, force)) == NULL)
		return (1);
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"kill\",\"by\":\"user\",\"pane\":");
	json_cstr(&req, pane);
	if (expect != NULL) {
		buf_adds(&req, ",\"expect\":");
		json_cstr(&req, expect);
	}
	buf_adds(&req, "}\n");
	if (client_call(ctx, req.data, &d, &cause) != 0) {
		fprintf(stderr, "lisa: %s\n", cause);
		return (1);
	}
	json_get_bool(d, 0, "ok", &ok);
	if (!ok) {
		err = json_get_str(d, 0, "error");
		fprintf(stderr, "lisa: %s\n", err != NULL ? err : "failed");
		free(err);
	} else
		printf("lisa: terminating %s (SIGTERM, SIGKILL after 2 s)\n",
		    pane);
	json_free(d);
	buf_free(&req);
	free(pane);
	return (ok ? 0 : 1);
}

/* Tell the helper a pane lives again (tmux < 3.7 would not say). */
static void
act_respawned(struct lisa_ctx *ctx, const char *pane)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*cause = NULL;

	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"hook\",\"event\":\"respawned\","
	    "\"args\":[");
	json_cstr(&req, pane);
	buf_adds(&req, "]}\n");
	if (client_call(ctx, req.data, &d, &cause) == 0)
		json_free(d);
	free(cause);
	buf_free(&req);
}

/*
 * lisa dismiss PANE: an ended agent's verdict (crashed, completed) goes;
 * the events and run records keep it.
 */
int
cmd_dismiss(struct lisa_ctx *ctx, const char *target)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*pane, *cause = NULL;

	if ((pane = act_target(ctx, "dismiss", target)) == NULL)
		return (1);
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"dismiss\",\"pane\":");
	json_cstr(&req, pane);
	buf_adds(&req, "}\n");
	if (client_call(ctx, req.data, &d, &cause) != 0) {
		fprintf(stderr, "lisa: %s: %s\n", pane, cause);
		free(cause);
		buf_free(&req);
		free(pane);
		return (1);
	}
	json_free(d);
	printf("lisa: dismissed %s\n", pane);
	buf_free(&req);
	free(pane);
	return (0);
}

/*
 * Is PANE still the run ID's, now: dead (kept after the run ended), or
 * running that run's wrapper (`lisa _run ID`)? NULL, or why not. A pane
 * respawned since by hand runs something else, which -k would kill.
 */
static const char *
act_run_still_there(struct lisa_ctx *ctx, const char *pane, const char *id)
{
	const char	*argv[] = { "list-panes", "-a", "-F",
			    "#{pane_id} #{pane_dead} #{pane_pid}", NULL };
	char		*out = NULL, *line, *rest, *av[8], buf[4096];
	const char	*why = "the pane is gone";
	size_t		 len = strlen(pane);
	long		 pid;
	int		 ac, i;

	if (client_tmux_all(ctx, &out, argv) != 0 || out == NULL) {
		free(out);
		return ("tmux did not list its panes");
	}
	for (rest = out; (line = strsep(&rest, "\n")) != NULL;) {
		if (strncmp(line, pane, len) != 0 || line[len] != ' ')
			continue;
		if (line[len + 1] == '1') {
			why = NULL;	/* dead: kept for this */
			break;
		}
		why = "the pane runs something else now, not the run";
		pid = strtol(line + len + 3, NULL, 10);
		ac = pid > 0 ? proc_argv((pid_t)pid, buf, sizeof buf, av, 8) :
		    -1;
		for (i = 0; i + 1 < ac; i++) {
			if (strcmp(av[i], "_run") == 0 &&
			    strcmp(av[i + 1], id) == 0)
				why = NULL;
		}
		break;
	}
	free(out);
	return (why);
}

/*
 * lisa retry PANE: the pane's last run again, in the same pane, as the
 * next attempt ("name-r2"); with --fallback, the run's fallback command.
 * Only while the pane is still that run's (--force: anyway).
 */
int
cmd_retry(struct lisa_ctx *ctx, const char *target, int fallback, int force)
{
	const char	*why;
	struct run	*list, r;
	char		*pane, *dir, *cause = NULL, *self, *out = NULL;
	char		*cwd = NULL;
	const char	*argv[16];
	size_t		 n, i, found = (size_t)-1;
	int		 a = 0, rc;

	if ((pane = act_target(ctx, "retry", target)) == NULL)
		return (1);
	if (run_list(ctx, &list, &n, 0) != 0)
		return (1);
	for (i = 0; i < n; i++) {
		if (strcmp(list[i].pane, pane) == 0)
			found = i;
	}
	if (found == (size_t)-1) {
		fprintf(stderr, "lisa: %s was not started by lisa run; nothing "
		    "to retry\n", pane);
		return (1);
	}
	if (fallback && list[found].fallback == NULL) {
		fprintf(stderr, "lisa: the run has no --fallback\n");
		return (1);
	}
	if (!force &&
	    (why = act_run_still_there(ctx, pane, list[found].id)) != NULL) {
		fprintf(stderr, "lisa: %s not respawned: %s (--force to "
		    "anyway)\n", pane, why);
		return (1);
	}
	rc = run_next(&list[found], fallback, &r);
	if ((dir = run_dir(ctx->rundir, &cause)) == NULL ||
	    run_write(dir, &r, &cause) != 0) {
		fprintf(stderr, "lisa: %s\n", cause);
		return (1);
	}
	/* A run that waited for this decision waits no more. */
	escalate_settle(ctx, list[found].id);
	self = client_self();
	argv[a++] = "respawn-pane";
	argv[a++] = "-k";
	argv[a++] = "-t";
	argv[a++] = pane;
	/* (-c and rename-window's name are formats to tmux: text here) */
	if (r.cwd != NULL) {
		cwd = ctl_format_str(r.cwd);
		argv[a++] = "-c";
		argv[a++] = cwd;
	}
	argv[a++] = "--";
	argv[a++] = self;
	argv[a++] = "-S";
	argv[a++] = ctx->sid.socket;
	argv[a++] = "_run";
	argv[a++] = r.id;
	argv[a] = NULL;
	if (client_tmux(ctx, &out, argv) != 0) {
		fprintf(stderr, "lisa: tmux could not respawn %s\n", pane);
		return (1);
	}
	free(out);
	act_respawned(ctx, pane);
	out = NULL;
	{
		char	   *name = ctl_format_str(r.name);
		const char *rn[] = { "rename-window", "-t", pane, name, NULL };

		client_tmux(ctx, &out, rn);
		free(out);
		free(name);
	}
	printf("%s %s %s\n", r.id, r.name, pane);
	for (i = 0; i < n; i++)
		run_free(&list[i]);
	free(list);
	run_free(&r);
	free(dir);
	free(pane);
	free(self);
	free(cwd);
	return (rc);
}
