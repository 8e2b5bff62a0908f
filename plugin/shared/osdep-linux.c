/*
 * The Linux backend (see osdep.h): /proc for what a process is and does, a
 * pidfd for the moment it exits (without tmux: a tmux that lost its
 * SIGCHLD never tells, docs/protocol.md), and while the process is a
 * zombie, /proc/PID/stat still holds its wait status (field 52).
 */
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shared.h"
#include "osdep.h"

const char	*osdep_name = "linux";
const int	 osdep_start_ticks = 1;

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

/* /proc is read afresh at every look. */
void
proc_forget(void)
{
}

uint64_t
proc_read_age(void)
{
	return (0);
}

/* A descriptor that polls readable when PID exits (a pidfd), or -1. */
int
proc_exitfd(pid_t pid)
{
	int	fd;

	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd != -1)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return (fd);
}

/* Read /proc/PID/NAME into buf (NUL-terminated); its length, or -1. */
static ssize_t
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

/* PID's environment, NUL-separated, into buf; its length, or -1. */
ssize_t
proc_environ(pid_t pid, char *buf, size_t size)
{
	return (proc_file(pid, "environ", buf, size));
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
int
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

/* (PR_SET_PDEATHSIG needs no guard) */
void
osdep_guard_children(int sig)
{
	(void)sig;
}

void
osdep_die_with_parent(int sig)
{
	pid_t	parent = getppid();

	if (prctl(PR_SET_PDEATHSIG, sig) != 0)
		return;
	/* (it may have died before the prctl: then no signal comes) */
	if (getppid() != parent)
		raise(sig);
}

/* /proc/self/exe says where we are: argv[0] is not needed. */
void
osdep_set_argv0(const char *argv0)
{
}

/* The path of the running program; -1 if the system does not say. */
int
osdep_self_exe(char *buf, size_t size)
{
	ssize_t	n = readlink("/proc/self/exe", buf, size - 1);

	if (n <= 0)
		return (-1);
	buf[n] = '\0';
	return (0);
}

/* Resident memory of this process in KB, or -1. */
long
osdep_self_rss_kb(void)
{
	char	 line[256];
	FILE	*f;
	long	 rss = -1;

	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			rss = strtol(line + 6, NULL, 10);
	}
	fclose(f);
	return (rss);
}

/* The user on the other end of a connected Unix socket. */
int
osdep_peer_uid(int fd, uid_t *uid)
{
	struct ucred	cred;
	socklen_t	len = sizeof cred;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
		return (-1);
	*uid = cred.uid;
	return (0);
}

/* /proc's starttime is the kernel's, the same for every reader. */
int
proc_start_same(uint64_t a, uint64_t b)
{
	return (a == b);
}

/* Bytes malloc has handed out and not had back (a leak shows here), or -1. */
long long
osdep_heap_bytes(void)
{
#ifdef __GLIBC__
	struct mallinfo2	mi = mallinfo2();

	return ((long long)(mi.uordblks + mi.hblkhd));
#else
	return (-1);	/* musl says nothing of its heap */
#endif
}

/* Blocked, and read from a signalfd. */
int
osdep_signal_fd(const sigset_t *set, sigset_t *old)
{
	sigprocmask(SIG_BLOCK, set, old);
	return (signalfd(-1, set, SFD_NONBLOCK|SFD_CLOEXEC));
}

int
osdep_signal_next(int fd)
{
	struct signalfd_siginfo	si;

	if (read(fd, &si, sizeof si) != sizeof si)
		return (0);
	return ((int)si.ssi_signo);
}

/*
 * A timer on the wall clock, due in ten years, that the kernel cancels
 * when the clock is set; timekeeping_resume sets it after a suspend. It
 * never fires: nothing at rest.
 */
static int
osdep_clock_arm(int fd)
{
	struct itimerspec	its;
	struct timespec		now;

	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		return (-1);
	memset(&its, 0, sizeof its);
	its.it_value.tv_sec = now.tv_sec + 10 * 365 * 86400;
	return (timerfd_settime(fd, TFD_TIMER_ABSTIME|TFD_TIMER_CANCEL_ON_SET,
	    &its, NULL));
}

int
osdep_clock_watch(void)
{
	int	fd;

	if ((fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK|TFD_CLOEXEC)) ==
	    -1)
		return (-1);
	if (osdep_clock_arm(fd) != 0) {
		close(fd);
		return (-1);
	}
	return (fd);
}

int
osdep_clock_changed(int fd)
{
	uint64_t	n;
	ssize_t		r;

	r = read(fd, &n, sizeof n);
	if (r == -1 && errno == EAGAIN)
		return (0);
	/* (ECANCELED: set; a read that counted expiries: ten years on) */
	osdep_clock_arm(fd);
	return (1);
}

int
osdep_fwatch_open(void)
{
	return (inotify_init1(IN_NONBLOCK|IN_CLOEXEC));
}

/* One directory may be watched for several reasons: add, never cut. */
int
osdep_fwatch_add(int fd, const char *dir)
{
	return (inotify_add_watch(fd, dir, IN_CLOSE_WRITE|IN_MOVED_TO|
	    IN_CREATE|IN_DELETE|IN_MOVED_FROM|IN_MODIFY|IN_ONLYDIR|
	    IN_MASK_ADD));
}

int
osdep_fwatch_next(int fd, int *wd, const char **name)
{
	static char	 buf[16384]
			     __attribute__((aligned(__alignof__(struct inotify_event))));
	static size_t	 off, len;
	const struct inotify_event *ev;
	ssize_t		 n;

	for (;;) {
		if (off >= len) {
			off = len = 0;
			if ((n = read(fd, buf, sizeof buf)) <= 0)
				return (0);
			len = (size_t)n;
		}
		ev = (const struct inotify_event *)(buf + off);
		off += sizeof *ev + ev->len;
		if (ev->len == 0)
			continue;	/* about the directory itself */
		*wd = ev->wd;
		*name = ev->name;
		return (1);
	}
}
