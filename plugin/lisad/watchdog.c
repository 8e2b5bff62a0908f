/*
 * The watchdog (@lisa-watchdog on): an agent that works (in_progress or
 * stuck) and shows no sign of life climbs levels derived from how long it
 * has been stalled - not counted per tick, so a late timer cannot repeat
 * one - one level at a time, each at least a step after the last, so a
 * late timer cannot skip one either:
 *
 *   stalled >= stale               0 warn       event, @lisa_watchdog
 *   stalled >= stale + 1 step      1 nudge      send-keys, Enter 0.5 s later
 *   stalled >= stale + 2 steps     2 triage     @lisa-triage-command decides
 *   the triage says so             3 terminate  TERM the tree, KILL after 2 s
 *
 * The clock stops at triage: the command the user gave decides, however
 * long it takes (up to @lisa-triage-timeout, then "extend"); an agent is
 * never killed while it is still being judged.
 * Signs of life reset it: output, a live child process of the agent, CPU
 * use, a new state. Each level acts once. A pane with @lisa-persistent on
 * is left alone. Only timers for "nothing happened for N seconds": no
 * polling.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"

#define WD_ENTER_MS		500

static const char *wd_actions[] = { "warn", "nudge", "triage", "terminate" };

struct wd_config {
	int		 on;
	uint64_t	 stale_ms;
	uint64_t	 step_ms;
	char		*nudge;
	char		*triage;
	uint64_t	 triage_ms;	/* then its answer is "extend" */
};
static struct wd_config wd = { 0, 300000, 60000, NULL, NULL, 60000 };

/* A triage command running: its answer comes on a pipe. */
struct wd_triage {
	int			 pane;
	int			 fd;
	pid_t			 pid;
	struct loop_fd		*ev;
	struct loop_timer	 timer;
	struct buf		 answer;
	TAILQ_ENTRY(wd_triage)	 entry;
};
static TAILQ_HEAD(, wd_triage) wd_triages = TAILQ_HEAD_INITIALIZER(wd_triages);

void
watchdog_reset_config(void)
{
	free(wd.nudge);
	free(wd.triage);
	wd.on = 0;
	wd.stale_ms = 300000;
	wd.step_ms = 60000;
	wd.nudge = xstrdup("continue");
	wd.triage = NULL;
	wd.triage_ms = 60000;
}

void
watchdog_option(const char *name, const char *value)
{
	uint64_t	ms;

	/* (values checked already: config.c) */
	if (strcmp(name, "@lisa-watchdog") == 0)
		wd.on = options_flag(value) == 1;
	else if (strcmp(name, "@lisa-watchdog-stale") == 0 &&
	    options_seconds(value, &ms) == 0 && ms > 0)
		wd.stale_ms = ms;
	else if (strcmp(name, "@lisa-watchdog-step") == 0 &&
	    options_seconds(value, &ms) == 0 && ms > 0)
		wd.step_ms = ms;
	else if (strcmp(name, "@lisa-watchdog-nudge") == 0) {
		free(wd.nudge);
		wd.nudge = xstrdup(value);
	} else if (strcmp(name, "@lisa-triage-command") == 0) {
		free(wd.triage);
		wd.triage = *value != '\0' ? xstrdup(value) : NULL;
	} else if (strcmp(name, "@lisa-triage-timeout") == 0 &&
	    options_seconds(value, &ms) == 0 && ms > 0)
		wd.triage_ms = ms;
}

static void
wd_event(struct pane *p, int level, const char *action, const char *extra)
{
	struct buf	b;
	uint64_t	stalled = time_mono_ms() - p->watch->wd_last;

	buf_init(&b);
	buf_printf(&b, "\"level\":%d,\"action\":\"%s\",\"stalled_s\":%llu",
	    level, action, (unsigned long long)(stalled / 1000));
	if (extra != NULL)
		buf_printf(&b, ",%s", extra);
	events_json_add("watchdog", p->id, b.data);
	buf_free(&b);
	log_debug("pane %%%d: watchdog level %d %s", p->id, level, action);
}

/* Back to no level: a sign of life, or the agent stopped working. */
static void
wd_clear(struct pane *p, const char *why)
{
	struct watch	*w = p->watch;

	if (w->wd_level >= 0) {
		wd_event(p, -1, "reset", NULL);
		log_debug("pane %%%d: watchdog reset (%s)", p->id, why);
	}
	w->wd_level = -1;
	free(w->wd_label);
	w->wd_label = NULL;
	publish_pane(p);
}

static void
wd_label(struct pane *p, const char *label)
{
	free(p->watch->wd_label);
	p->watch->wd_label = xstrdup(label);
	publish_pane(p);
}

/* A nudge act.c refused when it read the screen: the level says so. */
static void
wd_nudge_done(int id, const char *refused)
{
	struct pane	*p = pane_find(id);
	struct buf	 b;

	if (p == NULL || p->watch == NULL || refused == NULL)
		return;
	buf_init(&b);
	buf_adds(&b, "\"why\":");
	json_cstr(&b, refused);
	wd_event(p, 1, "nudge_skipped", b.data);
	buf_free(&b);
}

static void
wd_nudge(struct pane *p)
{
	/* Never type into an agent whose screen says it is busy. */
	if (p->watch->screen & SCREEN_BUSY) {
		wd_event(p, 1, "nudge_skipped", "\"why\":\"screen busy\"");
		return;
	}
	/*
	 * The agent echoing what we typed is not a sign of life. act.c
	 * reads the screen at that moment and refuses a dialog.
	 */
	p->watch->wd_quiet_until = time_mono_ms() + WD_ENTER_MS + 2000;
	wd_event(p, 1, "nudge", NULL);
	act_nudge(p, wd.nudge, 0, NULL, "watchdog", NULL, wd_nudge_done);
}

static void
wd_triage_free(struct wd_triage *t)
{
	TAILQ_REMOVE(&wd_triages, t, entry);
	loop_timer_del(&t->timer);
	if (t->ev != NULL)
		loop_del(t->ev);
	if (t->fd != -1)
		close(t->fd);
	buf_free(&t->answer);
	free(t);
}

/* A new clock: as if it had just shown life. */
static void
wd_extend(struct pane *p)
{
	p->watch->wd_alive = time_mono_ms();
	wd_clear(p, "extended");
	watchdog_check(p);
}

/* retry | terminate | extend: what the triage command said. */
static void
wd_triage_decide(struct wd_triage *t)
{
	struct pane	*p = pane_find(t->pane);
	char		 word[16] = "", extra[64], *cause = NULL;
	size_t		 n;

	if (t->answer.len != 0) {
		n = strspn(t->answer.data, " \t\n");
		sscanf(t->answer.data + n, "%15[a-z]", word);
	}
	if (strcmp(word, "retry") != 0 && strcmp(word, "terminate") != 0)
		strlcpy(word, "extend", sizeof word);
	if (p == NULL || p->watch == NULL) {
		wd_triage_free(t);
		return;
	}
	snprintf(extra, sizeof extra, "\"decision\":\"%s\"", word);
	/* It woke up while the command decided: the answer is about a stall
	 * that is over, and never kills an agent that works again. */
	if (p->watch->wd_level < 2) {
		wd_event(p, -1, "triage_dropped", extra);
		wd_triage_free(t);
		return;
	}
	wd_event(p, 2, "triage_decided", extra);
	wd_triage_free(t);
	if (strcmp(word, "terminate") == 0) {
		p->watch->wd_level = 3;
		wd_label(p, wd_actions[3]);
		wd_event(p, 3, "terminate", NULL);
		if (terminate_pane(p, "daemon", &cause) != 0) {
			log_warnx("%s", cause);
			free(cause);
		}
	} else if (strcmp(word, "retry") == 0 && runs_retry_pane(p) == 0) {
		/* The run's next attempt replaces the agent. */
	} else {
		if (strcmp(word, "retry") == 0)
			log_debug("pane %%%d: retry: not a lisa run", p->id);
		wd_extend(p);
	}
}

static void
wd_triage_read(int fd, short revents, void *arg)
{
	struct wd_triage	*t = arg;
	char			 buf[256];
	ssize_t			 n;

	n = read(fd, buf, sizeof buf);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0 && t->answer.len < 4096) {
		buf_add(&t->answer, buf, (size_t)n);
		return;
	}
	buf_addc(&t->answer, '\0');
	wd_triage_decide(t);
}

static void
wd_triage_timeout(void *arg)
{
	struct wd_triage	*t = arg;

	/*
	 * Its whole process group (setsid made one): the sh may be gone,
	 * reaped, its pid another's by now, while a child of its holds the
	 * pipe; a group lives as long as one of its processes does.
	 */
	kill(-t->pid, SIGKILL);
	log_debug("pane %%%d: triage command timed out", t->pane);
	buf_reset(&t->answer);
	buf_addc(&t->answer, '\0');
	wd_triage_decide(t);
}

/* No command could be asked: as if it had no answer. */
static void
wd_triage_failed(int id)
{
	struct pane	*p = pane_find(id);

	if (p != NULL && p->watch != NULL && p->watch->wd_level == 2) {
		wd_event(p, 2, "triage_decided", "\"decision\":\"extend\"");
		wd_extend(p);
	}
}

/* The screen came back: run the triage command with it on stdin. */
static void
wd_triage_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct wd_triage	*t;
	int			 in[2], out[2], null;
	pid_t			 pid;
	sigset_t		 set;
	char			 pane[16];

	if (!ok || wd.triage == NULL || compat_pipe(in) != 0) {
		wd_triage_failed((int)(intptr_t)arg);
		return;
	}
	if (compat_pipe(out) != 0) {
		close(in[0]);
		close(in[1]);
		wd_triage_failed((int)(intptr_t)arg);
		return;
	}
	if ((pid = fork()) == 0) {
		setsid();
		sigemptyset(&set);
		sigprocmask(SIG_SETMASK, &set, NULL);
		signal(SIGPIPE, SIG_DFL);
		null = open("/dev/null", O_RDWR);
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(null, 2);
		compat_closefrom(3);
		/* Which pane, as @lisa-on-transition is told. */
		snprintf(pane, sizeof pane, "%%%d", (int)(intptr_t)arg);
		setenv("LISA_PANE", pane, 1);
		execl("/bin/sh", "sh", "-c", wd.triage, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	if (pid == -1) {
		close(in[1]);
		close(out[0]);
		wd_triage_failed((int)(intptr_t)arg);
		return;
	}
	/* 50 lines of a pane: well inside a pipe's buffer. */
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	if (write(in[1], body, len) < 0)
		log_warn("triage stdin");
	close(in[1]);
	t = xcalloc(1, sizeof *t);
	t->pane = (int)(intptr_t)arg;
	t->pid = pid;
	t->fd = out[0];
	buf_init(&t->answer);
	fcntl(t->fd, F_SETFL, O_NONBLOCK);
	TAILQ_INSERT_TAIL(&wd_triages, t, entry);
	t->ev = loop_add(t->fd, POLLIN, wd_triage_read, t);
	loop_timer_init(&t->timer, wd_triage_timeout, t);
	loop_timer_add(&t->timer, wd.triage_ms);
}

static void
wd_triage(struct pane *p)
{
	struct session	*s = pane_session(p);
	char		 cmd[96];

	if (wd.triage == NULL || s == NULL) {
		/* No one to ask: the default is to wait longer. */
		wd_event(p, 2, "triage", "\"decision\":\"extend\"");
		wd_extend(p);
		return;
	}
	wd_event(p, 2, "triage", NULL);
	snprintf(cmd, sizeof cmd, "capture-pane -p -J -S -50 -t '%%%d'",
	    p->id);
	session_send_screen(s, cmd, wd_triage_cb, (void *)(intptr_t)p->id);
}

static void
wd_act(struct pane *p, int level)
{
	switch (level) {
	case 0:
		wd_event(p, 0, "warn", NULL);
		break;
	case 1:
		wd_nudge(p);
		break;
	case 2:
		wd_triage(p);
		break;
	}
}

/* @lisa-persistent on exempts the pane: asked when there is a level. */
static void
wd_persistent_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct pane	*p = pane_find((int)(intptr_t)arg);
	struct watch	*w;
	int		 level;

	if (p == NULL || (w = p->watch) == NULL || w->wd_pending < 0)
		return;
	level = w->wd_pending;
	w->wd_pending = -1;
	if (ok && ((len == 2 && memcmp(body, "on", 2) == 0) ||
	    (len == 1 && body[0] == '1'))) {
		if (!w->wd_exempt)
			wd_event(p, level, "exempt", NULL);
		w->wd_exempt = 1;
	} else {
		w->wd_exempt = 0;
		/* Still at that level? Signs of life may have come. */
		if (w->wd_level == level) {
			wd_label(p, wd_actions[level]);
			wd_act(p, level);
		}
	}
	/* The next level waited for this one's answer. */
	watchdog_check(p);
}


void
wd_timer_cb(void *arg)
{
	struct pane	*p = arg;

	watch_rescan(p);
	watchdog_check(p);
}

/*
 * Where the pane stands: after every verdict, and when the next level's
 * time comes.
 */
void
watchdog_check(struct pane *p)
{
	struct watch	*w = p->watch;
	struct session	*s;
	uint64_t	 now = time_mono_ms(), last, stalled, next;
	int		 level, working, late;
	char		 cmd[96];

	if (w == NULL)
		return;
	/* Background work runs without output: not a stall to nudge. */
	working = w->classified && w->agent_alive &&
	    (w->res.state == ST_IN_PROGRESS || w->res.state == ST_STUCK) &&
	    strcmp(w->res.detail, "background") != 0;
	if (!wd.on || !working) {
		loop_timer_del(&w->wd_timer);
		if (w->wd_level >= 0)
			wd_clear(p, "not working");
		w->wd_working = 0;
		return;
	}
	if (!w->wd_working) {
		w->wd_working = 1;
		w->wd_alive = now;	/* the clock starts with the work */
	}
	/* Tools running or CPU used: alive, whatever the screen says. */
	if (w->children > 0 || w->cpu_busy)
		w->wd_alive = now;
	last = w->wd_alive;
	if (w->wd_out_at > last)
		last = w->wd_out_at;
	w->wd_last = last;
	stalled = now - last;
	if (stalled < wd.stale_ms) {
		if (w->wd_level >= 0)
			wd_clear(p, "alive");
		next = last + wd.stale_ms;
	} else if (w->wd_pending >= 0) {
		/* A level waits for tmux's answer; its callback looks again. */
		loop_timer_del(&w->wd_timer);
		return;
	} else {
		level = (int)((stalled - wd.stale_ms) / wd.step_ms);
		if (level > 2)
			level = 2;
		/*
		 * One level at a time, each a step after the last: a late
		 * timer or a slow answer must not skip the nudge and go
		 * straight to triage.
		 */
		late = level > w->wd_level + 1;
		if (late)
			level = w->wd_level + 1;
		if (level > w->wd_level) {
			w->wd_level = level;
			if ((s = pane_session(p)) != NULL) {
				w->wd_pending = level;
				snprintf(cmd, sizeof cmd, "display-message -p "
				    "-t '%%%d' '#{@lisa-persistent}'", p->id);
				session_send(s, cmd, wd_persistent_cb,
				    (void *)(intptr_t)p->id);
			}
		}
		if (level >= 2) {	/* the triage decides */
			loop_timer_del(&w->wd_timer);
			return;
		}
		next = last + wd.stale_ms + (uint64_t)(level + 1) * wd.step_ms;
		if (late && next < now + wd.step_ms)
			next = now + wd.step_ms;
	}
	loop_timer_add(&w->wd_timer, next > now ? next - now : 0);
}

/* Output: a sign of life (not our nudge's echo), cheap for every %output. */
void
watchdog_output(struct pane *p)
{
	struct watch	*w = p->watch;
	uint64_t	 now;

	if (!w->wd_working)
		return;
	now = time_mono_ms();
	if (now < w->wd_quiet_until)
		return;
	w->wd_out_at = now;
	if (w->wd_level >= 0)
		wd_clear(p, "output");
}

void
watchdog_free(struct pane *p)
{
	struct wd_triage	*t, *t1;

	loop_timer_del(&p->watch->wd_timer);
	free(p->watch->wd_label);
	TAILQ_FOREACH_SAFE(t, &wd_triages, entry, t1) {
		if (t->pane == p->id)
			t->pane = -1;
	}
}
