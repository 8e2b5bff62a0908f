/*
 * Writing the verdicts into tmux as user options, so that formats (status
 * line, window list, pane borders) show them with nothing run on redraw.
 * tmux logs every command a client sends (show-messages), so a transition
 * is one command: the pane's @lisa, its border composed with its rank
 * hidden in it (ui-compose.c), from which formats derive the badges, the
 * counts and the places that wait. The fleet's agents are one global,
 * @lisa_remote ("LETTERS|PLACES|HOSTS"), changed by a remote transition;
 * past UI_LOOP_MAX panes @lisa_summary too (every agent's letter and the
 * places), once a batch, so that no redraw loops over hundreds of panes.
 *
 * With @lisa-fields on (or a border format of the user's, which reads
 * them), the per-field options of earlier versions are written as well:
 *
 *   per pane	 @lisa_agent @lisa_state @lisa_detail
 *		 @lisa_since (Unix seconds, as tmux's own times)
 *		 @lisa_watchdog (the watchdog's level, when it has one)
 *		 @lisa_context (percent of its context window in use, when
 *		 the agent records it)
 *		 @lisa_asks (what its dialog asks, short: "touch x")
 *   per window	 @lisa_window_state, per session @lisa_session_state
 *		 (the worst state of their agent panes)
 *   global	 @lisa_count_<group> (unset when none), @lisa_agents,
 *		 @lisa_waiting ("session:window ... %N@HOST ...": the
 *		 places that need the human, agents that ask first),
 *		 @lisa_hosts (fleet.c's summary, when @lisa-hosts is set)
 *
 * The reason behind a verdict is not among them: it changes while what a
 * user sees does not, and tmux logs every command lisa sends in the user's
 * message log (show-messages); lisa status, explain and the details popup
 * have it.
 *
 * Every set-option redraws every client, so changes are coalesced: at most
 * one batch per PUBLISH_GAP, and only values that differ from what tmux
 * has are sent. The first change after a quiet PUBLISH_GAP goes out at the
 * end of the loop turn that made it (with whatever else that turn
 * changed): a death is shown in milliseconds. What follows within the gap
 * waits for the gap's end and goes out as one batch. A batch is one write;
 * tmux runs it in one pass and redraws once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lisad.h"
#include "fleet.h"
#include "watch.h"
#include "tell.h"

#define PUBLISH_GAP	200	/* ms at least between batches */

static const char *publish_fields[PUBLISH_NFIELDS] = {
	"@lisa_agent", "@lisa_state", "@lisa_detail", "@lisa_since",
	"@lisa_watchdog", "@lisa_context", "@lisa_asks"
};
#define PUBLISH_ASKS_MAX 40	/* characters of a question on a border */
/* What an earlier lisa wrote too: unset where an earlier helper was. */
#define PUBLISH_LEGACY "@lisa_reason"


enum border_state { BORDER_NONE, BORDER_ASKING, BORDER_OURS, BORDER_USERS };

struct rollup {
	char			 kind;	/* 'w' or 's' */
	int			 id;
	int			 state;	/* as tmux has it: ui_state_rank, -1 */
	int			 want;
	int			 exists;
	struct session		*via;	/* a client that sees it */
	enum border_state	 border;
	TAILQ_ENTRY(rollup)	 entry;
};
static TAILQ_HEAD(, rollup) rollups = TAILQ_HEAD_INITIALIZER(rollups);

#define PUBLISH_NGLOBALS (UI_NGROUPS + 3)
static char			*publish_globals[PUBLISH_NGLOBALS];
static char			*publish_remote;	/* @lisa_remote */
static char			*publish_summary_v;	/* @lisa_summary */
static struct loop_timer	 publish_timer;
static int			 publish_armed;
static uint64_t			 publish_last;
struct publish_stats		 publish_stats;

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

/* set (or unset, value NULL) one option: scope "p", "w", "" or "g". */
static void
publish_set(struct session *s, const char *scope, const char *target,
    const char *name, const char *value)
{
	struct buf	b;

	buf_init(&b);
	buf_printf(&b, "set-option -q%s%s", scope, value == NULL ? "u" : "");
	if (target != NULL)
		buf_printf(&b, " -t '%s'", target);
	buf_printf(&b, " %s", name);
	if (value != NULL) {
		buf_addc(&b, ' ');
		ctl_quote_str(&b, value);
	}
	if (session_send(s, b.data, NULL, NULL) == 0)
		publish_stats.commands++;
	buf_free(&b);
}

/* Does a value differ from what tmux has? Then remember it. */
static int
publish_changed(char **have, const char *value)
{
	if (*have == NULL && value == NULL)
		return (0);
	if (*have != NULL && value != NULL && strcmp(*have, value) == 0)
		return (0);
	free(*have);
	*have = value != NULL ? xstrdup(value) : NULL;
	return (1);
}

/*
 * What a waiting agent's dialog asks, for its border: the command, file or
 * URL of a permission, else the question; cut. NULL if none. (A border's
 * format is strftime-expanded before its #{}: a '%' here stays one.)
 */
static char *
publish_asks(struct watch *w)
{
	const struct question	*q = &w->question;
	const char		*s;
	struct buf		 b;
	size_t			 chars = 0;

	if (!w->question_ok || w->res.state != ST_WAITING_INPUT)
		return (NULL);
	s = q->subject != NULL && *q->subject != '\0' ? q->subject : q->text;
	if (*s == '\0')
		return (NULL);
	buf_init(&b);
	for (; *s != '\0'; s++) {
		if (*s == '\n') {	/* its first line: the rest, "…" */
			buf_adds(&b, "\xe2\x80\xa6");
			break;
		}
		if (((unsigned char)*s & 0xc0) != 0x80 &&
		    ++chars > PUBLISH_ASKS_MAX) {
			buf_adds(&b, "\xe2\x80\xa6");
			break;
		}
		buf_addc(&b, *s);
	}
	return (buf_detach(&b));
}

/* The per-field options: with @lisa-fields, or a border that reads them. */
static int
publish_fields_on(void)
{
	const struct ui_config	*cfg = ui_config();

	return (cfg->fields || cfg->border != NULL);
}

/* A pane's @lisa: its agent's, or the rank of a remote agent it shows. */
static char *
publish_lisa(struct watch *w, int agent, int pct, const char *asks)
{
	const struct ui_config	*cfg = ui_config();
	struct ui_pane		 f;
	struct buf		 b;

	memset(&f, 0, sizeof f);
	f.context = -1;
	if (agent) {
		f.rank = ui_state_rank(w->res.state, w->res.detail);
		f.group = ui_group_of_verdict(w->res.state, w->res.detail);
		f.agent = w->agent != NULL ? w->agent->name : "";
		f.state = cls_state_name(w->res.state);
		f.word = ui_state_word(w->res.state);
		f.detail = w->res.detail;
		f.asks = asks;
		f.watchdog = w->wd_label;
		f.since = (long long)(w->since / 1000);
		f.context = pct;
		if (f.rank == -1)
			return (NULL);
	} else if (w->pub_jump != -1)
		f.rank = w->pub_jump;
	else
		return (NULL);
	buf_init(&b);
	uiformat_pane(&b, cfg, &f, cfg->border == NULL);
	return (buf_detach(&b));
}

static void
publish_pane_fields(struct pane *p)
{
	struct watch	*w = p->watch;
	struct session	*s;
	const char	*values[PUBLISH_NFIELDS];
	char		 target[32], since[32], context[16], *asks, *lisa;
	int		 i, agent, pct, fields = publish_fields_on();

	if ((s = pane_session(p)) == NULL)
		return;
	w->pub_dirty = 0;
	agent = w->classified && w->res.state != ST_NONE;
	snprintf(since, sizeof since, "%lld", (long long)(w->since / 1000));
	pct = agent ? usage_percent(&w->usage) : -1;
	asks = agent ? publish_asks(w) : NULL;
	lisa = publish_lisa(w, agent, pct, asks);
	snprintf(target, sizeof target, "%%%d", p->id);
	if (publish_changed(&w->pub_lisa, lisa))
		publish_set(s, "p", target, "@lisa", lisa);
	free(lisa);
	if (!fields)
		agent = 0;
	values[0] = agent && w->agent != NULL ? w->agent->name : NULL;
	values[1] = agent ? cls_state_name(w->res.state) : NULL;
	values[2] = agent && *w->res.detail != '\0' ? w->res.detail : NULL;
	values[3] = agent ? since : NULL;
	values[4] = agent ? w->wd_label : NULL;
	snprintf(context, sizeof context, "%d", pct);
	values[5] = agent && pct >= 0 ? context : NULL;
	values[6] = agent ? asks : NULL;
	if (!w->pub_known)
		publish_set(s, "p", target, PUBLISH_LEGACY, NULL);
	for (i = 0; i < PUBLISH_NFIELDS; i++) {
		/* The first time, unset what an earlier helper may have left. */
		if (!publish_changed(&w->pub[i], values[i]) &&
		    (w->pub_known || values[i] != NULL))
			continue;
		publish_set(s, "p", target, publish_fields[i], values[i]);
	}
	w->pub_known = 1;
	free(asks);
}

static struct rollup *
publish_rollup(char kind, int id)
{
	struct rollup	*r;

	TAILQ_FOREACH(r, &rollups, entry) {
		if (r->kind == kind && r->id == id)
			return (r);
	}
	r = xcalloc(1, sizeof *r);
	r->kind = kind;
	r->id = id;
	r->state = r->want = -1;
	TAILQ_INSERT_TAIL(&rollups, r, entry);
	return (r);
}

static void
publish_fold(char kind, int id, struct session *via, int rank)
{
	struct rollup	*r = publish_rollup(kind, id);

	r->exists = 1;
	if (r->via == NULL)
		r->via = via;
	if (rank != -1 && (r->want == -1 || rank < r->want))
		r->want = rank;
}

static void
publish_border_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct rollup	*r;
	struct session	*s;
	int		 id = (int)(intptr_t)arg;
	char		 target[32];

	TAILQ_FOREACH(r, &rollups, entry) {
		if (r->kind == 'w' && r->id == id)
			break;
	}
	if (r == NULL || r->border != BORDER_ASKING)
		return;
	/* The window has its own setting: the user's, leave it. */
	if (!ok || len != 0) {
		r->border = BORDER_USERS;
		return;
	}
	if ((s = r->via) == NULL || session_find(s->id) != s) {
		r->border = BORDER_NONE;
		return;
	}
	r->border = BORDER_OURS;
	snprintf(target, sizeof target, "@%d", id);
	publish_set(s, "w", target, "pane-border-status", "top");
	log_debug("window @%d: pane-border-status top", id);
}

/* Agent windows get a border line if the user has none (ui_border_auto). */
static void
publish_border(struct rollup *r)
{
	char	 target[32], cmd[96];
	int	 want = ui_border_auto() && r->want != -1;

	snprintf(target, sizeof target, "@%d", r->id);
	if (want && r->border == BORDER_NONE) {
		r->border = BORDER_ASKING;
		snprintf(cmd, sizeof cmd,
		    "show-options -wqv -t '%s' pane-border-status", target);
		if (session_send(r->via, cmd, publish_border_cb,
		    (void *)(intptr_t)r->id) != 0)
			r->border = BORDER_NONE;
	} else if (!want && r->border == BORDER_OURS) {
		r->border = BORDER_NONE;
		publish_set(r->via, "w", target, "pane-border-status", NULL);
	} else if (!want && r->border == BORDER_USERS)
		r->border = BORDER_NONE;
}

static void
publish_rollups(void)
{
	struct rollup	*r, *r1;
	struct pane	*p;
	struct session	*s;
	enum cls_state	 st;
	const char	*detail;
	char		 target[32];
	int		 i, rank, want, local, fields = publish_fields_on();

	TAILQ_FOREACH(r, &rollups, entry) {
		r->want = -1;
		r->exists = 0;
		r->via = NULL;
	}
	RB_FOREACH(p, panes, &panes) {
		st = ST_NONE;
		detail = NULL;
		if (p->watch != NULL && p->watch->classified) {
			st = p->watch->res.state;
			detail = p->watch->res.detail;
		}
		if ((s = pane_session(p)) == NULL)
			continue;
		/* A window that shows a remote agent wears its badge. */
		local = st != ST_NONE;
		if (!local)
			st = fleet_jump_state(p->window, &detail);
		rank = ui_state_rank(st, detail);
		/* (which the badge reads from the pane's @lisa) */
		if (!local && p->watch != NULL && rank != p->watch->pub_jump) {
			p->watch->pub_jump = rank;
			publish_pane_fields(p);
		}
		publish_fold('w', p->window, s, rank);
		for (i = 0; i < p->nsessions; i++) {
			s = session_find(p->sessions[i]);
			if (s != NULL && s->attached && !s->closing)
				publish_fold('s', s->id, s, rank);
		}
	}
	TAILQ_FOREACH_SAFE(r, &rollups, entry, r1) {
		if (!r->exists) {
			/* Gone with its window or session: nothing to unset. */
			TAILQ_REMOVE(&rollups, r, entry);
			free(r);
			continue;
		}
		/* (the badges read the panes' @lisa: only for the fields) */
		want = fields ? r->want : -1;
		if (want != r->state) {
			snprintf(target, sizeof target, "%c%d",
			    r->kind == 'w' ? '@' : '$', r->id);
			publish_set(r->via, r->kind == 'w' ? "w" : "", target,
			    r->kind == 'w' ? "@lisa_window_state" :
			    "@lisa_session_state", ui_state_rank_name(want));
			r->state = want;
		}
		if (r->kind == 'w')
			publish_border(r);
	}
}

void
publish_place_add(struct publish_places *pl, int group, int64_t since,
    const char *where)
{
	struct publish_place	*p;

	if (!ui_group_needs_you(group))
		return;
	pl->list = xreallocarray(pl->list, pl->n + 1, sizeof *pl->list);
	p = &pl->list[pl->n++];
	p->group = group;
	p->since = since;
	strlcpy(p->where, where, sizeof p->where);
}

/*
 * Asks first, then crashed, stuck, your turn (the groups' order); oldest
 * first within each; then by name, for a stable line.
 */
static int
publish_place_cmp(const void *a0, const void *b0)
{
	const struct publish_place	*a = a0, *b = b0;

	if (a->group != b->group)
		return (a->group < b->group ? -1 : 1);
	if (a->since != b->since)
		return (a->since < b->since ? -1 : 1);
	return (strcmp(a->where, b->where));
}

/*
 * @lisa_waiting: the places that need the human, in that order; a window
 * once (two of its panes are one place to go); a few, then "+N" agents.
 */
static char *
publish_waiting(struct publish_places *pl)
{
	struct buf	b;
	size_t		i;
	int		places = 0, more = 0;

	if (pl->n == 0)
		return (NULL);
	qsort(pl->list, pl->n, sizeof *pl->list, publish_place_cmp);
	buf_init(&b);
	for (i = 0; i < pl->n; i++) {
		if (ui_word_in(b.data, b.len, pl->list[i].where))
			continue;
		if (places == PUBLISH_WAITING_MAX) {
			more++;
			continue;
		}
		if (b.len != 0)
			buf_addc(&b, ' ');
		buf_adds(&b, pl->list[i].where);
		places++;
	}
	if (more != 0)
		buf_printf(&b, " +%d", more);
	return (buf_detach(&b));
}

/*
 * Every agent that needs the human, in @lisa_waiting's order, by pane
 * ("%N", "%N@HOST"): what prefix A goes through (cmd-menu.c), without the
 * whole list of agents.
 */
void
publish_needs_json(struct buf *b)
{
	struct pane		*p;
	struct watch		*w;
	struct publish_places	 places = { NULL, 0 };
	char			 where[32];
	int			 counts[UI_NGROUPS] = { 0 }, total = 0, g;
	size_t			 i;

	RB_FOREACH(p, panes, &panes) {
		if ((w = p->watch) == NULL || !w->classified ||
		    (g = ui_group_of_verdict(w->res.state,
		    w->res.detail)) == -1)
			continue;
		snprintf(where, sizeof where, "%%%d", p->id);
		publish_place_add(&places, g, w->since, where);
	}
	fleet_counts(counts, &total, &places);
	qsort(places.list, places.n, sizeof *places.list, publish_place_cmp);
	buf_addc(b, '[');
	for (i = 0; i < places.n; i++) {
		if (i != 0)
			buf_addc(b, ',');
		json_cstr(b, places.list[i].where);
	}
	buf_addc(b, ']');
	free(places.list);
}

/*
 * "LETTERS|PLACES": each agent's rank letter (the formats count them,
 * ui-compose.c), then where agents need the human (@lisa_remote's first
 * two parts, and @lisa_summary).
 */
static void
publish_letters(struct buf *b, const int *counts, struct publish_places *pl)
{
	char	*waiting;
	int	 g, i;

	for (g = 0; g < UI_NGROUPS; g++) {
		for (i = 0; i < counts[g]; i++)
			buf_addc(b, uiformat_rank_letter(ui_group_rank(g)));
	}
	buf_addc(b, '|');
	if ((waiting = publish_waiting(pl)) != NULL)
		buf_adds(b, waiting);
	free(waiting);
}

/* The server-wide summary the status line shows. */
static void
publish_summary(void)
{
	struct pane		*p;
	struct session		*s, *via = NULL;
	struct publish_places	 places = { NULL, 0 }, remote = { NULL, 0 };
	struct watch		*w;
	char			 where[160], count[16], *name, *v, *hosts;
	char			*values[PUBLISH_NGLOBALS];
	struct buf		 b;
	int			 counts[UI_NGROUPS] = { 0 }, g, total = 0, i;
	int			 rcounts[UI_NGROUPS] = { 0 }, rtotal = 0;
	int			 fields = publish_fields_on(), npanes = 0;
	size_t			 k;

	RB_FOREACH(p, panes, &panes) {
		npanes++;
		if ((s = pane_session(p)) != NULL && via == NULL)
			via = s;
		if ((w = p->watch) == NULL || !w->classified ||
		    (g = ui_group_of_verdict(w->res.state,
		    w->res.detail)) == -1)
			continue;
		counts[g]++;
		total++;
		if (p->nsessions == 0 ||
		    (s = session_find(p->sessions[0])) == NULL)
			continue;
		snprintf(where, sizeof where, "%s:%d", s->name != NULL ?
		    s->name : "?", p->window_index);
		publish_place_add(&places, g, w->since, where);
	}
	if (via == NULL) {
		free(places.list);
		return;
	}
	/*
	 * The one global a remote transition changes: the fleet's letters,
	 * places and hosts, "LETTERS|PLACES|HOSTS" (NULL without hosts).
	 */
	fleet_counts(rcounts, &rtotal, &remote);
	v = NULL;
	if ((hosts = fleet_hosts_summary()) != NULL) {
		buf_init(&b);
		publish_letters(&b, rcounts, &remote);
		buf_addc(&b, '|');
		buf_adds(&b, hosts);
		v = buf_detach(&b);
	}
	if (publish_changed(&publish_remote, v))
		publish_set(via, "g", NULL, "@lisa_remote", v);
	free(v);
	/* Everything else counts the fleet's agents with the local ones. */
	for (g = 0; g < UI_NGROUPS; g++)
		counts[g] += rcounts[g];
	total += rtotal;
	for (k = 0; k < remote.n; k++)
		publish_place_add(&places, remote.list[k].group,
		    remote.list[k].since, remote.list[k].where);
	free(remote.list);
	/* Past UI_LOOP_MAX panes no redraw loops over them (ui-compose.c). */
	v = NULL;
	if (npanes > UI_LOOP_MAX) {
		buf_init(&b);
		publish_letters(&b, counts, &places);
		v = buf_detach(&b);
	}
	if (publish_changed(&publish_summary_v, v))
		publish_set(via, "g", NULL, "@lisa_summary", v);
	free(v);
	for (g = 0; g < UI_NGROUPS; g++) {
		snprintf(count, sizeof count, "%d", counts[g]);
		values[g] = fields && counts[g] != 0 ? xstrdup(count) : NULL;
	}
	snprintf(count, sizeof count, "%d", total);
	values[UI_NGROUPS] = fields && total != 0 ? xstrdup(count) : NULL;
	values[UI_NGROUPS + 1] = fields ? publish_waiting(&places) : NULL;
	free(places.list);
	values[UI_NGROUPS + 2] = fields ? hosts : NULL;
	if (!fields)
		free(hosts);
	for (i = 0; i < PUBLISH_NGLOBALS; i++) {
		if (publish_changed(&publish_globals[i], values[i])) {
			if (i < UI_NGROUPS)
				xasprintf(&name, "@lisa_count_%s",
				    ui_group_name(i));
			else
				name = xstrdup(i == UI_NGROUPS ?
				    "@lisa_agents" : i == UI_NGROUPS + 1 ?
				    "@lisa_waiting" : "@lisa_hosts");
			publish_set(via, "g", NULL, name, values[i]);
			free(name);
		}
		free(values[i]);
	}
}

/* The options changed (lisa reload): every pane's @lisa again. */
void
publish_all(void)
{
	struct pane	*p;

	RB_FOREACH(p, panes, &panes) {
		if (p->watch != NULL)
			p->watch->pub_dirty = 1;
	}
	publish_schedule();
}

static void
publish_flush(void *arg)
{
	struct pane	*p;
	uint64_t	 before = publish_stats.commands;

	publish_armed = 0;
	publish_last = time_mono_ms();
	RB_FOREACH(p, panes, &panes) {
		if (p->watch != NULL && p->watch->pub_dirty)
			publish_pane_fields(p);
	}
	publish_rollups();
	publish_summary();
	if (publish_stats.commands != before) {
		publish_stats.batches++;
		log_debug("published %llu options",
		    (unsigned long long)(publish_stats.commands - before));
	}
}

/* Something changed: write it with the rest of its burst. */
void
publish_schedule(void)
{
	uint64_t	now = time_mono_ms(), delay = 0;

	if (publish_armed || lisad.stopping)
		return;
	/* A zero timer fires after this turn's other events (loop.c). */
	if (publish_last != 0 && publish_last + PUBLISH_GAP > now)
		delay = publish_last + PUBLISH_GAP - now;
	loop_timer_init(&publish_timer, publish_flush, NULL);
	loop_timer_add(&publish_timer, delay);
	publish_armed = 1;
}

void
publish_pane(struct pane *p)
{
	p->watch->pub_dirty = 1;
	publish_schedule();
}

/* The pane is gone: its window's and sessions' roll-ups may change. */
void
publish_forget(struct pane *p)
{
	if (p->watch != NULL && p->watch->classified)
		publish_schedule();
}

/*
 * lisa stops: take everything it wrote out of tmux (a script for
 * source-file, since the control clients are going).
 */
void
publish_restore(struct buf *b)
{
	struct pane	*p;
	struct rollup	*r;
	int		 i;

	RB_FOREACH(p, panes, &panes) {
		if (p->watch == NULL)
			continue;
		/* Ours while it still says what we set (a dead pane stays). */
		if (p->watch->kept_set)
			buf_printf(b, "if-shell -F -t '%%%d' "
			    "'#{==:#{remain-on-exit},failed}' "
			    "\"set-option -pqu -t '%%%d' remain-on-exit\"\n",
			    p->id, p->id);
		if (p->watch->pub_lisa != NULL)
			buf_printf(b, "set-option -pqu -t '%%%d' @lisa\n",
			    p->id);
		for (i = 0; i < PUBLISH_NFIELDS; i++) {
			if (p->watch->pub[i] != NULL)
				buf_printf(b, "set-option -pqu -t '%%%d' %s\n",
				    p->id, publish_fields[i]);
		}
	}
	TAILQ_FOREACH(r, &rollups, entry) {
		if (r->state != -1)
			buf_printf(b, "set-option -q%su -t '%c%d' %s\n",
			    r->kind == 'w' ? "w" : "", r->kind == 'w' ?
			    '@' : '$', r->id, r->kind == 'w' ?
			    "@lisa_window_state" : "@lisa_session_state");
		if (r->border == BORDER_OURS)
			buf_printf(b, "set-option -wqu -t '@%d' "
			    "pane-border-status\n", r->id);
	}
	for (i = 0; i < UI_NGROUPS; i++)
		buf_printf(b, "set-option -gqu @lisa_count_%s\n",
		    ui_group_name(i));
	buf_adds(b, "set-option -gqu @lisa_agents\n"
	    "set-option -gqu @lisa_remote\n"
	    "set-option -gqu @lisa_summary\n"
	    "set-option -gqu @lisa_waiting\n"
	    "set-option -gqu @lisa_hosts\n"
	    "set-option -gqu @lisa_error\n"
	    "set-option -gqu @lisa_down\n");
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
	p->watch->kept_set = 1;
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
