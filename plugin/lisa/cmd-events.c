/*
 * lisa events: what the helper recorded, for people (a line each) or as
 * JSON; a remote pane's as %N@HOST, a host's own by its name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisa.h"

static __attribute__((noreturn)) void
events_die(const char *cause)
{
	fprintf(stderr, "lisa: %s\n", cause != NULL ? cause : "?");
	exit(1);
}

/*
 * What a pane event says beyond its name, for people: who asked, what
 * ended how (a run's or an agent's termination), what a signal hit.
 */
static void
event_summary(struct json_doc *d, int item, const char *detail,
    struct buf *b)
{
	static const char *words[] = { "name", "agent", "by", "refused",
	    "forced_past", "chose", "then" };
	char		*v;
	long long	 n, sig;
	size_t		 i;
	int		 t;

	buf_init(b);
	buf_adds(b, detail);
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		if ((v = json_get_str(d, item, words[i])) == NULL)
			continue;
		/* Who asked: the user (a command, a menu) or lisa itself. */
		buf_printf(b, "%s%s %s", b->len != 0 ? ", " : "", words[i],
		    strcmp(words[i], "by") != 0 ? v : strcmp(v, "user") == 0 ?
		    "you" : strcmp(v, "daemon") == 0 ? "lisa" : v);
		free(v);
	}
	if (json_get_int(d, item, "attempt", &n) == 0)
		buf_printf(b, "%sattempt %lld", b->len != 0 ? ", " : "", n);
	if (json_get_int(d, item, "signal", &sig) == 0) {
		buf_printf(b, "%s%s", b->len != 0 ? ", " : "", sig == 9 ?
		    "SIGKILL" : sig == 15 ? "SIGTERM" : "signal");
		if (sig != 9 && sig != 15)
			buf_printf(b, " %lld", sig);
		if (json_get_int(d, item, "processes", &n) == 0)
			buf_printf(b, " to %lld process%s", n, n == 1 ? "" :
			    "es");
	}
	if ((t = json_get(d, item, "termination")) >= 0 &&
	    (v = json_get_str(d, t, "message")) != NULL) {
		buf_printf(b, "%s%s", b->len != 0 ? ": " : "", v);
		free(v);
	}
}

/* One event, for people. */
static void
print_event(struct json_doc *d, int item, int json)
{
	static const char *keys[] = { "pane_id", "event", "agent", "from",
	    "to", "detail", "reason" };
	char		 when[32], *v[7], *host, *at;
	struct buf	 sum;
	time_t		 t;
	struct tm	 tm;
	long long	 ts = 0;
	size_t		 i;

	if (json) {
		json_dump(d, item, stdout);
		printf("\n");
		return;
	}
	for (i = 0; i < 7; i++) {
		if ((v[i] = json_get_str(d, item, keys[i])) == NULL)
			v[i] = xstrdup("");
	}
	/* A remote pane's, as %N@HOST; a host's own: HOST. */
	if ((host = json_get_str(d, item, "host")) != NULL && *v[0] == '\0') {
		free(v[0]);
		v[0] = host;
	} else if (host != NULL) {
		xasprintf(&at, "%s@%s", v[0], host);
		free(v[0]);
		free(host);
		v[0] = at;
	}
	json_get_int(d, item, "ts_ms", &ts);
	t = (time_t)(ts / 1000);
	localtime_r(&t, &tm);
	strftime(when, sizeof when, "%H:%M:%S", &tm);
	if (strcmp(v[1], "host") == 0)	/* (fleet.c: connected, down...) */
		printf("%s.%03lld %s: %s -> %s%s%s\n", when, ts % 1000, v[0],
		    v[3], v[4], *v[6] != '\0' ? "  " : "", v[6]);
	else if (strcmp(v[1], "transition") == 0)
		printf("%s.%03lld %-6s %-8s %s -> %s%s%s%s  %s\n", when,
		    ts % 1000, v[0], v[2], v[3], v[4], *v[5] != '\0' ? " (" :
		    "", v[5], *v[5] != '\0' ? ")" : "", v[6]);
	else {
		event_summary(d, item, v[5], &sum);
		printf("%s.%03lld %-6s %-8s %s\n", when, ts % 1000, v[0], v[1],
		    sum.data);
		buf_free(&sum);
	}
	for (i = 0; i < 7; i++)
		free(v[i]);
}

/* An event's server ("PID-START"), "" if it says none. */
static char *
event_server_of(struct json_doc *d, int item)
{
	char	*srv = json_get_str(d, item, "server");

	return (srv != NULL ? srv : xstrdup(""));
}

/*
 * Events of more than one tmux server (one that ended and its successor
 * share the socket, the file and the %N): a line before each server's,
 * naming it. *last is the server of the line before ("" at first); mixed
 * says whether to say it at all.
 */
static void
event_server(struct json_doc *d, int item, char **last, int mixed)
{
	char		*srv = event_server_of(d, item), when[32];
	time_t		 t;
	struct tm	 tm;
	long long	 pid, start;

	if (strcmp(srv, *last) == 0) {
		free(srv);
		return;
	}
	if (mixed) {
		if (sscanf(srv, "%lld-%lld", &pid, &start) == 2) {
			t = (time_t)start;
			localtime_r(&t, &tm);
			strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
			printf("-- tmux server %lld, started %s --\n", pid,
			    when);
		} else
			printf("-- tmux server unknown --\n");
	}
	free(*last);
	*last = srv;
}

/* Do the events come from more than one tmux server? */
static int
events_mixed(struct json_doc *d, int evs, int n)
{
	char	*first = NULL, *srv;
	int	 i, mixed = 0;

	for (i = 0; i < n && !mixed; i++) {
		srv = event_server_of(d, json_array_item(d, evs, i));
		if (first == NULL)
			first = srv;
		else {
			mixed = strcmp(first, srv) != 0;
			free(srv);
		}
	}
	free(first);
	return (mixed);
}

int
cmd_events(struct lisa_ctx *ctx, struct args *a)
{
	struct json_doc	*d, *e;
	struct buf	 in, req;
	char		*cause = NULL, *nl, tmp[65536], *pane = NULL, *host = NULL;
	char		*server = xstrdup("");
	int		 evs, i, n, fd = -1, mixed;
	long long	 since = a->since_ms, last = 0, ts;
	ssize_t		 got;

	/* One pane's own: %N here (resolved as tmux does), or %N@HOST. */
	if (a->argc > 1) {
		if (fleet_is_target(a->argv[1])) {
			pane = xstrdup(a->argv[1]);
			host = strchr(pane, '@');
			*host++ = '\0';
		} else if ((pane = client_resolve(ctx, a->argv[1])) == NULL)
			return (1);
	}
	/* Follow first, so nothing falls between history and the stream. */
	if (a->follow) {
		char	*reply = NULL;

		if ((fd = client_connect(ctx->sockpath, &cause)) == -1 ||
		    client_request(fd, "{\"cmd\":\"follow\"}\n", &reply,
		    &cause) != 0)
			events_die(cause);
		free(reply);
	}
	buf_init(&req);
	buf_printf(&req, "{\"cmd\":\"events\",\"since\":%lld}\n", since);
	if (client_call(ctx, req.data, &d, &cause) != 0)
		events_die(cause);
	buf_free(&req);
	evs = json_get(d, 0, "events");
	n = json_array_size(d, evs);
	mixed = events_mixed(d, evs, n);
	for (i = 0; i < n; i++) {
		if (json_get_int(d, json_array_item(d, evs, i), "ts_ms",
		    &ts) == 0)
			last = ts;
		if (pane == NULL || event_of_pane(ctx, d,
		    json_array_item(d, evs, i), pane, host)) {
			if (!a->json)
				event_server(d, json_array_item(d, evs, i),
				    &server, mixed);
			print_event(d, json_array_item(d, evs, i), a->json);
		}
	}
	json_free(d);
	fflush(stdout);
	if (!a->follow) {
		free(pane);
		free(server);
		return (0);
	}
	buf_init(&in);
	while ((got = read(fd, tmp, sizeof tmp)) > 0) {
		buf_add(&in, tmp, (size_t)got);
		while ((nl = memchr(in.data, '\n', in.len)) != NULL) {
			if ((e = json_parse(in.data, (size_t)(nl - in.data),
			    &cause)) != NULL) {
				if ((json_get_int(e, 0, "ts_ms", &ts) != 0 ||
				    ts >= last) && (pane == NULL ||
				    event_of_pane(ctx, e, 0, pane, host))) {
					if (!a->json)
						event_server(e, 0, &server,
						    *server != '\0');
					print_event(e, 0, a->json);
				}
				json_free(e);
			}
			buf_consume(&in, (size_t)(nl - in.data) + 1);
		}
		fflush(stdout);
	}
	buf_free(&in);
	free(pane);
	free(server);
	return (0);
}
