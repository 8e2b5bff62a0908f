/*
 * Ended agents: the verdict of an agent that finished or crashed stands
 * until the pane is used again, and outlives the helper.
 *
 * - Remembered: every ended verdict is written to <key>.ended in the
 *   runtime directory (not into tmux, which `lisa stop` leaves exactly as
 *   it found it). A helper started later for the same server reads it back
 *   and shows the same verdict for the same pane (same id, same process).
 * - Dismissed: by `lisa dismiss` or the menu, or by a new command in the
 *   shell the agent ran under (an OSC 133 C mark; else a new process in
 *   the shell: a child, or one it has reaped since). The crash stays in
 *   the events and in the run records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "watch-int.h"

/* The shell's own work after the agent (prompt, reaping) is not a command. */
#define ENDED_SHELL_SETTLE	1500
/* At most one look at the shell's processes per this many ms. */
#define ENDED_LOOK_MS		100
#define ENDED_MAX_RECORDS	4096
#define ENDED_MAX_FILE		(4 * 1024 * 1024)

struct ended_record {
	int				 pane;
	pid_t				 pid;
	char				 agent[32];
	struct cls_result		 res;
	char				 reason[32];
	int64_t				 since;
	int				 exit_code;
	TAILQ_ENTRY(ended_record)	 entry;
};
static TAILQ_HEAD(, ended_record) ended_records =
    TAILQ_HEAD_INITIALIZER(ended_records);
static struct loop_timer	ended_save_timer;
static int			ended_timer_ready;
static char			*ended_path;

/* Is the pane's verdict that of an agent that has ended? */
int
ended_is(struct pane *p)
{
	struct watch	*w = p->watch;

	if (w == NULL || !w->classified || w->agent_alive)
		return (0);
	if (w->res.state != ST_CRASHED && w->res.state != ST_COMPLETED)
		return (0);
	return (w->agent_seen || w->held);
}

static void	ended_save(void *);

/* Now, before the panes go (lisa stop). */
void
ended_save_now(void)
{
	if (ended_timer_ready)
		loop_timer_del(&ended_save_timer);
	ended_save(NULL);
}

static void
ended_save(void *arg)
{
	struct buf	 b;
	struct pane	*p;
	struct watch	*w;

	/* Stopping frees the panes: what they said was saved before (arg
	 * NULL: ended_save_now). */
	if (ended_path == NULL || (lisad.stopping && arg != NULL))
		return;
	buf_init(&b);
	RB_FOREACH(p, panes, &panes) {
		w = p->watch;
		if (!ended_is(p) || w->agent == NULL)
			continue;
		buf_printf(&b, "{\"server\":%ld,\"pane\":%d,\"pid\":%ld",
		    (long)lisad.server_pid, p->id, (long)p->pid);
		json_key(&b, "agent");
		json_cstr(&b, w->agent->name);
		json_key(&b, "state");
		json_cstr(&b, cls_state_name(w->res.state));
		json_key(&b, "detail");
		json_cstr(&b, w->res.detail);
		json_key(&b, "reason");
		json_cstr(&b, w->res.reason);
		buf_printf(&b, ",\"since\":%lld,\"exit_code\":%d}\n",
		    (long long)w->since, watch_exit_code(p));
	}
	if (runtime_write_file(ended_path, b.data, b.len) != 0)
		log_warn("%s", ended_path);
	buf_free(&b);
}

/* The set of ended verdicts changed: write it at the end of this turn. */
void
ended_changed(void)
{
	if (!ended_timer_ready) {
		loop_timer_init(&ended_save_timer, ended_save,
		    &ended_save_timer);
		ended_timer_ready = 1;
	}
	if (!ended_save_timer.armed)
		loop_timer_add(&ended_save_timer, 0);
}

/*
 * One line of the file; a bad one is skipped. A pid of 0 or -1 is a dead
 * pane's on tmux master, whose #{pane_pid} is empty once the pane died
 * (ended_pane_new).
 */
static void
ended_parse(const char *line, size_t len)
{
	struct ended_record	*er;
	struct json_doc		*d;
	char			*cause = NULL, *agent, *state, *detail, *reason;
	long long		 server, pane, pid, since, code;
	enum cls_state		 st;

	if ((d = json_parse(line, len, &cause)) == NULL) {
		log_warnx("%s: %s", ended_path, cause);
		free(cause);
		return;
	}
	agent = json_get_str(d, 0, "agent");
	state = json_get_str(d, 0, "state");
	detail = json_get_str(d, 0, "detail");
	reason = json_get_str(d, 0, "reason");
	st = state != NULL ? cls_state_from_name(state) : ST_NSTATES;
	if (json_get_int(d, 0, "server", &server) != 0 ||
	    json_get_int(d, 0, "pane", &pane) != 0 ||
	    json_get_int(d, 0, "pid", &pid) != 0 ||
	    json_get_int(d, 0, "since", &since) != 0 ||
	    json_get_int(d, 0, "exit_code", &code) != 0 ||
	    agent == NULL || detail == NULL || reason == NULL ||
	    (st != ST_CRASHED && st != ST_COMPLETED) || pane < 0 ||
	    pane > 0x7fffffff || pid < -1 || pid > 0x7fffffff)
		log_warnx("%s: a record is not understood", ended_path);
	else if (server != (long long)lisad.server_pid)
		log_debug("%s: a record of another server", ended_path);
	else {
		er = xcalloc(1, sizeof *er);
		er->pane = (int)pane;
		er->pid = (pid_t)pid;
		strlcpy(er->agent, agent, sizeof er->agent);
		strlcpy(er->reason, reason, sizeof er->reason);
		er->res.state = st;
		er->res.lifecycle = LC_EXITED;
		er->res.activity = AC_IDLE;
		strlcpy(er->res.detail, detail, sizeof er->res.detail);
		er->since = since;
		er->exit_code = code >= 0 && code < 256 ? (int)code : -1;
		TAILQ_INSERT_TAIL(&ended_records, er, entry);
	}
	free(agent);
	free(state);
	free(detail);
	free(reason);
	json_free(d);
}

/* At start: what a helper before us said about agents that ended. */
void
ended_load(void)
{
	char	*data;
	size_t	 len;
	int	 n;

	free(ended_path);
	ended_path = runtime_path(lisad.rundir, lisad.sid.key, ".ended");
	if (runtime_read_file(ended_path, ENDED_MAX_FILE, &data, &len) != 0) {
		if (errno != ENOENT)
			log_warn("%s", ended_path);
		return;
	}
	n = runtime_lines(data, len, ENDED_MAX_RECORDS, ended_parse);
	free(data);
	log_debug("%s: %d records", ended_path, n);
}

/* A pane seen for the first time: did a helper before us see it end? */
void
ended_pane_new(struct pane *p)
{
	struct ended_record	*er;
	struct watch		*w = p->watch;

	TAILQ_FOREACH(er, &ended_records, entry) {
		if (er->pane == p->id)
			break;
	}
	if (er == NULL)
		return;
	TAILQ_REMOVE(&ended_records, er, entry);
	/*
	 * The same process, not a respawn; a dead pane tmux gives no pid
	 * (master) cannot be a respawn.
	 */
	if ((er->pid == p->pid || (p->dead && p->pid <= 0)) &&
	    !w->agent_seen &&
	    (w->agent = agent_by_name(er->agent)) != NULL) {
		log_debug("pane %%%d: %s %s (%s) from before", p->id,
		    er->agent, cls_state_name(er->res.state), er->res.detail);
		strlcpy(w->agent_name, er->agent, sizeof w->agent_name);
		w->held = w->held_new = 1;
		w->held_res = er->res;
		strlcpy(w->held_reason, er->reason, sizeof w->held_reason);
		w->held_res.reason = w->held_reason;
		w->held_since = er->since;
		w->held_exit = er->exit_code;
		watch_touch(p);
	}
	free(er);
}

/* The verdict carried over, while no agent has been seen since. */
int
ended_held(struct pane *p, struct cls_result *r)
{
	struct watch	*w = p->watch;

	if (!w->held || w->agent_seen)
		return (0);
	*r = w->held_res;
	return (1);
}

/* The ended verdict goes: the pane is a pane without an agent again. */
int
ended_dismiss(struct pane *p, const char *by)
{
	struct watch	*w = p->watch;

	if (!ended_is(p))
		return (-1);
	log_debug("pane %%%d: %s dismissed by %s", p->id,
	    cls_state_name(w->res.state), by);
	events_add("dismissed", p->id, "%s (%s) by %s",
	    cls_state_name(w->res.state), w->res.detail, by);
	w->held = w->held_new = 0;
	w->agent_seen = w->agent_alive = 0;
	w->agent = NULL;
	w->agent_name[0] = '\0';
	watch_reset_run(w);
	w->ended_base_set = 0;
	/* What runs now may be an agent that will not write again soon. */
	w->scan = 1;
	watch_touch(p);
	ended_changed();
	return (0);
}

/* An OSC 133 C mark: the shell runs a command the user typed. */
void
ended_command(struct pane *p)
{
	if (ended_is(p) && !p->dead &&
	    (p->watch->held || time_mono_ms() >= p->watch->agent_gone_at +
	    WATCH_EXIT_SETTLE))
		ended_dismiss(p, "a new command (OSC 133)");
}

/* Output in the pane of an ended agent: look for a new command. */
void
ended_output(struct pane *p)
{
	if (ended_is(p) && !p->dead)
		p->watch->ended_look = 1;
}

/*
 * After a classification that stands on an ended agent in a live shell:
 * has the shell run anything since? Its children's page faults (every
 * program it ran and reaped adds some) from just after the agent, and
 * any child it has now. Returns when to look again (0: on output; now:
 * dismissed, classify again).
 */
uint64_t
ended_check(struct pane *p, uint64_t now)
{
	struct watch		*w = p->watch;
	struct proc_node	 nodes[4];
	uint64_t		 settle;
	int			 n, i, child = 0;

	if (!ended_is(p) || p->dead || p->pid <= 0)
		return (0);
	if (!w->ended_base_set) {
		if (proc_reaped(p->pid, &w->ended_base) != 0)
			return (0);
		settle = w->agent_gone_at + ENDED_SHELL_SETTLE;
		if (!w->held && now < settle)
			return (settle);
		w->ended_base_set = 1;
		/*
		 * Output during the settle may be a program started at once
		 * (a restart typed ahead) that says nothing more: look now.
		 */
	}
	if (!w->ended_look)
		return (0);
	if (now < w->ended_looked + ENDED_LOOK_MS)
		return (w->ended_looked + ENDED_LOOK_MS);
	w->ended_look = 0;
	w->ended_looked = now;
	n = proc_tree(p->pid, nodes, 4);
	for (i = 1; i < n; i++) {
		if (nodes[i].ppid == p->pid)
			child = 1;
	}
	if (child || (proc_reaped(p->pid, &settle) == 0 &&
	    settle != w->ended_base)) {
		ended_dismiss(p, "a new command");
		return (now);
	}
	return (0);
}
