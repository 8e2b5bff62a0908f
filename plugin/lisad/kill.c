/*
 * Ending an agent on purpose (lisa kill, later the watchdog): SIGTERM to
 * the pane's process tree, deepest first, so children go before the
 * parent that would otherwise report them; after 2 s, SIGKILL to whatever
 * of that tree is still there (the same pid *and* start time: pids are
 * reused). A run started by lisa run is marked first (runs/ID.kill), so
 * its record says who ended it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "watch.h"

#define TERMINATE_GRACE_MS	2000
#define TERMINATE_ROOT_MS	500	/* for the pane's own process */
#define TERMINATE_MAX		64

struct terminate {
	int			 pane;
	char			 by[8];
	int			 n;
	int			 root_left;	/* second pass, root only */
	pid_t			 pids[TERMINATE_MAX];
	uint64_t		 starts[TERMINATE_MAX];
	struct loop_timer	 timer;
	TAILQ_ENTRY(terminate)	 entry;
};
static TAILQ_HEAD(, terminate) terminates = TAILQ_HEAD_INITIALIZER(terminates);

/*
 * The root (last in the list) goes last and a little later: a lisa run
 * wrapper writes down how its agent ended and then exits by itself.
 */
static void
terminate_kill(void *arg)
{
	struct terminate	*t = arg;
	struct pane		*p;
	struct proc_node	 node;
	struct buf		 b;
	int			 i, killed = 0, from, to;

	from = t->root_left ? t->n - 1 : 0;
	to = t->root_left ? t->n : t->n - 1;
	for (i = from; i < to; i++) {
		if (proc_read(t->pids[i], &node) != 0 ||
		    !proc_start_same(node.start, t->starts[i]) ||
		    node.state == 'Z')
			continue;
		if (kill(t->pids[i], SIGKILL) == 0)
			killed++;
	}
	if (killed > 0) {
		buf_init(&b);
		buf_printf(&b, "\"by\":\"%s\",\"signal\":9,\"processes\":%d",
		    t->by, killed);
		events_json_add("terminate_kill", t->pane, b.data);
		buf_free(&b);
	}
	log_debug("pane %%%d: grace over, %d killed%s", t->pane, killed,
	    t->root_left ? " (root)" : "");
	/*
	 * Look at what is left: without a pidfd (osdep-generic) nothing
	 * else tells of the agent's end when tmux missed the pane's death
	 * (utempter, tmux < 3.6), and the killed agent stayed "waiting".
	 */
	if ((p = pane_find(t->pane)) != NULL && !p->dead && p->watch != NULL) {
		proc_forget();		/* (a snapshot from before the kills) */
		watch_rescan_in(p, 0);
	}
	if (!t->root_left) {
		t->root_left = 1;
		loop_timer_add(&t->timer, TERMINATE_ROOT_MS);
		return;
	}
	TAILQ_REMOVE(&terminates, t, entry);
	free(t);
}

int
terminate_pane(struct pane *p, const char *by, char **cause)
{
	struct proc_node	 nodes[TERMINATE_MAX];
	struct terminate	*t;
	struct buf		 b;
	int			 n, i, sent = 0;

	if (p->dead || p->pid <= 0) {
		xasprintf(cause, "pane %%%d has no running process", p->id);
		return (-1);
	}
	TAILQ_FOREACH(t, &terminates, entry) {
		if (t->pane == p->id) {
			xasprintf(cause, "pane %%%d is being terminated", p->id);
			return (-1);
		}
	}
	if ((n = proc_tree(p->pid, nodes, TERMINATE_MAX)) <= 0) {
		xasprintf(cause, "pane %%%d: cannot read its processes", p->id);
		return (-1);
	}
	runs_mark_killed(p->id, by);
	/* Its ending is this kill, not a crash (classify.c). */
	if (p->watch != NULL) {
		p->watch->killed_by = strcmp(by, "user") == 0 ? KILLED_USER :
		    KILLED_LISA;
		p->watch->killed_pid = p->pid;
		p->watch->killed_agent = p->watch->agent_pid;
	}
	t = xcalloc(1, sizeof *t);
	t->pane = p->id;
	strlcpy(t->by, by, sizeof t->by);
	/* Breadth first from the root: backwards is deepest first. */
	for (i = n - 1; i >= 0; i--) {
		if (nodes[i].state == 'Z')
			continue;
		t->pids[t->n] = nodes[i].pid;
		t->starts[t->n++] = nodes[i].start;
		if (kill(nodes[i].pid, SIGTERM) == 0)
			sent++;
	}
	TAILQ_INSERT_TAIL(&terminates, t, entry);
	loop_timer_init(&t->timer, terminate_kill, t);
	loop_timer_add(&t->timer, TERMINATE_GRACE_MS);
	buf_init(&b);
	buf_printf(&b, "\"by\":\"%s\",\"signal\":15,\"processes\":%d", by, sent);
	events_json_add("terminate", p->id, b.data);
	buf_free(&b);
	log_debug("pane %%%d: SIGTERM to %d processes (by %s)", p->id, sent,
	    by);
	return (0);
}
