/*
 * The event loop: the system's wait on every fd we own (loop-epoll.c on
 * Linux, loop-poll.c elsewhere), with the timeout set by the nearest
 * timer. With nothing to do the helper sleeps without a deadline - no
 * tick.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "loop-int.h"

struct loop_fds	 loop_fds = TAILQ_HEAD_INITIALIZER(loop_fds);
int		 loop_nfds;
/* Removed, freed at the top of the next turn (not a walk of them all). */
static struct loop_fds	 loop_dead = TAILQ_HEAD_INITIALIZER(loop_dead);

static int
loop_timer_cmp(struct loop_timer *a, struct loop_timer *b)
{
	if (a->when != b->when)
		return (a->when < b->when ? -1 : 1);
	if (a->seq != b->seq)
		return (a->seq < b->seq ? -1 : 1);
	return (0);
}
RB_HEAD(loop_timers, loop_timer);
RB_GENERATE_STATIC(loop_timers, loop_timer, entry, loop_timer_cmp);
static struct loop_timers loop_timers = RB_INITIALIZER(&loop_timers);
static uint64_t	loop_seq;

static int	loop_done;
static int	loop_code;
static uint64_t	loop_nwakeups;

struct loop_fd *
loop_add(int fd, short events, loop_fd_cb cb, void *arg)
{
	struct loop_fd	*lf;

	lf = xcalloc(1, sizeof *lf);
	lf->fd = fd;
	lf->events = events;
	lf->cb = cb;
	lf->arg = arg;
	TAILQ_INSERT_TAIL(&loop_fds, lf, entry);
	loop_nfds++;
	loop_os_add(lf);
	return (lf);
}

void
loop_events(struct loop_fd *lf, short events)
{
	if (lf->events != events) {
		lf->events = events;
		loop_os_events(lf);
	}
}

/*
 * Freeing is deferred so callbacks may remove any fd, themselves
 * included; the system forgets it now, before the caller closes it.
 */
void
loop_del(struct loop_fd *lf)
{
	if (lf != NULL && !lf->removed) {
		lf->removed = 1;
		loop_os_del(lf);
		TAILQ_REMOVE(&loop_fds, lf, entry);
		loop_nfds--;
		TAILQ_INSERT_TAIL(&loop_dead, lf, entry);
	}
}

/*
 * Only on a zeroed or disarmed timer: clearing one that is in the tree
 * would corrupt it (the watchdog once did; valgrind's timing showed it).
 */
void
loop_timer_init(struct loop_timer *t, void (*cb)(void *), void *arg)
{
	if (t->armed)
		fatalx("timer %p initialised while armed", (void *)t);
	memset(t, 0, sizeof *t);
	t->cb = cb;
	t->arg = arg;
}

void
loop_timer_add(struct loop_timer *t, uint64_t ms)
{
	loop_timer_del(t);
	t->when = time_mono_ms() + ms;
	t->seq = loop_seq++;
	t->armed = 1;
	RB_INSERT(loop_timers, &loop_timers, t);
}

void
loop_timer_del(struct loop_timer *t)
{
	if (t->armed) {
		RB_REMOVE(loop_timers, &loop_timers, t);
		t->armed = 0;
	}
}

void
loop_exit(int code)
{
	loop_done = 1;
	loop_code = code;
}

uint64_t
loop_wakeups(void)
{
	return (loop_nwakeups);
}

/* Milliseconds to the next timer, -1 for none: what an idle helper waits for. */
int64_t
loop_next_timer_ms(void)
{
	struct loop_timer	*t;
	uint64_t		 now = time_mono_ms();

	if ((t = RB_MIN(loop_timers, &loop_timers)) == NULL)
		return (-1);
	return (t->when <= now ? 0 : (int64_t)(t->when - now));
}

static void
loop_reap(void)
{
	struct loop_fd	*lf, *lf1;

	TAILQ_FOREACH_SAFE(lf, &loop_dead, entry, lf1) {
		TAILQ_REMOVE(&loop_dead, lf, entry);
		free(lf);
	}
}

static void
loop_fire_timers(void)
{
	struct loop_timer	*t;
	uint64_t		 now = time_mono_ms();

	while ((t = RB_MIN(loop_timers, &loop_timers)) != NULL &&
	    t->when <= now) {
		loop_timer_del(t);
		t->cb(t->arg);
	}
}

int
loop_run(void)
{
	int64_t		 next;
	int		 timeout;

	while (!loop_done) {
		loop_reap();
		next = loop_next_timer_ms();
		timeout = next < 0 ? -1 : (next > INT_MAX ? INT_MAX : (int)next);
		if (loop_os_wait(timeout, &loop_done) != 0)
			continue;	/* a signal */
		loop_nwakeups++;
		if (!loop_done)
			loop_fire_timers();
	}
	return (loop_code);
}
