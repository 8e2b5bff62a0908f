/*
 * A remote host's panes, from its bridge's lines (cmd-bridge.c). All of
 * it is untrusted, as pane text is: each line is parsed strictly and
 * bounded, strings are cut and cleaned of control bytes, numbers checked
 * for range, and what does not fit is logged and dropped. Nothing here
 * reaches tmux but through publish.c's quoting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "tell.h"
#include "tap.h"
#include "watch.h"

static int
fleet_pane_cmp(struct fleet_pane *a, struct fleet_pane *b)
{
	return (a->id < b->id ? -1 : a->id > b->id);
}
RB_GENERATE(fleet_panes, fleet_pane, entry, fleet_pane_cmp);

/* A copy cut at max bytes (not inside a UTF-8 character), controls '?'. */
char *
fleet_clean(const char *s, size_t max)
{
	size_t	 len = strlen(s), i;
	char	*c;

	if (len > max) {
		len = max;
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	c = xstrndup(s, len);
	for (i = 0; i < len; i++) {
		if ((unsigned char)c[i] < 0x20 || c[i] == 0x7f)
			c[i] = '?';
	}
	return (c);
}

/* The same for text shown whole (a command's output): lines kept. */
char *
fleet_clean_text(const char *s, size_t max)
{
	char	*c = fleet_clean(s, max), *o = c;
	size_t	 i;

	for (i = 0; s[i] != '\0' && c[i] != '\0'; i++) {
		if (s[i] == '\n' || s[i] == '\t')
			o[i] = s[i];
	}
	return (c);
}

static char *
fleet_str(struct json_doc *d, int obj, const char *key)
{
	char	*s, *c;

	if ((s = json_get_str(d, obj, key)) == NULL)
		return (NULL);
	c = fleet_clean(s, FLEET_MAX_STR);
	free(s);
	return (c);
}

static int
fleet_int(struct json_doc *d, int obj, const char *key, int min, int max)
{
	long long	v;

	if (json_get_int(d, obj, key, &v) != 0 || v < min || v > max)
		return (-1);
	return ((int)v);
}

/* "%N": N, or -1. */
static int
fleet_id(const char *s)
{
	const char	*p;

	if (s == NULL || s[0] != '%' || s[1] == '\0' || strlen(s) > 10)
		return (-1);
	for (p = s + 1; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return (-1);
	}
	return (atoi(s + 1));
}

static void
fleet_pane_free_fields(struct fleet_pane *fp)
{
	free(fp->session);
	free(fp->window_name);
	free(fp->command);
	free(fp->title);
	free(fp->agent);
	free(fp->detail);
	free(fp->reason);
	free(fp->since);
	free(fp->extra);
}

static void
fleet_pane_remove(struct fleet_host *h, struct fleet_pane *fp)
{
	int	id = fp->id;

	RB_REMOVE(fleet_panes, &h->panes, fp);
	fleet_pane_free_fields(fp);
	free(fp);
	listener_fleet_changed(h, NULL, id);
}

struct fleet_pane *
fleet_pane_find(struct fleet_host *h, int id)
{
	struct fleet_pane	find = { .id = id };

	return (RB_FIND(fleet_panes, &h->panes, &find));
}

/*
 * Is what we have of FP current? Its host is connected and FP was in the
 * host's word since then. Otherwise it is what we last saw, kept (and
 * said as such) until the host says again or leaves @lisa-hosts.
 */
int
fleet_pane_current(struct fleet_host *h, struct fleet_pane *fp)
{
	return (h->state == FLEET_CONNECTED && (h->synced || fp->seen));
}

/* H's word stops being current: its panes were last seen now. */
void
fleet_pane_unconfirm(struct fleet_host *h)
{
	struct fleet_pane	*fp;
	uint64_t		 now = time_real_ms();

	RB_FOREACH(fp, fleet_panes, &h->panes) {
		if (fleet_pane_current(h, fp))
			fp->confirmed = now;
	}
}

/* A host left @lisa-hosts (or the helper stops): its panes go. */
void
fleet_pane_clear(struct fleet_host *h)
{
	struct fleet_pane	*fp, *fp1;

	RB_FOREACH_SAFE(fp, fleet_panes, &h->panes, fp1)
		fleet_pane_remove(h, fp);
}

int
fleet_pane_count(struct fleet_host *h)
{
	struct fleet_pane	*fp;
	int			 n = 0;

	RB_FOREACH(fp, fleet_panes, &h->panes)
		n++;
	return (n);
}

#define FLEET_EXTRA_MAX		(16 * 1024)	/* a pane's other keys */
#define FLEET_EXTRA_DEPTH	4

/* The keys fleet_pane_json writes itself: not copied from the host. */
static const char *fleet_own_keys[] = {
	"pane_id", "host", "session", "window", "window_name", "pane_index",
	"target", "command", "title", "dead", "exit_status", "exit_signal",
	"agent", "state", "detail", "group", "reason", "since", "exit_code",
	"current", "last_seen", "host_state", "seen_age_ms", NULL
};

static int
fleet_key_ok(const char *k)
{
	size_t	n = strlen(k);

	return (n > 0 && n <= 40 &&
	    strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_") == n);
}

/* A number as JSON writes it, or true, false, null: else -1. */
static int
fleet_primitive_ok(const char *t)
{
	const char	*p = t;

	if (strcmp(t, "true") == 0 || strcmp(t, "false") == 0 ||
	    strcmp(t, "null") == 0)
		return (0);
	if (strlen(t) > 24)
		return (-1);
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return (-1);
	p += strspn(p, "0123456789");
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return (-1);
		p += strspn(p, "0123456789");
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return (-1);
		p += strspn(p, "0123456789");
	}
	return (*p == '\0' ? 0 : -1);
}

/*
 * A host's JSON value written again from what it means, never from its
 * text: keys of [a-z0-9_] only, strings cleaned and cut, numbers checked,
 * depth and size bounded. -1 if it does not fit (the caller drops it).
 */
static int
fleet_copy(struct buf *b, struct json_doc *d, int tok, int depth)
{
	char	*k, *v;
	int	 end, t, first = 1, n = 0, rc = 0;

	if (b->len > FLEET_EXTRA_MAX || depth > FLEET_EXTRA_DEPTH)
		return (-1);
	switch (json_type(d, tok)) {
	case JSON_T_OBJECT:
		buf_addc(b, '{');
		end = json_skip(d, tok);
		for (t = tok + 1; t < end && rc == 0; t = json_skip(d, t + 1)) {
			if (json_tok_str(d, t, &k) != 0)
				return (-1);
			if (!fleet_key_ok(k)) {
				free(k);
				continue;
			}
			if (!first)
				buf_addc(b, ',');
			first = 0;
			json_cstr(b, k);
			buf_addc(b, ':');
			free(k);
			rc = fleet_copy(b, d, t + 1, depth + 1);
		}
		buf_addc(b, '}');
		return (rc);
	case JSON_T_ARRAY:
		buf_addc(b, '[');
		end = json_skip(d, tok);
		for (t = tok + 1; t < end && rc == 0; t = json_skip(d, t)) {
			if (n++ == 64)
				return (-1);
			if (!first)
				buf_addc(b, ',');
			first = 0;
			rc = fleet_copy(b, d, t, depth + 1);
		}
		buf_addc(b, ']');
		return (rc);
	case JSON_T_STRING:
		if (json_tok_str(d, tok, &v) != 0)
			return (-1);
		k = fleet_clean(v, FLEET_MAX_STR);
		json_cstr(b, k);
		free(k);
		free(v);
		return (0);
	case JSON_T_PRIMITIVE:
		v = json_tok_text(d, tok);
		rc = fleet_primitive_ok(v);
		buf_adds(b, rc == 0 ? v : "null");
		free(v);
		return (0);
	}
	return (-1);
}

/* The pane's other keys ("k":v,... for fleet_pane_json), or NULL. */
static char *
fleet_extra(struct json_doc *d, int obj)
{
	struct buf	 b;
	char		*k;
	int		 end, t, i, own;

	buf_init(&b);
	end = json_skip(d, obj);
	for (t = obj + 1; t < end; t = json_skip(d, t + 1)) {
		if (json_tok_str(d, t, &k) != 0)
			break;
		own = 0;
		for (i = 0; fleet_own_keys[i] != NULL && !own; i++)
			own = strcmp(k, fleet_own_keys[i]) == 0;
		if (!own && fleet_key_ok(k)) {
			buf_addc(&b, ',');
			json_cstr(&b, k);
			buf_addc(&b, ':');
			if (fleet_copy(&b, d, t + 1, 1) != 0) {
				free(k);
				buf_free(&b);
				return (NULL);
			}
		}
		free(k);
	}
	/* Its own target is session:window.pane there. */
	if ((i = json_get(d, obj, "target")) != -1 &&
	    json_type(d, i) == JSON_T_STRING) {
		buf_adds(&b, ",\"remote_target\":");
		fleet_copy(&b, d, i, 1);
	}
	if (b.len == 0) {
		buf_free(&b);
		return (NULL);
	}
	return (buf_detach(&b));
}

/* A remote pane's new state into the local events, with its host. */
static void
fleet_pane_event(struct fleet_host *h, struct fleet_pane *fp,
    enum cls_state from)
{
	struct buf	b;

	buf_init(&b);
	json_key(&b, "host");
	json_cstr(&b, h->name);
	json_key(&b, "agent");
	json_cstr(&b, fp->agent != NULL ? fp->agent : "");
	json_key(&b, "from");
	json_cstr(&b, cls_state_name(from));
	json_key(&b, "to");
	json_cstr(&b, cls_state_name(fp->state));
	json_key(&b, "detail");
	json_cstr(&b, fp->detail != NULL ? fp->detail : "");
	json_key(&b, "reason");
	json_cstr(&b, fp->reason != NULL ? fp->reason : "");
	events_json_add("transition", fp->id, b.data);
	buf_free(&b);
}

/*
 * A remote agent's dialog as its host read it, for the phone's buttons
 * (tap.c's choices): its kind and, but for a permission (Allow, Deny),
 * its options, in the host's words cleaned (controls '?'; tap.c drops
 * what a button's label may not hold). 0 if the phone can answer it.
 */
static int
fleet_pane_dialog(struct json_doc *d, int q, struct question *out)
{
	char	*kind, *o, *c;
	int	 opts, i, n;

	memset(out, 0, sizeof *out);
	out->selected = -1;
	if (q < 0 || json_type(d, q) != JSON_T_OBJECT)
		return (-1);
	if ((kind = json_get_str(d, q, "kind")) == NULL)
		return (-1);
	n = strlen(kind) < sizeof out->kind && *kind != '\0' &&
	    strspn(kind, "abcdefghijklmnopqrstuvwxyz") == strlen(kind);
	if (n)
		strlcpy(out->kind, kind, sizeof out->kind);
	free(kind);
	if (!n)
		return (-1);
	if (strcmp(out->kind, "permission") == 0)
		return (0);
	if ((opts = json_get(d, q, "options")) == -1 ||
	    json_type(d, opts) != JSON_T_ARRAY)
		return (-1);
	n = json_array_size(d, opts);
	for (i = 0; i < n && out->noptions < QUESTION_MAX_OPTIONS; i++) {
		if (json_tok_str(d, json_array_item(d, opts, i), &o) != 0)
			return (-1);
		c = fleet_clean(o, sizeof out->options[0] - 1);
		strlcpy(out->options[out->noptions++], c,
		    sizeof out->options[0]);
		free(c);
		free(o);
	}
	return (out->noptions > 0 ? 0 : -1);
}

/*
 * A remote agent's dialog token (its host's answer token, in the pane's
 * question.token), for the phone's buttons; NULL unless it has the form
 * of one (answer-token.c): it only ever goes back to that host.
 */
static char *
fleet_pane_token(struct json_doc *d, int q)
{
	char	*t;

	if (q < 0 || json_type(d, q) != JSON_T_OBJECT)
		return (NULL);
	if ((t = json_get_str(d, q, "token")) == NULL)
		return (NULL);
	if (strncmp(t, "v1:", 3) != 0 || strlen(t) >= ANSWER_TOKEN_LEN ||
	    strspn(t, "0123456789abcdefv:.-") != strlen(t)) {
		free(t);
		return (NULL);
	}
	return (t);
}

/* {"t":"pane","pane":{...}}: one pane, whole. */
/*
 * What a remote agent's dialog asks, if its host had read it when it told
 * of the wait: "asks to run: CMD" or "asks: TEXT", cleaned; else NULL.
 */
static char *
fleet_pane_asks(struct json_doc *d, int q)
{
	char	*kind, *subject, *text, *out = NULL, asks[FLEET_MAX_STR * 2];

	if (q < 0 || json_type(d, q) != JSON_T_OBJECT)
		return (NULL);
	kind = fleet_str(d, q, "kind");
	/* (its first line: the rest, "…", as for a local one) */
	if ((subject = json_get_str(d, q, "subject")) != NULL) {
		question_first_line(subject, asks, sizeof asks);
		free(subject);
		subject = fleet_clean(asks, FLEET_MAX_STR);
	}
	text = fleet_str(d, q, "text");
	if ((kind != NULL && strcmp(kind, "permission") == 0 &&
	    subject != NULL && *subject != '\0') ||
	    (text != NULL && *text != '\0')) {
		question_asks(kind, subject, text, asks, sizeof asks);
		out = xstrdup(asks);
	}
	free(kind);
	free(subject);
	free(text);
	return (out);
}

static int
fleet_pane_update(struct fleet_host *h, struct json_doc *d)
{
	struct fleet_pane	*fp;
	enum cls_state		 from = ST_NONE;
	char			*s, where[FLEET_MAX_STR + 16], *question, *token;
	struct question		 dialog;
	int			 obj, id, b, had, at_prompt = 0, asks;

	if ((obj = json_get(d, 0, "pane")) == -1 ||
	    json_type(d, obj) != JSON_T_OBJECT)
		return (-1);
	s = json_get_str(d, obj, "pane_id");
	id = fleet_id(s);
	free(s);
	if (id == -1)
		return (-1);
	if ((fp = fleet_pane_find(h, id)) == NULL) {
		if (fleet_pane_count(h) >= FLEET_MAX_PANES)
			return (-1);
		fp = xcalloc(1, sizeof *fp);
		fp->id = id;
		RB_INSERT(fleet_panes, &h->panes, fp);
	} else {
		at_prompt = fp->has_state && fp->state == ST_WAITING_INPUT &&
		    (fp->detail == NULL || *fp->detail == '\0' ||
		    strcmp(fp->detail, "prompt") == 0);
		fleet_pane_free_fields(fp);
	}
	fp->session = fleet_str(d, obj, "session");
	fp->window = fleet_int(d, obj, "window", 0, 1000000);
	fp->window_name = fleet_str(d, obj, "window_name");
	fp->pane_index = fleet_int(d, obj, "pane_index", 0, 1000000);
	fp->command = fleet_str(d, obj, "command");
	fp->title = fleet_str(d, obj, "title");
	fp->dead = json_get_bool(d, obj, "dead", &b) == 0 && b;
	fp->exit_status = fleet_int(d, obj, "exit_status", 0, 255);
	fp->exit_signal = fleet_int(d, obj, "exit_signal", 1, 127);
	fp->exit_code = fleet_int(d, obj, "exit_code", 0, 255);
	fp->agent = fleet_str(d, obj, "agent");
	fp->detail = fleet_str(d, obj, "detail");
	fp->reason = fleet_str(d, obj, "reason");
	fp->since = fleet_str(d, obj, "since");
	fp->extra = fleet_extra(d, obj);
	had = fp->has_state;
	from = fp->state;
	fp->has_state = 0;
	if ((s = json_get_str(d, obj, "state")) != NULL) {
		fp->state = cls_state_from_name(s);
		fp->has_state = fp->state != ST_NSTATES && fp->state != ST_NONE;
		free(s);
	}
	/*
	 * From its prompt straight to a question (the work between too short
	 * for the host to report, or lost to a busy link): news, as after
	 * work.
	 */
	asks = at_prompt && fp->state == ST_WAITING_INPUT &&
	    fp->detail != NULL && *fp->detail != '\0' &&
	    strcmp(fp->detail, "prompt") != 0;
	if (fp->has_state && (!had || from != fp->state || asks)) {
		if (!asks)
			fleet_pane_event(h, fp, had ? from : ST_NONE);
		snprintf(where, sizeof where, "%s:%d", fp->session != NULL ?
		    fp->session : "?", fp->window);
		question = fleet_pane_asks(d, json_get(d, obj, "question"));
		token = fleet_pane_token(d, json_get(d, obj, "question"));
		if (token != NULL && fleet_pane_dialog(d, json_get(d, obj,
		    "question"), &dialog) != 0) {
			free(token);
			token = NULL;
		}
		notify_remote(h->name, fp->id, token, &dialog,
		    fp->agent != NULL ? fp->agent : "agent",
		    where, fp->detail != NULL ? fp->detail : "", question,
		    asks ? ST_IN_PROGRESS : had ? from : ST_NONE, fp->state,
		    &fp->notified_at, &fp->notified_group);
		free(question);
		free(token);
	}
	/* Not on a dialog (now): the phone's buttons for it end. */
	if (!fp->has_state || fp->state != ST_WAITING_INPUT ||
	    !question_detail(fp->detail != NULL ? fp->detail : ""))
		tap_pane_over(h->name, fp->id);
	fp->seen = 1;
	listener_fleet_changed(h, fp, id);
	return (0);
}

/* How many agents the host has to resume (lisa resume there), if said. */
static int
fleet_resumable(struct fleet_host *h, struct json_doc *d)
{
	long long	n = -1;

	if (json_get_int(d, 0, "resume", &n) != 0 || n < 0 || n > 100000)
		return (-1);
	h->resumable = (int)n;
	return (0);
}

/* One line from a host's bridge. */
void
fleet_pane_line(struct fleet_host *h, const char *line, size_t len)
{
	struct json_doc		*d;
	struct fleet_pane	*fp, *fp1;
	char			*t, *cause = NULL, *s;
	long long		 pong;
	int			 id, ok = 0, b;

	if ((d = json_parse(line, len, &cause)) == NULL) {
		log_warnx("fleet %s: a line that is not JSON (%s): skipped",
		    h->name, cause);
		free(cause);
		return;
	}
	if ((t = json_get_str(d, 0, "t")) == NULL)
		;
	else if (strcmp(t, "hello") == 0) {
		loop_timer_del(&h->hello);
		h->started = json_get_bool(d, 0, "started", &b) == 0 && b;
		fleet_resumable(h, d);
		/* What the last connection showed is checked again. */
		h->synced = 0;
		/* (what ssh said while it connected is no reason for its end) */
		h->err[0] = '\0';
		RB_FOREACH(fp, fleet_panes, &h->panes)
			fp->seen = 0;
		fleet_set_state(h, FLEET_CONNECTED, h->started ?
		    "started its helper" : "");
		log_debug("fleet %s: connected%s", h->name,
		    h->started ? ", its helper started" : "");
		ok = 1;
	} else if (strcmp(t, "pane") == 0)
		ok = fleet_pane_update(h, d) == 0;
	else if (strcmp(t, "gone") == 0) {
		s = json_get_str(d, 0, "pane_id");
		if ((id = fleet_id(s)) != -1) {
			if ((fp = fleet_pane_find(h, id)) != NULL)
				fleet_pane_remove(h, fp);
			ok = 1;
		}
		free(s);
	} else if (strcmp(t, "synced") == 0) {
		/*
		 * Panes the remote no longer has: gone while we were away
		 * (synced first: their waits are answered, not_found).
		 */
		h->synced = 1;
		RB_FOREACH_SAFE(fp, fleet_panes, &h->panes, fp1) {
			if (!fp->seen)
				fleet_pane_remove(h, fp);
		}
		ok = 1;
	} else if (strcmp(t, "reply") == 0)
		ok = fleet_reply(h, d) == 0;
	else if (strcmp(t, "pong") == 0) {
		ok = json_get_int(d, 0, "id", &pong) == 0 &&
		    fleet_check_answered(h, pong) == 0;
	}
	else if (strcmp(t, "resume") == 0)
		ok = fleet_resumable(h, d) == 0;
	if (!ok)
		log_warnx("fleet %s: a line not understood: skipped (%.80s)",
		    h->name, t != NULL ? t : "no type");
	else
		publish_schedule();
	free(t);
	json_free(d);
}
