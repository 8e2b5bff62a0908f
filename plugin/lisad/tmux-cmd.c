/*
 * Starting tmux processes: one-shot commands (start-up, shutdown, and the
 * rare moment no control client is attached) and the control clients.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"

extern char	**environ;

/* Every tmux process we start (make bench: B2 wants none when idle). */
uint64_t	tmux_forks;

#define TMUX_RUN_TIMEOUT_MS 5000
#define TMUX_MAX_ARGS 32

/*
 * Every tmux we run gets -N (tmux 3.2+): list-keys and attach-session
 * start a server when there is none, and a server started on the user's
 * socket reads ~/.tmux.conf, which starts lisa again, forever.
 */

static void
tmux_child_fds(int in, int out)
{
	sigset_t	set;
	int		null;

	null = open("/dev/null", O_RDWR);
	if (in == -1)
		in = null;
	if (out == -1)
		out = null;
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1 || dup2(null, 2) == -1)
		_exit(127);
	compat_closefrom(3);
	/* Blocked and ignored signals survive exec: give tmux clean ones. */
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
}

/*
 * Run "tmux -S socket ARGV..." and wait for it (at most 5 s), with input
 * (if not NULL) on its stdin and its stdout into *out (if not NULL).
 * Returns the exit status, or -1.
 */
static int
tmux_runv(char **out, const char *input, const char **args)
{
	const char	*argv[TMUX_MAX_ARGS + 5];
	struct pollfd	 pfd;
	struct buf	 b;
	pid_t		 pid;
	int		 p[2], in[2] = { -1, -1 }, n = 0, status, left;
	uint64_t	 deadline;
	size_t		 done, len;
	ssize_t		 r;
	char		 tmp[4096];

	/* Once the server is known, never talk to a socket it has left. */
	if (lisad.server_pid > 0 && !lisad_server_alive())
		return (-1);
	argv[n++] = "tmux";
	argv[n++] = "-N";	/* never start a server (see TMUX_NOSTART) */
	argv[n++] = "-u";	/* else tmux replaces non-ASCII in replies */
	argv[n++] = "-S";
	argv[n++] = lisad.sid.socket;
	for (; *args != NULL && n < TMUX_MAX_ARGS; args++)
		argv[n++] = *args;
	argv[n] = NULL;

	if (input != NULL && compat_pipe(in) != 0)
		return (-1);
	if (compat_pipe(p) != 0) {
		if (in[0] != -1) {
			close(in[0]);
			close(in[1]);
		}
		return (-1);
	}
	tmux_forks++;
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		if (in[0] != -1) {
			close(in[0]);
			close(in[1]);
		}
		return (-1);
	}
	if (pid == 0) {
		tmux_child_fds(in[0], p[1]);
		execvp("tmux", (char **)argv);
		_exit(127);
	}
	close(p[1]);
	if (input != NULL) {
		/* tmux reads all of stdin before it runs any of it. */
		close(in[0]);
		len = strlen(input);
		for (done = 0; done < len; done += (size_t)r) {
			r = write(in[1], input + done, len - done);
			if (r == -1 && errno == EINTR) {
				r = 0;
				continue;
			}
			if (r <= 0)
				break;
		}
		close(in[1]);
	}
	buf_init(&b);
	deadline = time_mono_ms() + TMUX_RUN_TIMEOUT_MS;
	for (;;) {
		left = (int)(deadline - time_mono_ms());
		if (time_mono_ms() >= deadline) {
			log_warnx("tmux %s: timed out", argv[5]);
			kill(pid, SIGKILL);
			break;
		}
		pfd.fd = p[0];
		pfd.events = POLLIN;
		if (poll(&pfd, 1, left) <= 0)
			continue;
		r = read(p[0], tmp, sizeof tmp);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		buf_add(&b, tmp, (size_t)r);
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR) {
			buf_free(&b);
			return (-1);
		}
	}
	if (out != NULL)
		*out = buf_detach(&b);
	else
		buf_free(&b);
	if (!WIFEXITED(status))
		return (-1);
	return (WEXITSTATUS(status));
}

int
tmux_run(char **out, const char *arg, ...)
{
	const char	*args[TMUX_MAX_ARGS + 1];
	va_list		 ap;
	int		 n = 0;

	va_start(ap, arg);
	for (; arg != NULL && n < TMUX_MAX_ARGS; arg = va_arg(ap, const char *))
		args[n++] = arg;
	va_end(ap);
	args[n] = NULL;
	return (tmux_runv(out, NULL, args));
}

/* Run a script of tmux commands, one per line, in one tmux process. */
int
tmux_source(const char *script)
{
	const char	*args[] = { "source-file", "-", NULL };

	if (*script == '\0')
		return (0);
	return (tmux_runv(NULL, script, args));
}

/*
 * Read-only commands run in one tmux process (source-file -), each
 * followed by a line of our own so that each command's output comes back
 * apart: the helper's start and stop read a dozen options and the key
 * table, which took a tmux process each (most of a short test's CPU).
 * Returns 0 with outs[i] each command's output, or -1 with nothing in
 * outs if tmux failed or its output does not add up.
 */
int
tmux_read_each(const char **cmds, size_t n, char **outs)
{
	const char	*args[] = { "source-file", "-", NULL };
	struct buf	 script;
	char		 sep[64], *out = NULL, *p, *line;
	size_t		 i, seplen;
	int		 rc;

	snprintf(sep, sizeof sep, "lisa-end-%ld-%llu", (long)getpid(),
	    (unsigned long long)time_mono_ms());
	seplen = strlen(sep);
	buf_init(&script);
	for (i = 0; i < n; i++)
		buf_printf(&script, "%s\ndisplay-message -p %s\n", cmds[i], sep);
	rc = tmux_runv(&out, script.data, args);
	buf_free(&script);
	for (i = 0; i < n; i++)
		outs[i] = NULL;
	if (rc != 0 || out == NULL) {
		free(out);
		return (-1);
	}
	p = out;
	for (i = 0; i < n; i++) {
		/* The first line from p that is the separator. */
		line = p;
		while (strncmp(line, sep, seplen) != 0 ||
		    (line[seplen] != '\n' && line[seplen] != '\0')) {
			if ((line = strchr(line, '\n')) == NULL)
				break;
			line++;
		}
		if (line == NULL) {
			while (i > 0) {
				free(outs[--i]);
				outs[i] = NULL;
			}
			free(out);
			return (-1);
		}
		outs[i] = xstrndup(p, (size_t)(line - p));
		p = line + seplen;
		if (*p == '\n')
			p++;
	}
	free(out);
	return (0);
}

/*
 * A control client sends its whole environment to the server while it
 * identifies itself, one message a variable; tmux < 3.7 crashes if a
 * session comes or goes in that window (GitHub issue 4980). Only PATH (to
 * find tmux) keeps it short. -E on attach: our environment is not the
 * user's, and must not replace the session's update-environment values.
 */
static void
tmux_control_environ(void)
{
	static char	*env[2];
	const char	*path = getenv("PATH");

	if (path != NULL)
		xasprintf(&env[0], "PATH=%s", path);
	environ = env;
}

/*
 * Start "tmux -C attach -E -t $N -f ignore-size,pause-after=S". ignore-size
 * keeps our client out of window sizing; pause-after bounds how long we can
 * ever hold back a pane that only control clients watch.
 */
#define TMUX_PIPE_SIZE (1024 * 1024)

int
tmux_spawn_control(int session, pid_t *pidp, int *rfd, int *wfd)
{
	char	 target[32], flags[64];
	int	 in[2], out[2];
	pid_t	 pid;

	snprintf(target, sizeof target, "$%d", session);
	snprintf(flags, sizeof flags, "ignore-size,pause-after=%d",
	    lisad.pause_after);
	if (compat_pipe(in) != 0)
		return (-1);
	if (compat_pipe(out) != 0) {
		close(in[0]);
		close(in[1]);
		return (-1);
	}
	tmux_forks++;
	if ((pid = fork()) == -1) {
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return (-1);
	}
	if (pid == 0) {
		tmux_child_fds(in[0], out[1]);
		/* Never a control client of a helper gone (issue 42). */
		osdep_die_with_parent(SIGTERM);
		tmux_control_environ();
		/* (before 3.7 through our relay: tmux-proxy.c) */
		execlp("tmux", "tmux", "-N", "-u", "-S", proxy_path() != NULL ?
		    proxy_path() : lisad.sid.socket, "-C",
		    "attach-session", "-E", "-t", target, "-f", flags,
		    (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	/*
	 * tmux writes our output into this pipe itself, and while only
	 * control clients are attached it stops reading a pane whenever
	 * more than 512 bytes wait for one of them: the pipe's size paces a
	 * flooding pane. A large pipe lets tmux hand over a whole burst at
	 * once (as much as the system lets us: pipe-max-size, 1 MiB).
	 */
#ifdef F_SETPIPE_SZ	/* Linux's; elsewhere the pipe is what it is */
	if (fcntl(out[0], F_SETPIPE_SZ, TMUX_PIPE_SIZE) == -1)
		log_debug("F_SETPIPE_SZ: %s", strerror(errno));
#endif
	fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
	fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
	*pidp = pid;
	*rfd = out[0];
	*wfd = in[1];
	return (0);
}

/*
 * Start "tmux wait-for CHANNEL" with its stdout on a pipe: *rfd reads EOF
 * when it ends. tmux wakes every wait-for client as soon as it wants to
 * exit (server_loop), and its end at the server's death: the one way to
 * hear of the exit without pidfd and without a session.
 */
int
tmux_spawn_wait(const char *channel, pid_t *pidp, int *rfd)
{
	int	 out[2];
	pid_t	 pid;

	if (compat_pipe(out) != 0)
		return (-1);
	tmux_forks++;
	if ((pid = fork()) == -1) {
		close(out[0]);
		close(out[1]);
		return (-1);
	}
	if (pid == 0) {
		tmux_child_fds(-1, out[1]);
		osdep_die_with_parent(SIGTERM);
		execlp("tmux", "tmux", "-N", "-S", lisad.sid.socket,
		    "wait-for", channel, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
	*pidp = pid;
	*rfd = out[0];
	return (0);
}
