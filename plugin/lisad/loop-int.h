/*
 * Between the event loop (loop.c) and the system's way to wait on many
 * fds: loop-epoll.c (Linux: a wait costs what is ready, not what is
 * watched) or loop-poll.c (POSIX poll(), elsewhere). The Makefile takes
 * the one OSDEP names.
 */
#ifndef LOOP_INT_H
#define LOOP_INT_H

struct loop_fd {
	int			 fd;
	short			 events;	/* POLLIN, POLLOUT */
	loop_fd_cb		 cb;
	void			*arg;
	int			 removed;
	TAILQ_ENTRY(loop_fd)	 entry;
};
TAILQ_HEAD(loop_fds, loop_fd);
extern struct loop_fds	 loop_fds;	/* in order of adding */
extern int		 loop_nfds;

void	loop_os_add(struct loop_fd *);
void	loop_os_events(struct loop_fd *);
void	loop_os_del(struct loop_fd *);
/* Wait up to timeout ms (-1: no limit) and run the ready fds' callbacks
 * (poll's revents); -1 when a signal came first. */
int	loop_os_wait(int, int *);

#endif
