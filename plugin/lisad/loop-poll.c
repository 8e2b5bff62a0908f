/*
 * The event loop's wait, POSIX: poll() on the whole set each time (its
 * cost grows with the fds watched; loop-epoll.c is Linux's).
 */
#include <errno.h>
#include <stdlib.h>

#include "lisad.h"
#include "loop-int.h"

static struct pollfd	*loop_pfds;
static struct loop_fd	**loop_map;
static size_t		 loop_cap;

void
loop_os_add(struct loop_fd *lf)
{
	(void)lf;
}

void
loop_os_events(struct loop_fd *lf)
{
	(void)lf;
}

void
loop_os_del(struct loop_fd *lf)
{
	(void)lf;
}

int
loop_os_wait(int timeout, int *done)
{
	struct loop_fd	*lf;
	int		 n = 0, i;

	if ((size_t)loop_nfds > loop_cap) {
		loop_cap = (size_t)loop_nfds * 2;
		loop_pfds = xreallocarray(loop_pfds, loop_cap,
		    sizeof *loop_pfds);
		loop_map = xreallocarray(loop_map, loop_cap, sizeof *loop_map);
	}
	TAILQ_FOREACH(lf, &loop_fds, entry) {
		loop_pfds[n].fd = lf->fd;
		loop_pfds[n].events = lf->events;
		loop_pfds[n].revents = 0;
		loop_map[n++] = lf;
	}
	if (poll(loop_pfds, (nfds_t)n, timeout) == -1) {
		if (errno == EINTR)
			return (-1);
		fatal("poll");
	}
	for (i = 0; i < n && !*done; i++) {
		lf = loop_map[i];
		if (loop_pfds[i].revents != 0 && !lf->removed)
			lf->cb(lf->fd, loop_pfds[i].revents, lf->arg);
	}
	return (0);
}
