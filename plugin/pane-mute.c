/*
 * Floods. tmux 3.3a builds every byte it sends a control client with a
 * printf of its own: a pane writing as fast as it can costs tmux about four
 * times the CPU with our client attached, and while only control clients
 * are attached tmux reads the pane no faster than it can send to them (a
 * writer measured 2.6 times slower). So lisa stops listening to a flood:
 *
 * - a pane with no agent, once it writes more than PANE_MUTE_RATE, until
 *   an agent is found in it or someone taps it (agents are found through
 *   tmux's word that its command changed, which still comes);
 * - an agent's pane, PANE_MUTE_MS at a time: less than half the debounce,
 *   so its verdict (working, output flowing) stands; then it listens for
 *   PANE_MUTE_PROBE_MS to see whether the flood goes on.
 *
 * Muting is refresh-client -A %N:pause. Never :off: with it, tmux 3.4 and
 * later stop reading a pane that only control clients watch.
 */
#include <stdio.h>
#include <string.h>

#include "lisad.h"

#define PANE_MUTE_RATE		(1024.0 * 1024.0)	/* bytes/s */
#define PANE_MUTE_WINDOW_MS	1000
#define PANE_MUTE_PROBE_MS	200
#define PANE_MUTE_MS		1000

static void	pane_mute_timer_cb(void *);

static void
pane_mute_send(struct pane *p, const char *action)
{
	struct session	*s;
	char		 cmd[64];
	int		 i;

	snprintf(cmd, sizeof cmd, "refresh-client -A '%%%d:%s'", p->id,
	    action);
	for (i = 0; i < p->nsessions; i++) {
		s = session_find(p->sessions[i]);
		if (s != NULL && s->attached && !s->closing)
			session_send(s, cmd, NULL, NULL);
	}
}

/* Every chunk of a pane's output: is it a flood? */
void
pane_mute_check(struct pane *p, size_t len)
{
	uint64_t	ms, now = p->out_last;
	double		rate;

	if (p->muted || p->tap != NULL)
		return;
	if (p->mute_start == 0)
		p->mute_start = now;
	p->mute_bytes += len;
	ms = p->mute_probe ? PANE_MUTE_PROBE_MS : PANE_MUTE_WINDOW_MS;
	if (now - p->mute_start < ms)
		return;
	rate = (double)p->mute_bytes * 1000.0 / (double)(now - p->mute_start);
	p->mute_start = now;
	p->mute_bytes = 0;
	if (rate < PANE_MUTE_RATE) {
		p->mute_probe = 0;
		return;
	}
	p->muted = 1;
	p->mutes++;
	pane_mute_send(p, "pause");
	if (p->watch->agent_seen) {
		ms = lisad.debounce_ms / 2 < PANE_MUTE_MS ?
		    lisad.debounce_ms / 2 : PANE_MUTE_MS;
		if (!p->mute_timer_ready) {
			loop_timer_init(&p->mute_timer, pane_mute_timer_cb, p);
			p->mute_timer_ready = 1;
		}
		loop_timer_add(&p->mute_timer, ms);
	}
	log_debug("pane %%%d: %.0f bytes/s, muted%s", p->id, rate,
	    p->watch->agent_seen ? " for a while" : "");
}

/* Listen again, from the present: the screen tells what was missed. */
void
pane_unmute(struct pane *p, const char *why)
{
	if (!p->muted)
		return;
	p->muted = 0;
	if (p->mute_timer_ready)
		loop_timer_del(&p->mute_timer);
	p->mute_start = 0;
	p->mute_bytes = 0;
	p->mute_probe = strcmp(why, "sample again") == 0;
	pane_mute_send(p, "continue");
	log_debug("pane %%%d: unmuted (%s)", p->id, why);
	if (p->watch->agent_seen)
		pane_resync(p);
}

static void
pane_mute_timer_cb(void *arg)
{
	struct pane	*p = arg;

	/* Output was flowing until a moment ago: it still counts. */
	p->out_last = time_mono_ms();
	watch_poke(p);
	pane_unmute(p, "sample again");
}

void
pane_mute_free(struct pane *p)
{
	if (p->mute_timer_ready)
		loop_timer_del(&p->mute_timer);
}
