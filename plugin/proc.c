/*
 * What the kernel knows about a pane's process. A pidfd tells us the moment
 * it exits, without tmux: tmux 3.3a sometimes misses a SIGCHLD and leaves
 * the child a zombie, so neither #{pane_dead_status} nor the pane-died hook
 * ever come (until some other child happens to exit). While the process is a
 * zombie, /proc/PID/stat still holds its wait status (field 52).
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisad.h"

/* Now, in ms since boot: the clock /proc/PID/stat's starttime counts on. */
uint64_t
proc_boot_ms(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
		return (0);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* When a process started, in ms since boot. */
uint64_t
proc_start_ms(const struct proc_node *n)
{
	static long	hz;

	if (hz == 0 && (hz = sysconf(_SC_CLK_TCK)) <= 0)
		hz = 100;
	return (n->start * 1000 / (uint64_t)hz);
}

int
proc_pidfd(pid_t pid)
{
	int	fd;

	/* LISAD_NO_PIDFD: tests of the other routes, and valgrind. */
	if (pid <= 0 || !lisad.use_pidfd)
		return (-1);
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd != -1)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return (fd);
}

/* Read /proc/PID/NAME into buf (NUL-terminated); its length, or -1. */
ssize_t
proc_file(pid_t pid, const char *name, char *buf, size_t size)
{
	char	path[64];
	ssize_t	n;
	int	fd;

	snprintf(path, sizeof path, "/proc/%ld/%s", (long)pid, name);
	if ((fd = open(path, O_RDONLY|O_CLOEXEC)) == -1)
		return (-1);
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return (-1);
	buf[n] = '\0';
	return (n);
}

/* The working directory of PID into buf; -1 if unreadable. */
int
proc_cwd(pid_t pid, char *buf, size_t size)
{
	char	path[64];
	ssize_t	n;

	snprintf(path, sizeof path, "/proc/%ld/cwd", (long)pid);
	if ((n = readlink(path, buf, size - 1)) <= 0)
		return (-1);
	buf[n] = '\0';
	return (0);
}

/*
 * Read /proc/PID/stat: parent, name, state, CPU ticks, start time and, for
 * a zombie, its wait status (field 52). The name (field 2) is in
 * parentheses and may hold anything, so fields count from the last ')'.
 */
int
proc_read(pid_t pid, struct proc_node *n)
{
	char			 buf[2048], *p, *q;
	int			 field;
	unsigned long long	 utime = 0, stime = 0;

	if (proc_file(pid, "stat", buf, sizeof buf) <= 0)
		return (-1);
	if ((p = strchr(buf, '(')) == NULL || (q = strrchr(buf, ')')) == NULL ||
	    q < p || q[1] != ' ')
		return (-1);
	memset(n, 0, sizeof *n);
	n->pid = pid;
	n->exit_code = -1;
	snprintf(n->comm, sizeof n->comm, "%.*s", (int)(q - p - 1), p + 1);
	p = q + 2;
	n->state = *p;
	for (field = 3; *p != '\0'; field++) {
		if (field == 4)
			n->ppid = (pid_t)strtol(p, NULL, 10);
		else if (field == 11 || field == 13)
			n->reaped += strtoull(p, NULL, 10);
		else if (field == 14)
			utime = strtoull(p, NULL, 10);
		else if (field == 15)
			stime = strtoull(p, NULL, 10);
		else if (field == 22)
			n->start = strtoull(p, NULL, 10);
		else if (field == 52) {
			n->exit_code = (int)strtol(p, NULL, 10);
			break;
		}
		if ((p = strchr(p, ' ')) == NULL)
			break;
		p++;
	}
	n->ticks = utime + stime;
	return (0);
}

/*
 * A count that grows whenever the process reaps a child that ran a
 * program: the children's page faults (cminflt + cmajflt), which every
 * exec adds to. A shell's count moves when it has run a command.
 */
int
proc_reaped(pid_t pid, uint64_t *count)
{
	struct proc_node	n;

	if (proc_read(pid, &n) != 0)
		return (-1);
	*count = n.reaped;
	return (0);
}

/*
 * What PID has written so far, to anything (wchar of /proc/PID/io): the
 * kernel's word that an agent still streams, without its output.
 */
int
proc_written(pid_t pid, uint64_t *bytes)
{
	char	buf[512], *p;

	if (pid <= 0 || proc_file(pid, "io", buf, sizeof buf) <= 0 ||
	    (p = strstr(buf, "wchar: ")) == NULL)
		return (-1);
	*bytes = strtoull(p + 7, NULL, 10);
	return (0);
}

/*
 * The exit of a pid that has not been reaped yet: status or signal (the
 * other is -1). Returns -1 if it is not a zombie (running, or reaped).
 */
int
proc_exit_status(pid_t pid, int *status, int *sig)
{
	struct proc_node	n;

	if (proc_read(pid, &n) != 0 || n.state != 'Z' || n.exit_code < 0)
		return (-1);
	*status = *sig = -1;
	if (WIFSIGNALED(n.exit_code))
		*sig = WTERMSIG(n.exit_code);
	else
		*status = WEXITSTATUS(n.exit_code);
	return (0);
}

/* Up to max NUL-separated arguments of PID into buf; returns argc. */
int
proc_argv(pid_t pid, char *buf, size_t size, char **argv, int max)
{
	ssize_t	 len;
	int	 argc = 0;
	char	*p;

	if ((len = proc_file(pid, "cmdline", buf, size)) <= 0)
		return (0);
	for (p = buf; p < buf + len && argc < max; p += strlen(p) + 1)
		argv[argc++] = p;
	return (argc);
}

/* Children of every thread of PID (a child may be forked by any thread). */
static int
proc_children(pid_t pid, pid_t *out, int max)
{
	char		 path[320], buf[4096], *p, *end;
	struct dirent	*de;
	DIR		*d;
	ssize_t		 len;
	int		 fd, n = 0;
	long		 v;

	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	if ((d = opendir(path)) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL && n < max) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%ld/task/%s/children",
		    (long)pid, de->d_name);
		if ((fd = open(path, O_RDONLY|O_CLOEXEC)) == -1)
			continue;
		len = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		for (p = buf; *p != '\0' && n < max; p = end) {
			v = strtol(p, &end, 10);
			if (end == p)
				break;
			out[n++] = (pid_t)v;
		}
	}
	closedir(d);
	return (n);
}

/*
 * The process tree under root, breadth first (a parent always before its
 * children). Returns the number of nodes, or -1 if root cannot be read.
 */
int
proc_tree(pid_t root, struct proc_node *nodes, int max)
{
	pid_t	kids[256];
	int	head = 0, n = 0, k, i;

	if (max < 1 || proc_read(root, &nodes[0]) != 0)
		return (-1);
	nodes[0].depth = 0;
	n = 1;
	while (head < n && n < max) {
		if (nodes[head].depth >= PROC_MAX_DEPTH) {
			head++;
			continue;
		}
		k = proc_children(nodes[head].pid, kids, 256);
		for (i = 0; i < k && n < max; i++) {
			if (proc_read(kids[i], &nodes[n]) != 0)
				continue;
			nodes[n].depth = nodes[head].depth + 1;
			n++;
		}
		head++;
	}
	return (n);
}
