/*
 * Which agent runs in a pane: its process tree from /proc (the agent by
 * its profile, tools by age under it, CPU), its exit through a pidfd,
 * adoption of dead panes a helper before us knew, and finding profiles
 * again after a reload.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"
#include "watch-int.h"

/*
 * The agent's program as lisa resume runs it again (issue 42: not the bare
 * name, which a PATH may not find): WORD of its argv made absolute, with
 * its directory if relative, else from its own PATH. NULL if not found.
 */
static char *
watch_agent_exe(pid_t pid, const char *word)
{
	char	 env[32768], cwd[PATH_MAX], *p, *end, *found;
	ssize_t	 n;

	if (word == NULL || *word == '\0' || strlen(word) >= PATH_MAX)
		return (NULL);
	if (*word == '/')
		return (xstrdup(word));
	if (strchr(word, '/') != NULL) {
		if (proc_cwd(pid, cwd, sizeof cwd) != 0)
			return (NULL);
		xasprintf(&found, "%s/%s", cwd, word);
		return (found);
	}
	if ((n = proc_environ(pid, env, sizeof env - 1)) <= 0)
		return (NULL);
	env[n] = '\0';
	end = env + n;
	for (p = env; p < end && strncmp(p, "PATH=", 5) != 0; p += strlen(p) + 1)
		;
	if (p >= end)
		return (NULL);
	return (path_which_in(p + 5, word, 1));
}

static void	watch_agent_exited(int, short, void *);

/* The agent's process, the same one (pid and start), alive in NODES? */
static int
watch_still_there(struct watch *w, const struct proc_node *nodes, int n)
{
	int	i;

	for (i = 0; i < n; i++) {
		if (nodes[i].pid == w->agent_pid &&
		    proc_start_same(nodes[i].start, w->agent_start))
			return (nodes[i].state != 'Z');
	}
	return (0);
}

void
watch_agent_gone(struct pane *p)
{
	struct watch	*w = p->watch;

	w->agent_alive = 0;
	w->agent_gone_at = time_mono_ms();
	/* (with its busy row left on the screen: it did not end well) */
	w->agent_gone_busy = w->classified && w->res.state == ST_IN_PROGRESS;
	watch_unwatch_agent(w);
	agentfiles_agent_gone(p);
	watch_shell_words(p, w->tail, w->tail_len);
	w->tail_len = 0;
	w->shell_words_left = WATCH_SHELL_BYTES;
}

/* The agent ended (status, sig: as the system said, or -1). */
void
watch_agent_exit(struct pane *p, int status, int sig)
{
	struct watch	*w = p->watch;

	if (status != -1 || sig != -1) {
		w->agent_exit_status = status;
		w->agent_exit_signal = sig;
	}
	log_debug("pane %%%d: agent %s pid %ld exited (status %d signal %d)",
	    p->id, w->agent->name, (long)w->agent_pid, w->agent_exit_status,
	    w->agent_exit_signal);
	watch_agent_gone(p);
	w->scan = 1;
	watch_touch(p);
}

static void
watch_agent_exited(int fd, short revents, void *arg)
{
	struct pane	*p = arg;
	struct watch	*w = p->watch;
	int		 status, sig;

	if (proc_exit_status(w->agent_pid, &status, &sig) != 0)
		status = sig = -1;
	/*
	 * tmux's own doing, maybe (pane-hup.c): the pane is asked after. An
	 * end nobody can read now (reaped first) may be kill-server's too.
	 */
	if ((sig == SIGHUP || (sig == -1 && status == -1)) &&
	    pane_hup(p, 1, status, sig)) {
		watch_unwatch_agent(w);
		return;
	}
	watch_agent_exit(p, status, sig);
}

/*
 * tmux listed the pane gone while its server lives, and its agent's end
 * is not judged yet: its death and the close came in one turn (tmux
 * 3.2a closes a pane at once; a busy machine), and a crash in a pane
 * that closes with it (tmux's default, no remain-on-exit) went untold.
 * An exit the loop has not read is read now, a question to tmux about a
 * SIGHUP is answered by the close, and the classifier runs a last time
 * with no screen to wait for. An end whose status tmux reaped first is
 * not guessed at: the pane is only "closed", as before.
 */
void
watch_final(struct pane *p)
{
	struct watch	*w = p->watch;
	struct pollfd	 pfd;

	if (w == NULL || w->agent == NULL || !w->agent_seen)
		return;
	if (w->agent_alive && w->agent_pidfd != -1) {
		pfd.fd = w->agent_pidfd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 0) == 1)
			watch_agent_exited(w->agent_pidfd, POLLIN, p);
	}
	pane_hup_closed(p);
	if (w->agent_alive || (w->classified &&
	    (w->res.state == ST_CRASHED || w->res.state == ST_COMPLETED)))
		return;
	/* (an end nobody read, tmux reaped it first: not guessed at) */
	if (w->agent_exit_status == -1 && w->agent_exit_signal == -1 &&
	    (!p->dead || (p->dead_status == -1 && p->dead_signal == -1))) {
		log_debug("pane %%%d: closed, how its agent ended unknown",
		    p->id);
		return;
	}
	log_debug("pane %%%d: its end judged as it closes", p->id);
	w->closing = 1;
	loop_timer_del(&w->timer);
	watch_run(p);
}

/* Our own hook (`sh -c "LISA_HOOK=1 lisa notify"`) is not a tool. */
static int
watch_lisa_hook(char **argv, int argc)
{
	const char	*base;
	int		 i;

	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "LISA_HOOK=1 ", 12) == 0)
			return (1);
	}
	if (argc >= 2 && strcmp(argv[1], "notify") == 0) {
		base = strrchr(argv[0], '/');
		return (strcmp(base != NULL ? base + 1 : argv[0], "lisa") == 0);
	}
	return (0);
}

/*
 * A young pane (its process started a moment ago, or lisa learned of it a
 * moment ago: start times may be whole seconds, osdep-generic) with no
 * agent yet may still be the shell about to exec its command: look again,
 * shortly, three times at most (150, 300, 600 ms: a busy machine execs
 * late, and an agent that writes nothing gives no other cue).
 */
static void
watch_young_rescan(struct watch *w, uint64_t now, int started_young)
{
	/* One look pending is enough (scans at one moment spent all three). */
	if ((w->agent_seen && !(started_young && w->agent_alive)) ||
	    w->young_rescanned >= 3 || w->rescan_at != 0 ||
	    (!started_young && now >= w->watch_since + WATCH_YOUNG_PANE))
		return;
	w->rescan_at = now +
	    ((uint64_t)WATCH_YOUNG_RESCAN << w->young_rescanned);
	w->young_rescanned++;
}

/*
 * A process in the middle of execve: the kernel names it (comm) before it
 * lays out its environment, and /proc/PID/environ reads empty until then.
 * An agent met in that moment would have its files looked for under our
 * HOME, not its own, for the rest of its run: look again shortly. An
 * agent whose environment is really empty is taken once it is not young.
 */
static int
watch_mid_exec(struct pane *p, const struct proc_node *node)
{
	char	buf[64];

	if (proc_environ(node->pid, buf, sizeof buf) != 0 ||
	    proc_boot_ms() >= proc_start_ms(node) + WATCH_YOUNG_PANE)
		return (0);
	log_debug("pane %%%d: pid %ld still in exec, looking again", p->id,
	    (long)node->pid);
	watch_rescan_in(p, WATCH_EXEC_RESCAN);
	return (1);
}

/*
 * The processes a look saw that were not the agent: an agent met later in
 * one of them exec'd it since (sh -c 'exec claude'), after that look.
 */
static void
watch_looked(struct watch *w, const struct proc_node *nodes, int n,
    int agent_i, uint64_t now)
{
	int	i;

	w->nlooked = 0;
	for (i = 0; i < n && w->nlooked < (int)(sizeof w->looked_pids /
	    sizeof w->looked_pids[0]); i++) {
		if (i != agent_i)
			w->looked_pids[w->nlooked++] = nodes[i].pid;
	}
	w->looked_at = now;
}

static uint64_t
watch_exec_after(struct watch *w, pid_t pid)
{
	int	i;

	for (i = 0; i < w->nlooked; i++) {
		if (w->looked_pids[i] == pid)
			return (w->looked_at);
	}
	return (0);
}

/*
 * Walk the pane's process tree: which agent runs (the shallowest process a
 * profile claims), its live tool processes (descendants no profile claims
 * as the agent itself) and the CPU its tree used since the last look.
 */
void
watch_scan(struct pane *p)
{
	struct watch			*w = p->watch;
	struct proc_node		 nodes[WATCH_MAX_PROCS];
	const struct agent_profile	*prof, *found = NULL;
	char				 argbuf[1024], *argv[8];
	int				 n, i, j, argc, agent_i = -1;
	int				 under[WATCH_MAX_PROCS];
	uint64_t			 ticks = 0, now = time_mono_ms();
	uint64_t			 boot, born, age, read_age, read_at;
	uint64_t			 later;
	long				 hz = sysconf(_SC_CLK_TCK);
	int				 young;

	w->scan = 0;
	/* (a death by signal 1 waits for tmux's word: pane-hup.c) */
	if (p->dead || p->pid <= 0 || p->hup_agent || p->hup_held)
		return;
	n = proc_tree(p->pid, nodes, WATCH_MAX_PROCS);
	/*
	 * What the processes were at: a ps snapshot can be older than this
	 * look, and a title that came before the look but after the
	 * snapshot is still the agent's (watch_title_ours).
	 */
	read_age = proc_read_age();
	read_at = read_age < now ? now - read_age : 0;
	if (n < 0) {
		w->proc_failed = 1;
		/*
		 * Gone, and tmux has not said the pane died: respawn-pane -k
		 * replaced it. Below tmux 3.7 no subscription tells us and
		 * without pidfd no exit does: list the session again, once
		 * for each process.
		 */
		if (kill(p->pid, 0) == -1 && errno == ESRCH) {
			if (w->relisted_pid != p->pid) {
				w->relisted_pid = p->pid;
				log_debug("pane %%%d: pid %ld gone, listing "
				    "again", p->id, (long)p->pid);
				pane_respawned(p->id);
			}
		} else {
			/* Alive but not in the system's view yet (a ps
			 * snapshot from just before its fork): soon again. */
			log_debug("pane %%%d: pid %ld alive, its processes "
			    "unread", p->id, (long)p->pid);
			watch_young_rescan(w, now, 0);
		}
		return;
	}
	w->proc_failed = 0;
	/*
	 * The pane's own process is a zombie: tmux missed its SIGCHLD (a
	 * tmux built with utempter sets SIGCHLD to SIG_DFL around the helper
	 * it forks when a pane's pty closes, and a death in that window is
	 * dropped). Its wait status is still in /proc: the pane is dead,
	 * if tmux has not said so itself a moment later.
	 */
	if (nodes[0].state == 'Z') {
		if (w->zombie_at == 0) {
			w->zombie_at = now;
			if (w->rescan_at == 0 ||
			    now + WATCH_ZOMBIE_GRACE < w->rescan_at)
				w->rescan_at = now + WATCH_ZOMBIE_GRACE;
		} else if (now - w->zombie_at >= WATCH_ZOMBIE_GRACE)
			pane_exit_look(p);
		return;
	}
	w->zombie_at = 0;
	/* Its run ended and the wrapper has not left yet: look again. */
	if ((later = runs_leave_look(p->id)) != 0 &&
	    (w->rescan_at == 0 || now + later < w->rescan_at))
		w->rescan_at = now + later;
	for (i = 0; i < n && found == NULL; i++) {
		if (nodes[i].state == 'Z')
			continue;
		argc = proc_argv(nodes[i].pid, argbuf, sizeof argbuf, argv, 8);
		if ((prof = agent_match(nodes[i].comm, argv, argc)) != NULL) {
			found = prof;
			agent_i = i;
		}
	}
	if (found == NULL) {
		young = proc_boot_ms() < proc_start_ms(&nodes[0]) +
		    WATCH_YOUNG_PANE;
		/*
		 * A new process in the pane (respawn-pane -k replaced the
		 * agent: pane-hup.c) may still be about to exec the next
		 * one: not "gone" until it has had its moment.
		 */
		if (young && nodes[0].pid != w->young_pid) {
			w->young_pid = nodes[0].pid;	/* its own looks */
			w->young_rescanned = 0;
		}
		if (w->agent_alive && young && nodes[0].pid != w->agent_pid &&
		    w->young_rescanned < 3)
			log_debug("pane %%%d: a new process, not the agent yet",
			    p->id);
		else if (w->agent_alive && watch_still_there(w, nodes, n) &&
		    w->exec_looks++ < 3) {
			/*
			 * Its process is there, running something else: a
			 * wrapper between two execs (sh, env, then the agent:
			 * a look at that moment made it "gone" for good).
			 */
			log_debug("pane %%%d: pid %ld runs another program, "
			    "looked at again", p->id, (long)w->agent_pid);
			watch_rescan_in(p, WATCH_EXEC_RESCAN << w->exec_looks);
		} else if (w->agent_alive) {
			log_debug("pane %%%d: agent gone from the tree", p->id);
			/*
			 * Its shell reaped it (no pidfd, or this look came
			 * first): how it ended is the shell's to say. As for
			 * a pidfd's end with no status, tmux is asked for the
			 * screen once the shell has spoken (pane-hup.c): a
			 * "Killed" written over a full-screen agent's last
			 * line is read there, by its colours, and nowhere
			 * else when its stream said nothing.
			 */
			if (nodes[0].pid == w->agent_pane_pid &&
			    pane_hup(p, 1, -1, -1))
				watch_unwatch_agent(w);
			else
				watch_agent_gone(p);
		}
		watch_looked(w, nodes, n, -1, read_at);
		/* A pane a moment old may still be about to exec. */
		watch_young_rescan(w, now, young);
		return;
	}
	/* (ps's starts are whole seconds and may differ by one) */
	if (!w->agent_seen || w->agent_pid != nodes[agent_i].pid ||
	    !proc_start_same(w->agent_start, nodes[agent_i].start)) {
		if (watch_mid_exec(p, &nodes[agent_i]))
			return;
		log_debug("pane %%%d: agent %s pid %ld", p->id, found->name,
		    (long)nodes[agent_i].pid);
		watch_unwatch_agent(w);
		/* A new run; what came before the first sight is this one's. */
		if (w->agent_seen)
			watch_reset_run(w);
		/* The verdict of the run before is history now. */
		if (w->held || w->agent_seen)
			ended_changed();
		w->held = w->held_new = 0;
		w->ended_base_set = 0;
		w->agent = found;
		strlcpy(w->agent_name, found->name, sizeof w->agent_name);
		resume_argv_id(argv, argc, w->argv_session,
		    sizeof w->argv_session);
		free(w->agent_exe);
		w->agent_exe = NULL;
		w->agent_exe_tries = 0;
		w->agent_pid = nodes[agent_i].pid;
		w->agent_pane_pid = p->pid;
		w->agent_start = nodes[agent_i].start;
		w->agent_seen = 1;
		w->agent_since = now;
		/*
		 * When it began, not when lisa saw it: a busy machine, or a
		 * ps snapshot, can show it a second or more late, and what it
		 * did meanwhile (its title, its files) is its own. A process
		 * lisa saw as something else began it by exec, after that.
		 */
		if ((w->agent_began = watch_exec_after(w, w->agent_pid)) != 0) {
			log_debug("pane %%%d: pid %ld was not the agent %llu ms "
			    "ago", p->id, (long)w->agent_pid,
			    (unsigned long long)(now - w->agent_began));
			w->agent_began_slack = 0;	/* lisa's own clock */
		} else {
			boot = proc_boot_ms();
			born = proc_start_ms(&nodes[agent_i]);
			age = boot > born ? boot - born : 0;
			w->agent_began = now > age ? now - age : 0;
			/* Start times: clock ticks, or whole seconds (ps). */
			w->agent_began_slack = osdep_start_ticks ? 100 : 1000;
		}
		w->agent_since_real = time_real_ms() -
		    (int64_t)(now - w->agent_began);
		w->starting = proc_boot_ms() < proc_start_ms(&nodes[agent_i]) +
		    WATCH_START_WINDOW;
		/* Judged by a helper before us? Its clocks go on. */
		live_agent_met(p);
		w->cpu_at = 0;
		if ((w->agent_pidfd = proc_pidfd(w->agent_pid)) != -1)
			w->agent_ev = loop_add(w->agent_pidfd, POLLIN,
			    watch_agent_exited, p);
		publish_keep_failed(p);
		resume_ask_cwd(p);
	}
	/*
	 * Its program, while not found: an exec between the look that met
	 * it and this read (sh, then env, then node: the same pid, so no
	 * new sighting) leaves its environment empty for a moment, and a
	 * record without it would resume the bare name. Looked for again
	 * at each look while it starts (a wrapper that execs it late meets
	 * many), the first few sooner than the next event might bring one.
	 */
	if (w->agent_exe == NULL && argc > 0 &&
	    (w->agent_exe_tries < WATCH_EXE_TRIES ||
	    now - w->agent_since < WATCH_START_WINDOW)) {
		w->agent_exe = watch_agent_exe(nodes[agent_i].pid,
		    argv[agent_argv_word(found, argv, argc)]);
		if (w->agent_exe == NULL && ++w->agent_exe_tries <
		    WATCH_EXE_TRIES) {
			log_debug("pane %%%d: agent's program not found yet",
			    p->id);
			watch_rescan_in(p, (uint64_t)WATCH_EXEC_RESCAN <<
			    (2 * w->agent_exe_tries));
		}
	}
	w->agent_alive = 1;
	w->exec_looks = 0;
	watch_looked(w, nodes, n, agent_i, read_at);
	agentfiles_agent(p);
	/* A flood muted while no agent was there: listen to the agent. */
	if (p->muted && !p->mute_timer.armed)
		pane_unmute(p, "an agent");

	/*
	 * Descendants of the agent: tools, unless the agent's own. Agents
	 * run short helpers (git, their own copies) at a turn's start: a
	 * child counts once it has lived WATCH_TOOL_AGE.
	 */
	memset(under, 0, sizeof under);
	under[agent_i] = 1;
	w->children = 0;
	w->young_at = 0;
	boot = proc_boot_ms();
	for (i = agent_i; i < n; i++) {
		for (j = agent_i; j < i && !under[i]; j++) {
			if (under[j] && nodes[j].pid == nodes[i].ppid)
				under[i] = 1;
		}
		if (!under[i])
			continue;
		ticks += nodes[i].ticks;
		if (i == agent_i || nodes[i].state == 'Z')
			continue;
		argc = proc_argv(nodes[i].pid, argbuf, sizeof argbuf, argv, 8);
		if (agent_match(nodes[i].comm, argv, argc) == found ||
		    watch_lisa_hook(argv, argc))
			continue;
		born = proc_start_ms(&nodes[i]);
		if (boot >= born + WATCH_TOOL_AGE)
			w->children++;
		else if (w->young_at == 0 || now + born + WATCH_TOOL_AGE -
		    boot < w->young_at)
			w->young_at = now + born + WATCH_TOOL_AGE - boot;
	}
	if (w->cpu_at != 0 && now > w->cpu_at && hz > 0) {
		w->cpu_busy = (ticks - w->cpu_ticks) * 1000 * 100 /
		    (uint64_t)hz >= WATCH_CPU_BUSY * (now - w->cpu_at);
	}
	w->cpu_ticks = ticks;
	w->cpu_at = now;
}

/*
 * A dead pane whose agent a helper before us knew (its @lisa_agent, left
 * in tmux when that helper was killed): the agent ended while no helper
 * watched, and the pane's exit status tells how.
 */
void
watch_adopt(struct pane *p, const char *name)
{
	struct watch			*w = p->watch;
	const struct agent_profile	*prof;

	if (w->agent_seen || !p->dead || (prof = agent_by_name(name)) == NULL)
		return;
	log_debug("pane %%%d: dead, agent %s from before", p->id, prof->name);
	w->agent = prof;
	strlcpy(w->agent_name, prof->name, sizeof w->agent_name);
	w->agent_seen = 1;
	w->agent_alive = 0;
	w->agent_since = w->agent_began = w->agent_gone_at = time_mono_ms();
	w->agent_began_slack = 0;
	w->agent_since_real = time_real_ms();
}

/*
 * A `lisa run` of a command lisa does not know as an agent ended: its
 * ending is shown as an agent's would be (profile "run"), with its exit.
 */
void
watch_run_ended(struct pane *p, int code, int sig)
{
	struct watch			*w = p->watch;
	const struct agent_profile	*prof;

	if ((w->agent_seen && (w->agent == NULL ||
	    strcmp(w->agent->name, "run") != 0)) ||
	    (prof = agent_by_name("run")) == NULL)
		return;
	log_debug("pane %%%d: a run ended (%d, %d), not an agent's", p->id,
	    code, sig);
	w->agent = prof;
	strlcpy(w->agent_name, prof->name, sizeof w->agent_name);
	w->agent_seen = 1;
	w->agent_alive = 0;
	w->agent_exit_status = sig > 0 ? -1 : code;
	w->agent_exit_signal = sig > 0 ? sig : -1;
	w->agent_since = w->agent_began = w->agent_gone_at = time_mono_ms();
	w->agent_began_slack = 0;
	w->agent_since_real = time_real_ms();
	watch_touch(p);
}

void
watch_rescan(struct pane *p)
{
	if (p->watch != NULL && p->watch->agent_alive)
		watch_scan(p);
}

/* Is the pane in one of the states of a mask (1 << enum cls_state)? */
int
watch_matches(struct pane *p, unsigned mask)
{
	struct watch	*w = p->watch;

	return (w != NULL && w->classified &&
	    (mask & (1u << w->res.state)) != 0);
}

void
watch_reload(void)
{
	struct pane	*p;
	struct watch	*w;

	/*
	 * agent_load freed every profile: find each watch's again by name
	 * (a user profile may be gone: then this is no agent's pane until
	 * the next look at its processes).
	 */
	RB_FOREACH(p, panes, &panes) {
		if ((w = p->watch) == NULL)
			continue;
		if (w->agent != NULL &&
		    (w->agent = agent_by_name(w->agent_name)) == NULL) {
			log_debug("pane %%%d: profile %s gone", p->id,
			    w->agent_name);
			watch_unwatch_agent(w);
			w->agent_seen = w->agent_alive = 0;
		}
		w->scan = 1;
		watch_touch(p);
	}
}

/*
 * Bytes from a pane with no agent within the second after the look they
 * brought last: that look may have come before what they show (a program
 * that exec'd into an agent, which drew once and waits), and a quiet
 * agent brings no other. One more look when the second is up; more bytes
 * until then change nothing. (A deadline, not a poll: bytes arm it.)
 */
void
watch_scan_later(struct pane *p)
{
	struct watch	*w = p->watch;
	uint64_t	 at = w->output_scan_at + WATCH_RESCAN, now = time_mono_ms();

	w->output_unscanned = 1;
	if (w->rescan_at == 0 || at < w->rescan_at)
		w->rescan_at = at;
	if (!w->timer.armed || w->timer.when > at)
		loop_timer_add(&w->timer, at > now ? at - now : 0);
}
