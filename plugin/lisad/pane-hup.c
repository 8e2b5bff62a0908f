/*
 * A pane's process killed by SIGHUP. That is what tmux does when it
 * replaces the process (respawn-pane -k) and when it closes the pane
 * with its server (kill-server): neither is a crash, and both were told
 * as "crashed (signal 1)", with a notification each.
 *
 * So before such a death is believed, tmux is asked about the pane on
 * the session's connection: a new process in it is "replaced" (and the
 * pane is listed again: a new agent is met); no answer, because the
 * connection closed first, is "ended with tmux" (pane_hup_free); an
 * answer that the pane is dead, still has that process, or is gone
 * (kill-pane) is the death as it was. tmux answers within the turn; a
 * tmux that does not in PANE_HUP_WAIT_MS has the death as it was.
 *
 * An agent's death whose status nobody can read (a pane's grandchild,
 * reaped by its shell) is asked about with the pane's screen, colours
 * kept: the shell's "Killed" is on the line over its cursor, written over
 * what a full-screen agent left there ("Killedything..."), and what the
 * stream said of it may not have reached lisa (a stream paused,
 * pane-mute.c). Each change of colour ends a word there, as an escape
 * sequence does in the stream.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "tell.h"
#include "watch.h"

#define PANE_HUP_WAIT_MS	3000
/* A shell reports its job's death within this of it (bash: a few ms). */
#define PANE_HUP_WORDS_MS	150

/* Nothing held any more (a late answer finds nothing to do). */
static void
pane_hup_clear(struct pane *p)
{
	p->hup_held = p->hup_agent = p->hup_words = 0;
	free(p->hup_screen);
	p->hup_screen = NULL;
	if (p->hup_timer_ready)
		loop_timer_del(&p->hup_timer);
}

/* What was held: the pane's process's death, the agent's, or both. */
static void
pane_hup_believe(struct pane *p, const char *why)
{
	int	pane = p->hup_held, agent = p->hup_agent;

	log_debug("pane %%%d: the end stands (%s)", p->id, why);
	pane_hup_clear(p);
	if (agent)
		watch_agent_exit(p, p->hup_agent_status, p->hup_agent_sig);
	/* (its status unknown, reaped by tmux first: tmux's list says) */
	if (pane && p->hup_sig == -1)
		pane_respawned(p->id);
	else if (pane)
		pane_set_dead(p, 1, p->hup_status, p->hup_sig, "pidfd");
}

/*
 * The shell's report of the agent's death on SCREEN (capture-pane -e),
 * on the line over the cursor (at Y) or on the cursor's own: its signal.
 */
static void
pane_hup_words(struct pane *p, const char *screen, size_t len, int y)
{
	const char	*s = screen, *end = screen + len, *nl, *from = NULL;
	int		 row = 0, sig;

	for (; s < end && row <= y; row++) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (row == y - 1 || (row == y && from == NULL))
			from = s;
		s = nl != NULL ? nl + 1 : end;
	}
	if (from == NULL || p->watch == NULL)
		return;
	if ((sig = agent_shell_death_stream(from, (size_t)(s - from))) != -1) {
		log_debug("pane %%%d: its screen reports signal %d", p->id,
		    sig);
		p->watch->shell_signal = sig;
	}
}

static void
pane_hup_cb(__unused struct ctl_client *c, int ok, const char *body,
    size_t len, void *arg)
{
	struct pane	*p = arg;
	char		 line[64];
	long		 pid;
	int		 dead, y;

	if (!p->hup_held && !p->hup_agent)
		return;		/* (believed already: it took too long) */
	if (len >= sizeof line)
		len = sizeof line - 1;
	memcpy(line, body, len);
	line[len] = '\0';
	if (ok && p->hup_agent && p->hup_screen != NULL &&
	    sscanf(line, "%*d %*d %d", &y) == 1)
		pane_hup_words(p, p->hup_screen, p->hup_screen_len, y);
	if (!ok || sscanf(line, "%ld %d", &pid, &dead) != 2 || dead ||
	    pid == (long)p->hup_pid) {
		pane_hup_believe(p, ok ? line : "no such pane");
		return;
	}
	pane_hup_clear(p);
	pane_replaced(p, p->hup_pid, (pid_t)pid);
	pane_respawned(p->id);		/* (listed again: who runs now) */
}

/* The screen, asked for before the pane's state (in that order). */
static void
pane_hup_screen_cb(__unused struct ctl_client *c, int ok, const char *body,
    size_t len, void *arg)
{
	struct pane	*p = arg;

	if (!ok || !p->hup_agent || p->hup_screen != NULL)
		return;
	p->hup_screen = xstrndup(body, len);
	p->hup_screen_len = len;
}

/*
 * Ask tmux about the pane: its process and whether it is dead, and for an
 * agent's end (WORDS) first its screen and where its cursor is. 0 if
 * asked.
 */
static int
pane_hup_ask(struct pane *p, int words)
{
	struct session	*s;
	char		 cmd[96];

	if ((s = pane_session(p)) == NULL)
		return (-1);
	if (words) {
		snprintf(cmd, sizeof cmd, "capture-pane -p -e -t %%%d", p->id);
		if (session_send(s, cmd, pane_hup_screen_cb, p) != 0)
			return (-1);
	}
	snprintf(cmd, sizeof cmd, "display-message -p -t %%%d "
	    "'#{pane_pid} #{pane_dead}%s'", p->id, words ? " #{cursor_y}" :
	    "");
	return (session_send(s, cmd, pane_hup_cb, p));
}

static void
pane_hup_timeout(void *arg)
{
	struct pane	*p = arg;

	/* An agent's end: its shell has spoken by now. */
	if (p->hup_words) {
		p->hup_words = 0;
		if (pane_hup_ask(p, 1) == 0) {
			loop_timer_add(&p->hup_timer, PANE_HUP_WAIT_MS);
			return;
		}
		pane_hup_believe(p, "tmux could not be asked");
		return;
	}
	/* (a late answer finds nothing held) */
	if (p->hup_held || p->hup_agent)
		pane_hup_believe(p, "tmux did not answer");
}

/*
 * Pane p's process (agent 0) or its agent (1) ended by signal 1, or with
 * a status nobody can read now (tmux reaped it first: sig and status -1;
 * under load that is kill-server's too): held (1) until tmux says what
 * happened to the pane, or not (0).
 */
int
pane_hup(struct pane *p, int agent, int status, int sig)
{
	if (!p->hup_held && !p->hup_agent) {
		/*
		 * An agent's shell reports its death a moment after it:
		 * tmux is asked then (the screen read at once had no words
		 * yet: its cursor where the agent left it).
		 */
		if (agent ? pane_session(p) == NULL : pane_hup_ask(p, 0) != 0)
			return (0);
		/*
		 * The pane's process as it was: the one that died, or the
		 * one the agent ran in (tmux 3.7's subscription may have
		 * told of the new one already).
		 */
		p->hup_pid = agent && p->watch != NULL &&
		    p->watch->agent_pane_pid > 0 ? p->watch->agent_pane_pid :
		    p->pidfd_pid;
		if (!p->hup_timer_ready) {
			loop_timer_init(&p->hup_timer, pane_hup_timeout, p);
			p->hup_timer_ready = 1;
		}
		p->hup_words = agent;
		loop_timer_add(&p->hup_timer, agent ? PANE_HUP_WORDS_MS :
		    PANE_HUP_WAIT_MS);
		log_debug("pane %%%d: %s ended (signal %d): asking tmux",
		    p->id, agent ? "its agent" : "its process", sig);
	}
	if (agent) {
		p->hup_agent = 1;
		p->hup_agent_status = status;
		p->hup_agent_sig = sig;
	} else {
		p->hup_held = 1;
		p->hup_status = status;
		p->hup_sig = sig;
	}
	return (1);
}

/*
 * tmux says another process runs in the pane, which was not dead: the
 * agent there was replaced (respawn-pane -k), once an event whoever says
 * it first (this helper's question, a listing, a subscription).
 */
void
pane_replaced(struct pane *p, pid_t old, pid_t new)
{
	if (old <= 0 || new <= 0 || old == new || p->replaced_pid == new)
		return;
	p->replaced_pid = new;
	events_add("replaced", p->id, "%s: its process %ld ended, %ld runs",
	    p->command != NULL ? p->command : "", (long)old, (long)new);
}

/*
 * tmux listed the pane gone while it was asked, its server alive: the
 * pane closed with its process (no remain-on-exit; kill-pane). The death
 * stands, as for an answer that the pane is gone.
 */
void
pane_hup_closed(struct pane *p)
{
	if (p->hup_held || p->hup_agent)
		pane_hup_believe(p, "its pane closed");
}

/*
 * The pane goes while tmux was asked: its connection closed before the
 * answer (kill-server, or its session killed). The agent ended with tmux.
 */
void
pane_hup_free(struct pane *p, int tell)
{
	int	held = p->hup_held || p->hup_agent;

	pane_hup_clear(p);
	if (!held || !tell)
		return;
	events_add("ended", p->id, "with tmux: %s (as tmux closed it)",
	    p->command != NULL ? p->command : "");
}
