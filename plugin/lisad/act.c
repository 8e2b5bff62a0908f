/*
 * Typing into a pane: the one way lisa does (lisa nudge, the menu's Nudge,
 * the watchdog's nudge). Checked at that moment, from what tmux shows now
 * and not from the last verdict alone:
 *
 *   1. the pane is alive and, unless forced, runs an agent whose verdict
 *      is not a wait on anything but its prompt;
 *   2. the screen is read (capture-pane) and must show no dialog,
 *      selection list or question, and no busy agent (guard.c);
 *   3. the pane is still the same incarnation: its process, and the same
 *      agent process (pid and start time, read again from the system);
 *   4. the text goes in literally, then, 0.5 s later, the screen is read
 *      again and checked (3 and the dialog) before Enter.
 *
 * --force passes 1 and 2 (never 3, never a dead pane), and the answer
 * says what the keys did to whatever was drawn.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"

#define ACT_ENTER_MS	500
#define ACT_REPLY_MS	5000	/* tmux's answer to a screen read */

struct act {
	uint64_t		 id;	/* what tmux's answer names */
	int			 pane;
	struct act_who		 who;
	char			*text;
	int			 force;
	int			 entering;	/* the text is in: Enter next */
	int			 forceable;	/* refused where --force passes */
	char			 by[16];
	struct guard		 seen;		/* what the first read showed */
	struct listener_conn	*lc;		/* NULL: nobody to answer */
	act_done_cb		 done;
	struct loop_timer	 timer;		/* Enter, 0.5 s after the text */
	struct loop_timer	 deadline;	/* tmux did not answer */
	TAILQ_ENTRY(act)	 entry;
};
static TAILQ_HEAD(, act) acts = TAILQ_HEAD_INITIALIZER(acts);
static uint64_t act_next_id = 1;

/*
 * The action tmux's answer is for, if it is still there: a session's
 * client can go with the question unanswered, and a deadline end the
 * action first, so answers name it by id, never by pointer.
 */
static struct act *
act_find(void *arg)
{
	struct act	*a;
	uint64_t	 id = (uint64_t)(uintptr_t)arg;

	TAILQ_FOREACH(a, &acts, entry) {
		if (a->id == id)
			return (a);
	}
	return (NULL);
}

static void	act_capture(struct act *);

/*
 * Which incarnation of a pane this is: its process, and its agent's pid
 * and start time ("PANEPID.AGENTPID.START", 0s where there is none). An
 * action chosen from what lisa showed carries it; a pane whose agent ended
 * or was replaced since has another.
 */
void
act_incarnation(struct pane *p, char *out, size_t len)
{
	struct watch	*w = p->watch;
	int		 alive = w != NULL && w->agent_alive;

	snprintf(out, len, "%ld.%ld.%llu", (long)p->pid,
	    alive ? (long)w->agent_pid : 0L,
	    alive ? (unsigned long long)w->agent_start : 0ULL);
}

/* NULL if EXPECT (maybe NULL: nothing expected) is the pane's, else why. */
const char *
act_expected(struct pane *p, const char *expect)
{
	char	now[64];

	if (expect == NULL || *expect == '\0')
		return (NULL);
	act_incarnation(p, now, sizeof now);
	if (strcmp(now, expect) == 0)
		return (NULL);
	return ("the pane is not what it was when you chose (its agent "
	    "ended or another took its place)");
}

static void
act_free(struct act *a)
{
	TAILQ_REMOVE(&acts, a, entry);
	loop_timer_del(&a->timer);
	loop_timer_del(&a->deadline);
	free(a->text);
	free(a);
}

/*
 * The end: the answer (refused: why; "--force to anyway" where it would
 * pass), an event, and the caller told.
 */
static void
act_finish(struct act *a, const char *refused)
{
	struct buf	 b;
	char		*msg = NULL;

	buf_init(&b);
	if (refused != NULL) {
		buf_adds(&b, "{\"ok\":false,\"error\":");
		if (a->forceable && !a->force)
			xasprintf(&msg, "%s (--force to anyway)", refused);
		json_cstr(&b, msg != NULL ? msg : refused);
		free(msg);
	} else {
		buf_printf(&b, "{\"ok\":true,\"pane\":\"%%%d\"", a->pane);
		if (a->seen.kind != GUARD_NONE) {
			json_key(&b, "forced_past");
			json_cstr(&b, a->seen.what);
			json_key(&b, "choice");
			json_cstr(&b, a->seen.choice);
		}
	}
	buf_addc(&b, '}');
	if (a->lc != NULL)
		listener_send(a->lc, &b);
	buf_reset(&b);
	buf_printf(&b, "\"by\":");
	json_cstr(&b, a->by);
	if (refused != NULL) {
		json_key(&b, "refused");
		json_cstr(&b, refused);
	} else if (a->seen.kind != GUARD_NONE) {
		json_key(&b, "forced_past");
		json_cstr(&b, a->seen.what);
	}
	events_json_add(refused != NULL ? "nudge_refused" : "nudge", a->pane,
	    b.data);
	log_debug("pane %%%d: nudge by %s: %s", a->pane, a->by,
	    refused != NULL ? refused : "done");
	if (a->done != NULL)
		a->done(a->pane, refused);
	buf_free(&b);
	act_free(a);
}

/* Which pane, process and agent P is now (agent_pid 0: none). */
void
act_who_set(struct act_who *who, struct pane *p)
{
	struct watch	*w = p->watch;

	memset(who, 0, sizeof *who);
	who->pane = p->id;
	who->pane_pid = p->pid;
	if (w != NULL && w->agent_alive) {
		who->agent_pid = w->agent_pid;
		who->agent_start = w->agent_start;
	}
}

/*
 * Is the pane still WHO? NULL if so (*pp set), else why not. The agent
 * process is read again from the system: pids are reused.
 */
const char *
act_who_same(const struct act_who *who, struct pane **pp)
{
	struct proc_node	 node;
	struct pane		*p;

	if ((p = *pp = pane_find(who->pane)) == NULL)
		return ("the pane is gone");
	if (p->dead)
		return ("the pane is dead");
	if (p->pid != who->pane_pid)
		return ("the pane runs another process now (respawned)");
	if (who->agent_pid == 0)
		return (NULL);
	if (p->watch == NULL || !p->watch->agent_alive ||
	    p->watch->agent_pid != who->agent_pid ||
	    p->watch->agent_start != who->agent_start)
		return ("the agent is not the one it was (ended or replaced)");
	if (proc_read(who->agent_pid, &node) != 0 || node.state == 'Z' ||
	    !proc_start_same(node.start, who->agent_start))
		return ("the agent's process has ended");
	return (NULL);
}

static void
act_send_keys(struct act *a, struct pane *p, int enter)
{
	struct session	*s = pane_session(p);
	struct buf	 b;

	if (s == NULL)
		return;
	buf_init(&b);
	if (enter)
		buf_printf(&b, "send-keys -t '%%%d' Enter", a->pane);
	else {
		buf_printf(&b, "send-keys -t '%%%d' -l ", a->pane);
		ctl_quote_str(&b, a->text);
	}
	session_send(s, b.data, NULL, NULL);
	buf_free(&b);
}

/* The screen as it is now: check it, then type (or Enter). */
static void
act_capture_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct act	*a;
	struct pane	*p;
	struct guard	 g;
	const char	*why;
	char		*text, msg[192];

	if ((a = act_find(arg)) == NULL)
		return;		/* ended meanwhile */
	loop_timer_del(&a->deadline);
	if ((why = act_who_same(&a->who, &p)) != NULL) {
		act_finish(a, why);
		return;
	}
	if (!ok) {
		act_finish(a, "tmux could not read the screen");
		return;
	}
	text = xstrndup(body, len);
	guard_screen(p->watch != NULL ? p->watch->agent : NULL, text, &g);
	free(text);
	if (g.kind == GUARD_DIALOG && (!a->force || a->entering) &&
	    !(a->force && a->seen.kind == GUARD_DIALOG)) {
		a->forceable = !a->entering;
		if (a->entering)
			snprintf(msg, sizeof msg, "a %s dialog came up after "
			    "the text was typed: Enter not sent", g.what);
		else
			snprintf(msg, sizeof msg, "its screen shows a %s "
			    "dialog%s%s%s: keys would answer it", g.what,
			    *g.choice != '\0' ? " (Enter picks \"" : "",
			    g.choice, *g.choice != '\0' ? "\")" : "");
		act_finish(a, msg);
		return;
	}
	/* (its busy line outlives the work: the verdict must agree) */
	if (g.kind == GUARD_BUSY && !a->force && !a->entering &&
	    p->watch != NULL && p->watch->res.state == ST_IN_PROGRESS) {
		a->forceable = 1;
		act_finish(a, "its screen says it is busy");
		return;
	}
	if (!a->entering) {
		a->seen = g;
		if (a->seen.kind == GUARD_BUSY)
			a->seen.kind = GUARD_NONE;
		act_send_keys(a, p, 0);
		a->entering = 1;
		loop_timer_add(&a->timer, ACT_ENTER_MS);
		return;
	}
	act_send_keys(a, p, 1);
	act_finish(a, NULL);
}

static void
act_capture(struct act *a)
{
	struct pane	*p;
	struct session	*s;
	const char	*why;
	char		 cmd[64];

	if ((why = act_who_same(&a->who, &p)) != NULL) {
		act_finish(a, why);
		return;
	}
	snprintf(cmd, sizeof cmd, "capture-pane -p -J -t '%%%d'", a->pane);
	if ((s = pane_session(p)) == NULL ||
	    session_send_screen(s, cmd, act_capture_cb,
	    (void *)(uintptr_t)a->id) != 0) {
		act_finish(a, "no tmux client for its session");
		return;
	}
	loop_timer_add(&a->deadline, ACT_REPLY_MS);
}

static void
act_deadline_cb(void *arg)
{
	act_finish(arg, "tmux did not show the screen in time");
}

static void
act_timer_cb(void *arg)
{
	act_capture(arg);
}

/*
 * Nudge pane P with TEXT: answered on LC (if any) and told to DONE (if
 * any) when done or refused. BY names who asked (the user, the watchdog).
 */
void
act_nudge(struct pane *p, const char *text, int force, const char *expect,
    const char *by, struct listener_conn *lc, act_done_cb done)
{
	struct watch	*w = p->watch;
	struct act	*a;
	const char	*why = NULL;
	char		 msg[128];

	a = xcalloc(1, sizeof *a);
	a->pane = p->id;
	act_who_set(&a->who, p);
	a->text = xstrdup(text);
	a->force = force;
	a->lc = lc;
	a->done = done;
	strlcpy(a->by, by, sizeof a->by);
	a->id = act_next_id++;
	loop_timer_init(&a->timer, act_timer_cb, a);
	loop_timer_init(&a->deadline, act_deadline_cb, a);
	TAILQ_INSERT_TAIL(&acts, a, entry);
	a->forceable = 1;
	if ((why = act_expected(p, expect)) != NULL)
		a->forceable = 0;
	else if (p->dead) {
		why = "the pane is dead: nothing to type into";
		a->forceable = 0;
	} else if (!force && a->who.agent_pid == 0)
		why = "no agent runs there";
	else if (!force && (why = guard_verdict(cls_state_name(w->res.state),
	    w->res.detail)) != NULL) {
		snprintf(msg, sizeof msg, "it waits on a %s%sdialog, not at "
		    "its prompt: keys would answer it", strcmp(why,
		    "a dialog") == 0 ? "" : why, strcmp(why, "a dialog") == 0 ?
		    "" : " ");
		why = msg;
	}
	if (why != NULL) {
		act_finish(a, why);
		return;
	}
	act_capture(a);
}

/* A connection that went away is answered no more. */
void
act_conn_gone(struct listener_conn *lc)
{
	struct act	*a;

	TAILQ_FOREACH(a, &acts, entry) {
		if (a->lc == lc)
			a->lc = NULL;
	}
}

/* The helper stops: whatever is halfway is dropped (no Enter alone). */
void
act_close(void)
{
	struct act	*a;

	while ((a = TAILQ_FIRST(&acts)) != NULL)
		act_finish(a, "lisa is stopping");
}
