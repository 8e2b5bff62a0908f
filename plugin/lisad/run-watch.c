/*
 * The helper's view of `lisa run` runs: the wrapper pokes us after each
 * write of its record (runs/ID.json); we read it, tie it to its pane, and
 * make each step an event once: run_started, run_finished (with the
 * termination record).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"

/*
 * After a run ends, when to look for its wrapper's death (ms), and how many
 * looks more, each twice as late, while it is still there (~32 s in all).
 */
#define RUNS_DEATH_LOOK 250
#define RUNS_DEATH_LOOKS 7

struct hrun {
	char			 id[32];
	int			 pane;
	char			*name;
	char			*base;
	int			 attempt;
	int			 started;	/* event sent */
	int			 finished;	/* event sent */
	int			 looks;		/* for the wrapper's death */
	char			*termination;
	int			 exit_code;
	int			 signal;
	TAILQ_ENTRY(hrun)	 entry;
};
static TAILQ_HEAD(, hrun) hruns = TAILQ_HEAD_INITIALIZER(hruns);
static char *runs_dirpath;

static struct hrun *
runs_find_id(const char *id)
{
	struct hrun	*h;

	TAILQ_FOREACH(h, &hruns, entry) {
		if (strcmp(h->id, id) == 0)
			return (h);
	}
	return (NULL);
}

/* The newest run shown in a pane, if any. */
static struct hrun *
runs_find_pane(int pane)
{
	struct hrun	*h, *found = NULL;

	TAILQ_FOREACH(h, &hruns, entry) {
		if (h->pane == pane)
			found = h;
	}
	return (found);
}

static void
runs_event(struct hrun *h, const char *type)
{
	struct buf	b;

	buf_init(&b);
	json_key(&b, "run");
	json_cstr(&b, h->id);
	json_key(&b, "name");
	json_cstr(&b, h->name);
	json_key(&b, "attempt");
	buf_printf(&b, "%d", h->attempt);
	if (h->termination != NULL) {
		json_key(&b, "termination");
		buf_adds(&b, h->termination);
	}
	events_json_add(type, h->pane, b.data);
	buf_free(&b);
}

/* The reason in a termination record, or "". */
static void
runs_reason(const char *term, char *out, size_t len)
{
	struct json_doc	*d;
	char		*cause = NULL, *reason;

	*out = '\0';
	if (term == NULL || (d = json_parse(term, strlen(term), &cause)) ==
	    NULL) {
		free(cause);
		return;
	}
	if ((reason = json_get_str(d, 0, "reason")) != NULL)
		strlcpy(out, reason, len);
	free(reason);
	json_free(d);
}

/*
 * Out of retries and fallbacks: the human decides, when they choose to.
 * Nothing opens on a client by itself (a menu there took the next key
 * pressed: a user's prefix a picked "Abort"); a marker beside the run's
 * record puts it first in lisa's menu and its next-key, and it is told.
 */
static void
runs_escalate(struct hrun *h)
{
	struct pane	*p = pane_find(h->pane);
	char		*cause = NULL, *path;
	int		 fd;

	if (runs_dirpath == NULL &&
	    (runs_dirpath = run_dir(lisad.rundir, &cause)) == NULL) {
		log_warnx("%s", cause);
		free(cause);
		return;
	}
	if ((path = run_escalate_path(runs_dirpath, h->id)) == NULL)
		return;
	fd = open(path, O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW|O_CLOEXEC, 0600);
	if (fd == -1)
		log_warn("%s", path);
	else
		close(fd);
	free(path);
	if (p != NULL)
		notify_escalate(p, h->name);
}

/* Start the next run in the same pane. */
static int
runs_launch(struct run *next)
{
	struct pane	*p;
	struct session	*s;
	struct buf	 b;
	char		*cause = NULL, *text;

	if (next->pane[0] != '%' ||
	    (p = pane_find((int)strtol(next->pane + 1, NULL, 10))) == NULL ||
	    (s = pane_session(p)) == NULL)
		return (-1);
	if (run_write(runs_dirpath, next, &cause) != 0) {
		log_warnx("run %s: %s", next->id, cause);
		free(cause);
		return (-1);
	}
	buf_init(&b);
	/* (the pane's id as we hold it, not the record's text) */
	buf_printf(&b, "respawn-pane -k -t %%%d", p->id);
	/* (-c and rename-window's name are formats to tmux: text here) */
	if (next->cwd != NULL) {
		text = ctl_format_str(next->cwd);
		buf_adds(&b, " -c ");
		ctl_quote_str(&b, text);
		free(text);
	}
	buf_adds(&b, " -- ");
	ctl_quote_str(&b, lisad.lisa_bin);
	buf_adds(&b, " -S ");
	ctl_quote_str(&b, lisad.sid.socket);
	buf_printf(&b, " _run %s", next->id);
	session_send(s, b.data, NULL, NULL);
	pane_drain_respawned(p);
	buf_reset(&b);
	buf_printf(&b, "rename-window -t '%s' ", next->pane);
	text = ctl_format_str(next->name);
	ctl_quote_str(&b, text);
	free(text);
	session_send(s, b.data, NULL, NULL);
	buf_free(&b);
	return (0);
}

/* A retry waiting for its delay. */
struct runs_pending {
	struct run		 run;
	struct loop_timer	 timer;
};

static void
runs_pending_cb(void *arg)
{
	struct runs_pending	*pend = arg;

	if (runs_launch(&pend->run) != 0)
		log_debug("run %s: pane gone, not started", pend->run.id);
	run_free(&pend->run);
	free(pend);
}

/*
 * A run ended in error: the same command again while --retries allows,
 * then the fallback (its count started again), then the human.
 */
static void
runs_recover(struct hrun *h, const struct run *r)
{
	struct run	 next;
	struct buf	 b;
	char		 reason[32];
	struct runs_pending	*pend;
	uint64_t	 delay;
	int		 crash, fallback, spawn;
	const char	*step;

	runs_reason(r->termination, reason, sizeof reason);
	if (r->retries <= 0 || strcmp(reason, "error") != 0)
		return;
	crash = r->signal > 0 || r->exit_code >= 128;
	/* Could not start (126, 127): the same again would not either. */
	spawn = r->signal <= 0 && (r->exit_code == 126 || r->exit_code == 127);
	if (r->attempt <= r->retries && !spawn)
		fallback = 0;
	else if (r->fallback != NULL && !r->on_fallback)
		fallback = 1;
	else {
		buf_init(&b);
		buf_printf(&b, "\"run\":\"%s\",\"name\":", h->id);
		json_cstr(&b, h->name);
		events_json_add("run_escalate", h->pane, b.data);
		buf_free(&b);
		runs_escalate(h);
		return;
	}
	run_next(r, fallback, &next);
	/* The fallback's counts start again (run_next). */
	if (!fallback) {
		next.crashes += crash;
		next.failures += !crash;
	}
	step = fallback ? "run_fallback" : "run_retry";
	/* A little longer each time: what failed at once may pass later. */
	delay = lisad.retry_delay_ms * (uint64_t)(fallback ? 1 : r->attempt);
	buf_init(&b);
	buf_printf(&b, "\"run\":\"%s\",\"next\":\"%s\",\"name\":",
	    h->id, next.id);
	json_cstr(&b, next.name);
	buf_printf(&b, ",\"attempt\":%d,\"kind\":\"%s\",\"delay_ms\":%llu",
	    next.attempt, crash ? "crash" : "failure",
	    (unsigned long long)delay);
	events_json_add(step, h->pane, b.data);
	buf_free(&b);
	log_debug("run %s: %s as %s (%s) in %llu ms", h->id, step, next.id,
	    next.name, (unsigned long long)delay);
	pend = xcalloc(1, sizeof *pend);
	pend->run = next;	/* the pending launch owns it now */
	loop_timer_init(&pend->timer, runs_pending_cb, pend);
	loop_timer_add(&pend->timer, delay);
}

/* A record changed (the wrapper says so): read it, report new steps. */
int
runs_update(const char *id, char **cause)
{
	struct run	 r;
	struct hrun	*h;
	struct pane	*p;
	int		 finished = 0;	/* in this update */

	if (runs_dirpath == NULL &&
	    (runs_dirpath = run_dir(lisad.rundir, cause)) == NULL)
		return (-1);
	if (strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789") !=
	    strlen(id)) {
		xasprintf(cause, "bad run id");
		return (-1);
	}
	if (run_read(runs_dirpath, id, &r, cause) != 0)
		return (-1);
	if (r.server == NULL || strcmp(r.server, lisad.sid.socket) != 0) {
		run_free(&r);
		xasprintf(cause, "run %s is another server's", id);
		return (-1);
	}
	if ((h = runs_find_id(id)) == NULL) {
		h = xcalloc(1, sizeof *h);
		strlcpy(h->id, id, sizeof h->id);
		h->pane = -1;
		TAILQ_INSERT_TAIL(&hruns, h, entry);
	}
	free(h->name);
	h->name = xstrdup(r.name != NULL ? r.name : "");
	free(h->base);
	h->base = xstrdup(r.base != NULL ? r.base : h->name);
	h->attempt = r.attempt;
	if (r.pane[0] == '%')
		h->pane = (int)strtol(r.pane + 1, NULL, 10);
	h->exit_code = r.exit_code;
	h->signal = r.signal;
	if (r.lifecycle != NULL && !h->started &&
	    (strcmp(r.lifecycle, "running") == 0 ||
	    strcmp(r.lifecycle, "finished") == 0)) {
		h->started = 1;
		runs_event(h, "run_started");
		/* The run before in this pane, shown as "run", is over. */
		if ((p = pane_find(h->pane)) != NULL && p->watch != NULL &&
		    p->watch->agent != NULL &&
		    strcmp(p->watch->agent->name, "run") == 0)
			ended_dismiss(p, "its next run");
	}
	if (r.lifecycle != NULL && strcmp(r.lifecycle, "finished") == 0 &&
	    !h->finished) {
		h->finished = finished = 1;
		free(h->termination);
		h->termination = r.termination != NULL ?
		    xstrdup(r.termination) : NULL;
		runs_event(h, "run_finished");
		log_debug("run %s (%s) finished: %s", h->id, h->name,
		    h->termination != NULL ? h->termination : "?");
		runs_recover(h, &r);
	}
	if ((p = pane_find(h->pane)) != NULL) {
		/* Not an agent lisa knows: its run's ending is shown. */
		if (finished && p->watch != NULL)
			watch_run_ended(p, h->exit_code, h->signal);
		/*
		 * A run just ended: the wrapper is the pane's process and
		 * leaves right after; look for its death soon, in case tmux
		 * misses it (watch-proc.c).
		 */
		if (finished && p->dead && p->dead_status == -1 &&
		    p->dead_signal == -1)
			pane_exit_look(p);	/* died first */
		else if (finished)
			watch_rescan_in(p, RUNS_DEATH_LOOK);
		listener_pane_changed(p);
	}
	run_free(&r);
	return (0);
}

/* "run": {...} for a pane's status, or nothing. */
void
runs_pane_json(struct buf *b, int pane)
{
	struct hrun	*h;

	if ((h = runs_find_pane(pane)) == NULL)
		return;
	json_key(b, "run");
	buf_addc(b, '{');
	json_key(b, "id");
	json_cstr(b, h->id);
	json_key(b, "name");
	json_cstr(b, h->name);
	json_key(b, "attempt");
	buf_printf(b, "%d", h->attempt);
	json_key(b, "termination");
	buf_adds(b, h->termination != NULL ? h->termination : "null");
	buf_addc(b, '}');
}

int
runs_is_run_pane(int pane)
{
	return (runs_find_pane(pane) != NULL);
}

/*
 * How the pane's run ended, as its wrapper wrote down: the wrapper then
 * leaves the same way, so it is the pane's status too. -1 if unknown.
 */
int
runs_pane_exit(int pane, int *status, int *sig)
{
	struct hrun	*h;

	if ((h = runs_find_pane(pane)) == NULL || !h->finished ||
	    (h->signal <= 0 && h->exit_code < 0))
		return (-1);
	*sig = h->signal > 0 ? h->signal : -1;
	*status = h->signal > 0 ? -1 : h->exit_code;
	return (0);
}

/*
 * The pane's run has ended and its wrapper, the pane's process, is still
 * there: it waits for our answer to its last word, then goes, and on a busy
 * machine that can take seconds. Without pidfd, and with a tmux that drops
 * the SIGCHLD (no pane-died hook), only a look sees it go: when to look
 * again (ms from now), or 0 once enough looks were spent.
 */
uint64_t
runs_leave_look(int pane)
{
	struct hrun	*h;

	if ((h = runs_find_pane(pane)) == NULL || !h->finished ||
	    h->looks >= RUNS_DEATH_LOOKS - 1)
		return (0);
	h->looks++;
	return ((uint64_t)RUNS_DEATH_LOOK << h->looks);
}

/* Someone ends this pane's run on purpose: the wrapper will say so. */
void
runs_mark_killed(int pane, const char *by)
{
	struct hrun	*h;
	char		*cause = NULL, *path;
	int		 fd;

	if ((h = runs_find_pane(pane)) == NULL || h->finished)
		return;
	if (runs_dirpath == NULL &&
	    (runs_dirpath = run_dir(lisad.rundir, &cause)) == NULL) {
		free(cause);
		return;
	}
	xasprintf(&path, "%s/%s.kill", runs_dirpath, h->id);
	fd = open(path, O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW|O_CLOEXEC, 0600);
	if (fd == -1 || write(fd, by, strlen(by)) != (ssize_t)strlen(by))
		log_warn("%s", path);
	if (fd != -1)
		close(fd);
	free(path);
}

/* The watchdog's triage said retry: the pane's run as its next attempt. */
int
runs_retry_pane(struct pane *p)
{
	struct hrun	*h;
	struct run	 r, next;
	char		*cause = NULL;
	int		 rc;

	if ((h = runs_find_pane(p->id)) == NULL || runs_dirpath == NULL ||
	    run_read(runs_dirpath, h->id, &r, &cause) != 0) {
		free(cause);
		return (-1);
	}
	runs_mark_killed(p->id, "daemon");
	run_next(&r, 0, &next);
	rc = runs_launch(&next);
	if (rc == 0) {
		struct buf	b;

		buf_init(&b);
		buf_printf(&b, "\"run\":\"%s\",\"next\":\"%s\",\"name\":",
		    h->id, next.id);
		json_cstr(&b, next.name);
		buf_adds(&b, ",\"kind\":\"watchdog\"");
		events_json_add("run_retry", p->id, b.data);
		buf_free(&b);
	}
	run_free(&r);
	run_free(&next);
	return (rc);
}
