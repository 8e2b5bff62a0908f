/*
 * lisa status / explain / wait: the classification, asked of the helper.
 * Targets are resolved by tmux itself (client_resolve), so "work:1.0", a
 * session name or "%3" mean what they mean in tmux (a pane id the helper
 * knows, from tmux's events, without a tmux client).
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisa.h"

static void
print_not_found(const char *target, int json)
{
	struct buf	b;

	if (!json) {
		printf("%s: not_found\n", target);
		return;
	}
	buf_init(&b);
	buf_adds(&b, "{\"target\":");
	json_cstr(&b, target);
	buf_adds(&b, ",\"state\":\"not_found\"}");
	printf("%s\n", b.data);
	buf_free(&b);
}

static char *
str(struct json_doc *d, int obj, const char *key)
{
	char	*s = json_get_str(d, obj, key);

	return (s != NULL ? s : xstrdup("-"));
}

static void
fmt_age(long long ms, char *out, size_t len)
{
	if (ms < 0)
		snprintf(out, len, "?");
	else if (ms < 10000)
		snprintf(out, len, "%.1fs", ms / 1000.0);
	else if (ms < 120000)
		snprintf(out, len, "%llds", ms / 1000);
	else if (ms < 7200000)
		snprintf(out, len, "%lldm", ms / 60000);
	else
		snprintf(out, len, "%lldh", ms / 3600000);
}

/* How long ago an RFC 3339 UTC time was, in ms (-1 if it does not parse). */
static long long
since_ms(const char *ts)
{
	struct tm	tm;
	struct timespec	now;
	int		ms = 0;
	const char	*p;
	time_t		t;

	memset(&tm, 0, sizeof tm);
	if ((p = strptime(ts, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL)
		return (-1);
	if (*p == '.')
		ms = atoi(p + 1);
	t = timegm(&tm);
	clock_gettime(CLOCK_REALTIME, &now);
	return ((long long)(now.tv_sec - t) * 1000 +
	    now.tv_nsec / 1000000 - ms);
}

/* One line: "%3 work:1.0 claude waiting_input (permission) 2m reason". */
static void
print_status_line(struct json_doc *d, int pane)
{
	char	*id = str(d, pane, "pane_id"), *target = str(d, pane, "target");
	char	*agent = str(d, pane, "agent"), *state = str(d, pane, "state");
	char	*detail = str(d, pane, "detail"), *reason = str(d, pane, "reason");
	char	*since = str(d, pane, "since"), age[16];

	fmt_age(since_ms(since), age, sizeof age);
	if (strcmp(state, "-") == 0)
		printf("%s %s: no agent\n", id, target);
	else
		printf("%s %s %s %s%s%s%s for %s · %s\n", id, target, agent,
		    state, *detail != '\0' && strcmp(detail, "-") != 0 ? " (" :
		    "", strcmp(detail, "-") != 0 ? detail : "",
		    *detail != '\0' && strcmp(detail, "-") != 0 ? ")" : "",
		    age, reason);
	free(id);
	free(target);
	free(agent);
	free(state);
	free(detail);
	free(reason);
	free(since);
}

/* A question about one pane; tmux's or the helper's error said. */
static int
ask_pane(struct lisa_ctx *ctx, const char *cmd, const char *pane,
    struct json_doc **d)
{
	char	*cause = NULL;
	int	 rc;

	if ((rc = client_ask_pane(ctx, cmd, pane, d, &cause)) != 0) {
		fprintf(stderr, "lisa: %s\n", cause);
		free(cause);
	}
	return (rc);
}

int
cmd_status(struct lisa_ctx *ctx, const char *target, int json)
{
	struct json_doc	*d;
	char		*pane, *state;
	int		 obj, rc;

	if ((pane = client_resolve(ctx, target)) == NULL) {
		print_not_found(target != NULL ? target : "", json);
		return (1);
	}
	if (ask_pane(ctx, "status", pane, &d) != 0)
		return (2);
	obj = json_get(d, 0, "pane");
	state = json_get_str(d, obj, "state");
	rc = state != NULL && strcmp(state, "not_found") == 0;
	if (json) {
		json_dump(d, obj, stdout);
		printf("\n");
	} else if (rc)
		printf("%s: not_found\n", pane);
	else
		print_status_line(d, obj);
	free(state);
	free(pane);
	json_free(d);
	return (rc);
}

/* Print a JSON value compactly, strings without quotes. */
static void
print_value(struct json_doc *d, int tok)
{
	char	*s;

	if (json_type(d, tok) == JSON_T_STRING &&
	    json_tok_str(d, tok, &s) == 0) {
		printf("%s", s);
		free(s);
	} else
		json_dump(d, tok, stdout);
}

/* Context and tokens, where the agent records them. */
/* Every line of S, indented: a command is shown whole. */
static void
explain_lines(const char *s)
{
	size_t	n;

	while (*s != '\0') {
		n = strcspn(s, "\n");
		printf("      %.*s\n", (int)n, s);
		s += n + (s[n] == '\n');
	}
}

/*
 * What it asks: "asks: Bash: Do you want to proceed?", the command whole
 * (and the hook's, where it says more), the options; what the fingerprint
 * covers.
 */
static void
explain_question(struct json_doc *d, int obj)
{
	char		*tool, *subject, *hook, *text, *fp, *o;
	int		 q, opts, i, n, whole = 1;
	long long	 sel = -1, lines = 0;

	if ((q = json_get(d, obj, "question")) < 0 ||
	    json_type(d, q) != JSON_T_OBJECT)
		return;
	tool = json_get_str(d, q, "tool");
	subject = json_get_str(d, q, "subject");
	hook = json_get_str(d, q, "hook_subject");
	text = json_get_str(d, q, "text");
	fp = json_get_str(d, q, "fingerprint");
	json_get_int(d, q, "selected", &sel);
	json_get_int(d, q, "lines", &lines);
	json_get_bool(d, q, "whole", &whole);
	printf("  asks: %s%s%s\n", tool != NULL ? tool : "",
	    tool != NULL ? ": " : "", text != NULL ? text : "");
	if (subject != NULL) {
		printf("    on screen:\n");
		explain_lines(subject);
	}
	if (hook != NULL) {
		printf("    its hook says:\n");
		explain_lines(hook);
	}
	opts = json_get(d, q, "options");
	n = json_array_size(d, opts);
	for (i = 0; i < n; i++) {
		if (json_tok_str(d, json_array_item(d, opts, i), &o) != 0)
			continue;
		printf("    %s %s\n", i == sel ? ">" : " ", o);
		free(o);
	}
	printf("  (read off the screen: %lld lines%s, fingerprint %.12s\xe2\x80"
	    "\xa6)\n", lines, whole ? "" : ", its first not on screen",
	    fp != NULL ? fp : "?");
	free(tool);
	free(subject);
	free(hook);
	free(text);
	free(fp);
}

static void
explain_usage(struct json_doc *d, int obj)
{
	long long	 used, window, pct, v[4];
	int		 c, t;

	if ((c = json_get(d, obj, "context")) < 0 ||
	    json_get_int(d, c, "used", &used) != 0)
		return;
	if (json_get_int(d, c, "window", &window) != 0 ||
	    json_get_int(d, c, "percent", &pct) != 0)
		printf("  context: %lld tokens (its window not known)", used);
	else
		printf("  context: %lld%% (%lld of %lld tokens)", pct, used,
		    window);
	if ((t = json_get(d, obj, "tokens")) >= 0 &&
	    json_get_int(d, t, "input", &v[0]) == 0 &&
	    json_get_int(d, t, "output", &v[1]) == 0 &&
	    json_get_int(d, t, "cache_read", &v[2]) == 0 &&
	    json_get_int(d, t, "cache_write", &v[3]) == 0)
		printf("; tokens used: %lld in, %lld out, %lld cache read, "
		    "%lld cache written", v[0], v[1], v[2], v[3]);
	printf("\n");
}

int
cmd_explain(struct lisa_ctx *ctx, const char *target)
{
	static const char *keys[] = { "pane", "output", "process", "title",
	    "codex_osc7501", "osc133_exit", "screen", "claude_session", "hook",
	    "claude_transcript", "attention" };
	static const char *fields[] = { "value", "class", "dead", "command",
	    "bytes", "rate_bps", "agent_pid", "alive", "children", "cpu_busy", "readable",
	    "hints", "capture_failed", "stale", "failed", "bell_age_ms",
	    "notify_age_ms" };
	struct json_doc	*d;
	char		*pane, *state, age[16];
	int		 obj, sig, s, tok, ok;
	long long	 ms;
	size_t		 i, j;

	if ((pane = client_resolve(ctx, target)) == NULL) {
		print_not_found(target != NULL ? target : "", 0);
		return (1);
	}
	if (ask_pane(ctx, "status", pane, &d) != 0)
		return (2);
	obj = json_get(d, 0, "pane");
	state = json_get_str(d, obj, "state");
	if (state == NULL || strcmp(state, "not_found") == 0) {
		printf("%s: %s\n", pane, state == NULL ? "no agent" :
		    "not_found");
		free(state);
		json_free(d);
		return (state == NULL ? 0 : 1);
	}
	print_status_line(d, obj);
	printf("  lifecycle %s, activity %s",
	    (state = str(d, obj, "lifecycle")), str(d, obj, "activity"));
	free(state);
	if (json_get_int(d, obj, "exit_code", &ms) == 0)
		printf(", exit code %lld", ms);
	if (json_get_int(d, obj, "exit_signal", &ms) == 0)
		printf(", signal %lld", ms);
	printf("\n");
	explain_question(d, obj);
	explain_usage(d, obj);
	printf("  signals (what the classifier looked at, and how old):\n");
	sig = json_get(d, obj, "signals");
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if ((s = json_get(d, sig, keys[i])) < 0)
			continue;
		printf("    %-15s", keys[i]);
		for (j = 0; j < sizeof fields / sizeof fields[0]; j++) {
			if ((tok = json_get(d, s, fields[j])) < 0)
				continue;
			printf(" %s=", fields[j]);
			print_value(d, tok);
		}
		ok = json_get_int(d, s, "age_ms", &ms) == 0;
		if (ok) {
			fmt_age(ms, age, sizeof age);
			printf("  (%s ago)", age);
		}
		printf("\n");
	}
	free(pane);
	json_free(d);
	return (0);
}

/* "waiting_input,crashed" to a JSON array. */
static void
until_json(struct buf *b, const char *until)
{
	char	*copy, *p, *s;
	int	 first = 1;

	buf_addc(b, '[');
	if (until != NULL) {
		copy = p = xstrdup(until);
		while ((s = strsep(&p, ", ")) != NULL) {
			if (*s == '\0')
				continue;
			if (!first)
				buf_addc(b, ',');
			json_cstr(b, s);
			first = 0;
		}
		free(copy);
	}
	buf_addc(b, ']');
}

/* Every name in --until is a state or a group word; else say which not. */
static int
until_check(const char *until, unsigned int *mask)
{
	char	*copy, *p, *s;
	int	 rc = 0;

	if (until == NULL)
		return (0);
	copy = p = xstrdup(until);
	while ((s = strsep(&p, ", ")) != NULL) {
		if (*s == '\0' || cls_state_mask(s, mask) == 0)
			continue;
		args_usage_error(lisa_cmd_find("wait"), "unknown state: %s (use "
		    "%s)", s, cls_state_names_help());
	}
	free(copy);
	return (rc);
}

/*
 * Block until the helper pushes the pane into one of the states. Exit 0
 * when reached, 1 on timeout, 2 on error (including a pane that is gone
 * when not_found was not asked for).
 */
#define WAIT_NOTE_MS	1000

int
cmd_wait(struct lisa_ctx *ctx, const char *target, const char *until,
    double timeout)
{
	struct buf	 req;
	struct pollfd	 pfd;
	struct json_doc	*d;
	char		*pane, *reply = NULL, *cause = NULL, *state = NULL;
	char		*args[1];
	int		 fd, obj, ms, rc;
	unsigned int	 mask = 0;

	if (until_check(until, &mask) != 0)
		return (2);
	/* A remote pane (%N@HOST): the local helper knows its state. */
	if (fleet_is_target(target))
		pane = xstrdup(target);
	else if ((pane = client_resolve(ctx, target)) == NULL) {
		print_not_found(target != NULL ? target : "", 1);
		return ((mask & (1u << ST_NOT_FOUND)) ? 0 : 2);
	}
	if ((fd = client_connect(ctx->sockpath, &cause)) == -1) {
		fprintf(stderr, "lisa: %s\n", cause);
		return (2);
	}
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"wait\",\"pane\":");
	json_cstr(&req, pane);
	buf_adds(&req, ",\"until\":");
	until_json(&req, until);
	/* tmux has it: the helper may just not have listed it yet. */
	buf_adds(&req, ",\"exists\":true}\n");
	if (write(fd, req.data, req.len) != (ssize_t)req.len) {
		fprintf(stderr, "lisa: write: %s\n", strerror(errno));
		return (2);
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	ms = timeout > 0 ? (int)(timeout * 1000) : -1;
	/*
	 * Nothing within a second, and the pane has no agent: say so then,
	 * not after the timeout (a new pane's agent is seen within it). It
	 * is waited for still: an agent typed into a shell may be next.
	 */
	if ((ms == -1 || ms > WAIT_NOTE_MS) && !fleet_is_target(pane) &&
	    poll(&pfd, 1, WAIT_NOTE_MS) == 0) {
		if (ms != -1)
			ms -= WAIT_NOTE_MS;
		if (ask_pane(ctx, "status", pane, &d) == 0) {
			obj = json_get(d, 0, "pane");
			state = obj >= 0 ? json_get_str(d, obj, "state") : NULL;
			if (obj >= 0 && state == NULL)
				fprintf(stderr, "lisa: %s has no agent (yet): "
				    "waiting for one to start\n", pane);
			free(state);
			state = NULL;
			json_free(d);
		}
	}
	if (poll(&pfd, 1, ms) == 0) {
		close(fd);
		if (fleet_is_target(pane)) {
			args[0] = (char *)"--json";
			rc = cmd_remote(ctx, "status", pane, args, 1);
		} else
			rc = cmd_status(ctx, pane, 1);
		return (rc == 2 ? 2 : 1);
	}
	/* The reply is there: read it like any other. */
	if (client_request(fd, "", &reply, &cause) != 0 ||
	    (d = json_parse(reply, strlen(reply), &cause)) == NULL) {
		fprintf(stderr, "lisa: %s\n", cause);
		return (2);
	}
	close(fd);
	if ((obj = json_get(d, 0, "pane")) < 0) {
		state = json_get_str(d, 0, "error");
		fprintf(stderr, "lisa: %s\n", state != NULL ? state : reply);
		free(state);
		return (2);
	}
	json_dump(d, obj, stdout);
	printf("\n");
	state = json_get_str(d, obj, "state");
	rc = 0;
	if (state != NULL && strcmp(state, "not_found") == 0 &&
	    (until == NULL || strstr(until, "not_found") == NULL))
		rc = 2;
	free(state);
	free(reply);
	free(pane);
	json_free(d);
	buf_free(&req);
	return (rc);
}
