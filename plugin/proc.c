/*
 * What the kernel knows about a pane's process. A pidfd tells us the moment
 * it exits, without tmux: tmux 3.3a sometimes misses a SIGCHLD and leaves
 * the child a zombie, so neither #{pane_dead_status} nor the pane-died hook
 * ever come (until some other child happens to exit). While the process is a
 * zombie, /proc/PID/stat still holds its wait status (field 52).
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"

int
proc_pidfd(pid_t pid)
{
	int	fd;

	if (pid <= 0)
		return (-1);
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd != -1)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return (fd);
}

/*
 * Parse a /proc/PID/stat line: state (field 3) and exit_code (field 52).
 * The command (field 2) is in parentheses and may hold anything, so the
 * fields are counted from the last ')'.
 */
int
proc_parse_stat(const char *line, char *state, int *exit_code)
{
	const char	*p;
	char		*end;
	int		 field;
	long		 v;

	if ((p = strrchr(line, ')')) == NULL || p[1] != ' ')
		return (-1);
	p += 2;
	*state = *p;
	*exit_code = -1;
	for (field = 3; *p != '\0'; field++) {
		if (field == 52) {
			v = strtol(p, &end, 10);
			if (end == p)
				return (-1);
			*exit_code = (int)v;
			return (0);
		}
		if ((p = strchr(p, ' ')) == NULL)
			break;
		p++;
	}
	return (*state != '\0' ? 0 : -1);
}

/*
 * The exit of a pid that has not been reaped yet: status or signal (the
 * other is -1). Returns -1 if it is not a zombie (running, or reaped).
 */
int
proc_exit_status(pid_t pid, int *status, int *sig)
{
	char	 path[64], buf[2048], state;
	ssize_t	 n;
	int	 fd, code;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY|O_CLOEXEC)) == -1)
		return (-1);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (-1);
	buf[n] = '\0';
	if (proc_parse_stat(buf, &state, &code) != 0 || state != 'Z' ||
	    code < 0)
		return (-1);
	*status = *sig = -1;
	if (WIFSIGNALED(code))
		*sig = WTERMSIG(code);
	else
		*status = WEXITSTATUS(code);
	return (0);
}
