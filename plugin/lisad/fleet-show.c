/*
 * What lisa shows of the fleet: each remote pane as JSON (lisa list, the
 * menus), the status line's counts and places, and @lisa_hosts. A pane
 * of a host not connected now is what we last saw of it: listed, said so
 * ("current": false, when), never counted as current.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "tell.h"

/* A host's state as lisa hosts, the events and the JSON say it. */
const char *
fleet_state_name(enum fleet_state st)
{
	static const char	*names[] = { "down", "connecting", "connected",
	    "stalled" };

	return (names[st]);
}

/*
 * Whether FP is current; if not, when it was last seen and why not (its
 * host's state); BRIEF: the menus' age in ms instead of the time.
 */
static void
fleet_pane_json_seen(struct buf *b, struct fleet_host *h,
    struct fleet_pane *fp, int brief)
{
	char			 when[40];

	json_key(b, "current");
	if (fleet_pane_current(h, fp)) {
		buf_adds(b, "true");
		return;
	}
	buf_adds(b, "false");
	json_key(b, "host_state");
	/* (connected, not yet synced: its word is on its way) */
	json_cstr(b, h->state == FLEET_CONNECTED ? "connecting" :
	    fleet_state_name(h->state));
	if (brief) {
		json_key(b, "seen_age_ms");
		buf_printf(b, "%lld", (long long)(time_real_ms() -
		    fp->confirmed));
		return;
	}
	json_key(b, "last_seen");
	rfc3339(fp->confirmed, when, sizeof when);
	json_cstr(b, when);
}

/* A remote pane for `lisa list --json` and `lisa status`. */
void
fleet_pane_json(struct buf *b, struct fleet_host *h, struct fleet_pane *fp)
{
	char	tmp[64], *target;

	buf_addc(b, '{');
	snprintf(tmp, sizeof tmp, "%%%d", fp->id);
	json_key(b, "pane_id");
	json_cstr(b, tmp);
	json_key(b, "host");
	json_cstr(b, h->name);
	json_key(b, "session");
	json_cstr(b, fp->session != NULL ? fp->session : "");
	json_key(b, "window");
	buf_printf(b, "%d", fp->window);
	json_key(b, "window_name");
	json_cstr(b, fp->window_name != NULL ? fp->window_name : "");
	json_key(b, "pane_index");
	buf_printf(b, "%d", fp->pane_index);
	xasprintf(&target, "%%%d@%s", fp->id, h->name);
	json_key(b, "target");
	json_cstr(b, target);
	free(target);
	json_key(b, "command");
	json_cstr(b, fp->command != NULL ? fp->command : "");
	json_key(b, "title");
	json_cstr(b, fp->title != NULL ? fp->title : "");
	json_key(b, "dead");
	buf_adds(b, fp->dead ? "true" : "false");
	json_key(b, "exit_status");
	json_int_or_null(b, fp->exit_status != -1, fp->exit_status);
	json_key(b, "exit_signal");
	json_int_or_null(b, fp->exit_signal != -1, fp->exit_signal);
	json_key(b, "agent");
	if (fp->agent != NULL)
		json_cstr(b, fp->agent);
	else
		buf_adds(b, "null");
	json_key(b, "state");
	if (fp->has_state)
		json_cstr(b, cls_state_name(fp->state));
	else
		buf_adds(b, "null");
	json_key(b, "detail");
	json_cstr(b, fp->detail != NULL ? fp->detail : "");
	json_key(b, "group");
	if (fp->has_state)
		json_cstr(b, ui_group_name(ui_group_of_verdict(fp->state,
		    fp->detail)));
	else
		buf_adds(b, "null");
	json_key(b, "reason");
	json_cstr(b, fp->reason != NULL ? fp->reason : "");
	json_key(b, "since");
	if (fp->since != NULL)
		json_cstr(b, fp->since);
	else
		buf_adds(b, "null");
	json_key(b, "exit_code");
	json_int_or_null(b, fp->exit_code != -1, fp->exit_code);
	fleet_pane_json_seen(b, h, fp, 0);
	if (fp->extra != NULL)
		buf_adds(b, fp->extra);
	buf_addc(b, '}');
}

/* A remote agent as the menus read it (watch_list_json's BRIEF). */
static void
fleet_pane_json_brief(struct buf *b, struct fleet_host *h,
    struct fleet_pane *fp)
{
	int64_t	 since = fp->since != NULL ? rfc3339_ms(fp->since) : 0;
	char	*target;

	buf_printf(b, "{\"pane_id\":\"%%%d\"", fp->id);
	json_key(b, "host");
	json_cstr(b, h->name);
	json_key(b, "session");
	json_cstr(b, fp->session != NULL ? fp->session : "");
	buf_printf(b, ",\"window\":%d", fp->window);
	json_key(b, "window_name");
	json_cstr(b, fp->window_name != NULL ? fp->window_name : "");
	buf_printf(b, ",\"pane_index\":%d", fp->pane_index);
	xasprintf(&target, "%%%d@%s", fp->id, h->name);
	json_key(b, "target");
	json_cstr(b, target);
	free(target);
	json_key(b, "agent");
	json_cstr(b, fp->agent);
	json_key(b, "state");
	json_cstr(b, cls_state_name(fp->state));
	json_key(b, "detail");
	json_cstr(b, fp->detail != NULL ? fp->detail : "");
	if (since > 0)
		buf_printf(b, ",\"state_age_ms\":%lld",
		    (long long)(time_real_ms() - since));
	fleet_pane_json_seen(b, h, fp, 1);
	buf_addc(b, '}');
}

/*
 * Every remote pane we know, each after a comma ("current": false for a
 * host not connected now: what we last saw); BRIEF: the agents only, as
 * the menus read them.
 */
void
fleet_list_json(struct buf *b, int first, int brief)
{
	struct fleet_host	*h;
	struct fleet_pane	*fp;

	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		RB_FOREACH(fp, fleet_panes, &h->panes) {
			if (brief && !fp->has_state)
				continue;
			if (!first)
				buf_addc(b, ',');
			first = 0;
			if (brief)
				fleet_pane_json_brief(b, h, fp);
			else
				fleet_pane_json(b, h, fp);
		}
	}
}

/*
 * Remote agents into the status line's counts and the waiting list (at
 * most PUBLISH_WAITING_MAX places in it; the rest counted in *more).
 */
void
fleet_counts(int *counts, int *total, struct publish_places *places)
{
	struct fleet_host	*h;
	struct fleet_pane	*fp;
	char			 where[160];
	int			 g;

	/* (what is not current is not counted: its host says why) */
	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		if (h->state != FLEET_CONNECTED)
			continue;
		RB_FOREACH(fp, fleet_panes, &h->panes) {
			if (!fp->has_state || !fleet_pane_current(h, fp) ||
			    (g = ui_group_of_verdict(fp->state, fp->detail)) ==
			    -1)
				continue;
			counts[g]++;
			(*total)++;
			snprintf(where, sizeof where, "%%%d@%s", fp->id,
			    h->name);
			publish_place_add(places, g, fp->since != NULL ?
			    rfc3339_ms(fp->since) : 0, where);
		}
	}
}

/* A host's agents, and how many of them wait for you. */
static void
fleet_host_counts(struct fleet_host *h, int *n, int *w)
{
	struct fleet_pane	*fp;
	int			 g;

	*n = *w = 0;
	RB_FOREACH(fp, fleet_panes, &h->panes) {
		if (!fp->has_state || (g = ui_group_of_verdict(fp->state,
		    fp->detail)) == -1)
			continue;
		(*n)++;
		*w += g == UI_WAITING || g == UI_ASKS;
	}
}

/*
 * Past PUBLISH_HOSTS_MAX hosts, one short line: "50 hosts:940!12" (their
 * agents, how many wait), then "down:h3,h7" (three names at most, then
 * "+N") and "...:2" (connecting).
 */
static char *
fleet_hosts_short(int nhosts)
{
	struct fleet_host	*h;
	struct buf		 b, down;
	int			 n, w, agents = 0, waiting = 0, ndown = 0, conn = 0;

	buf_init(&down);
	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		if (h->state == FLEET_DOWN || h->state == FLEET_STALLED) {
			if (ndown < 3) {
				buf_adds(&down, ndown == 0 ? "" : ",");
				buf_adds(&down, h->name);
			}
			ndown++;
		} else if (h->state == FLEET_CONNECTING || !h->synced)
			conn++;
		else {
			fleet_host_counts(h, &n, &w);
			agents += n;
			waiting += w;
		}
	}
	buf_init(&b);
	buf_printf(&b, "%d hosts:%d", nhosts, agents);
	if (waiting != 0)
		buf_printf(&b, "!%d", waiting);
	if (ndown != 0) {
		buf_printf(&b, " down:%s", down.data);
		if (ndown > 3)
			buf_printf(&b, "+%d", ndown - 3);
	}
	if (conn != 0)
		buf_printf(&b, " ...:%d", conn);
	buf_free(&down);
	return (buf_detach(&b));
}

/*
 * @lisa_hosts: "HOST:N" for each host (its agents), "HOST:N!W" when W of
 * them wait for you, "HOST:..." while connecting, "HOST:down"; past
 * PUBLISH_HOSTS_MAX hosts, fleet_hosts_short's one line.
 */
char *
fleet_hosts_summary(void)
{
	struct fleet_host	*h;
	struct buf		 b;
	int			 n, w, nhosts = 0;

	if (TAILQ_EMPTY(&fleet_hosts))
		return (NULL);
	TAILQ_FOREACH(h, &fleet_hosts, entry)
		nhosts++;
	if (nhosts > PUBLISH_HOSTS_MAX)
		return (fleet_hosts_short(nhosts));
	buf_init(&b);
	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		if (b.len != 0)
			buf_addc(&b, ' ');
		buf_adds(&b, h->name);
		if (h->state == FLEET_DOWN || h->state == FLEET_STALLED) {
			/* (a stalled host's word is not current: no count) */
			buf_adds(&b, h->state == FLEET_DOWN ? ":down" :
			    ":stalled");
			continue;
		}
		if (h->state == FLEET_CONNECTING || !h->synced) {
			buf_adds(&b, ":...");
			continue;
		}
		fleet_host_counts(h, &n, &w);
		buf_printf(&b, ":%d", n);
		if (w != 0)
			buf_printf(&b, "!%d", w);
	}
	return (buf_detach(&b));
}
