/*
 * Telling the human. On a transition into waiting_input, crashed or stuck
 * (each opt-in, @lisa-notify-<waiting|crashed|stuck> on):
 *
 *  - display-message on every client that is not showing the pane, and
 *    its terminal's own notification sequence (osc-notify.c);
 *  - when no client shows it: a bell in the pane (BEL written to its tty,
 *    so tmux's own monitor-bell, bell-action and visual-bell apply), a
 *    desktop notification through notify-send, if installed, whose Show
 *    brings the last used client to the pane, and the sound command.
 *
 * And @lisa-on-transition, a shell command run on every transition with
 * the transition as JSON on stdin. Nothing here waits: tmux is asked
 * asynchronously, children are reaped by lisad's SIGCHLD handler.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tap.h"
#include "tell.h"

#define NOTIFY_EXPIRE_MS 10000	/* a question tmux never answered */
#define NOTIFY_SETTLE_MS 600	/* "waiting" becomes "permission" soon */
/*
 * A wait told with what for: one whose detail is not known yet is held
 * until it is, at most NOTIFY_DETAIL_MS; an error, NOTIFY_ERROR_MS, in case
 * it turns out to be a limit (Codex's 429s: "error", then "limit" 2 s
 * later), which is then the one thing told.
 */
#define NOTIFY_DETAIL_MS 1500
#define NOTIFY_ERROR_MS 4000
/*
 * A dialog told with what it asks ("asks to run: rm -rf build"): held until
 * lisa has read it off the screen, at most NOTIFY_QUESTION_MS (Codex says
 * "blocked" 0.9 s before it draws its dialog).
 */
#define NOTIFY_QUESTION_MS 2500

/* Either kind of waiting: an agent that asks, or one at its prompt. */
#define NOTIFY_WAITS(g) ((g) == UI_ASKS || (g) == UI_WAITING)

struct notify_config {
	int	 on[UI_NGROUPS];
	int	 asks_set;	/* @lisa-notify-asks given: its own switch */
	int	 message;
	int	 bell;
	int	 desktop;
	int	 terminal;	/* enum nterm_kind */
	uint64_t cooldown_ms;
	char	*command;
	char	*sound;
	char	*notify_send;	/* the desktop's command, if installed */
	int	 desktop_kind;	/* NOTIFY_DESKTOP_* */
	char	*url;		/* @lisa-notify-url: never logged */
	int	 url_json;	/* @lisa-notify-url-format json */
	char	*curl;		/* its path, if installed */
};
static struct notify_config notify_cfg;

/* A notification waiting for tmux to say who looks at the pane. */
struct notify {
	uint64_t		 id;
	uint64_t		 at;
	int			 pane;		/* -1: a remote one */
	int			 session;	/* a remote one's: to send */
	int			 group;
	char			*tty;
	char			*title;		/* desktop */
	char			*body;		/* desktop */
	char			*message;	/* display-message */
	char			*state;		/* for the sound command */
	char			*agent;
	char			*host;		/* a remote one's */
	int			 rpane;		/* ... its pane there */
	char			*rtoken;	/* ... its dialog's token there */
	struct question		*rq;		/* ... its kind and options */
	struct loop_timer	 timer;
	TAILQ_ENTRY(notify)	 entry;
};
static TAILQ_HEAD(, notify) notifies = TAILQ_HEAD_INITIALIZER(notifies);
static uint64_t notify_next_id = 1;
static unsigned int notify_term_id;
struct notify_stats notify_stats;

void
notify_reset(void)
{
	free(notify_cfg.command);
	free(notify_cfg.sound);
	free(notify_cfg.notify_send);
	free(notify_cfg.url);
	free(notify_cfg.curl);
	memset(&notify_cfg, 0, sizeof notify_cfg);
	notify_cfg.curl = path_which("curl");
	tap_reset(notify_cfg.curl);
	notify_cfg.message = notify_cfg.bell = notify_cfg.desktop = 1;
	notify_cfg.terminal = NTERM_AUTO;
	notify_cfg.cooldown_ms = 10000;
	/* notify-send (Linux, the BSDs), else a Mac's own. */
	notify_cfg.desktop_kind = NOTIFY_DESKTOP_SEND;
	if ((notify_cfg.notify_send = path_which("notify-send")) != NULL)
		return;
	notify_cfg.desktop_kind = NOTIFY_DESKTOP_TERMINAL_NOTIFIER;
	if ((notify_cfg.notify_send = path_which("terminal-notifier")) != NULL)
		return;
	notify_cfg.desktop_kind = NOTIFY_DESKTOP_OSASCRIPT;
	notify_cfg.notify_send = path_which("osascript");
}

static int
notify_onoff(const char *v)
{
	return (options_flag(v) == 1);
}

void
notify_option(const char *name, const char *value)
{
	tap_option(name, value);
	/* "waiting" is both kinds, unless "asks" has its own say. */
	if (strcmp(name, "@lisa-notify-waiting") == 0) {
		notify_cfg.on[UI_WAITING] = notify_onoff(value);
		if (!notify_cfg.asks_set)
			notify_cfg.on[UI_ASKS] = notify_cfg.on[UI_WAITING];
	} else if (strcmp(name, "@lisa-notify-asks") == 0) {
		notify_cfg.on[UI_ASKS] = notify_onoff(value);
		notify_cfg.asks_set = 1;
	} else if (strcmp(name, "@lisa-notify-crashed") == 0)
		notify_cfg.on[UI_CRASHED] = notify_onoff(value);
	else if (strcmp(name, "@lisa-notify-stuck") == 0)
		notify_cfg.on[UI_STUCK] = notify_onoff(value);
	else if (strcmp(name, "@lisa-notify-message") == 0)
		notify_cfg.message = notify_onoff(value);
	else if (strcmp(name, "@lisa-notify-bell") == 0)
		notify_cfg.bell = notify_onoff(value);
	else if (strcmp(name, "@lisa-notify-desktop") == 0)
		notify_cfg.desktop = notify_onoff(value);
	else if (strcmp(name, "@lisa-notify-terminal") == 0) {
		/* (values checked already, and said: config.c) */
		if ((notify_cfg.terminal = nterm_parse(value)) == -1)
			notify_cfg.terminal = NTERM_AUTO;
	} else if (strcmp(name, "@lisa-notify-sound") == 0) {
		free(notify_cfg.sound);
		notify_cfg.sound = *value != '\0' ? xstrdup(value) : NULL;
	} else if (strcmp(name, "@lisa-notify-cooldown") == 0)
		options_seconds(value, &notify_cfg.cooldown_ms);
	else if (strcmp(name, "@lisa-on-transition") == 0) {
		free(notify_cfg.command);
		notify_cfg.command = *value != '\0' ? xstrdup(value) : NULL;
	} else if (strcmp(name, "@lisa-notify-url") == 0) {
		free(notify_cfg.url);
		notify_cfg.url = NULL;
		/* (its value may hold a token: never said back) */
		if (*value != '\0' && options_url_valid(value))
			notify_cfg.url = xstrdup(value);
		if (notify_cfg.url != NULL && notify_cfg.curl == NULL)
			log_warnx("@lisa-notify-url: no curl on PATH: off");
	} else if (strcmp(name, "@lisa-notify-url-format") == 0)
		notify_cfg.url_json = strcmp(value, "json") == 0;
}

/*
 * An ask's buttons for the phone (tap.c): only for a dialog lisa has
 * read, bound to it by its answer token. 1 if there are some.
 */
static int
notify_buttons(struct notify *n, struct tap_buttons *bt)
{
	struct pane		*p = pane_find(n->pane);
	char			 token[ANSWER_TOKEN_LEN];

	/* A remote one: bound to its host, its host's token. */
	if (n->pane < 0)
		return (n->rtoken != NULL && n->rq != NULL &&
		    (tap_ntfy_on() || tap_telegram_on()) &&
		    tap_buttons(n->host, n->rpane, n->rtoken, n->body,
		    strcmp(n->rq->kind, "permission") == 0 ? NULL : n->rq,
		    bt) == 0);
	if (p == NULL || p->watch == NULL || !p->watch->question_ok ||
	    !question_detail(p->watch->res.detail) ||
	    (!tap_ntfy_on() && !tap_telegram_on()))
		return (0);
	answer_token(p, p->watch->question.fingerprint, token, sizeof token);
	return (tap_buttons(NULL, p->id, token, n->body,
	    &p->watch->question, bt) == 0);
}

/* The phone's copy: ntfy's priority and tag by what happened. */
static void
notify_post(struct notify *n, const char *pane)
{
	struct notify_post	m;
	struct buf		actions;
	struct tap_buttons	bt;
	int			has = 0;

	bt.n = 0;
	if (n->group == UI_ASKS)
		has = notify_buttons(n, &bt);
	tap_telegram_push(n->title, n->message, has ? &bt : NULL);
	if (notify_cfg.url == NULL || notify_cfg.curl == NULL)
		return;
	memset(&m, 0, sizeof m);
	buf_init(&actions);
	if (has && tap_ntfy_actions(&actions, &bt) == 0)
		m.actions = actions.data;
	m.title = n->title;
	m.text = n->message;
	m.group = ui_group_name(n->group);
	m.state = n->state;
	m.agent = n->agent;
	m.pane = n->pane >= 0 ? pane : "";
	m.urgent = n->group == UI_CRASHED;
	m.tag = n->group == UI_CRASHED ? "rotating_light" :
	    n->group == UI_STUCK ? "hourglass" : "raising_hand";
	/* (counted when curl says how it went) */
	notify_url_post(notify_cfg.curl, notify_cfg.url, notify_cfg.url_json,
	    &m);
	buf_free(&actions);
}

static void
notify_free(struct notify *n)
{
	TAILQ_REMOVE(&notifies, n, entry);
	loop_timer_del(&n->timer);
	free(n->message);
	free(n->state);
	free(n->agent);
	free(n->tty);
	free(n->title);
	free(n->body);
	free(n->host);
	free(n->rtoken);
	free(n->rq);		/* (kind and options only: nothing owned) */
	free(n);
}

static struct notify *
notify_find(void *arg)
{
	struct notify	*n;
	uint64_t	 id = (uint64_t)(uintptr_t)arg;

	TAILQ_FOREACH(n, &notifies, entry) {
		if (n->id == id)
			return (n);
	}
	return (NULL);
}

/* @lisa-on-transition: sh -c COMMAND < transition.json */
static void
notify_command(struct pane *p, const char *json, const char *state)
{
	int	fds[2];
	pid_t	pid;
	char	pane[32];

	if (compat_pipe(fds) != 0)
		return;
	snprintf(pane, sizeof pane, "%%%d", p->id);
	if ((pid = fork()) == -1) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		notify_child(fds[0], -1);
		setenv("LISA_PANE", pane, 1);
		setenv("LISA_STATE", state, 1);
		execl("/bin/sh", "sh", "-c", notify_cfg.command, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	/* Far below a pipe's buffer: never blocks, never waits. */
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	if (write(fds[1], json, strlen(json)) < 0)
		log_warn("on-transition stdin");
	if (write(fds[1], "\n", 1) < 0)
		log_warn("on-transition stdin");
	close(fds[1]);
	notify_stats.commands++;
	log_debug("pane %%%d: on-transition pid %ld", p->id, (long)pid);
}

/* BEL into the pane's tty: tmux sees it as the pane's own bell. */
static void
notify_bell(struct notify *n)
{
	struct pane	*p;
	int		 fd;

	if (!notify_cfg.bell || n->tty == NULL ||
	    strncmp(n->tty, "/dev/", 5) != 0)
		return;
	fd = open(n->tty, O_WRONLY|O_NOCTTY|O_NONBLOCK|O_CLOEXEC|O_NOFOLLOW);
	if (fd == -1) {
		log_warn("bell %s", n->tty);
		return;
	}
	if ((p = pane_find(n->pane)) != NULL && p->watch != NULL)
		p->watch->bell_ours_at = time_mono_ms();
	if (write(fd, "\a", 1) == 1)
		notify_stats.bells++;
	close(fd);
}

static void
notify_tty_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct notify	*n;

	if ((n = notify_find(arg)) == NULL || !ok)
		return;
	n->tty = xstrndup(body, len);
	n->tty[strcspn(n->tty, "\n")] = '\0';
}

/* The terminal's own notification, to a client not looking at the pane. */
static void
notify_terminal(struct notify *n, const char *tty, const char *termname,
    const char *termtype)
{
	struct buf	seq;
	int		kind, wrap;

	kind = nterm_pick(notify_cfg.terminal, termname, termtype, &wrap);
	if (kind == NTERM_OFF)
		return;
	buf_init(&seq);
	nterm_build(&seq, kind, wrap, ++notify_term_id, n->message, n->title,
	    n->body);
	notify_spawn_tty(tty, seq.data, seq.len);
	notify_stats.terminal++;
	log_debug("notify %s: %s%s (%s, %s)", tty, nterm_name(kind),
	    wrap != NTERM_DIRECT ? " wrapped" : "", termname, termtype);
	buf_free(&seq);
}

/* One client's line: name, control, pane, tty, TERM, XTVERSION, activity. */
#define NOTIFY_CLIENT_FIELDS 7

/*
 * Who looks at what: message the others, and raise their terminals'
 * notifications; if nobody looks, ring, the desktop and the sound.
 */
static void
notify_clients_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct notify	*n;
	struct pane	*p;
	struct session	*s;
	struct buf	 cmd, text;
	char		*copy, *rest, *line, *f[NOTIFY_CLIENT_FIELDS], pane[32];
	char		*latest = NULL;
	long long	 activity, latest_at = -1;
	int		 looking = 0;

	if ((n = notify_find(arg)) == NULL)
		return;
	snprintf(pane, sizeof pane, "%%%d", n->pane);
	p = n->pane >= 0 ? pane_find(n->pane) : NULL;
	if (n->pane < 0)
		s = session_find(n->session);
	else
		s = p != NULL ? pane_session(p) : NULL;
	copy = rest = ok ? xstrndup(body, len) : xstrdup("");
	buf_init(&cmd);
	buf_init(&text);
	ctl_format_escape(&text, n->message);
	while ((line = strsep(&rest, "\n")) != NULL) {
		if (session_reply_fields(line, f, NOTIFY_CLIENT_FIELDS) != 0 ||
		    strcmp(f[1], "1") == 0)
			continue;	/* control clients: ours, or scripts */
		activity = strtoll(f[6], NULL, 10);
		if (activity > latest_at) {
			latest_at = activity;
			latest = f[0];
		}
		if (n->pane >= 0 && strcmp(f[2], pane) == 0) {
			looking = 1;
			continue;
		}
		if (notify_cfg.terminal != NTERM_OFF)
			notify_terminal(n, f[3], f[4], f[5]);
		/* 3.2a cannot address a client (display-message -c). */
		if (!notify_cfg.message || s == NULL ||
		    !lisad.caps.display_client)
			continue;
		buf_reset(&cmd);
		buf_adds(&cmd, "display-message -c ");
		ctl_quote_str(&cmd, f[0]);
		buf_addc(&cmd, ' ');
		ctl_quote_str(&cmd, text.data);
		if (session_send(s, cmd.data, NULL, NULL) == 0)
			notify_stats.messages++;
	}
	if (!looking) {
		notify_bell(n);		/* (a remote pane has no tty here) */
		if (notify_cfg.desktop && notify_cfg.notify_send != NULL) {
			notify_spawn_desktop(notify_cfg.desktop_kind,
			    notify_cfg.notify_send, !NOTIFY_WAITS(n->group),
			    n->title, n->body, n->pane, latest);
			notify_stats.desktop++;
		}
		if (notify_cfg.sound != NULL) {
			notify_spawn_sound(notify_cfg.sound, n->pane >= 0 ?
			    pane : "", n->agent, n->state);
			notify_stats.sounds++;
		}
		notify_post(n, pane);
	}
	log_debug("pane %s: notified (%s)", n->pane >= 0 ? pane : "remote",
	    looking ? "in view" : "not in view");
	buf_free(&cmd);
	buf_free(&text);
	free(copy);
	notify_free(n);
}

/*
 * "Show" clicked on a desktop notification: the client the human used
 * last goes to the pane (its session, window and the pane itself).
 */
void
notify_focus(int pane, const char *client)
{
	struct pane	*p;
	struct session	*s;
	struct buf	 cmd;

	if ((p = pane_find(pane)) == NULL || (s = pane_session(p)) == NULL)
		return;
	buf_init(&cmd);
	buf_adds(&cmd, "switch-client -c ");
	ctl_quote_str(&cmd, client);
	buf_printf(&cmd, " -t '%%%d'", pane);
	if (session_send(s, cmd.data, NULL, NULL) == 0)
		notify_stats.focused++;
	log_debug("pane %%%d: shown to %s (notification clicked)", pane,
	    client);
	buf_free(&cmd);
}

/* "claude", "work:2" */
static void
notify_where(struct pane *p, const char **agent, char *out, size_t len)
{
	struct session	*s = NULL;

	if (p->nsessions > 0)
		s = session_find(p->sessions[0]);
	*agent = p->watch->agent != NULL ? p->watch->agent->name : "agent";
	snprintf(out, len, "%s:%d", s != NULL && s->name != NULL ? s->name :
	    "?", p->window_index);
}

/* What a notification says a group's agent does. */
static const char *notify_verbs[UI_NGROUPS] = { "asks", "crashed",
    "is stuck", "waits", NULL, NULL, NULL };

/* Ask which clients look at what; notify_clients_cb does the rest. */
static void
notify_ask_clients(struct session *s, struct notify *n)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, "list-clients -F ");
	ctl_quote_str(&b, "#{client_name}\037#{client_control_mode}\037"
	    "#{pane_id}\037#{client_tty}\037#{client_termname}\037"
	    "#{client_termtype}\037#{client_activity}");
	if (session_send(s, b.data, notify_clients_cb,
	    (void *)(uintptr_t)n->id) != 0)
		notify_free(n);
	buf_free(&b);
}

/*
 * Which switch a state is told under: an agent stopped by a usage or rate
 * limit sits at its prompt for hours, so it is told as a crash is.
 */
static int
notify_group(enum cls_state st, const char *detail)
{
	if (st == ST_WAITING_INPUT && detail != NULL &&
	    strcmp(detail, "limit") == 0)
		return (UI_CRASHED);
	return (ui_group_of_verdict(st, detail));
}

static const char *
notify_verb(int group, const char *detail)
{
	if (group == UI_CRASHED && strcmp(detail, "limit") == 0)
		return ("hit a limit");
	return (notify_verbs[group]);
}

/* How much longer to hold N, whose pane is P (0: no more). */
static uint64_t
notify_hold(struct notify *n, struct pane *p)
{
	const char	*detail = p->watch->res.detail;
	uint64_t	 now = time_mono_ms(), bound = 0;

	if (n->group == UI_ASKS && *detail == '\0')
		bound = NOTIFY_DETAIL_MS;
	else if (n->group == UI_WAITING && strcmp(detail, "error") == 0)
		bound = NOTIFY_ERROR_MS;
	else if (n->group == UI_ASKS && question_detail(detail) &&
	    !p->watch->question_ok)
		bound = NOTIFY_QUESTION_MS;
	return (now < n->at + bound ? n->at + bound - now : 0);
}

/*
 * What a waiting agent is told to wait for: its question when lisa has
 * read it ("asks to run: touch x", "asks: Pick one"), else its detail.
 */
static void
notify_what(struct pane *p, int group, char **verb, char **body)
{
	struct watch		*w = p->watch;
	const struct question	*q = &w->question;
	const char		*detail = w->res.detail;
	char			 asks[512];

	if (group == UI_ASKS && question_detail(detail) && w->question_ok) {
		question_asks(q->kind, q->subject, *q->text != '\0' ? q->text :
		    q->options[0], asks, sizeof asks);
		*verb = xstrdup(asks);
		*body = xstrdup(asks);
		return;
	}
	xasprintf(verb, "%s%s%s%s", notify_verb(group, detail),
	    *detail != '\0' ? " (" : "", detail, *detail != '\0' ? ")" : "");
	*body = xstrdup(detail);
}

/* The verdict has settled: who looks at the pane decides the rest. */
static void
notify_fire(void *arg)
{
	struct notify		*n = arg;
	struct pane		*p;
	struct session		*s;
	const char		*agent, *detail;
	char			 where[256], cmd[96], *verb, *what;
	uint64_t		 hold;

	p = pane_find(n->pane);
	if (p == NULL || p->watch == NULL ||
	    notify_group(p->watch->res.state, p->watch->res.detail) !=
	    n->group || (s = pane_session(p)) == NULL) {
		notify_free(n);	/* over already */
		return;
	}
	detail = p->watch->res.detail;
	if ((hold = notify_hold(n, p)) != 0) {
		loop_timer_add(&n->timer, hold);
		return;
	}
	notify_where(p, &agent, where, sizeof where);
	notify_what(p, n->group, &verb, &what);
	xasprintf(&n->message, "lisa: %s in %s %s", agent, where, verb);
	xasprintf(&n->title, "%s %s", agent, notify_verb(n->group, detail));
	n->agent = xstrdup(agent);
	n->state = xstrdup(cls_state_name(p->watch->res.state));
	xasprintf(&n->body, "%s%s%s", where, *what != '\0' ? " \u00b7 " :
	    "", what);
	free(verb);
	free(what);

	snprintf(cmd, sizeof cmd, "display-message -p -t '%%%d' "
	    "'#{pane_tty}'", p->id);
	session_send(s, cmd, notify_tty_cb, (void *)(uintptr_t)n->id);
	notify_ask_clients(s, n);
}

/*
 * Is a transition from -> to one to notify (configured, a new group, not
 * a prompt right after start, out of the cooldown)? Marks it if so.
 */
static int
notify_due(enum cls_state from, enum cls_state to, const char *detail,
    uint64_t *at, int *group)
{
	uint64_t	now = time_mono_ms();
	int		g = notify_group(to, detail);

	/* (a wait whose detail changes is the same wait: not told again) */
	if (g == -1 || g == ui_group_of(from) || !notify_cfg.on[g] ||
	    (from == ST_WAITING_INPUT && NOTIFY_WAITS(g)))
		return (0);
	/* A prompt right after start is the human's own doing. */
	if (NOTIFY_WAITS(g) && from != ST_IN_PROGRESS)
		return (0);
	if (*at != 0 && *group == g && now - *at < notify_cfg.cooldown_ms)
		return (0);
	*at = now;
	*group = g;
	return (1);
}

void
notify_transition(struct pane *p, enum cls_state from,
    const struct cls_result *r, const char *json)
{
	struct watch	*w = p->watch;
	struct notify	*n, *n1;
	uint64_t	 now = time_mono_ms();
	int		 g = notify_group(r->state, r->detail), asks;

	if (notify_cfg.command != NULL)
		notify_command(p, json, cls_state_name(r->state));
	/* Its dialog is over: the phone's buttons for it end. */
	if (g != UI_ASKS)
		tap_pane_over(NULL, p->id);
	/*
	 * Not told yet: a situation that is over goes untold (a turn's end
	 * that the next turn followed at once must not be told later with the
	 * next wait's words); a held wait whose detail has come is told now.
	 */
	TAILQ_FOREACH_SAFE(n, &notifies, entry, n1) {
		if (n->pane != p->id || n->message != NULL)
			continue;
		if (n->group != g)
			notify_free(n);
		else if (notify_hold(n, p) == 0 &&
		    now >= n->at + NOTIFY_SETTLE_MS) {
			loop_timer_del(&n->timer);
			notify_fire(n);
			break;
		}
	}
	/*
	 * An agent slow to start (a loaded machine) shows output before its
	 * first prompt: that prompt is not a turn's end (cooldown untouched).
	 */
	if (w->starting && NOTIFY_WAITS(notify_group(r->state, r->detail))) {
		log_debug("pane %%%d: its first prompt, not told", p->id);
		w->shown_waits = (g == UI_WAITING);
		return;
	}
	/*
	 * A dialog drawn where its prompt was is a turn lisa did not see
	 * (a reply that came at once): news, as after work. A dialog's detail
	 * that changes is still the same dialog.
	 */
	asks = from == ST_WAITING_INPUT && w->shown_waits && g == UI_ASKS;
	w->shown_waits = (g == UI_WAITING);
	if (!notify_due(asks ? ST_IN_PROGRESS : from, r->state, r->detail,
	    &w->notified_at, &w->notified_group))
		return;

	TAILQ_FOREACH_SAFE(n, &notifies, entry, n1) {
		if (now - n->at > NOTIFY_EXPIRE_MS)
			notify_free(n);
	}
	n = xcalloc(1, sizeof *n);
	n->id = notify_next_id++;
	n->at = now;
	n->pane = p->id;
	n->group = g;
	TAILQ_INSERT_TAIL(&notifies, n, entry);
	loop_timer_init(&n->timer, notify_fire, n);
	loop_timer_add(&n->timer, NOTIFY_SETTLE_MS);
}

/* Its question read: a wait held for it is told now. */
void
notify_question(struct pane *p)
{
	struct notify	*n;

	TAILQ_FOREACH(n, &notifies, entry) {
		if (n->pane != p->id || n->message != NULL ||
		    time_mono_ms() < n->at + NOTIFY_SETTLE_MS)
			continue;
		loop_timer_del(&n->timer);
		notify_fire(n);
		break;
	}
}

/*
 * A run out of retries waits for the human's decision: told at once (no
 * cooldown, whatever @lisa-notify-crashed says: it is asked of them), on
 * every channel that is on; the decision is made in lisa's menu.
 */
void
notify_escalate(struct pane *p, const char *name)
{
	struct notify	*n;
	struct session	*s;
	const char	*agent;
	char		 where[256], cmd[96];

	if ((s = pane_session(p)) == NULL)
		return;
	notify_where(p, &agent, where, sizeof where);
	n = xcalloc(1, sizeof *n);
	n->id = notify_next_id++;
	n->at = time_mono_ms();
	n->pane = p->id;
	n->group = UI_CRASHED;
	xasprintf(&n->message, "lisa: run %s in %s failed after its retries: "
	    "retry, fallback or skip from lisa's menu", name, where);
	xasprintf(&n->title, "%s failed after its retries", name);
	n->agent = xstrdup(name);
	n->state = xstrdup("crashed");
	xasprintf(&n->body, "%s \u00b7 decide in lisa's menu", where);
	TAILQ_INSERT_TAIL(&notifies, n, entry);
	snprintf(cmd, sizeof cmd, "display-message -p -t '%%%d' "
	    "'#{pane_tty}'", p->id);
	session_send(s, cmd, notify_tty_cb, (void *)(uintptr_t)n->id);
	notify_ask_clients(s, n);
}

/*
 * A remote agent's transition (fleet-pane.c), with the host named: the
 * same rules and cooldown as a local one's; a message on every client
 * and the desktop (no bell: its tty is on the host). The agent, where and
 * detail come from the host: they reach tmux escaped, as pane text does.
 */
void
notify_remote(const char *host, int rpane, const char *rtoken,
    const struct question *rq, const char *agent, const char *where,
    const char *detail, const char *asks, enum cls_state from,
    enum cls_state to, uint64_t *at, int *group)
{
	struct notify		*n;
	struct session		*s;
	int			 g = notify_group(to, detail);

	if (!notify_due(from, to, detail, at, group))
		return;
	RB_FOREACH(s, sessions, &sessions) {
		if (s->ctl != NULL && s->attached && !s->closing)
			break;
	}
	n = xcalloc(1, sizeof *n);
	n->id = notify_next_id++;
	n->at = *at;
	n->pane = -1;
	n->host = xstrdup(host);
	n->rpane = rpane;
	n->rtoken = rtoken != NULL ? xstrdup(rtoken) : NULL;
	if (rtoken != NULL && rq != NULL) {
		n->rq = xmalloc(sizeof *n->rq);
		memcpy(n->rq, rq, sizeof *n->rq);
		n->rq->subject = n->rq->hook_subject = NULL;
	}
	/* (no client of ours yet, as the helper starts: held for one) */
	n->session = s != NULL ? s->id : -1;
	n->group = g;
	if (asks != NULL && g == UI_ASKS && question_detail(detail))
		xasprintf(&n->message, "lisa: %s on %s in %s %s", agent, host,
		    where, asks);
	else
		xasprintf(&n->message, "lisa: %s on %s in %s %s%s%s%s", agent,
		    host, where, notify_verb(g, detail), *detail != '\0' ?
		    " (" : "", detail, *detail != '\0' ? ")" : "");
	xasprintf(&n->title, "%s on %s %s", agent, host, notify_verb(g, detail));
	n->agent = xstrdup(agent);
	n->state = xstrdup(cls_state_name(to));
	xasprintf(&n->body, "%s%s%s", where, *detail != '\0' ? " \u00b7 " :
	    "", detail);
	TAILQ_INSERT_TAIL(&notifies, n, entry);
	if (s != NULL)
		notify_ask_clients(s, n);
}

/*
 * A control client of ours has its session (session.c): what a host told
 * before there was one is told now.
 */
void
notify_attached(struct session *s)
{
	struct notify	*n, *n1;

	TAILQ_FOREACH_SAFE(n, &notifies, entry, n1) {
		if (n->session != -1)
			continue;
		n->session = s->id;
		notify_ask_clients(s, n);
	}
}
