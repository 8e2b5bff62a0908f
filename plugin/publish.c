/*
 * Writing the verdicts into tmux as user options, so that formats (status
 * line, window list, pane borders) show them with nothing run on redraw:
 * per pane @lisa_agent, @lisa_state, @lisa_detail, @lisa_reason,
 * @lisa_since; per window @lisa_window_state and per session
 * @lisa_session_state (the worst of their panes). Every set-option redraws
 * every client, so only values that changed are sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lisad.h"
#include "agent.h"

/* Worst first: what a human most needs to see. */
static const enum cls_state publish_order[] = {
	ST_CRASHED, ST_WAITING_INPUT, ST_STUCK, ST_DEGRADED, ST_IN_PROGRESS,
	ST_JUST_STARTED, ST_COMPLETED
};

struct rollup {
	char			 kind;	/* 'w' or 's' */
	int			 id;
	enum cls_state		 state;
	TAILQ_ENTRY(rollup)	 entry;
};
static TAILQ_HEAD(, rollup) rollups = TAILQ_HEAD_INITIALIZER(rollups);

/* The session whose client speaks for this pane. */
struct session *
pane_session(struct pane *p)
{
	struct session	*s;
	int		 i;

	for (i = 0; i < p->nsessions; i++) {
		s = session_find(p->sessions[i]);
		if (s != NULL && s->attached && !s->closing)
			return (s);
	}
	return (NULL);
}

static int
publish_rank(enum cls_state st)
{
	size_t	i;

	for (i = 0; i < sizeof publish_order / sizeof publish_order[0]; i++) {
		if (publish_order[i] == st)
			return ((int)i);
	}
	return (100);
}

void
rfc3339(int64_t ms, char *out, size_t len)
{
	time_t		t = (time_t)(ms / 1000);
	struct tm	tm;
	char		tmp[32];

	gmtime_r(&t, &tm);
	strftime(tmp, sizeof tmp, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, len, "%s.%03dZ", tmp, (int)(ms % 1000));
}

/* set (or unset, value NULL) one user option on a target. */
static void
publish_set(struct session *s, const char *scope, const char *target,
    const char *name, const char *value)
{
	struct buf	b;

	buf_init(&b);
	if (value == NULL)
		buf_printf(&b, "set-option -q%su -t '%s' %s", scope, target,
		    name);
	else {
		buf_printf(&b, "set-option -q%s -t '%s' %s ", scope, target,
		    name);
		ctl_quote_str(&b, value);
	}
	session_send(s, b.data, NULL, NULL);
	buf_free(&b);
}

static void
publish_rollup(struct session *s, char kind, int id, const char *target,
    const char *name, enum cls_state st)
{
	struct rollup	*r;

	TAILQ_FOREACH(r, &rollups, entry) {
		if (r->kind == kind && r->id == id)
			break;
	}
	if (r == NULL) {
		if (st == ST_NONE)
			return;
		r = xcalloc(1, sizeof *r);
		r->kind = kind;
		r->id = id;
		TAILQ_INSERT_TAIL(&rollups, r, entry);
	} else if (r->state == st)
		return;
	r->state = st;
	publish_set(s, kind == 'w' ? "w" : "", target, name,
	    st == ST_NONE ? NULL : cls_state_name(st));
}

/* The worst state among panes of a window (kind 'w') or session ('s'). */
static enum cls_state
publish_worst(char kind, int id)
{
	struct pane	*p;
	enum cls_state	 worst = ST_NONE;
	int		 i, in;

	RB_FOREACH(p, panes, &panes) {
		if (p->watch == NULL || !p->watch->classified ||
		    p->watch->res.state == ST_NONE)
			continue;
		in = 0;
		if (kind == 'w')
			in = p->window == id;
		else {
			for (i = 0; i < p->nsessions; i++)
				in |= p->sessions[i] == id;
		}
		if (in && (worst == ST_NONE || publish_rank(p->watch->res.state)
		    < publish_rank(worst)))
			worst = p->watch->res.state;
	}
	return (worst);
}

static void
publish_rollups(struct pane *p)
{
	struct session	*s;
	char		 target[32];
	int		 i;

	if ((s = pane_session(p)) != NULL) {
		snprintf(target, sizeof target, "@%d", p->window);
		publish_rollup(s, 'w', p->window, target, "@lisa_window_state",
		    publish_worst('w', p->window));
	}
	for (i = 0; i < p->nsessions; i++) {
		if ((s = session_find(p->sessions[i])) == NULL ||
		    !s->attached || s->closing)
			continue;
		snprintf(target, sizeof target, "$%d", s->id);
		publish_rollup(s, 's', s->id, target, "@lisa_session_state",
		    publish_worst('s', s->id));
	}
}

void
publish_pane(struct pane *p)
{
	static const char	*names[5] = { "@lisa_agent", "@lisa_state",
				    "@lisa_detail", "@lisa_reason",
				    "@lisa_since" };
	struct watch		*w = p->watch;
	struct session		*s;
	const char		*values[5];
	char			 target[32], since[40];
	int			 i, agent;

	if ((s = pane_session(p)) == NULL)
		return;
	agent = w->res.state != ST_NONE;
	rfc3339(w->since, since, sizeof since);
	values[0] = agent && w->agent != NULL ? w->agent->name : NULL;
	values[1] = agent ? cls_state_name(w->res.state) : NULL;
	values[2] = agent ? w->res.detail : NULL;
	values[3] = agent ? w->res.reason : NULL;
	values[4] = agent ? since : NULL;
	snprintf(target, sizeof target, "%%%d", p->id);
	for (i = 0; i < 5; i++) {
		if (values[i] == NULL && w->pub[i] == NULL)
			continue;
		if (values[i] != NULL && w->pub[i] != NULL &&
		    strcmp(values[i], w->pub[i]) == 0)
			continue;
		publish_set(s, "p", target, names[i], values[i]);
		free(w->pub[i]);
		w->pub[i] = values[i] != NULL ? xstrdup(values[i]) : NULL;
	}
	publish_rollups(p);
}

/* The pane is gone: its window's and sessions' roll-ups may change. */
void
publish_forget(struct pane *p)
{
	if (p->watch != NULL && p->watch->classified) {
		p->watch->res.state = ST_NONE;
		publish_rollups(p);
	}
}

static void
publish_keep_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct pane	*p = arg;
	struct session	*s;
	char		 target[32];

	/* Only where the user has not chosen: off is tmux's default. */
	if (!ok || len != 3 || memcmp(body, "off", 3) != 0)
		return;
	if ((s = pane_session(p)) == NULL)
		return;
	snprintf(target, sizeof target, "%%%d", p->id);
	publish_set(s, "p", target, "remain-on-exit", "failed");
	log_debug("pane %%%d: remain-on-exit failed", p->id);
}

/*
 * An agent pane keeps its corpse when the agent fails, so the crash stays
 * on screen with its status (@lisa-keep-failed). Not on 3.2/3.2a, where
 * remain-on-exit with a control client can crash the server.
 */
void
publish_keep_failed(struct pane *p)
{
	struct session	*s;
	char		 cmd[96];

	if (!lisad.keep_failed || !lisad.dead_hook || p->watch->kept ||
	    (s = pane_session(p)) == NULL)
		return;
	p->watch->kept = 1;
	snprintf(cmd, sizeof cmd,
	    "display-message -p -t '%%%d' '#{remain-on-exit}'", p->id);
	session_send(s, cmd, publish_keep_cb, p);
}
