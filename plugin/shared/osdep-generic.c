/*
 * The generic POSIX backend (see osdep.h), for systems lisa has no backend
 * of its own for (macOS, the BSDs) and for `make OSDEP=generic` anywhere.
 * Process facts come from ps(1) with the fields POSIX specifies, one
 * snapshot of every process at a time, taken only when lisa asks (a pane's
 * process tree on an event or a deadline, never on a timer of its own) and
 * kept for PS_SNAPSHOT_MS: the panes looked at in one turn of the loop
 * share it, the next event sees the processes as they are then. A
 * process not in it, or a look asked afresh (proc_forget), takes a new
 * one. What POSIX does not say, it does not invent: no exit descriptor
 * (deaths come from tmux), no zombie's status, no working directory or
 * environment of another process, no count of what a process wrote
 * (streams are sampled), no file events (agent files are read when lisa
 * wakes for other reasons), no resident size.
 *
 * It compiles as plain POSIX, with the few BSD calls it uses (strlcpy,
 * getpeereid) let in where the system hides them under a strict POSIX.
 */
#ifdef __APPLE__
#define _DARWIN_C_SOURCE 1
#endif
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shared.h"
#include "osdep.h"

const char	*osdep_name = "generic";
const int	 osdep_start_ticks = 0;

#define PS_SNAPSHOT_MS	20
#define PS_MAX_OUTPUT	(4 * 1024 * 1024)

struct ps_proc {
	pid_t		 pid;
	pid_t		 ppid;
	uint64_t	 ticks;
	uint64_t	 start;		/* seconds since the epoch */
	char		 comm[17];
	char		*args;
};
static struct ps_proc	*ps_procs;
static size_t		 ps_nprocs;
static uint64_t		 ps_taken;	/* proc_boot_ms() of the snapshot */
static uint64_t		 ps_began;	/* proc_boot_ms() as it began */
static int64_t		 ps_self_start;	/* our own start, first snapshot */
static int64_t		 ps_moved;	/* s the wall clock moved since */

static uint64_t
ps_wall_ms(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return (0);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/*
 * The clock start times and "now" are both on: the wall clock, less how
 * far it moved against ps's since the first snapshot (ps_shift).
 */
uint64_t
proc_boot_ms(void)
{
	return (ps_wall_ms() - (uint64_t)(ps_moved * 1000));
}

uint64_t
proc_start_ms(const struct proc_node *n)
{
	return (n->start * 1000);
}

/* Whole seconds off the wall clock: another helper's may be one apart. */
int
proc_start_same(uint64_t a, uint64_t b)
{
	return (a + 1 >= b && b + 1 >= a);
}

/*
 * "[[dd-]hh:]mm:ss[.ff]" (etime and time) in milliseconds; -1 if it is not
 * that. procps gives whole seconds; a Mac's and the BSDs' time has
 * hundredths, kept: a second's steps hide a watchdog's short stall's CPU.
 */
static int64_t
ps_ms(const char *s)
{
	long	 secs = 0, days = 0, frac = 0, scale = 1000;
	int	 n = 0;
	char	*end;

	if (strchr(s, '-') != NULL) {
		days = strtol(s, &end, 10);
		if (*end != '-')
			return (-1);
		s = end + 1;
	}
	/* hh:mm:ss, mm:ss or ss: each field 60 of the next. */
	for (;;) {
		if (n++ == 3)
			return (-1);
		secs = secs * 60 + strtol(s, &end, 10);
		if (end == s)
			return (-1);
		if (*end != ':')
			break;
		s = end + 1;
	}
	if (*end == '.') {
		for (s = end + 1; *s >= '0' && *s <= '9'; s++) {
			if (scale > 1)
				frac += (*s - '0') * (scale /= 10);
		}
		end = (char *)s;
	}
	if (*end != '\0')
		return (-1);
	return (((int64_t)days * 86400 + secs) * 1000 + frac);
}

/* Run ps with these -o fields; its output, NUL-terminated, or NULL. */
static char *
ps_run(const char *const fields[])
{
	const char	*argv[20];
	char		*out = NULL, *p;
	size_t		 len = 0, cap = 0;
	ssize_t		 n;
	int		 fds[2], i, k = 0, status;
	pid_t		 pid;

	argv[k++] = "ps";
	argv[k++] = "-A";
	for (i = 0; fields[i] != NULL && k < 18; i++) {
		argv[k++] = "-o";
		argv[k++] = fields[i];
	}
	argv[k] = NULL;
	if (compat_pipe(fds) != 0)
		return (NULL);
	if ((pid = fork()) == -1) {
		log_debug("ps: fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return (NULL);
	}
	if (pid == 0) {
		dup2(fds[1], 1);
		if ((i = open("/dev/null", O_RDWR)) != -1) {
			dup2(i, 0);
			dup2(i, 2);
		}
		execvp("ps", (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		if (len + 8192 + 1 > cap) {
			cap = cap == 0 ? 65536 : cap * 2;
			if ((p = realloc(out, cap)) == NULL)
				break;
			out = p;
		}
		n = read(fds[0], out + len, cap - len - 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0 || len + (size_t)n > PS_MAX_OUTPUT)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (out == NULL || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		log_debug("ps: failed (status %d, %zu bytes)", status, len);
		free(out);
		return (NULL);
	}
	out[len] = '\0';
	return (out);
}

static struct ps_proc *
ps_find(struct ps_proc *procs, size_t n, pid_t pid)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (procs[i].pid == pid)
			return (&procs[i]);
	}
	return (NULL);
}

static void
ps_free(struct ps_proc *procs, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(procs[i].args);
	free(procs);
}

/*
 * How far the wall clock moved against ps's elapsed times since the first
 * snapshot, in seconds, from our own start as this snapshot puts it (it
 * cannot change). ps may count elapsed time on another clock than the
 * wall's (Linux's procps: since boot), and a wall clock stepped by NTP or
 * a resumed virtual machine would otherwise move every start, and make
 * every agent a new one.
 */
static int64_t
ps_shift(int64_t self)
{
	if (self == 0)
		return (0);	/* not in this snapshot */
	if (ps_self_start == 0)
		ps_self_start = self;
	/* Within a second: etime's own rounding. */
	if (self <= ps_self_start + 1 && self + 1 >= ps_self_start)
		return (0);
	if (self - ps_self_start != ps_moved)
		log_debug("ps: the wall clock moved %lld s",
		    (long long)(self - ps_self_start));
	return (self - ps_self_start);
}

/*
 * One line of ps's: pid, parent, CPU time and elapsed time, then *rest at
 * what follows (the name, and the arguments where they are in the line).
 */
static int
ps_line(char *line, uint64_t wall, long hz, struct ps_proc *pp, char **rest)
{
	char	 tm[32], et[32], *p;
	int64_t	 cpu, elapsed;
	long	 pid, ppid;
	int	 f;

	if (sscanf(line, "%ld %ld %31s %31s", &pid, &ppid, tm, et) != 4 ||
	    pid <= 0)
		return (-1);
	if ((cpu = ps_ms(tm)) < 0 || (elapsed = ps_ms(et)) < 0)
		return (-1);
	elapsed /= 1000;
	p = line;
	for (f = 0; f < 4; f++) {
		while (*p == ' ')
			p++;
		while (*p != ' ' && *p != '\0')
			p++;
	}
	while (*p == ' ')
		p++;
	/*
	 * procps 4.0.2 wraps the negative elapsed time of a process younger
	 * than its clock's tick (441077234-00:18:40): a start before the
	 * epoch is one that has just happened.
	 */
	if ((uint64_t)elapsed > wall / 1000)
		elapsed = 0;
	memset(pp, 0, sizeof *pp);
	pp->pid = (pid_t)pid;
	pp->ppid = (pid_t)ppid;
	pp->ticks = (uint64_t)cpu * (uint64_t)hz / 1000;
	pp->start = wall / 1000 - (uint64_t)elapsed;
	*rest = p;
	return (0);
}

/* The name, its last part where it is a path (macOS). */
static void
ps_comm(struct ps_proc *pp, char *name)
{
	char	*q;

	if ((q = strrchr(name, '/')) != NULL && q[1] != '\0')
		name = q + 1;
	strlcpy(pp->comm, name, sizeof pp->comm);
}

/* One more process in a snapshot being read. */
static void
ps_push(struct ps_proc **procs, size_t *n, size_t *cap, struct ps_proc *pp)
{
	if (*n == *cap) {
		*cap = *cap == 0 ? 256 : *cap * 2;
		*procs = xreallocarray(*procs, *cap, sizeof **procs);
	}
	(*procs)[(*n)++] = *pp;
}

/*
 * The name and the arguments are both free text: in one line, the name
 * ends where the pid comes again (the first word of it that is the
 * line's own pid, past the name's first word). NULL if it does not.
 */
static char *
ps_split(char *name, pid_t pid)
{
	char	*q = name, *end, *e;
	long	 v;

	for (;;) {
		while (*q != ' ' && *q != '\0')
			q++;
		while (*q == ' ')
			q++;
		if (*q == '\0')
			return (NULL);
		v = strtol(q, &end, 10);
		if (end == q || v != (long)pid || (*end != ' ' && *end != '\0'))
			continue;
		for (e = q; e > name && e[-1] == ' '; e--)
			;
		*e = '\0';
		while (*end == ' ')
			end++;
		return (end);
	}
}

/*
 * Every process, in one run of ps where it can (its name, then its pid
 * again, then its arguments); else the name in one run and the arguments
 * in another. Some ps may refuse a field twice, or pad a name past what
 * the line shows: then two runs from that snapshot on.
 */
static struct ps_proc *
ps_read_one(uint64_t wall, long hz, size_t *np)
{
	static const char *const f[] = { "pid=", "ppid=", "time=",
				     "etime=", "comm=", "pid=", "args=", NULL };
	struct ps_proc	*procs = NULL, pp;
	size_t		 n = 0, cap = 0;
	char		*o, *line, *next, *name, *args;

	if ((o = ps_run(f)) == NULL)
		return (NULL);
	for (line = o; *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (ps_line(line, wall, hz, &pp, &name) != 0)
			continue;
		if ((args = ps_split(name, pp.pid)) == NULL) {
			log_debug("ps: no pid after the name of %ld",
			    (long)pp.pid);
			ps_free(procs, n);
			free(o);
			return (NULL);
		}
		ps_comm(&pp, name);
		pp.args = xstrdup(args);
		ps_push(&procs, &n, &cap, &pp);
	}
	free(o);
	if (n == 0) {
		free(procs);
		return (NULL);
	}
	*np = n;
	return (procs);
}

static struct ps_proc *
ps_read_two(uint64_t wall, long hz, size_t *np)
{
	static const char *const f1[] = { "pid=", "ppid=", "time=",
				      "etime=", "comm=", NULL };
	static const char *const f2[] = { "pid=", "args=", NULL };
	struct ps_proc	*procs = NULL, pp, *found;
	size_t		 n = 0, cap = 0;
	char		*o1, *o2, *line, *next, *name, *end;
	long		 pid;

	if ((o1 = ps_run(f1)) == NULL)
		return (NULL);
	if ((o2 = ps_run(f2)) == NULL) {
		free(o1);
		return (NULL);
	}
	for (line = o1; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (ps_line(line, wall, hz, &pp, &name) != 0)
			continue;
		ps_comm(&pp, name);
		ps_push(&procs, &n, &cap, &pp);
	}
	for (line = o2; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		pid = strtol(line, &end, 10);
		if (end == line ||
		    (found = ps_find(procs, n, (pid_t)pid)) == NULL)
			continue;
		while (*end == ' ')
			end++;
		free(found->args);
		found->args = xstrdup(end);
	}
	free(o1);
	free(o2);
	*np = n;
	return (procs);
}

/* A snapshot of every process, unless the last is recent enough. */
static int
ps_snapshot(int fresh)
{
	static int	 two_runs;
	struct ps_proc	*procs = NULL, *pp, *old;
	size_t		 n = 0, i;
	uint64_t	 now = proc_boot_ms(), wall = ps_wall_ms();
	long		 hz = sysconf(_SC_CLK_TCK);
	int64_t		 self = 0;

	if (ps_procs != NULL && now - ps_taken < (fresh ? 2 : PS_SNAPSHOT_MS))
		return (0);
	if (hz <= 0)
		hz = 100;
	if (!two_runs)
		procs = ps_read_one(wall, hz, &n);
	if (procs == NULL) {
		if ((procs = ps_read_two(wall, hz, &n)) == NULL)
			return (-1);
		two_runs = 1;	/* two runs work where one did not */
	}
	for (i = 0; i < n; i++) {
		if (procs[i].pid == getpid())
			self = (int64_t)procs[i].start;
	}
	ps_moved = ps_shift(self);
	for (i = 0; i < n; i++) {
		pp = &procs[i];
		pp->start -= (uint64_t)ps_moved;
		/* etime is whole seconds: keep a start seen before. */
		if ((old = ps_find(ps_procs, ps_nprocs, pp->pid)) != NULL &&
		    old->start + 2 >= pp->start && pp->start + 2 >= old->start)
			pp->start = old->start;
	}
	ps_free(ps_procs, ps_nprocs);
	ps_procs = procs;
	ps_nprocs = n;
	ps_taken = proc_boot_ms();	/* ps takes a while */
	ps_began = now;
	log_debug("ps: %zu processes, %llu ms", n,
	    (unsigned long long)(ps_taken - now));
	return (0);
}

int
proc_read(pid_t pid, struct proc_node *n)
{
	struct ps_proc	*pp;

	if (pid <= 0 || ps_snapshot(0) != 0)
		return (-1);
	/* Not there: a process that has just started, or one that ended. */
	if ((pp = ps_find(ps_procs, ps_nprocs, pid)) == NULL &&
	    (ps_snapshot(1) != 0 ||
	    (pp = ps_find(ps_procs, ps_nprocs, pid)) == NULL))
		return (-1);
	memset(n, 0, sizeof *n);
	n->pid = pid;
	n->ppid = pp->ppid;
	strlcpy(n->comm, pp->comm, sizeof n->comm);
	/* ps shows a zombie, but POSIX has no field that says so. */
	n->state = pp->args != NULL && strstr(pp->args, "<defunct>") != NULL ?
	    'Z' : 'S';
	n->ticks = pp->ticks;
	n->start = pp->start;
	n->exit_code = -1;
	return (0);
}

int
proc_children(pid_t pid, pid_t *out, int max)
{
	size_t	i;
	int	n = 0;

	if (ps_snapshot(0) != 0)
		return (-1);
	for (i = 0; i < ps_nprocs && n < max; i++) {
		if (ps_procs[i].ppid == pid && ps_procs[i].pid != pid)
			out[n++] = ps_procs[i].pid;
	}
	return (n);
}

/* The arguments as ps shows them, split at spaces (POSIX keeps no more). */
int
proc_argv(pid_t pid, char *buf, size_t size, char **argv, int max)
{
	struct ps_proc	*pp;
	char		*p;
	int		 argc = 0;

	if (ps_snapshot(0) != 0 ||
	    (pp = ps_find(ps_procs, ps_nprocs, pid)) == NULL ||
	    pp->args == NULL)
		return (0);
	strlcpy(buf, pp->args, size);
	for (p = buf; *p != '\0' && argc < max;) {
		while (*p == ' ')
			*p++ = '\0';
		if (*p == '\0')
			break;
		argv[argc++] = p;
		while (*p != ' ' && *p != '\0')
			p++;
	}
	return (argc);
}

int
proc_cwd(pid_t pid, char *buf, size_t size)
{
	return (osdep_cwd(pid, buf, size));	/* osdep-cwd-*.c */
}

ssize_t
proc_environ(pid_t pid, char *buf, size_t size)
{
	return (-1);
}

int
proc_written(pid_t pid, uint64_t *bytes)
{
	return (-1);
}

int
proc_exitfd(pid_t pid)
{
	return (-1);
}

/* How old what the last look read is: from when its ps began. */
uint64_t
proc_read_age(void)
{
	uint64_t	now = proc_boot_ms();

	return (ps_procs == NULL || now < ps_began ? 0 : now - ps_began);
}

/*
 * A snapshot from just before a program's exec would hide it from the look
 * its own first sign (a title) asks for: take a new one then.
 */
void
proc_forget(void)
{
	ps_taken = 0;
}

/* argv[0] made absolute (main calls osdep_set_argv0): there is no other way. */
/*
 * No parent-death signal in POSIX. The guard is a child in a process group
 * of its own, the children join it, and it waits on a pipe only we hold:
 * at its EOF (we are gone, however we died) it signals its group. A group
 * is never reused while its leader lives, so no stranger gets the signal.
 */
static pid_t	osdep_guard = -1;

void
osdep_guard_children(int sig)
{
	sigset_t	set;
	char		c;
	ssize_t		n;
	int		fds[2], null;
	pid_t		pid;

	if (osdep_guard != -1 || compat_pipe(fds) != 0)
		return;
	if ((pid = fork()) == -1) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		setpgid(0, 0);
		null = open("/dev/null", O_RDWR);
		dup2(fds[0], 0);
		dup2(null, 1);
		dup2(null, 2);
		compat_closefrom(3);
		/* (a signal to us all ends the helper; its EOF ends us) */
		signal(SIGHUP, SIG_IGN);
		signal(SIGINT, SIG_IGN);
		signal(sig, SIG_IGN);
		sigemptyset(&set);
		sigprocmask(SIG_SETMASK, &set, NULL);
		while ((n = read(0, &c, 1)) != 0 && (n == 1 || errno == EINTR))
			;
		kill(0, sig);
		_exit(0);
	}
	/* (here as well: a child may join before the guard runs) */
	setpgid(pid, pid);
	close(fds[0]);
	osdep_guard = pid;
	/* fds[1] stays open, close-on-exec, until we exit. */
}

void
osdep_die_with_parent(int sig)
{
	(void)sig;
	if (osdep_guard != -1)
		setpgid(0, osdep_guard);
}

static char	osdep_argv0[PATH_MAX];

void
osdep_set_argv0(const char *argv0)
{
	const char	*path;
	char		 try[PATH_MAX], *dirs, *dir, *last;

	if (strchr(argv0, '/') != NULL) {
		if (realpath(argv0, osdep_argv0) == NULL)
			osdep_argv0[0] = '\0';
		return;
	}
	if ((path = getenv("PATH")) == NULL)
		return;
	dirs = xstrdup(path);
	for (dir = strtok_r(dirs, ":", &last); dir != NULL;
	    dir = strtok_r(NULL, ":", &last)) {
		snprintf(try, sizeof try, "%s/%s", *dir != '\0' ? dir : ".",
		    argv0);
		if (access(try, X_OK) == 0 &&
		    realpath(try, osdep_argv0) != NULL)
			break;
		osdep_argv0[0] = '\0';
	}
	free(dirs);
}

int
osdep_self_exe(char *buf, size_t size)
{
	if (osdep_argv0[0] == '\0')
		return (-1);
	strlcpy(buf, osdep_argv0, size);
	return (0);
}

long
osdep_self_rss_kb(void)
{
	return (-1);
}

long long
osdep_heap_bytes(void)
{
	return (-1);
}

/* Not POSIX, but on every BSD and macOS (and Linux through libbsd). */
int
osdep_peer_uid(int fd, uid_t *uid)
{
	gid_t	gid;

	return (getpeereid(fd, uid, &gid));
}

/* A self-pipe: the handler writes the signal's number, one byte. */
static int	osdep_sigpipe[2] = { -1, -1 };

static void
osdep_signal_handler(int sig)
{
	unsigned char	b = (unsigned char)sig;
	int		saved = errno;

	(void)write(osdep_sigpipe[1], &b, 1);
	errno = saved;
}

int
osdep_signal_fd(const sigset_t *set, sigset_t *old)
{
	struct sigaction	sa;
	int			sig;

	if (old != NULL)
		sigprocmask(SIG_BLOCK, NULL, old);
	if (osdep_sigpipe[0] == -1) {
		if (compat_pipe(osdep_sigpipe) != 0 ||
		    compat_fd_flags(osdep_sigpipe[0], 1) != 0 ||
		    compat_fd_flags(osdep_sigpipe[1], 1) != 0)
			return (-1);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = osdep_signal_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (sig = 1; sig < 32; sig++) {
		if (sigismember(set, sig) == 1)
			sigaction(sig, &sa, NULL);
	}
	return (osdep_sigpipe[0]);
}

int
osdep_signal_next(int fd)
{
	unsigned char	b;

	if (read(fd, &b, 1) != 1)
		return (0);
	return (b);
}

/* (POSIX has no event for a clock set or a wake: SIGCONT only) */
int
osdep_clock_watch(void)
{
	errno = ENOSYS;
	return (-1);
}

int
osdep_clock_changed(int fd)
{
	return (0);
}

int
osdep_fwatch_open(void)
{
	errno = ENOSYS;
	return (-1);
}

int
osdep_fwatch_add(int fd, const char *dir)
{
	errno = ENOSYS;
	return (-1);
}

int
osdep_fwatch_next(int fd, int *wd, const char **name)
{
	return (0);
}
