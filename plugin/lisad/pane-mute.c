/*
 * Output lisa does not need, not sent to it. tmux builds every byte it
 * sends a control client with a printf of its own (control.c, every version
 * to 3.7 and master): an agent streaming 10 KB/s costs the tmux server more
 * for lisa's client than for drawing it, and a flood is paced to what our
 * client takes while only control clients are attached. Two kinds:
 *
 * - MUTE_FLOOD: a pane with no agent, once it writes more than
 *   PANE_MUTE_RATE, until an agent is found in it or someone taps it
 *   (agents are found through tmux's word that its command changed, which
 *   still comes); an agent's pane that is not stream-muted, PANE_MUTE_MS at
 *   a time, then PANE_MUTE_PROBE_MS to see whether the flood goes on.
 * - MUTE_STREAM: an agent that is working and streaming, at least
 *   PANE_STREAM_BYTES in PANE_STREAM_WINDOW (1 KB/s: text, a tool's log;
 *   not a spinner, a retry countdown or a stalled request, which write a
 *   few hundred bytes a second and cost tmux nothing). Its verdict stands
 *   on "output flows" and on signals that do not come through its output
 *   (hooks, its session file, the process tree, death by pidfd). It is
 *   paused for up to half the debounce, then continued for a sample: as
 *   soon as a stream's worth has come (scanned like any: titles, retries,
 *   bells) it is paused again. A sample that stays short means the pane
 *   changed pace while we did not listen (a retry countdown drawn once,
 *   then only its digits): it is let go and its screen read. If nothing
 *   comes, the quiet is judged from the last chunk seen, by the debounce
 *   and a screen read as always. A pane whose verdict rides on its output
 *   (Codex's OSC 7501) is never stream-muted. Any change of verdict, a
 *   death, a tap lets it go. LISAD_STREAM_MUTE=0 turns it off.
 *   Where the kernel counts what a process writes (Linux: wchar), a pause
 *   is not ended for a sample while the agent still writes a stream's
 *   worth in the pause's last PANE_STREAM_CHECK ms: the pause goes on,
 *   with no word to tmux, up to PANE_STREAM_KEEPS times before a sample.
 *   When it writes less, it is let go and its screen read at once; when
 *   it writes nothing, a sample decides (its child may be the writer).
 *
 * Muting is refresh-client -A %N:pause. Never :off: with it, tmux 3.4 and
 * later stop reading a pane that only control clients watch. Continues due
 * together are lined up on a PANE_STREAM_GRID so they leave in one write.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "watch.h"

#define PANE_MUTE_RATE		(1024.0 * 1024.0)	/* bytes/s */
#define PANE_MUTE_WINDOW_MS	1000
#define PANE_MUTE_PROBE_MS	200
#define PANE_MUTE_MS		1000
#define PANE_STREAM_MS		1000	/* at most; half the debounce if less */
#define PANE_STREAM_WINDOW	500	/* ms; a stream writes ... */
#define PANE_STREAM_BYTES	512	/* ... this much in it (1 KB/s) */
#define PANE_STREAM_GRID	50
#define PANE_STREAM_CHECK	200	/* ms: the agent's writes, then again */
#define PANE_STREAM_KEEPS	4	/* pauses prolonged before a sample */

uint64_t	pane_mute_pauses;	/* pause commands sent, all panes */

static void	pane_mute_timer_cb(void *);
static void	pane_mute_stream_cb(void *);
static void	pane_mute_sample_cb(void *);
static void	pane_mute_check_cb(void *);
static void	pane_mute_kept_cb(void *);
static void	pane_mute_stream_arm(struct pane *, uint64_t);
static void	pane_mute_short(struct pane *);
static void	pane_mute_title(struct session *, struct pane *);

/*
 * Pauses and continues asked for in one loop turn leave at its end as one
 * refresh-client per session (-A may be given many times, tmux 3.2 on),
 * or one per PANE_MUTE_PER_CMD panes: few commands for tmux to parse, none
 * long.
 */
struct pane_mute_req {
	int	id;
	int	pause;
};
static struct pane_mute_req	*pane_mute_reqs;
static size_t			 pane_mute_nreqs, pane_mute_reqs_cap;
static struct loop_timer	 pane_mute_flush_timer;

static void
pane_mute_flush_send(struct session *s, struct buf *b)
{
	session_send(s, b->data, NULL, NULL);
	b->len = 0;
}

static void
pane_mute_flush(void *arg)
{
	struct session	*s;
	struct pane	*p;
	struct buf	 b;
	size_t		 i;
	int		 n;

	buf_init(&b);
	RB_FOREACH(s, sessions, &sessions) {
		if (!s->attached || s->closing)
			continue;
		n = 0;
		for (i = 0; i < pane_mute_nreqs; i++) {
			p = pane_find(pane_mute_reqs[i].id);
			if (p == NULL || !pane_has_session(p, s->id))
				continue;
			if (n == 0)
				buf_adds(&b, "refresh-client");
			buf_printf(&b, " -A '%%%d:%s'", p->id,
			    pane_mute_reqs[i].pause ? "pause" : "continue");
			if (++n == PANE_MUTE_PER_CMD) {
				pane_mute_flush_send(s, &b);
				n = 0;
			}
		}
		if (n != 0)
			pane_mute_flush_send(s, &b);
		/* After the continue: nothing falls between the two. */
		for (i = 0; i < pane_mute_nreqs; i++) {
			p = pane_find(pane_mute_reqs[i].id);
			if (p != NULL && p->mute_title &&
			    pane_has_session(p, s->id)) {
				p->mute_title = 0;
				pane_mute_title(s, p);
			}
		}
	}
	buf_free(&b);
	pane_mute_nreqs = 0;
}

static void
pane_mute_send(struct pane *p, const char *action)
{
	size_t	i;
	int	pause = *action == 'p';

	if (pause)
		pane_mute_pauses++;
	/* A later word for the same pane replaces the earlier one. */
	for (i = 0; i < pane_mute_nreqs; i++) {
		if (pane_mute_reqs[i].id == p->id) {
			pane_mute_reqs[i].pause = pause;
			return;
		}
	}
	if (pane_mute_nreqs == pane_mute_reqs_cap) {
		pane_mute_reqs_cap = pane_mute_reqs_cap == 0 ? 16 :
		    pane_mute_reqs_cap * 2;
		pane_mute_reqs = xreallocarray(pane_mute_reqs,
		    pane_mute_reqs_cap, sizeof *pane_mute_reqs);
	}
	pane_mute_reqs[pane_mute_nreqs].id = p->id;
	pane_mute_reqs[pane_mute_nreqs++].pause = pause;
	if (pane_mute_nreqs == 1) {
		/* A zero timer fires after this turn's other events. */
		loop_timer_init(&pane_mute_flush_timer, pane_mute_flush, NULL);
		loop_timer_add(&pane_mute_flush_timer, 0);
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
	p->muted = MUTE_FLOOD;
	p->mutes++;
	pane_mute_send(p, "pause");
	if (p->watch->agent_seen) {
		ms = lisad.debounce_ms / 2 < PANE_MUTE_MS ?
		    lisad.debounce_ms / 2 : PANE_MUTE_MS;
		/* The one timer serves floods, streams and samples. */
		if (p->mute_timer_ready)
			loop_timer_del(&p->mute_timer);
		loop_timer_init(&p->mute_timer, pane_mute_timer_cb, p);
		p->mute_timer_ready = 1;
		loop_timer_add(&p->mute_timer, ms);
	}
	log_debug("pane %%%d: %.0f bytes/s, muted%s", p->id, rate,
	    p->watch->agent_seen ? " for a while" : "");
}

/* Listen again, from the present. */
void
pane_unmute(struct pane *p, const char *why)
{
	int	kind = p->muted;

	if (kind == MUTE_NONE)
		return;
	p->muted = MUTE_NONE;
	if (p->mute_timer_ready)
		loop_timer_del(&p->mute_timer);
	p->mute_start = 0;
	p->mute_bytes = 0;
	p->mute_probe = strcmp(why, "sample again") == 0;
	p->stream_probe = 0;
	if (p->drain_paused)
		return;	/* until tmux has let its buffer go */
	pane_mute_send(p, "continue");
	log_debug("pane %%%d: unmuted (%s)", p->id, why);
	if (p->watch == NULL || !p->watch->agent_seen)
		return;
	/* A flood's screen moved on; a stream's title may have. */
	if (kind == MUTE_FLOOD)
		pane_resync(p);
	else
		p->mute_title = 1;
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

/* An agent's title, asked for: what it set while we did not listen. */
static void
pane_mute_title_cb(struct ctl_client *c, int ok, const char *body,
    size_t len, void *arg)
{
	struct pane	*p;
	char		*title;

	if (!ok || (p = pane_find((int)(intptr_t)arg)) == NULL ||
	    p->watch == NULL)
		return;
	if (len > 0 && body[len - 1] == '\n')
		len--;
	title = xstrndup(body, len);
	watch_title(p, title);
	free(title);
}

static void
pane_mute_title(struct session *s, struct pane *p)
{
	char	cmd[96];

	/* Only agents that set titles, and whose titles mean something. */
	if (p->watch->title_at == 0 ||
	    p->watch->agent == NULL || (p->watch->agent->title_busy == NULL &&
	    p->watch->agent->title_idle == NULL &&
	    p->watch->agent->title_waiting == NULL))
		return;
	snprintf(cmd, sizeof cmd, "display-message -p -t '%%%d' "
	    "'#{pane_title}'", p->id);
	session_send(s, cmd, pane_mute_title_cb, (void *)(intptr_t)p->id);
}

/* Would this pane's output tell lisa nothing it does not know? */
static int
pane_mute_stream_ok(struct pane *p)
{
	struct watch	*w = p->watch;

	if (!lisad.stream_mute || p->tap != NULL || p->dead || w == NULL ||
	    !w->agent_seen || !w->agent_alive || !w->classified ||
	    w->res.state != ST_IN_PROGRESS)
		return (0);
	/* Codex says its state in its output (hooks or not). */
	if (w->codex != CX_NONE)
		return (0);
	return (1);
}

/*
 * After a chunk of a pane's output was taken in: pause a stream. A window
 * opens at the first chunk after a quiet, or at a sample's continue.
 */
void
pane_mute_stream(struct pane *p, size_t len)
{
	uint64_t	now = p->out_last;
	int		probe;

	if (!lisad.stream_mute || p->muted != MUTE_NONE)
		return;		/* every chunk comes here: the cheap tests first */
	if (now - p->stream_start >= PANE_STREAM_WINDOW) {
		if (p->stream_probe)
			pane_mute_short(p);
		p->stream_start = now;
		p->stream_bytes = 0;
	}
	p->stream_bytes += len;
	if (p->stream_bytes < PANE_STREAM_BYTES)
		return;
	p->stream_start = now;
	p->stream_bytes = 0;
	if (!pane_mute_stream_ok(p)) {
		p->stream_probe = 0;
		return;
	}
	probe = p->stream_probe;
	p->stream_probe = 0;
	p->muted = MUTE_STREAM;
	p->stream_mutes++;
	p->stream_keeps = 0;
	pane_mute_send(p, "pause");
	pane_mute_stream_arm(p, now);
	/*
	 * An agent whose retry is a row on its screen, never whole in the
	 * stream after its first drawing (OpenCode, whose progress bar keeps
	 * it a stream): what the pause before this sample drew is read there.
	 */
	if (probe && p->watch->agent != NULL && p->watch->agent->retry_screen)
		pane_resync(p);
}

/* The end of a stream's pause, or the look before it (PANE_STREAM_CHECK). */
static void
pane_mute_stream_arm(struct pane *p, uint64_t now)
{
	uint64_t	ms;
	int		check;

	ms = lisad.debounce_ms / 2 < PANE_STREAM_MS ?
	    lisad.debounce_ms / 2 : PANE_STREAM_MS;
	/* On the grid: the continues due together leave in one write. */
	ms = ((now + ms) / PANE_STREAM_GRID) * PANE_STREAM_GRID - now;
	/*
	 * The look shortly before the end reads the agent's writes; where
	 * the system does not count them, it ends the pause on time.
	 */
	check = ms > PANE_STREAM_CHECK && p->stream_keeps < PANE_STREAM_KEEPS &&
	    lisad.stream_mute == 1;
	if (p->mute_timer_ready)
		loop_timer_del(&p->mute_timer);
	loop_timer_init(&p->mute_timer, check ? pane_mute_check_cb :
	    pane_mute_stream_cb, p);
	p->mute_timer_ready = 1;
	loop_timer_add(&p->mute_timer, check ? ms - PANE_STREAM_CHECK : ms);
}

/* Shortly before the pause ends: what has the agent written so far? */
static void
pane_mute_check_cb(void *arg)
{
	struct pane	*p = arg;

	if (proc_written(p->watch->agent_pid, &p->stream_wchar) != 0) {
		loop_timer_init(&p->mute_timer, pane_mute_stream_cb, p);
		loop_timer_add(&p->mute_timer, PANE_STREAM_CHECK);
		return;
	}
	loop_timer_init(&p->mute_timer, pane_mute_kept_cb, p);
	loop_timer_add(&p->mute_timer, PANE_STREAM_CHECK);
}

/*
 * The pause's end, PANE_STREAM_CHECK ms after a look at the agent's
 * writes: a stream's worth since then goes on paused (what it draws is
 * output flowing), less lets it go and reads its screen now.
 */
static void
pane_mute_kept_cb(void *arg)
{
	struct pane	*p = arg;
	uint64_t	 was = p->stream_wchar, now = time_mono_ms();

	if (proc_written(p->watch->agent_pid, &p->stream_wchar) != 0) {
		pane_mute_stream_cb(p);
		return;
	}
	if (p->stream_wchar - was >= (uint64_t)PANE_STREAM_BYTES *
	    PANE_STREAM_CHECK / PANE_STREAM_WINDOW) {
		p->stream_kept++;
		p->stream_keeps++;
		p->out_last = now;
		pane_mute_stream_arm(p, now);
		return;
	}
	/*
	 * Nothing from the agent itself: it stopped, or a child of its writes
	 * (a tool's flood): only a sample tells.
	 */
	if (p->stream_wchar == was) {
		pane_mute_stream_cb(p);
		return;
	}
	log_debug("pane %%%d: agent wrote %llu bytes in %d ms, let go", p->id,
	    (unsigned long long)(p->stream_wchar - was), PANE_STREAM_CHECK);
	p->stream_slowed++;
	pane_unmute(p, "stream slowed");
	pane_resync(p);
}

/* Half a debounce later: does it still stream? The sample will say. */
static void
pane_mute_stream_cb(void *arg)
{
	struct pane	*p = arg;

	pane_unmute(p, "still streaming?");
	p->stream_probe = 1;
	p->stream_start = time_mono_ms();
	p->stream_bytes = 0;
	loop_timer_del(&p->mute_timer);
	loop_timer_init(&p->mute_timer, pane_mute_sample_cb, p);
	loop_timer_add(&p->mute_timer, PANE_STREAM_WINDOW);
}

/*
 * A sample that came up short: slower than a stream now, or quiet. What
 * it drew while we did not listen is on its screen.
 */
static void
pane_mute_short(struct pane *p)
{
	p->stream_probe = 0;
	p->stream_slowed++;
	if (p->mute_timer_ready)
		loop_timer_del(&p->mute_timer);
	log_debug("pane %%%d: sample short, let go", p->id);
	pane_resync(p);
}

static void
pane_mute_sample_cb(void *arg)
{
	struct pane	*p = arg;

	if (p->stream_probe && p->muted == MUTE_NONE)
		pane_mute_short(p);
}

/* The verdict changed, or the agent is gone: listen to all of it again. */
void
pane_mute_verdict(struct pane *p)
{
	if (p->muted == MUTE_STREAM && !pane_mute_stream_ok(p))
		pane_unmute(p, "verdict changed");
}

/*
 * tmux 3.2 frees a dead pane's buffer while a control client may still
 * have some of its output queued, then reads it and crashes (tmux #2828,
 * fixed in 3.3); only panes kept by remain-on-exit live on to be read, and
 * on 3.2 only `lisa run` keeps one. Before its wrapper leaves, it asks us
 * to drain the pane: each of our clients pauses it (a pause drops what is
 * queued and queues nothing more) and the wrapper is answered once tmux
 * has done so. The pause stays until tmux says the pane is dead or it is
 * respawned: a continue before could queue its last bytes again.
 */
struct pane_drain {
	struct listener_conn	*lc;	/* NULL once it went away */
	int			 left;	/* replies to come */
	TAILQ_ENTRY(pane_drain)	 entry;
};
static TAILQ_HEAD(, pane_drain) pane_drains =
    TAILQ_HEAD_INITIALIZER(pane_drains);

static void
pane_drain_done(struct pane_drain *d)
{
	struct buf	b;

	if (d->lc != NULL) {
		buf_init(&b);
		buf_adds(&b, "{\"ok\":true,\"drained\":true}");
		listener_send(d->lc, &b);
		buf_free(&b);
	}
	TAILQ_REMOVE(&pane_drains, d, entry);
	free(d);
}

static void
pane_drain_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct pane_drain	*d = arg;

	if (--d->left == 0)
		pane_drain_done(d);
}

/* Pause pane id in every client of ours; lc is answered when done. */
void
pane_drain(int id, struct listener_conn *lc)
{
	struct pane_drain	*d;
	struct session		*s;
	struct pane		*p;
	char			 cmd[64];

	d = xcalloc(1, sizeof *d);
	d->lc = lc;
	TAILQ_INSERT_TAIL(&pane_drains, d, entry);
	if ((p = pane_find(id)) != NULL) {
		p->drain_paused = 1;
		p->drain_pid = p->pid;
		pane_unmute(p, "drained");	/* its state only: no continue */
	}
	/* Every session: a pane lisa has not listed yet still sends. */
	snprintf(cmd, sizeof cmd, "refresh-client -A '%%%d:pause'", id);
	RB_FOREACH(s, sessions, &sessions) {
		if (!s->attached || s->closing)
			continue;
		if (session_send(s, cmd, pane_drain_cb, d) == 0)
			d->left++;
	}
	log_debug("pane %%%d: drained in %d clients", id, d->left);
	if (d->left == 0)
		pane_drain_done(d);
}

static void
pane_drain_over(struct pane *p, const char *why)
{
	p->drain_paused = 0;
	pane_mute_send(p, "continue");
	log_debug("pane %%%d: drain over (%s)", p->id, why);
}

/* From tmux's listing: dead (its buffer gone) or respawned, listen again. */
void
pane_drain_check(struct pane *p, int tmux_dead)
{
	if (p->drain_paused && (tmux_dead || p->pid != p->drain_pid))
		pane_drain_over(p, tmux_dead ? "dead" : "respawned");
}

/* A run is started again in the pane: its new output is ours again. */
void
pane_drain_respawned(struct pane *p)
{
	if (p->drain_paused)
		pane_drain_over(p, "respawned");
}

void
pane_drain_conn_gone(struct listener_conn *lc)
{
	struct pane_drain	*d;

	TAILQ_FOREACH(d, &pane_drains, entry) {
		if (d->lc == lc)
			d->lc = NULL;
	}
}

void
pane_drain_close(void)
{
	struct pane_drain	*d;

	while ((d = TAILQ_FIRST(&pane_drains)) != NULL) {
		TAILQ_REMOVE(&pane_drains, d, entry);
		free(d);
	}
}
