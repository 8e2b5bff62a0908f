/*
 * Descriptors that do not leak into the programs lisa runs, made the same
 * way on every system: pipe2, accept4 and SOCK_CLOEXEC are not everywhere
 * (macOS has none of them). lisa is single-threaded, so nothing can fork
 * between the call and the fcntl.
 */
#include <sys/socket.h>

#include <fcntl.h>
#include <unistd.h>

#include "osdep.h"

int
compat_fd_flags(int fd, int nonblock)
{
	int	fl;

	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		return (-1);
	if (!nonblock)
		return (0);
	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) == -1)
		return (-1);
	return (0);
}

int
compat_pipe(int fds[2])
{
	if (pipe(fds) != 0)
		return (-1);
	if (compat_fd_flags(fds[0], 0) != 0 ||
	    compat_fd_flags(fds[1], 0) != 0) {
		close(fds[0]);
		close(fds[1]);
		return (-1);
	}
	return (0);
}

int
compat_socket_unix(int nonblock)
{
	int	fd;

	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return (-1);
	if (compat_fd_flags(fd, nonblock) != 0) {
		close(fd);
		return (-1);
	}
	return (fd);
}

int
compat_accept(int fd, int nonblock)
{
	int	cfd;

	if ((cfd = accept(fd, NULL, NULL)) == -1)
		return (-1);
	if (compat_fd_flags(cfd, nonblock) != 0) {
		close(cfd);
		return (-1);
	}
	return (cfd);
}
