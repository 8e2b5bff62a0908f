/*
 * One control client per tmux session: a client only receives %output for
 * panes in its own session, so watching everything takes one each. Clients
 * come and go as %sessions-changed says; sessions matching
 * @lisa-ignore-sessions are left alone.
 *
 * A new session is attached as soon as a list shows it. tmux before 3.7
 * crashes if a notification reaches a control client half-way through
 * identifying itself (tmux GitHub issue 4980): there our clients go
 * through tmux-proxy.c, which hands tmux each identify whole. A session
 * made while no client of ours is attached is announced by our
 * session-created hook (run-shell -b: it holds nothing). While one is
 * attached, @lisa_ears says so and the hook runs nothing: the clients hear
 * of new sessions anyway, and a process per session was most of what a
 * burst of new sessions cost (tmux-hooks.c).
 */
#include <sys/wait.h>

#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "tell.h"

int
session_cmp(struct session *a, struct session *b)
{
	return (a->id < b->id ? -1 : a->id > b->id);
}
RB_GENERATE(sessions, session, entry, session_cmp);
struct sessions sessions = RB_INITIALIZER(&sessions);

static int	session_refreshing;	/* a list-sessions is in flight */
static int	session_ears;		/* @lisa_ears is set in tmux */
static struct session *session_list_on;	/* on this client */
static int	session_dirty;		/* and another was asked for since */

static struct loop_timer	 session_settle_timer;
static struct loop_timer	 session_reap_timer;

#define SESSION_SERVER_CHECKS 30	/* 3 s */
static struct loop_timer	 session_server_timer;
static int			 session_server_timer_ready;
static int			 session_server_checks;
static pid_t			 session_waiter_pid = -1;
static struct loop_fd		*session_waiter_ev;
static int			 session_waiter_fd = -1;

static void	session_attach(int, const char *);
static void	session_watch_server(void);
static void	session_close(struct session *);
static void	session_subscribe(struct session *);

#define SESSION_LIST_FORMAT "#{session_id}\037#{session_name}"

struct session *
session_find(int id)
{
	struct session	find = { .id = id };

	return (RB_FIND(sessions, &sessions, &find));
}

int
session_count(void)
{
	struct session	*s;
	int		 n = 0;

	RB_FOREACH(s, sessions, &sessions)
		n++;
	return (n);
}

/* Does a session name match @lisa-ignore-sessions (patterns, space/comma)? */
int
session_ignored(const char *name)
{
	char	*copy, *p, *pat;
	int	 hit = 0;

	if (lisad.ignore == NULL || *lisad.ignore == '\0')
		return (0);
	copy = p = xstrdup(lisad.ignore);
	while (!hit && (pat = strsep(&p, " ,\t")) != NULL) {
		if (*pat != '\0' && fnmatch(pat, name, 0) == 0)
			hit = 1;
	}
	free(copy);
	return (hit);
}

/*
 * A client we could not write to is closed at the next loop turn, not
 * now: session_send is called from loops over panes (publish), and
 * closing frees the panes only this session shows (valgrind saw it).
 */
static void
session_reap_cb(void *arg)
{
	struct session	*s, *s1;

	RB_FOREACH_SAFE(s, sessions, &sessions, s1) {
		if (s->broken)
			session_close(s);
	}
}

static void
session_flush(struct session *s)
{
	if (s->ctl == NULL || s->broken)
		return;
	if (ctl_client_flush(s->ctl) != 0) {
		s->broken = 1;
		loop_timer_add(&session_reap_timer, 0);
		return;
	}
	if (s->wev != NULL)
		loop_events(s->wev, ctl_client_pending_write(s->ctl) ? POLLOUT :
		    0);
}

/* Queue a command on a session's client; -1 if it cannot be sent. */
int
session_send(struct session *s, const char *cmd, ctl_reply_cb cb, void *arg)
{
	if (s->ctl == NULL || s->closing || s->broken)
		return (-1);
	if (ctl_client_send(s->ctl, cmd, cb, arg) != 0)
		return (-1);
	session_flush(s);
	return (0);
}

/*
 * The same for capture-pane -J: its lines as tmux 3.3 and later give
 * them, on every version (ctl_unpad).
 */
int
session_send_screen(struct session *s, const char *cmd, ctl_reply_cb cb,
    void *arg)
{
	if (s->ctl == NULL || s->closing || s->broken)
		return (-1);
	if (ctl_client_send_flags(s->ctl, cmd, lisad.caps.capture_padded ?
	    CTL_SEND_UNPAD : 0, cb, arg) != 0)
		return (-1);
	session_flush(s);
	return (0);
}

/*
 * A reply line in none of the shapes we asked for: a tmux that quotes or
 * separates differently. Never silent: counted for lisa doctor, said once
 * in tmux.
 */
void
session_unparsed(const char *line)
{
	char	msg[160];

	if (lisad.reply_unparsed++ != 0)
		return;
	log_warnx("reply not understood (tmux %s): %.60s", lisad.version,
	    line);
	snprintf(msg, sizeof msg, "lisa: cannot read tmux %.20s's replies, "
	    "it sees nothing; run lisa doctor", lisad.version);
	/* In the status line (#{lisa_status}), and to whoever is there. */
	tmux_run(NULL, "set-option", "-gq", "@lisa_error", msg, (char *)NULL);
	tmux_run(NULL, "display-message", msg, (char *)NULL);
}

/* Sessions were made, closed or renamed: list them again. */
void
session_changed(void)
{
	session_refresh();
}

/* Our session-created hook (it holds nothing: see the top). */
void
session_hooked(int id)
{
	log_debug("session $%d: made (hook)", id);
	session_changed();
}

/* Apply "id\037name" lines: attach new sessions, drop ignored ones. */
static void
session_apply_list(const char *body, size_t len)
{
	struct session	*s;
	char		*copy, *line, *p, *sep;
	int		 id;

	copy = p = xstrndup(body, len);
	while ((line = strsep(&p, "\n")) != NULL) {
		if (line[0] != '$' ||
		    (sep = strstr(line, lisad.reply_sep)) == NULL) {
			if (*line != '\0')
				session_unparsed(line);
			continue;
		}
		*sep = '\0';
		sep += strlen(lisad.reply_sep) - 1;
		id = (int)strtol(line + 1, NULL, 10);
		s = session_find(id);
		if (session_ignored(sep + 1)) {
			if (s != NULL) {
				log_debug("session $%d now ignored", id);
				session_close(s);
			}
			continue;
		}
		if (s == NULL)
			session_attach(id, sep + 1);
		else if (strcmp(s->name, sep + 1) != 0) {
			free(s->name);
			s->name = xstrdup(sep + 1);
		}
	}
	free(copy);
}

/* (the next turn: a list asked for again) */
static void
session_settle_cb(void *arg)
{
	session_refresh();
}

static void
session_list_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	session_refreshing = 0;
	session_list_on = NULL;
	if (ok)
		session_apply_list(body, len);
	if (session_dirty) {
		session_dirty = 0;
		session_refresh();
	}
}

static void
session_ignore_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	free(lisad.ignore);
	lisad.ignore = ok ? xstrndup(body, len) : NULL;
}

/*
 * A client of ours that is attached and can be written to: it hears of
 * new sessions, and can be asked for the list. NULL if there is none.
 */
struct session *
session_hearing(void)
{
	struct session	*s;

	RB_FOREACH(s, sessions, &sessions) {
		if (s->ctl != NULL && !s->closing && !s->broken && s->attached)
			return (s);
	}
	return (NULL);
}

/* Re-read the session list, coalescing bursts of %sessions-changed. */
void
session_refresh(void)
{
	struct session	*s;
	struct buf	 b;
	const char	*cmds[3];
	char		*outs[3];

	if (lisad.stopping)
		return;
	if (session_refreshing) {
		session_dirty = 1;
		return;
	}
	buf_init(&b);
	buf_adds(&b, "list-sessions -F ");
	ctl_quote_str(&b, SESSION_LIST_FORMAT);
	if ((s = session_hearing()) != NULL) {
		session_send(s, "show-options -gqv @lisa-ignore-sessions",
		    session_ignore_cb, NULL);
		session_refreshing =
		    session_send(s, b.data, session_list_cb, NULL) == 0;
		session_list_on = session_refreshing ? s : NULL;
		buf_free(&b);
		return;
	}
	/*
	 * No client to ask (every session ignored, or none yet): one tmux
	 * process. @lisa_ears goes first, so a session made from then on
	 * runs the hook, and one made before is in the list.
	 */
	free(lisad.ignore);
	lisad.ignore = NULL;
	cmds[0] = "set-option -gqu @lisa_ears";
	cmds[1] = "show-options -gqv @lisa-ignore-sessions";
	cmds[2] = b.data;
	if (tmux_read_each(cmds, 3, outs) == 0) {
		session_ears = 0;
		outs[1][strcspn(outs[1], "\n")] = '\0';
		lisad.ignore = outs[1];
		session_apply_list(outs[2], strlen(outs[2]));
		free(outs[0]);
		free(outs[2]);
	}
	buf_free(&b);
	/*
	 * Still no client of ours (every session ignored, none, or the
	 * server went as we asked): nothing would tell us of its exit.
	 */
	if (RB_EMPTY(&sessions))
		session_watch_server();
}

void
session_start(void)
{
	loop_timer_init(&session_settle_timer, session_settle_cb, NULL);
	loop_timer_init(&session_reap_timer, session_reap_cb, NULL);
	session_refresh();
}

static void
session_event(struct ctl_client *c, struct ctl_event *ev, void *arg)
{
	struct session	*s = arg, *other;

	switch (ev->type) {
	case CTL_SESSION_CHANGED:
		if (ev->session != s->id) {
			/* detach-on-destroy off moved us: not our session. */
			log_debug("client for $%d moved to $%d, closing", s->id,
			    ev->session);
			session_close(s);
			return;
		}
		if (!s->attached) {
			/* Only now does the client have a session to act on. */
			s->attached = 1;
			session_subscribe(s);
			notify_attached(s);
			/* (not once stopping: the stop has taken it out) */
			if (!session_ears && !lisad.stopping && session_send(s,
			    "set-option -gq @lisa_ears 1", NULL, NULL) == 0)
				session_ears = 1;
		}
		break;
	case CTL_SESSIONS_CHANGED:
		session_changed();
		break;
	case CTL_CLIENT_SESSION_CHANGED:
		config_client();	/* a human may be there to be told */
		break;
	case CTL_SESSION_RENAMED:
		if ((other = session_find(ev->session)) != NULL) {
			free(other->name);
			other->name = xstrdup(ev->name);
			if (session_ignored(other->name))
				session_close(other);
			else
				pane_session_renamed(other->id);
		}
		break;
	case CTL_WINDOW_ADD:
		pane_list_session(s);
		break;
	case CTL_WINDOW_CLOSE:
		pane_window_unlinked(s, ev->window);
		break;
	case CTL_UNLINKED_WINDOW_CLOSE:
		/*
		 * A killed window is reported this way too (its winlink is
		 * gone before tmux notifies); it may also have left another
		 * session only. Our list says which.
		 */
		pane_list_session(s);
		break;
	case CTL_WINDOW_RENAMED:
		pane_window_renamed(ev->window, ev->name);
		break;
	case CTL_LAYOUT_CHANGE:
		pane_layout(s, ev->window, ev->layout);
		break;
	case CTL_PAUSE:
		pane_pause(s, ev->pane);
		break;
	case CTL_SUBSCRIPTION_CHANGED:
		pane_subscription(s, ev);
		break;
	case CTL_EXIT:
		log_debug("client for $%d: %%exit %s", s->id, ev->text);
		break;
	default:
		log_debug("client for $%d: %%%s", s->id, ev->word);
		break;
	}
}

/* Output this old means we were behind (tmux sends its age in ms). */
#define SESSION_BEHIND_MS 500

static void
session_output(struct ctl_client *c, int pane, const char *data, size_t len,
    uint64_t age, void *arg)
{
	struct session	*s = arg;

	if (age >= SESSION_BEHIND_MS)
		s->behind = 1;
	pane_output(s, pane, data, len, age);
}

/*
 * tmux 3.3a flushes what it queued for a control client (a %pause, say)
 * only from its write callback, which runs when something new is written
 * to the client. After we fell behind that can leave a pane paused for us
 * and nobody told. So continue every pane this client shows: harmless for
 * panes that are not paused, and the reply makes tmux write, so the queue
 * moves (a %pause that comes later still gets its resync).
 */
static void
session_kick(struct session *s)
{
	struct pane	*p;
	struct buf	 b;
	int		 i, n = 0;

	s->behind = 0;
	buf_init(&b);
	RB_FOREACH(p, panes, &panes) {
		for (i = 0; i < p->nsessions && !p->muted; i++) {
			if (p->sessions[i] != s->id)
				continue;
			if (b.len == 0)
				buf_adds(&b, "refresh-client");
			buf_printf(&b, " -A '%%%d:continue'", p->id);
			/* (short commands: tmux's cost grows with the square) */
			if (++n % PANE_MUTE_PER_CMD == 0) {
				session_send(s, b.data, NULL, NULL);
				b.len = 0;
			}
			break;
		}
	}
	log_debug("session $%d: caught up, continuing its %d panes", s->id, n);
	if (n == 0)
		session_send(s, "display-message -p lisa", NULL, NULL);
	else if (b.len != 0)
		session_send(s, b.data, NULL, NULL);
	buf_free(&b);
}

/* After a stop or a sleep: every session moved on and looked at again. */
void
session_kick_all(void)
{
	struct session	*s;

	RB_FOREACH(s, sessions, &sessions) {
		if (s->attached && !s->closing) {
			session_kick(s);
			/*
			 * And every pane looked at again: a death told by a
			 * hook that ran while we were stopped is lost (no
			 * pidfd on osdep-generic), tmux's list still has it.
			 */
			pane_list_session(s);
		}
	}
}

static const struct ctl_callbacks session_callbacks = {
	.event = session_event,
	.output = session_output,
};

static void	session_check_server(void *);

static void
session_waiter_stop(void)
{
	if (session_waiter_ev == NULL)
		return;
	/* (the loop forgets the fd before it closes) */
	loop_del(session_waiter_ev);
	session_waiter_ev = NULL;
	close(session_waiter_fd);
	session_waiter_fd = -1;
	if (session_waiter_pid > 0)
		kill(session_waiter_pid, SIGTERM);
	session_waiter_pid = -1;
}

/*
 * A child was reaped (lisad.c's SIGCHLD): if it was one of ours, its pid
 * may be another process's by the time we would signal it (the EOF of its
 * pipe is read later, or stop comes first), so forget it now.
 */
void
session_reaped(pid_t pid)
{
	struct session	*s;

	if (pid == session_waiter_pid)
		session_waiter_pid = -1;
	RB_FOREACH(s, sessions, &sessions) {
		if (s->pid == pid)
			s->pid = -1;
	}
}

/* Our wait-for ended: tmux wants to exit, or has. Look again. */
static void
session_waiter_cb(int fd, short revents, void *arg)
{
	char	buf[256];
	ssize_t	n;

	n = read(fd, buf, sizeof buf);
	if (n > 0 || (n == -1 && (errno == EAGAIN || errno == EINTR)))
		return;
	log_debug("wait-for client %ld ended", (long)session_waiter_pid);
	session_waiter_stop();
	session_watch_server();
}

/*
 * The server outlived our looks (a job or a client holds it): wait in a
 * wait-for of a channel nobody signals. tmux ends it when it is about to
 * exit, or by exiting; until then it costs nothing.
 */
static void
session_waiter_start(void)
{
	char	channel[64];

	if (session_waiter_ev != NULL)
		return;
	snprintf(channel, sizeof channel, "lisa-exit-%ld", (long)getpid());
	if (tmux_spawn_wait(channel, &session_waiter_pid,
	    &session_waiter_fd) != 0) {
		log_warn("cannot wait for the server's exit");
		return;
	}
	session_waiter_ev = loop_add(session_waiter_fd, POLLIN,
	    session_waiter_cb, NULL);
	log_debug("no session: waiting for the server in wait-for (pid %ld)",
	    (long)session_waiter_pid);
}

/*
 * The last client went: is the server still there? Without pidfd this is
 * how we learn that it exited. Our clients hear %exit before the server
 * is gone, so look a few times; a server nobody has reaped is a zombie,
 * which kill() still finds. A server still there after that has a
 * reason to stay (a job, a client): our wait-for hears when it goes.
 */
static void
session_check_server(void *arg)
{
	if (lisad.stopping || !RB_EMPTY(&sessions) || lisad.server_pid <= 0)
		return;
	if (!lisad_server_alive()) {
		log_debug("tmux server %ld is gone", (long)lisad.server_pid);
		lisad_stop(0);
		return;
	}
	if (++session_server_checks < SESSION_SERVER_CHECKS) {
		if (!session_server_timer_ready) {
			loop_timer_init(&session_server_timer,
			    session_check_server, NULL);
			session_server_timer_ready = 1;
		}
		loop_timer_add(&session_server_timer, 100);
	} else if (lisad.pidfd == -1)
		session_waiter_start();
}

/* Look for the server's exit, unless we already do. */
static void
session_watch_server(void)
{
	if (session_waiter_ev != NULL ||
	    (session_server_timer_ready && session_server_timer.armed))
		return;
	session_server_checks = 0;
	session_check_server(NULL);
}

static void
session_remove(struct session *s)
{
	RB_REMOVE(sessions, &sessions, s);
	/*
	 * The client we asked for the session list is gone, and its answer
	 * with it: ask again (next turn), or no list would ever be asked
	 * for again.
	 */
	if (session_list_on == s) {
		session_list_on = NULL;
		session_refreshing = 0;
		session_dirty = 1;
		loop_timer_add(&session_settle_timer, 0);
	}
	/* (events for its panes unless we let it go: stop, ignored) */
	pane_session_gone(s->id, !s->closing);
	/* (the loop forgets the fds before they close) */
	loop_del(s->rev);
	loop_del(s->wev);
	if (s->ctl != NULL) {
		close(ctl_client_rfd(s->ctl));
		if (ctl_client_wfd(s->ctl) != -1)
			close(ctl_client_wfd(s->ctl));
		ctl_client_free(s->ctl);
	}
	log_debug("session $%d (%s) detached", s->id, s->name);
	free(s->name);
	free(s);
	if (RB_EMPTY(&sessions) && !lisad.stopping)
		session_watch_server();
	/*
	 * Our last ears went: a session made since is announced by nobody
	 * until @lisa_ears goes and the hook runs again (the list does both,
	 * next turn).
	 */
	if (session_ears && !lisad.stopping && session_hearing() == NULL)
		loop_timer_add(&session_settle_timer, 0);
}

static void
session_read_cb(int fd, short revents, void *arg)
{
	struct session	*s = arg;
	int		 rc;

	if ((rc = ctl_client_read(s->ctl)) == -1)
		session_remove(s);
	else if (rc == 0 && s->behind)
		session_kick(s);
}

static void
session_write_cb(int fd, short revents, void *arg)
{
	struct session	*s = arg;

	if (revents & (POLLERR|POLLHUP)) {
		loop_events(s->wev, 0);
		return;
	}
	session_flush(s);
}

/*
 * Once attached: subscribe to the dead-pane backstop (tmux checks
 * subscriptions once a second; only "%*" covers dead panes on 3.3) and
 * learn the session's panes.
 */
static void
session_subscribe(struct session *s)
{
	struct buf	b;

	if (lisad.caps.subscriptions && lisad.use_subscriptions) {
		buf_init(&b);
		buf_adds(&b, "refresh-client -B ");
		ctl_quote_str(&b, pane_subscription_format);
		session_send(s, b.data, NULL, NULL);
		buf_free(&b);
	}
	pane_list_session(s);
}

static void
session_attach(int id, const char *name)
{
	struct session	*s;
	int		 rfd, wfd;
	pid_t		 pid;

	if (tmux_spawn_control(id, &pid, &rfd, &wfd) != 0) {
		log_warn("cannot start control client for $%d", id);
		return;
	}
	s = xcalloc(1, sizeof *s);
	s->id = id;
	s->name = xstrdup(name);
	s->pid = pid;
	s->ctl = ctl_client_new(rfd, wfd, &session_callbacks, s);
	s->rev = loop_add(rfd, POLLIN, session_read_cb, s);
	s->wev = loop_add(wfd, 0, session_write_cb, s);
	RB_INSERT(sessions, &sessions, s);
	log_debug("session $%d (%s): control client pid %ld", id, name,
	    (long)pid);
	/* (its client tells us of the server's exit now) */
	session_waiter_stop();

}

/* Ask our client to go: closing its stdin makes tmux -C detach and exit. */
static void
session_close(struct session *s)
{
	if (s->closing || s->ctl == NULL)
		return;
	s->closing = 1;
	loop_del(s->wev);
	s->wev = NULL;
	ctl_client_close_write(s->ctl);
	/*
	 * A server seen to exit before its clients said so (killed: its
	 * pidfd first) closed its panes: their ends are told as if %exit
	 * had come first, or an agent's end heard then was lost. So are
	 * those of a client we could not write to (EPIPE, its EOF maybe a
	 * turn later): it went, as one whose EOF we read.
	 */
	pane_session_gone(s->id, lisad.server_gone || s->broken);
}

void
session_close_all(void)
{
	struct session	*s, *s1;

	RB_FOREACH_SAFE(s, sessions, &sessions, s1) {
		session_close(s);
		if (s->pid > 0)
			kill(s->pid, SIGTERM);
		session_remove(s);
	}
	loop_timer_del(&session_settle_timer);
	loop_timer_del(&session_reap_timer);
	if (session_server_timer_ready)
		loop_timer_del(&session_server_timer);
	session_waiter_stop();
}

/*
 * Split a reply line at our field separator (\037, as the reply carries
 * it) into n fields, the last taking the rest; -1 if it has fewer.
 */
int
session_reply_fields(char *line, char **f, int n)
{
	char	*p = line;
	int	 i;

	for (i = 0; i < n - 1; i++) {
		f[i] = p;
		if ((p = strstr(p, lisad.reply_sep)) == NULL) {
			if (*line != '\0')
				session_unparsed(line);
			return (-1);
		}
		*p = '\0';
		p += strlen(lisad.reply_sep);
	}
	f[i] = p;
	return (0);
}
