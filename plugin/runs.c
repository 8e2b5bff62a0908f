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
#include "run.h"

struct hrun {
	char			 id[32];
	int			 pane;
	char			*name;
	char			*base;
	int			 attempt;
	int			 started;	/* event sent */
	int			 finished;	/* event sent */
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

/* A record changed (the wrapper says so): read it, report new steps. */
int
runs_update(const char *id, char **cause)
{
	struct run	 r;
	struct hrun	*h;
	struct pane	*p;

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
	}
	if (r.lifecycle != NULL && strcmp(r.lifecycle, "finished") == 0 &&
	    !h->finished) {
		h->finished = 1;
		free(h->termination);
		h->termination = r.termination != NULL ?
		    xstrdup(r.termination) : NULL;
		runs_event(h, "run_finished");
		log_debug("run %s (%s) finished: %s", h->id, h->name,
		    h->termination != NULL ? h->termination : "?");
	}
	if ((p = pane_find(h->pane)) != NULL)
		listener_pane_changed(p);
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
