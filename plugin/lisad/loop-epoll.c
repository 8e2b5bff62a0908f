/*
 * The event loop's wait, Linux: epoll. Each fd is registered once, so a
 * wait costs what is ready rather than what is watched: with 500 agents,
 * poll() spent half the helper's time walking their pidfds (B6).
 * Level-triggered, as poll(); the callbacks see poll's bits.
 */
#include <sys/epoll.h>

#include <errno.h>
#include <string.h>

#include "lisad.h"
#include "loop-int.h"

#define LOOP_EPOLL_EVENTS 256

static int	loop_epfd = -1;

/* The epoll instance, made at first use. */
static int
loop_epoll_fd(void)
{
	if (loop_epfd == -1 &&
	    (loop_epfd = epoll_create1(EPOLL_CLOEXEC)) == -1)
		fatal("epoll_create1");
	return (loop_epfd);
}

static uint32_t
loop_epoll_mask(short events)
{
	return ((events & POLLIN ? EPOLLIN : 0) |
	    (events & POLLOUT ? EPOLLOUT : 0));
}

static void
loop_epoll_ctl(int op, struct loop_fd *lf)
{
	struct epoll_event	ev;

	ev.events = loop_epoll_mask(lf->events);
	ev.data.ptr = lf;
	if (epoll_ctl(loop_epoll_fd(), op, lf->fd, &ev) == -1)
		fatal("epoll_ctl %d fd %d", op, lf->fd);
}

void
loop_os_add(struct loop_fd *lf)
{
	loop_epoll_ctl(EPOLL_CTL_ADD, lf);
}

void
loop_os_events(struct loop_fd *lf)
{
	if (!lf->removed)
		loop_epoll_ctl(EPOLL_CTL_MOD, lf);
}

/*
 * Before the caller closes the fd: a registration lives as long as its
 * open file, which a child may share, and would wake us for a loop_fd
 * that is gone.
 */
void
loop_os_del(struct loop_fd *lf)
{
	struct epoll_event	ev = { 0 };

	if (loop_epfd != -1 &&
	    epoll_ctl(loop_epfd, EPOLL_CTL_DEL, lf->fd, &ev) == -1)
		log_debug("loop: fd %d: epoll_ctl DEL: %s", lf->fd,
		    strerror(errno));
}

int
loop_os_wait(int timeout, int *done)
{
	struct epoll_event	 evs[LOOP_EPOLL_EVENTS];
	struct loop_fd		*lf;
	short			 revents;
	int			 n, i;

	if ((n = epoll_wait(loop_epoll_fd(), evs, LOOP_EPOLL_EVENTS,
	    timeout)) == -1) {
		if (errno == EINTR)
			return (-1);
		fatal("epoll_wait");
	}
	/* (a loop_fd removed in this batch is freed only on the next turn) */
	for (i = 0; i < n && !*done; i++) {
		lf = evs[i].data.ptr;
		if (lf->removed)
			continue;
		revents = (evs[i].events & EPOLLIN ? POLLIN : 0) |
		    (evs[i].events & EPOLLOUT ? POLLOUT : 0) |
		    (evs[i].events & EPOLLERR ? POLLERR : 0) |
		    (evs[i].events & EPOLLHUP ? POLLHUP : 0);
		lf->cb(lf->fd, revents, lf->arg);
	}
	return (0);
}
