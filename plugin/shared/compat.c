/*
 * Descriptors that do not leak into the programs lisa runs, made the same
 * way on every system: pipe2, accept4 and SOCK_CLOEXEC are not everywhere
 * (macOS has none of them). lisa is single-threaded, so nothing can fork
 * between the call and the fcntl.
 */
#include <sys/socket.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
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

/*
 * In a child, every descriptor from LOW up closed: close-on-exec covers a
 * child that runs a program, not one that does work of its own (a write
 * to a terminal that reads nothing held every control client's pipe).
 * The open ones, from /dev/fd where the system lists them.
 */
void
compat_closefrom(int low)
{
	struct dirent	*de;
	DIR		*d;
	int		 fd, dfd, max;

	if ((d = opendir("/dev/fd")) != NULL) {
		dfd = dirfd(d);
		while ((de = readdir(d)) != NULL) {
			fd = atoi(de->d_name);
			if (fd >= low && fd != dfd && de->d_name[0] != '.')
				close(fd);
		}
		closedir(d);
		return;
	}
	if ((max = (int)sysconf(_SC_OPEN_MAX)) <= 0 || max > 65536)
		max = 65536;
	for (fd = low; fd < max; fd++)
		close(fd);
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
