/*
 * The CLI's socket: a unix stream socket (0600, in the 0700 runtime
 * directory) speaking one JSON object per line each way. Only our own uid
 * may talk to it. A connection may also become a tap: the decoded output of
 * one pane, raw, for debugging and for the byte-exactness test.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "fleet.h"
#include "watch.h"
#include "tell.h"

#define LISTENER_MAX_REQUEST	(1024 * 1024)
#define LISTENER_MAX_PENDING	(16 * 1024 * 1024)

struct listener_conn {
	int				 fd;
	struct loop_fd			*lf;
	struct buf			 in;
	struct buf			 out;
	int				 closing;	/* after out drains */
	int				 tap;
	int				 stop_after;
	int				 follow;	/* events pushed */
	int				 fleet;		/* panes pushed */
	int				 wait_pane;	/* -1: not waiting */
	char				*wait_host;	/* a remote pane's */
	unsigned			 wait_mask;	/* 1 << state */
	TAILQ_ENTRY(listener_conn)	 entry;
};
static TAILQ_HEAD(, listener_conn) listener_conns =
    TAILQ_HEAD_INITIALIZER(listener_conns);
static int		 listener_fd = -1;
static struct loop_fd	*listener_lf;
static char		*listener_path;

static void	listener_conn_free(struct listener_conn *);

/* One pane to a fleet bridge; one that does not read is let go. */
static void
listener_fleet_pane(struct listener_conn *lc, struct pane *p)
{
	if (lc->out.len > LISTENER_MAX_PENDING) {
		lc->fleet = 0;
		lc->closing = 1;
		return;
	}
	buf_adds(&lc->out, "{\"t\":\"pane\",\"pane\":");
	pane_json(&lc->out, p);
	buf_adds(&lc->out, "}\n");
}

static void
listener_update(struct listener_conn *lc)
{
	short	ev = 0;

	if (!lc->closing && !lc->tap)
		ev |= POLLIN;
	if (lc->tap)
		ev |= POLLIN;	/* to notice the reader going away */
	if (lc->out.len != 0)
		ev |= POLLOUT;
	loop_events(lc->lf, ev);
}

static int
listener_flush(struct listener_conn *lc)
{
	ssize_t	n;

	while (lc->out.len != 0) {
		n = write(lc->fd, lc->out.data, lc->out.len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			return (-1);
		}
		buf_consume(&lc->out, (size_t)n);
	}
	if (lc->out.len == 0 && lc->closing) {
		if (lc->stop_after)
			lisad_stop(0);
		return (-1);
	}
	listener_update(lc);
	return (0);
}

static void
listener_reply(struct listener_conn *lc, struct buf *b)
{
	buf_addc(b, '\n');
	buf_add(&lc->out, b->data, b->len);
}

/* An answer from elsewhere (fleet.c): out when the socket can take it. */
void
listener_send(struct listener_conn *lc, struct buf *b)
{
	listener_reply(lc, b);
	listener_update(lc);
}

static void
listener_error(struct listener_conn *lc, const char *msg)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, "{\"ok\":false,\"error\":");
	json_cstr(&b, msg);
	buf_addc(&b, '}');
	listener_reply(lc, &b);
	buf_free(&b);
}

void
listener_send_error(struct listener_conn *lc, const char *msg)
{
	listener_error(lc, msg);
	listener_update(lc);
}

int
listener_pane_arg(const char *s)
{
	char	*end;
	long	 v;

	if (s == NULL || s[0] != '%')
		return (-1);
	v = strtol(s + 1, &end, 10);
	return (*end == '\0' && end != s + 1 && v >= 0 ? (int)v : -1);
}

/* A hook's number below max (a status, a signal, a pid), or -1. */
static int
listener_num_arg(const char *s, long max)
{
	char	*end;
	long	 v;

	if (s == NULL || *s == '\0')
		return (-1);
	v = strtol(s, &end, 10);
	return (*end == '\0' && v >= 0 && v < max ? (int)v : -1);
}

static void
listener_hook(struct listener_conn *lc, struct json_doc *d)
{
	char	*event, *a[4] = { NULL, NULL, NULL, NULL };
	int	 args, i;

	event = json_get_str(d, 0, "event");
	args = json_get(d, 0, "args");
	for (i = 0; i < 4 && i < json_array_size(d, args); i++)
		json_tok_str(d, json_array_item(d, args, i), &a[i]);
	if (event != NULL && strcmp(event, "pane-died") == 0 &&
	    listener_pane_arg(a[0]) != -1) {
		pane_died(listener_pane_arg(a[0]),
		    listener_num_arg(a[1], 100000),
		    listener_num_arg(a[2], 100000),
		    listener_num_arg(a[3], 0x7fffffffL));
		buf_add(&lc->out, "{\"ok\":true}\n", 12);
	} else if (event != NULL && strcmp(event, "respawned") == 0 &&
	    listener_pane_arg(a[0]) != -1) {
		pane_respawned(listener_pane_arg(a[0]));
		buf_add(&lc->out, "{\"ok\":true}\n", 12);
	} else if (event != NULL && strcmp(event, "client-detached") == 0) {
		/* (its point is our absence: see lisa.c cmd_hook) */
		buf_add(&lc->out, "{\"ok\":true}\n", 12);
	} else if (event != NULL && strcmp(event, "sessions-changed") == 0) {
		session_changed();
		buf_add(&lc->out, "{\"ok\":true}\n", 12);
	} else if (event != NULL && strcmp(event, "session-created") == 0 &&
	    a[0] != NULL && a[0][0] == '$' && listener_num_arg(a[0] + 1, 100000) != -1) {
		session_hooked(listener_num_arg(a[0] + 1, 100000));
		buf_add(&lc->out, "{\"ok\":true}\n", 12);
	} else
		listener_error(lc, "unknown hook event");
	free(event);
	for (i = 0; i < 4; i++)
		free(a[i]);
}

static void
listener_notify(struct listener_conn *lc, struct json_doc *d)
{
	agenthook_notify(d);
	buf_add(&lc->out, "{\"ok\":true}\n", 12);
}


/* {"ok":true,"pane":{...}} for a pane, or a not_found stand-in. */
static void
listener_pane_reply(struct listener_conn *lc, struct pane *p, int id)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, "{\"ok\":true,\"pane\":");
	if (p != NULL)
		pane_json(&b, p);
	else
		buf_printf(&b, "{\"pane_id\":\"%%%d\",\"state\":"
		    "\"not_found\"}", id);
	buf_addc(&b, '}');
	listener_reply(lc, &b);
	buf_free(&b);
}

/* The states a `lisa wait` without --until waits for: anything settled. */
#define WAIT_DEFAULT ((1u << ST_WAITING_INPUT) | (1u << ST_COMPLETED) | \
	(1u << ST_CRASHED) | (1u << ST_STUCK) | (1u << ST_DEGRADED) | \
	(1u << ST_NOT_FOUND))

static void
listener_status(struct listener_conn *lc, struct json_doc *d, int wait)
{
	struct pane		*p;
	struct fleet_host	*h;
	char			*arg, *name, *msg;
	unsigned		 mask = 0;
	int			 id, arr, i, n, exists;

	arg = json_get_str(d, 0, "pane");
	if (wait && fleet_parse_target(arg, &h, &id) == 0) {
		free(arg);
		arg = NULL;
	} else {
		h = NULL;
		id = listener_pane_arg(arg);
	}
	free(arg);
	if (id < 0) {
		listener_error(lc, "pane must be a pane id like %3");
		return;
	}
	p = pane_find(id);
	if (!wait) {
		listener_pane_reply(lc, p, id);
		return;
	}
	arr = json_get(d, 0, "until");
	n = json_array_size(d, arr);
	for (i = 0; i < n; i++) {
		if (json_tok_str(d, json_array_item(d, arr, i), &name) != 0)
			continue;
		if (cls_state_mask(name, &mask) != 0) {
			xasprintf(&msg, "unknown state '%.40s' in until; use "
			    "%s", name, cls_state_names_help());
			free(name);
			listener_error(lc, msg);
			free(msg);
			return;
		}
		free(name);
	}
	if (mask == 0)
		mask = WAIT_DEFAULT;
	if (h != NULL) {
		lc->wait_host = xstrdup(h->name);
		lc->wait_pane = id;
		lc->wait_mask = mask;
		listener_fleet_changed(h, fleet_pane_find(h, id), id);
		return;
	}
	/*
	 * A pane tmux has but we have not listed yet (just created) is
	 * waited for, not declared gone.
	 */
	exists = 0;
	json_get_bool(d, 0, "exists", &exists);
	if ((p == NULL && !exists) || (p != NULL && watch_matches(p, mask))) {
		listener_pane_reply(lc, p, id);
		return;
	}
	lc->wait_pane = id;
	lc->wait_mask = mask;
}

static void
listener_request(struct listener_conn *lc, const char *line, size_t len)
{
	struct json_doc	*d;
	struct pane	*p;
	struct buf	 b;
	char		*cmd, *cause = NULL, *arg;
	long long	 n;
	int		 brief;

	log_debug("request: %.200s", line);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		listener_error(lc, cause);
		free(cause);
		return;
	}
	if ((cmd = json_get_str(d, 0, "cmd")) == NULL) {
		listener_error(lc, "no cmd");
		json_free(d);
		return;
	}
	buf_init(&b);
	if (strcmp(cmd, "ping") == 0 || strcmp(cmd, "info") == 0) {
		buf_adds(&b, "{\"ok\":true");
		info_json(&b);
		buf_addc(&b, '}');
		listener_reply(lc, &b);
	} else if (strcmp(cmd, "list") == 0) {
		if (json_get_bool(d, 0, "brief", &brief) != 0)
			brief = 0;
		watch_list_json(&b, brief);
		listener_reply(lc, &b);
	} else if (strcmp(cmd, "needs") == 0) {
		buf_adds(&b, "{\"ok\":true,\"panes\":");
		publish_needs_json(&b);
		buf_addc(&b, '}');
		listener_reply(lc, &b);
	} else if (strcmp(cmd, "events") == 0) {
		if (json_get_int(d, 0, "since", &n) != 0)
			n = 0;
		buf_adds(&b, "{\"ok\":true,\"events\":");
		events_json(&b, (int64_t)n);
		buf_addc(&b, '}');
		listener_reply(lc, &b);
	} else if (strcmp(cmd, "follow") == 0) {
		buf_adds(&b, "{\"ok\":true}");
		listener_reply(lc, &b);
		lc->follow = 1;
	} else if (fleet_listener(lc, cmd, d)) {
		/* (fleet.c answered) */
	} else if (strcmp(cmd, "fleet") == 0) {
		/* A fleet's bridge (cmd-bridge.c): every pane, then changes. */
		buf_adds(&b, "{\"ok\":true}");
		listener_reply(lc, &b);
		RB_FOREACH(p, panes, &panes)
			listener_fleet_pane(lc, p);
		buf_adds(&lc->out, "{\"t\":\"synced\"}\n");
		lc->fleet = 1;
	} else if (strcmp(cmd, "status") == 0 || strcmp(cmd, "wait") == 0) {
		listener_status(lc, d, strcmp(cmd, "wait") == 0);
	} else if (strcmp(cmd, "reload") == 0) {
		config_reload();
		ui_apply();
		buf_adds(&b, "{\"ok\":true");
		json_key(&b, "agents_error");
		json_cstr(&b, lisad.agents_error);
		info_option_warnings(&b);
		buf_addc(&b, '}');
		listener_reply(lc, &b);
	} else if (strcmp(cmd, "run") == 0) {
		char	*id = json_get_str(d, 0, "id"), *why = NULL;
		char	*pane = json_get_str(d, 0, "drain");
		int	 dp = listener_pane_arg(pane);

		if (id == NULL || runs_update(id, &why) != 0) {
			buf_adds(&b, "{\"ok\":false,\"error\":");
			json_cstr(&b, why != NULL ? why : "no id");
			buf_addc(&b, '}');
		} else if (dp != -1)
			pane_drain(dp, lc);	/* answers when tmux has */
		else
			buf_adds(&b, "{\"ok\":true}");
		free(id);
		free(pane);
		free(why);
		if (b.len != 0)
			listener_reply(lc, &b);
	} else if (strcmp(cmd, "kill") == 0) {
		char		*id = json_get_str(d, 0, "pane"), *why = NULL;
		char		*by = json_get_str(d, 0, "by");
		char		*expect = json_get_str(d, 0, "expect");
		struct pane	*kp = NULL;
		const char	*changed;

		if (id != NULL && id[0] == '%')
			kp = pane_find((int)strtol(id + 1, NULL, 10));
		if (kp == NULL)
			xasprintf(&why, "no such pane: %s", id != NULL ? id :
			    "?");
		else if ((changed = act_expected(kp, expect)) != NULL) {
			why = xstrdup(changed);
			kp = NULL;
		}
		free(expect);
		if (kp == NULL || terminate_pane(kp, by != NULL &&
		    strcmp(by, "daemon") == 0 ? "daemon" : "user", &why) != 0) {
			buf_adds(&b, "{\"ok\":false,\"error\":");
			json_cstr(&b, why);
			buf_addc(&b, '}');
		} else
			buf_adds(&b, "{\"ok\":true}");
		free(id);
		free(by);
		free(why);
		listener_reply(lc, &b);
	} else if (strcmp(cmd, "nudge") == 0) {
		char	*text = json_get_str(d, 0, "text");
		char	*expect = json_get_str(d, 0, "expect");
		int	 force = 0;

		arg = json_get_str(d, 0, "pane");
		json_get_bool(d, 0, "force", &force);
		if ((p = pane_find(listener_pane_arg(arg))) == NULL)
			listener_error(lc, "no such pane");
		else		/* answers when it is done (act.c) */
			act_nudge(p, text != NULL ? text : "continue", force,
			    expect, "user", lc, NULL);
		free(arg);
		free(text);
		free(expect);
	} else if (strcmp(cmd, "answer") == 0) {
		char	*what = json_get_str(d, 0, "what");
		char	*reply = json_get_str(d, 0, "reply");
		char	*expect = json_get_str(d, 0, "expect");

		arg = json_get_str(d, 0, "pane");
		if ((p = pane_find(listener_pane_arg(arg))) == NULL)
			listener_error(lc, "no such pane");
		else if (what == NULL && reply == NULL)
			listener_error(lc, "answer what?");
		else		/* answers when it is done (answer.c) */
			answer_start(p, what != NULL ? what : "", reply,
			    expect, lc);
		free(arg);
		free(what);
		free(reply);
		free(expect);
	} else if (strcmp(cmd, "dismiss") == 0) {
		arg = json_get_str(d, 0, "pane");
		if ((p = pane_find(listener_pane_arg(arg))) == NULL)
			listener_error(lc, "no such pane");
		else if (ended_dismiss(p, "the user") != 0)
			listener_error(lc, "no ended agent to dismiss there");
		else {
			buf_adds(&b, "{\"ok\":true}");
			listener_reply(lc, &b);
		}
		free(arg);
	} else if (strcmp(cmd, "tmux") == 0) {
		const char	*why;

		if (key_tmux_request(lc, d, &why) != 0)	/* (key-tmux.c) */
			listener_error(lc, why);
	} else if (strcmp(cmd, "hook") == 0) {
		listener_hook(lc, d);
	} else if (strcmp(cmd, "notify") == 0) {
		listener_notify(lc, d);
	} else if (strcmp(cmd, "stop") == 0) {
		/* One event, not a "closed" for every pane let go. */
		events_add("helper_stopped", -1, "lisa stop");
		buf_adds(&b, "{\"ok\":true}");
		listener_reply(lc, &b);
		lc->closing = 1;
		lc->stop_after = 1;
	} else if (strcmp(cmd, "tap") == 0) {
		arg = json_get_str(d, 0, "pane");
		if (json_get_int(d, 0, "bytes", &n) != 0 || n <= 0)
			n = -1;
		p = pane_find(listener_pane_arg(arg));
		if (p == NULL)
			listener_error(lc, "no such pane");
		else if (p->tap != NULL)
			listener_error(lc, "pane already tapped");
		else {
			buf_adds(&b, "{\"ok\":true}");
			listener_reply(lc, &b);
			p->tap = lc;
			p->tap_left = n > 0 ? (uint64_t)n : UINT64_MAX;
			lc->tap = 1;
			pane_unmute(p, "tapped");
		}
		free(arg);
	} else
		listener_error(lc, "unknown cmd");
	buf_free(&b);
	free(cmd);
	json_free(d);
}

static void
listener_conn_cb(int fd, short revents, void *arg)
{
	struct listener_conn	*lc = arg;
	char			 tmp[8192], *nl;
	ssize_t			 n;
	size_t			 used;

	if (revents & POLLIN) {
		n = read(fd, tmp, sizeof tmp);
		if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR)) {
			listener_conn_free(lc);
			return;
		}
		if (n > 0 && !lc->tap && !lc->closing) {
			buf_add(&lc->in, tmp, (size_t)n);
			while (!lc->tap && !lc->closing &&
			    (nl = memchr(lc->in.data, '\n', lc->in.len)) !=
			    NULL) {
				used = (size_t)(nl - lc->in.data) + 1;
				*nl = '\0';
				listener_request(lc, lc->in.data, used - 1);
				buf_consume(&lc->in, used);
			}
			if (lc->in.len > LISTENER_MAX_REQUEST) {
				listener_error(lc, "request too long");
				lc->closing = 1;
			}
		}
	} else if (revents & (POLLHUP|POLLERR)) {
		listener_conn_free(lc);
		return;
	}
	if (listener_flush(lc) != 0)
		listener_conn_free(lc);
}

int
listener_tap_write(struct listener_conn *lc, const char *data, size_t len)
{
	/* Never let a slow reader hold the helper back: drop the tap. */
	if (lc->out.len + len > LISTENER_MAX_PENDING)
		return (-1);
	buf_add(&lc->out, data, len);
	if (listener_flush(lc) != 0) {
		lc->tap = 0;
		lc->closing = 1;
		return (-1);
	}
	return (0);
}

/* End a tap: unlink it from its pane, close once the bytes are out. */
void
listener_tap_end(struct listener_conn *lc)
{
	pane_tap_closed(lc);
	lc->tap = 0;
	lc->closing = 1;
	listener_update(lc);
	if (lc->out.len == 0)
		loop_events(lc->lf, POLLOUT);
}

static void
listener_conn_free(struct listener_conn *lc)
{
	if (lc->tap)
		pane_tap_closed(lc);
	fleet_conn_gone(lc);
	pane_drain_conn_gone(lc);
	act_conn_gone(lc);
	answer_conn_gone(lc);
	key_tmux_conn_gone(lc);
	free(lc->wait_host);
	TAILQ_REMOVE(&listener_conns, lc, entry);
	loop_del(lc->lf);
	close(lc->fd);
	buf_free(&lc->in);
	buf_free(&lc->out);
	free(lc);
}

static void
listener_accept_cb(int fd, short revents, void *arg)
{
	struct listener_conn	*lc;
	uid_t			 uid = (uid_t)-1;
	int			 cfd;

	cfd = compat_accept(fd, 1);
	if (cfd == -1)
		return;
	if (osdep_peer_uid(cfd, &uid) != 0 || uid != getuid()) {
		log_warnx("refused connection from uid %ld", (long)uid);
		close(cfd);
		return;
	}
	lc = xcalloc(1, sizeof *lc);
	lc->fd = cfd;
	lc->wait_pane = -1;
	buf_init(&lc->in);
	buf_init(&lc->out);
	lc->lf = loop_add(cfd, POLLIN, listener_conn_cb, lc);
	TAILQ_INSERT_TAIL(&listener_conns, lc, entry);
}

int
listener_open(const char *path, char **cause)
{
	struct sockaddr_un	sa;
	mode_t			old;

	if (runtime_sockaddr(path, &sa, cause) != 0)
		return (-1);
	listener_fd = compat_socket_unix(1);
	if (listener_fd == -1) {
		xasprintf(cause, "socket: %s", strerror(errno));
		return (-1);
	}
	/* We hold the lock, so a socket file left here is a dead helper's. */
	unlink(path);
	old = umask(077);
	if (bind(listener_fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		umask(old);
		xasprintf(cause, "bind %s: %s", path, strerror(errno));
		close(listener_fd);
		return (-1);
	}
	umask(old);
	chmod(path, 0600);
	if (listen(listener_fd, 64) != 0) {
		xasprintf(cause, "listen: %s", strerror(errno));
		close(listener_fd);
		return (-1);
	}
	listener_path = xstrdup(path);
	listener_lf = loop_add(listener_fd, POLLIN, listener_accept_cb, NULL);
	return (0);
}

void
listener_close(void)
{
	struct listener_conn	*lc, *lc1;

	TAILQ_FOREACH_SAFE(lc, &listener_conns, entry, lc1) {
		if (!lc->stop_after)
			listener_conn_free(lc);
	}
	if (listener_fd != -1) {
		loop_del(listener_lf);
		close(listener_fd);
		listener_fd = -1;
	}
	if (listener_path != NULL) {
		unlink(listener_path);
		free(listener_path);
		listener_path = NULL;
	}
}

/* A new event line: to every follower. */
void
listener_event(const char *line, size_t len)
{
	struct listener_conn	*lc, *lc1;

	TAILQ_FOREACH_SAFE(lc, &listener_conns, entry, lc1) {
		if (!lc->follow || lc->closing)
			continue;
		if (lc->out.len + len > LISTENER_MAX_PENDING) {
			/* A follower that does not read is let go. */
			lc->follow = 0;
			lc->closing = 1;
		} else
			buf_add(&lc->out, line, len);
		if (listener_flush(lc) != 0)
			listener_conn_free(lc);
	}
}

/*
 * A pane's verdict changed: to fleet bridges, and answer the waits it
 * satisfies.
 */
void
listener_pane_changed(struct pane *p)
{
	struct listener_conn	*lc, *lc1;

	TAILQ_FOREACH_SAFE(lc, &listener_conns, entry, lc1) {
		if (lc->fleet && !lc->closing) {
			listener_fleet_pane(lc, p);
			if (listener_flush(lc) != 0) {
				listener_conn_free(lc);
				continue;
			}
		}
		if (lc->wait_pane != p->id || lc->wait_host != NULL ||
		    !watch_matches(p, lc->wait_mask))
			continue;
		lc->wait_pane = -1;
		listener_pane_reply(lc, p, p->id);
		if (listener_flush(lc) != 0)
			listener_conn_free(lc);
	}
}

void
listener_pane_gone(int id)
{
	struct listener_conn	*lc, *lc1;

	TAILQ_FOREACH_SAFE(lc, &listener_conns, entry, lc1) {
		if (lc->fleet && !lc->closing) {
			buf_printf(&lc->out, "{\"t\":\"gone\",\"pane_id\":"
			    "\"%%%d\"}\n", id);
			if (listener_flush(lc) != 0) {
				listener_conn_free(lc);
				continue;
			}
		}
		if (lc->wait_pane != id || lc->wait_host != NULL)
			continue;
		lc->wait_pane = -1;
		listener_pane_reply(lc, NULL, id);
		if (listener_flush(lc) != 0)
			listener_conn_free(lc);
	}
}

/*
 * A remote pane changed (fp) or went (NULL; so do a down host's): answer
 * the waits on it it satisfies.
 */
void
listener_fleet_changed(struct fleet_host *h, struct fleet_pane *fp, int id)
{
	struct listener_conn	*lc, *lc1;
	struct buf		 b;

	TAILQ_FOREACH_SAFE(lc, &listener_conns, entry, lc1) {
		if (lc->wait_host == NULL || lc->wait_pane != id ||
		    strcmp(lc->wait_host, h->name) != 0)
			continue;
		/* (what we last saw of a host not connected: not yet) */
		if (fp != NULL && (!fp->has_state ||
		    !fleet_pane_current(h, fp) ||
		    (lc->wait_mask & (1u << fp->state)) == 0))
			continue;
		/* (not there: not yet synced is not gone) */
		if (fp == NULL && !h->synced && h->state != FLEET_DOWN)
			continue;
		buf_init(&b);
		buf_adds(&b, "{\"ok\":true,\"pane\":");
		if (fp != NULL)
			fleet_pane_json(&b, h, fp);
		else
			buf_printf(&b, "{\"pane_id\":\"%%%d\",\"host\":", id);
		if (fp == NULL) {
			json_cstr(&b, h->name);
			buf_adds(&b, ",\"state\":\"not_found\"}");
		}
		buf_addc(&b, '}');
		lc->wait_pane = -1;
		free(lc->wait_host);
		lc->wait_host = NULL;
		listener_reply(lc, &b);
		buf_free(&b);
		if (listener_flush(lc) != 0)
			listener_conn_free(lc);
	}
}
