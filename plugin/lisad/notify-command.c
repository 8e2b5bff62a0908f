/*
 * The notifications that leave tmux: notify-send (with a "Show" action
 * that brings the pane to the human's client when the notification
 * daemon offers actions), a sound command, and the terminal's own
 * notification sequence written to a client's tty. Each is a child the
 * helper never waits for: a stalled ssh connection blocks a child's
 * write, never the helper. lisad's SIGCHLD handler reaps them.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "tell.h"

#define NOTIFY_ACTION_MS	(30 * 60 * 1000)	/* then it is stale */
#define NOTIFY_TTY_SECONDS	5	/* a terminal that reads nothing */

/* A notify-send waiting for a click on "Show". */
struct notify_action {
	pid_t			 pid;
	int			 fd;
	struct loop_fd		*lf;
	int			 pane;
	char			*client;
	struct buf		 in;
	struct loop_timer	 timer;
	TAILQ_ENTRY(notify_action) entry;
};
static TAILQ_HEAD(, notify_action) notify_actions =
    TAILQ_HEAD_INITIALIZER(notify_actions);

/* The child's side of a spawn: no signals of ours, stdio elsewhere. */
void
notify_child(int in, int out)
{
	notify_child_from(in, out, 3);
}

/* The same, descriptors below LOW kept (curl's body, on 3). */
void
notify_child_from(int in, int out, int low)
{
	sigset_t	set;
	int		null;

	setsid();
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	null = open("/dev/null", O_RDWR);
	dup2(in != -1 ? in : null, 0);
	dup2(out != -1 ? out : null, 1);
	dup2(null, 2);
	/* Nothing of ours held: a control client's pipe, the listener. */
	compat_closefrom(low);
	lisad_child_limits();
}

static void
notify_action_free(struct notify_action *a)
{
	TAILQ_REMOVE(&notify_actions, a, entry);
	loop_timer_del(&a->timer);
	loop_del(a->lf);
	close(a->fd);
	buf_free(&a->in);
	free(a->client);
	free(a);
}

/* notify-send -A prints the action's name when it is clicked. */
static void
notify_action_read(int fd, short revents, void *arg)
{
	struct notify_action	*a = arg;
	char			 data[256], *nl;
	ssize_t			 n;

	n = read(fd, data, sizeof data);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0 && a->in.len < 1024) {
		buf_add(&a->in, data, (size_t)n);
		while ((nl = memchr(a->in.data, '\n', a->in.len)) != NULL) {
			*nl = '\0';
			if (strcmp(a->in.data, "focus") == 0)
				notify_focus(a->pane, a->client);
			buf_consume(&a->in, (size_t)(nl - a->in.data) + 1);
		}
		return;
	}
	notify_action_free(a);	/* closed, dismissed, or gone */
}

static void
notify_action_expire(void *arg)
{
	struct notify_action	*a = arg;

	kill(-a->pid, SIGTERM);
	notify_action_free(a);
}

/*
 * A Mac's notification: terminal-notifier, else osascript's display
 * notification. The text goes as arguments, never into the script (an
 * AppleScript string would let a window's name run code), each led by a
 * character the script drops or a space, so none can pass for an option.
 */
static void
notify_spawn_mac(int kind, const char *path, const char *title,
    const char *body)
{
	char	*t, *b;
	pid_t	 pid;

	if ((pid = fork()) != 0)
		return;
	notify_child(-1, -1);
	if (kind == NOTIFY_DESKTOP_TERMINAL_NOTIFIER) {
		xasprintf(&t, "%s%s", *title == '-' ? " " : "", title);
		xasprintf(&b, "%s%s", *body == '-' ? " " : "", body);
		execl(path, "terminal-notifier", "-group", "lisa", "-title",
		    t, "-message", b, (char *)NULL);
		_exit(127);
	}
	xasprintf(&t, "x%s", title);
	xasprintf(&b, "x%s", body);
	execl(path, "osascript", "-e", "on run argv",
	    "-e", "display notification (text 2 thru -1 of item 2 of argv) "
	    "with title (text 2 thru -1 of item 1 of argv)",
	    "-e", "end run", t, b, (char *)NULL);
	_exit(127);
}

/*
 * notify-send, with the "Show" action when there is a client to switch
 * (a local pane and a client attached): notify-send -A waits for the
 * click, so its output is read here. A notify-send without -A (libnotify
 * before 0.7.10) fails at once and is run again without it.
 */
void
notify_spawn_desktop(int kind, const char *path, int critical,
    const char *title, const char *body, int pane, const char *client)
{
	struct notify_action	*a;
	const char		*urgency = critical ? "critical" : "normal";
	int			 fds[2] = { -1, -1 };
	pid_t			 pid;

	if (kind != NOTIFY_DESKTOP_SEND) {
		notify_spawn_mac(kind, path, title, body);
		return;
	}
	if (pane >= 0 && client != NULL && compat_pipe(fds) != 0)
		return;
	if ((pid = fork()) == -1) {
		if (fds[0] != -1) {
			close(fds[0]);
			close(fds[1]);
		}
		return;
	}
	if (pid == 0) {
		notify_child(-1, fds[1]);
		/* (its body is markup to most daemons: text here) */
		body = markup_escape(body);
		if (fds[1] == -1) {
			execl(path, "notify-send", "-a", "lisa", "-u", urgency,
			    "--", title, body, (char *)NULL);
			_exit(127);
		}
		execl("/bin/sh", "sh", "-c", "ns=$1; shift; "
		    "\"$ns\" -A focus=Show \"$@\" 2>/dev/null || "
		    "exec \"$ns\" \"$@\" >/dev/null", "sh", path, "-a", "lisa",
		    "-u", urgency, "--", title, body, (char *)NULL);
		_exit(127);
	}
	if (fds[1] == -1)
		return;
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	a = xcalloc(1, sizeof *a);
	a->pid = pid;
	a->fd = fds[0];
	a->pane = pane;
	a->client = xstrdup(client);
	buf_init(&a->in);
	a->lf = loop_add(a->fd, POLLIN, notify_action_read, a);
	loop_timer_init(&a->timer, notify_action_expire, a);
	loop_timer_add(&a->timer, NOTIFY_ACTION_MS);
	TAILQ_INSERT_TAIL(&notify_actions, a, entry);
}

/* @lisa-notify-sound: sh -c COMMAND, told the pane, agent and state. */
void
notify_spawn_sound(const char *command, const char *pane, const char *agent,
    const char *state)
{
	pid_t	pid;

	if ((pid = fork()) == -1)
		return;
	if (pid == 0) {
		notify_child(-1, -1);
		setenv("LISA_PANE", pane, 1);
		setenv("LISA_AGENT", agent, 1);
		setenv("LISA_STATE", state, 1);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
}

/*
 * A terminal notification, written to a client's tty as one sequence: a
 * child's blocking write finishes it (half a sequence would swallow
 * tmux's next output), and gives up after a few seconds. Only a terminal
 * device of this user's.
 */
void
notify_spawn_tty(const char *tty, const char *data, size_t len)
{
	struct stat	 sb;
	const char	*p = data;
	ssize_t		 n;
	pid_t		 pid;
	int		 fd;

	if (strncmp(tty, "/dev/", 5) != 0 || len == 0)
		return;
	if ((pid = fork()) == -1)
		return;
	if (pid != 0)
		return;
	notify_child(-1, -1);
	fd = open(tty, O_WRONLY|O_NOCTTY|O_NOFOLLOW|O_CLOEXEC);
	if (fd == -1 || fstat(fd, &sb) != 0 || !S_ISCHR(sb.st_mode) ||
	    sb.st_uid != getuid() || !isatty(fd))
		_exit(1);
	alarm(NOTIFY_TTY_SECONDS);
	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		p += n;
		len -= (size_t)n;
	}
	_exit(0);
}

/* lisa stop: no notify-send left waiting for a click. */
void
notify_spawn_stop(void)
{
	struct notify_action	*a, *a1;

	TAILQ_FOREACH_SAFE(a, &notify_actions, entry, a1) {
		kill(-a->pid, SIGTERM);
		notify_action_free(a);
	}
}
