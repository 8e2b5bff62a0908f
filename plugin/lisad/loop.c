/*
 * The event loop: poll() on every fd we own, with the timeout set by the
 * nearest timer. With nothing to do the helper sleeps in poll() without a
 * deadline - no tick.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"

struct loop_fd {
	int			 fd;
	short			 events;
	loop_fd_cb		 cb;
	void			*arg;
	int			 removed;
	TAILQ_ENTRY(loop_fd)	 entry;
};
static TAILQ_HEAD(, loop_fd) loop_fds = TAILQ_HEAD_INITIALIZER(loop_fds);
static int	loop_nfds;

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
	return (lf);
}

void
loop_events(struct loop_fd *lf, short events)
{
	lf->events = events;
}

/* Removal is deferred so callbacks may remove any fd, themselves included. */
void
loop_del(struct loop_fd *lf)
{
	if (lf != NULL)
		lf->removed = 1;
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

static void
loop_reap(void)
{
	struct loop_fd	*lf, *lf1;

	TAILQ_FOREACH_SAFE(lf, &loop_fds, entry, lf1) {
		if (lf->removed) {
			TAILQ_REMOVE(&loop_fds, lf, entry);
			loop_nfds--;
			free(lf);
		}
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
	struct pollfd		*pfds = NULL;
	struct loop_fd		**map = NULL;
	struct loop_fd		*lf;
	struct loop_timer	*t;
	size_t			 cap = 0;
	int			 n, i, timeout;
	uint64_t		 now;

	while (!loop_done) {
		loop_reap();
		if ((size_t)loop_nfds > cap) {
			cap = (size_t)loop_nfds * 2;
			pfds = xreallocarray(pfds, cap, sizeof *pfds);
			map = xreallocarray(map, cap, sizeof *map);
		}
		n = 0;
		TAILQ_FOREACH(lf, &loop_fds, entry) {
			pfds[n].fd = lf->fd;
			pfds[n].events = lf->events;
			pfds[n].revents = 0;
			map[n++] = lf;
		}
		timeout = -1;
		if ((t = RB_MIN(loop_timers, &loop_timers)) != NULL) {
			now = time_mono_ms();
			timeout = t->when <= now ? 0 :
			    (t->when - now > INT_MAX ? INT_MAX :
			    (int)(t->when - now));
		}
		if (poll(pfds, (nfds_t)n, timeout) == -1) {
			if (errno == EINTR)
				continue;
			fatal("poll");
		}
		loop_nwakeups++;
		for (i = 0; i < n && !loop_done; i++) {
			lf = map[i];
			if (pfds[i].revents != 0 && !lf->removed)
				lf->cb(lf->fd, pfds[i].revents, lf->arg);
		}
		if (!loop_done)
			loop_fire_timers();
	}
	free(pfds);
	free(map);
	return (loop_code);
}
