/*
 * The pane table. Filled from list-panes replies, kept current from
 * notifications: %layout-change names the panes a window still has, so a
 * pane that vanished is dropped at once; a window's panes may show in several
 * sessions (grouped sessions, link-window), so each pane remembers which of
 * our sessions show it and whose %output it counts.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"

int
pane_cmp(struct pane *a, struct pane *b)
{
	return (a->id < b->id ? -1 : a->id > b->id);
}
RB_GENERATE(panes, pane, entry, pane_cmp);
struct panes panes = RB_INITIALIZER(&panes);

#define PANE_FIELD_SEP '\037'
/*
 * What a helper before us left on a pane: "=" if the per-field options,
 * "+" if @lisa, then the agent's name (publish.c, ui-compose.c).
 */
#define PANE_LISA \
	"#{?@lisa_state,=,}#{?@lisa,+#{s/^[^|]*[|]([^|]*[|]).*/\\1/;s/[|]$//:@lisa}," \
	"#{@lisa_agent}}"
#define PANE_LIST_FORMAT \
	"#{pane_id}\037#{window_id}\037#{session_id}\037#{window_index}\037" \
	"#{pane_index}\037#{pane_pid}\037#{pane_dead}\037" \
	"#{pane_dead_status}\037#{pane_dead_signal}\037" \
	"#{pane_current_command}\037#{window_name}\037" PANE_LISA "\037" \
	"#{pane_title}"
#define PANE_LIST_FIELDS 13

/* Title last: whatever it holds cannot shift the other fields. */
const char *pane_subscription_format =
    "lisa:%*:#{pane_dead}\037#{pane_dead_status}\037#{pane_dead_signal}\037"
    "#{pane_pid}\037#{pane_current_command}\037#{pane_title}";

struct pane *
pane_find(int id)
{
	struct pane	find = { .id = id };

	return (RB_FIND(panes, &panes, &find));
}

int
pane_has_session(struct pane *p, int sid)
{
	int	i;

	for (i = 0; i < p->nsessions; i++) {
		if (p->sessions[i] == sid)
			return (1);
	}
	return (0);
}

static void
pane_add_session(struct pane *p, int sid)
{
	if (pane_has_session(p, sid))
		return;
	p->sessions = xreallocarray(p->sessions, (size_t)p->nsessions + 1,
	    sizeof *p->sessions);
	p->sessions[p->nsessions++] = sid;
}

static void
pane_unwatch(struct pane *p)
{
	if (p->pidfd != -1) {
		loop_del(p->pidfd_ev);
		close(p->pidfd);
	}
	p->pidfd = -1;
	p->pidfd_ev = NULL;
	p->pidfd_pid = 0;
}


/* The pane's process exited: its status, if tmux has not reaped it yet. */
static void
pane_pidfd_cb(int fd, short revents, void *arg)
{
	struct pane	*p = arg;
	int		 status, sig, held;

	if (proc_exit_status(p->pidfd_pid, &status, &sig) == 0) {
		/* (tmux's own doing, maybe: pane-hup.c) */
		if (sig != SIGHUP || !pane_hup(p, 0, status, sig))
			pane_set_dead(p, 1, status, sig, "pidfd");
	} else {
		/*
		 * Reaped already: tmux knows whether the pane died or was
		 * respawned (-k kills the old process); without
		 * subscriptions (< 3.7) nobody else would tell us. Asked
		 * as for a SIGHUP: kill-server's ends look like this too.
		 */
		log_debug("pane %%%d: pid %ld exited, already reaped", p->id,
		    (long)p->pidfd_pid);
		held = pane_hup(p, 0, -1, -1);
		pane_unwatch(p);
		if (!held)
			pane_respawned(p->id);
		return;
	}
	pane_unwatch(p);
}

static void
pane_watch(struct pane *p)
{
	if (!lisad.use_pidfd || p->dead || p->pid <= 0 ||
	    p->pidfd_pid == p->pid)
		return;
	pane_unwatch(p);
	if ((p->pidfd = proc_pidfd(p->pid)) == -1)
		return;
	p->pidfd_pid = p->pid;
	p->pidfd_ev = loop_add(p->pidfd, POLLIN, pane_pidfd_cb, p);
}

static void
pane_free(struct pane *p, const char *why, int unseen)
{
	struct session	*s;

	/*
	 * why NULL: the helper let it go (lisa stop, the session ignored).
	 * unseen: its session's client went, which says nothing of the pane
	 * to its resume record (tmux's list of panes will).
	 */
	/* (tmux listed it gone, its server alive: its end is still news) */
	if (why != NULL && !unseen)
		watch_final(p);
	log_debug("pane %%%d %s%s", p->id, why != NULL ? why : "let go",
	    unseen ? " (no longer seen)" : "");
	pane_hup_free(p, why != NULL);
	if (why != NULL)
		events_add(why, p->id, "%s",
		    p->command != NULL ? p->command : "");
	if (why != NULL && !unseen)
		resume_record_gone(p->id);
	publish_forget(p);
	listener_pane_gone(p->id);
	RB_FOREACH(s, sessions, &sessions) {
		if (s->ctl != NULL)
			ctl_client_cancel_arg(s->ctl, p);
	}
	if (p->tap != NULL)
		listener_tap_end(p->tap);
	pane_mute_free(p);
	pane_unwatch(p);
	watch_free(p);
	RB_REMOVE(panes, &panes, p);
	free(p->sessions);
	free(p->window_name);
	free(p->command);
	free(p->title);
	free(p);
}

/* Session sid no longer shows p; drop p when no session does. */
static void
pane_remove_session(struct pane *p, int sid, const char *why, int unseen)
{
	int	i;

	for (i = 0; i < p->nsessions; i++) {
		if (p->sessions[i] == sid) {
			memmove(p->sessions + i, p->sessions + i + 1,
			    (size_t)(p->nsessions - i - 1) *
			    sizeof *p->sessions);
			p->nsessions--;
			break;
		}
	}
	if (p->out_session == sid)
		p->out_session = -1;
	if (p->nsessions == 0)
		pane_free(p, why, unseen);
}

static void
pane_set_str(char **field, const char *value)
{
	if (*field != NULL && strcmp(*field, value) == 0)
		return;
	free(*field);
	*field = xstrdup(value);
}

static int
pane_num(const char *s)
{
	char	*end;
	long	 v;

	if (*s == '\0')
		return (-1);
	v = strtol(s, &end, 10);
	return (*end == '\0' && v >= 0 && v < 0x7fffffff ? (int)v : -1);
}

void
pane_set_dead(struct pane *p, int dead, int status, int sig, const char *via)
{
	if (!dead) {
		if (p->dead)
			log_debug("pane %%%d alive again (respawned)", p->id);
		p->dead = 0;
		p->dead_status = p->dead_signal = -1;
		return;
	}
	/* A later source may only add what an earlier one lacked. */
	if (p->dead && (p->dead_status != -1 || p->dead_signal != -1))
		return;
	/* tmux says dead but has no status: maybe it has not reaped yet. */
	if (status == -1 && sig == -1 && p->pid > 0 &&
	    proc_exit_status(p->pid, &status, &sig) == 0)
		via = "proc";
	/* A lisa run's wrapper left as its agent did, and wrote it down. */
	if (status == -1 && sig == -1 &&
	    runs_pane_exit(p->id, &status, &sig) == 0)
		via = "run";
	if (p->dead && status == -1 && sig == -1)
		return;
	log_debug("pane %%%d dead: status %d signal %d via %s", p->id, status,
	    sig, via);
	p->dead = 1;
	p->dead_status = status;
	p->dead_signal = sig;
	p->dead_time = time_real_ms();
	if (status != -1 || sig != -1)
		pane_unwatch(p);
	watch_changed(p);
	if (sig != -1)
		events_add("died", p->id, "signal %d via %s", sig, via);
	else if (status != -1)
		events_add("died", p->id, "exit %d via %s", status, via);
	else
		events_add("died", p->id, "unknown status via %s", via);
}

/* One line of list-panes output; returns the pane or NULL. */
static struct pane *
pane_update_line(struct session *s, char *line)
{
	char		*f[PANE_LIST_FIELDS], *agent;
	struct pane	*wp;
	int		 id, fresh = 0;

	if (session_reply_fields(line, f, PANE_LIST_FIELDS) != 0)
		return (NULL);
	if (f[0][0] != '%' || (id = pane_num(f[0] + 1)) == -1 ||
	    f[1][0] != '@')
		return (NULL);
	if ((wp = pane_find(id)) == NULL) {
		wp = xcalloc(1, sizeof *wp);
		wp->id = id;
		wp->out_session = -1;
		wp->dead_status = wp->dead_signal = -1;
		wp->pidfd = -1;
		watch_new(wp);
		RB_INSERT(panes, &panes, wp);
		fresh = 1;
		log_debug("pane %%%d new in $%d", id, s->id);
	}
	wp->window = pane_num(f[1] + 1);
	pane_add_session(wp, s->id);
	if (wp->sessions[0] == s->id) {
		wp->window_index = pane_num(f[3]);
		pane_set_str(&wp->window_name, f[10]);
	}
	wp->pane_index = pane_num(f[4]);
	/* (another process in a live pane: respawn-pane -k) */
	if (!fresh && !wp->dead && strcmp(f[6], "1") != 0)
		pane_replaced(wp, wp->pid, pane_num(f[5]));
	wp->pid = pane_num(f[5]);
	pane_set_str(&wp->command, f[9]);
	pane_set_str(&wp->title, f[12]);
	pane_set_dead(wp, strcmp(f[6], "1") == 0, pane_num(f[7]),
	    pane_num(f[8]), "list");
	pane_drain_check(wp, strcmp(f[6], "1") == 0);
	agent = f[11];
	if (*agent == '=')
		agent++;
	if (fresh) {
		ended_pane_new(wp);
		/*
		 * No per-field option: no helper before us wrote them, so
		 * there is nothing to unset (each unset is a line of the
		 * user's message log). Its @lisa: one that no composition
		 * equals, so that the first is written, or unset.
		 */
		if (agent == f[11])
			wp->watch->pub_known = 1;
		if (*agent == '+')
			wp->watch->pub_lisa = xstrdup("?");
	}
	if (*agent == '+')
		agent++;
	if (wp->dead && *agent != '\0' && !wp->watch->held)
		watch_adopt(wp, agent);
	pane_watch(wp);
	watch_changed(wp);
	return (wp);
}

static void
pane_list_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct session	*s = arg;
	struct pane	*p, *p1;
	char		*copy, *line, *rest;
	struct buf	 seen;
	int		 i, n, found;

	s->listing = 0;
	if (!ok) {
		log_warnx("list-panes for $%d failed: %.*s", s->id, (int)len,
		    body);
		return;
	}
	buf_init(&seen);
	copy = rest = xstrndup(body, len);
	while ((line = strsep(&rest, "\n")) != NULL) {
		if ((p = pane_update_line(s, line)) != NULL)
			buf_add(&seen, &p->id, sizeof p->id);
	}
	free(copy);
	/* Panes this session showed but no longer lists have left it. */
	n = (int)(seen.len / sizeof(int));
	RB_FOREACH_SAFE(p, panes, &panes, p1) {
		if (!pane_has_session(p, s->id))
			continue;
		found = 0;
		for (i = 0; i < n && !found; i++)
			found = ((int *)seen.data)[i] == p->id;
		if (!found)
			pane_remove_session(p, s->id, "closed", 0);
	}
	buf_free(&seen);
	pane_early_listed(s);
	if (s->list_again) {
		s->list_again = 0;
		pane_list_session(s);
	}
}

/* (Re)list every pane of a session; bursts collapse into one request. */
void
pane_list_session(struct session *s)
{
	struct buf	b;

	if (s->listing) {
		s->list_again = 1;
		return;
	}
	buf_init(&b);
	buf_printf(&b, "list-panes -s -t '$%d' -F ", s->id);
	ctl_quote_str(&b, PANE_LIST_FORMAT);
	s->listing = session_send(s, b.data, pane_list_cb, s) == 0;
	buf_free(&b);
}

/* %layout-change: drop panes the window no longer has, learn new ones. */
void
pane_layout(struct session *s, int window, const char *layout)
{
	struct pane	*p, *p1;
	int		 ids[256], n, i, found, changed = 0;

	n = ctl_layout_panes(layout, ids, 256);
	if (n < 0 || n > 256) {
		log_warnx("layout of @%d not understood: %.80s", window,
		    layout);
		pane_list_session(s);
		return;
	}
	RB_FOREACH_SAFE(p, panes, &panes, p1) {
		if (p->window != window)
			continue;
		found = 0;
		for (i = 0; i < n && !found; i++)
			found = (ids[i] == p->id);
		if (!found) {
			/* The window is shared: gone from every session. */
			pane_free(p, "closed", 0);
			changed = 1;
		}
	}
	for (i = 0; i < n; i++) {
		if ((p = pane_find(ids[i])) == NULL || p->window != window)
			changed = 1;
	}
	if (changed)
		pane_list_session(s);
}

void
pane_window_unlinked(struct session *s, int window)
{
	struct pane	*p, *p1;

	RB_FOREACH_SAFE(p, panes, &panes, p1) {
		if (p->window == window)
			pane_remove_session(p, s->id, "closed", 0);
	}
}

void
pane_window_renamed(int window, const char *name)
{
	struct pane	*p;

	RB_FOREACH(p, panes, &panes) {
		if (p->window == window) {
			pane_set_str(&p->window_name, name);
			resume_record_check(p);
		}
	}
}

/* A session renamed: the records of the agents it shows follow. */
void
pane_session_renamed(int sid)
{
	struct pane	*p;
	int		 i;

	RB_FOREACH(p, panes, &panes) {
		for (i = 0; i < p->nsessions; i++) {
			if (p->sessions[i] == sid) {
				resume_record_check(p);
				break;
			}
		}
	}
}

void
pane_session_gone(int sid, int closed)
{
	struct pane	*p, *p1;

	RB_FOREACH_SAFE(p, panes, &panes, p1)
		pane_remove_session(p, sid, closed ? "closed" : NULL, 1);
	pane_early_session_gone(sid);
}

/* The hot path: every %output of every watched pane lands here. */
void
pane_output(struct session *s, int id, const char *data, size_t len,
    uint64_t age)
{
	struct pane	*p;
	size_t		 n;

	if ((p = pane_find(id)) == NULL) {
		/* Not listed yet: its list reply is coming. */
		pane_early_hold(s, id, data, len, age);
		return;
	}
	if (p->out_session != s->id) {
		if (p->out_session != -1)
			return;	/* linked window: another session counts it */
		p->out_session = s->id;
	}
	/*
	 * A dead pane that writes was respawned: without subscriptions
	 * (tmux < 3.7) this is how we hear of it. Listed again, once.
	 */
	if (p->dead && !s->listing)
		pane_list_session(s);
	/*
	 * Our own notification's bell coming back (notify.c wrote it to the
	 * pane's tty) is not the agent's output, nor a sign of life: counted,
	 * it ended the very stuck verdict it announced.
	 */
	if (len == 1 && *data == '\a' && p->watch != NULL &&
	    p->watch->bell_ours_at != 0 &&
	    time_mono_ms() - p->watch->bell_ours_at < 2000) {
		p->watch->bell_ours_at = 0;
		return;
	}
	p->out_bytes += len;
	p->out_last = time_mono_ms();
	/* Output rate over windows of a second or more. */
	if (p->rate_start == 0)
		p->rate_start = p->out_last;
	p->rate_bytes += len;
	if (p->out_last - p->rate_start >= 1000) {
		p->rate = p->rate_bytes * 1000.0 /
		    (double)(p->out_last - p->rate_start);
		p->rate_start = p->out_last;
		p->rate_bytes = 0;
	}
	pane_mute_check(p, len);
	watch_output(p, data, len);
	pane_mute_stream(p, len);
	if (p->tap != NULL) {
		n = len < p->tap_left ? len : (size_t)p->tap_left;
		if (listener_tap_write(p->tap, data, n) != 0 ||
		    (p->tap_left -= n) == 0)
			listener_tap_end(p->tap);
	}
}

static void
pane_capture_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct pane	*p = arg;
	uint64_t	 asked = p->watch != NULL ? p->watch->resync_asked : 0;

	if (p->watch != NULL)
		p->watch->resync_asked = 0;
	if (!ok || p->watch == NULL)
		return;
	watch_output_dropped(p);
	watch_screen(p, body, len, asked);
	log_debug("pane %%%d resynced (%zu bytes of screen)", p->id, len);
}

/*
 * We fell pause-after seconds behind and tmux dropped the backlog: resume
 * the pane and take its screen, so what we know starts from the present.
 */
void
pane_pause(struct session *s, int id)
{
	struct pane	*p;
	char		 cmd[128];

	p = pane_find(id);
	if (p != NULL && p->muted)
		return;		/* we paused it: a flood (pane-mute.c) */
	snprintf(cmd, sizeof cmd, "refresh-client -A '%%%d:continue'", id);
	session_send(s, cmd, NULL, NULL);
	if (p == NULL)
		return;
	/* Paused before any output reached us: this client has the pane. */
	if (p->out_session == -1)
		p->out_session = s->id;
	if (p->out_session != s->id)
		return;
	p->resyncs++;
	events_add("resync", id, "output paused by tmux, screen re-read");
	pane_resync(p);
}

/* Read the pane's screen again, through the client that has its output. */
void
pane_resync(struct pane *p)
{
	struct session	*s;
	char		 cmd[128];

	if (p->out_session == -1 && p->nsessions == 0)
		return;
	if ((s = session_find(p->out_session != -1 ? p->out_session :
	    p->sessions[0])) == NULL || !s->attached || s->closing)
		return;
	snprintf(cmd, sizeof cmd, "capture-pane -p -J -t '%%%d'", p->id);
	/* With several asked, the first one's time: the oldest it may be. */
	if (session_send_screen(s, cmd, pane_capture_cb, p) == 0 &&
	    p->watch != NULL && p->watch->resync_asked == 0)
		p->watch->resync_asked = time_mono_ms();
}

/*
 * Its process is a zombie that tmux has not reaped (watch-proc.c), or it
 * died with no status and its run has just ended (run-watch.c): dead, with
 * what the other sources say of its exit.
 */
void
pane_exit_look(struct pane *p)
{
	pane_set_dead(p, 1, -1, -1, "proc");
}

/*
 * From the pane-died hook: the fastest word of a death (remain-on-exit).
 * It runs as a shell command and can come after the pane was respawned
 * and listed alive again: the dead process's pid tells (-1 from a hook
 * an older helper set).
 */
void
pane_died(int id, int status, int sig, int pid)
{
	struct pane	*p;

	if ((p = pane_find(id)) == NULL) {
		log_debug("pane-died for unknown pane %%%d", id);
		return;
	}
	if (pid > 0 && p->pid > 0 && pid != p->pid) {
		log_debug("pane %%%d: pane-died of pid %d, its pid is %ld now "
		    "(respawned): stale", id, pid, (long)p->pid);
		return;
	}
	pane_set_dead(p, 1, status, sig, "hook");
}

/* A pane respawned (lisa retry says so): list it again. */
void
pane_respawned(int id)
{
	struct pane	*p;
	struct session	*s;

	if ((p = pane_find(id)) != NULL && (s = pane_session(p)) != NULL) {
		pane_drain_respawned(p);
		pane_list_session(s);
	}
}

/*
 * %subscription-changed lisa $S @W idx %P : dead,status,signal,pid,cmd,title
 * (pid: respawn-pane keeps the pane and changes the process).
 */
void
pane_subscription(struct session *s, struct ctl_event *ev)
{
	struct pane	*p;
	char		*f[6], *copy, *cur;
	int		 i, pid, changed = 0;

	if (ev->name == NULL || strcmp(ev->name, "lisa") != 0 || ev->pane < 0)
		return;
	if ((p = pane_find(ev->pane)) == NULL) {
		pane_list_session(s);
		return;
	}
	copy = cur = xstrndup(ev->text, ev->textlen);
	for (i = 0; i < 5; i++) {
		f[i] = cur;
		if ((cur = strchr(cur, PANE_FIELD_SEP)) == NULL) {
			free(copy);
			return;
		}
		*cur++ = '\0';
	}
	f[5] = cur;
	if ((pid = pane_num(f[3])) > 0 && pid != p->pid) {
		log_debug("pane %%%d: pid %ld -> %d", p->id, (long)p->pid, pid);
		if (!p->dead && strcmp(f[0], "1") != 0)
			pane_replaced(p, p->pid, pid);
		p->pid = pid;
		changed = 1;
	}
	pane_set_dead(p, strcmp(f[0], "1") == 0, pane_num(f[1]),
	    pane_num(f[2]), "subscription");
	pane_watch(p);
	if (strcmp(p->command != NULL ? p->command : "", f[4]) != 0) {
		log_debug("pane %%%d: command %s -> %s", p->id,
		    p->command != NULL ? p->command : "", f[4]);
		changed = 1;
	}
	/*
	 * Another process in front: a look at the processes from before this
	 * word (generic: a ps snapshot kept a moment) may still show the
	 * agent that has just ended.
	 */
	if (changed)
		proc_forget();
	if (changed ||
	    strcmp(p->title != NULL ? p->title : "", f[5]) != 0) {
		pane_set_str(&p->command, f[4]);
		pane_set_str(&p->title, f[5]);
		watch_changed(p);
	}
	free(copy);
}

void
pane_json(struct buf *b, struct pane *p)
{
	struct session	*s = p->nsessions > 0 ? session_find(p->sessions[0]) :
			    NULL;
	const char	*sname = s != NULL ? s->name : "";
	char		 tmp[64];
	char		*target;

	buf_addc(b, '{');
	snprintf(tmp, sizeof tmp, "%%%d", p->id);
	json_key(b, "pane_id");
	json_cstr(b, tmp);
	json_key(b, "host");
	buf_adds(b, "null");
	json_key(b, "session");
	json_cstr(b, sname);
	json_key(b, "session_id");
	snprintf(tmp, sizeof tmp, "$%d", s != NULL ? s->id : -1);
	json_cstr(b, tmp);
	json_key(b, "window");
	buf_printf(b, "%d", p->window_index);
	json_key(b, "window_id");
	snprintf(tmp, sizeof tmp, "@%d", p->window);
	json_cstr(b, tmp);
	json_key(b, "window_name");
	json_cstr(b, p->window_name != NULL ? p->window_name : "");
	json_key(b, "pane_index");
	buf_printf(b, "%d", p->pane_index);
	act_incarnation(p, tmp, sizeof tmp);
	json_key(b, "incarnation");
	json_cstr(b, tmp);
	/* The agent's own conversation id (lisa resume: not twice). */
	json_key(b, "agent_session");
	json_cstr(b, p->watch->agent_alive && *resume_agent_id(p->watch, tmp,
	    sizeof tmp) != '\0' ? tmp : NULL);
	xasprintf(&target, "%s:%d.%d", sname, p->window_index, p->pane_index);
	json_key(b, "target");
	json_cstr(b, target);
	free(target);
	json_key(b, "pane_pid");
	json_int_or_null(b, p->pid > 0, p->pid);
	json_key(b, "command");
	json_cstr(b, p->command != NULL ? p->command : "");
	json_key(b, "title");
	json_cstr(b, p->title != NULL ? p->title : "");
	json_key(b, "dead");
	buf_adds(b, p->dead ? "true" : "false");
	json_key(b, "exit_status");
	json_int_or_null(b, p->dead && p->dead_status != -1, p->dead_status);
	/* The pane's death signal, else the agent's if it died alone. */
	json_key(b, "exit_signal");
	if (p->dead)
		json_int_or_null(b, p->dead_signal != -1, p->dead_signal);
	else
		json_int_or_null(b, p->watch->agent_seen &&
		    !p->watch->agent_alive && p->watch->agent_exit_signal >= 0,
		    p->watch->agent_exit_signal);
	json_key(b, "output_bytes");
	buf_printf(b, "%llu", (unsigned long long)p->out_bytes);
	json_key(b, "output_idle_ms");
	json_int_or_null(b, p->out_last != 0,
	    (long long)(time_mono_ms() - p->out_last));
	json_key(b, "muted");
	buf_adds(b, p->muted ? "true" : "false");
	json_key(b, "tapped");	/* a `lisa tap` reads its output */
	buf_adds(b, p->tap != NULL ? "true" : "false");
	json_key(b, "mutes");
	buf_printf(b, "%llu", (unsigned long long)p->mutes);
	json_key(b, "stream_mutes");
	buf_printf(b, "%llu", (unsigned long long)p->stream_mutes);
	json_key(b, "stream_slowed");
	buf_printf(b, "%llu", (unsigned long long)p->stream_slowed);
	json_key(b, "stream_kept");
	buf_printf(b, "%llu", (unsigned long long)p->stream_kept);
	json_key(b, "resyncs");
	buf_printf(b, "%llu", (unsigned long long)p->resyncs);
	watch_json(b, p);
	runs_pane_json(b, p->id);
	termination_json(b, p);
	buf_addc(b, '}');
}

void
pane_tap_closed(struct listener_conn *lc)
{
	struct pane	*p;

	RB_FOREACH(p, panes, &panes) {
		if (p->tap == lc)
			p->tap = NULL;
	}
}
