/*
 * Commands on a remote pane (lisa nudge %N@HOST, ...): sent down the
 * host's ssh to its bridge, one JSON line each with an id, and the answer
 * routed back to the CLI that asked (docs/fleet.md). A host keeps at most
 * FLEET_MAX_REQS in flight; an asker that leaves is forgotten, its answer
 * dropped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet.h"
#include "tell.h"

#define FLEET_MAX_REQS		32	/* a host's requests in flight */

static long long	 fleet_next_id = 1;

static int	fleet_request(struct fleet_host *, char **, int,
		    struct listener_conn *, fleet_done_cb, void *, char **);

/* Run `lisa ARGV` on h (through its bridge); lc gets the answer. */
int
fleet_send(struct fleet_host *h, char **argv, int argc,
    struct listener_conn *lc, char **cause)
{
	return (fleet_request(h, argv, argc, lc, NULL, NULL, cause));
}

/*
 * The same for a caller in the helper (a phone's tap): DONE gets its exit
 * status and output (cleaned), once; or status -1 and why, if the host
 * goes before it answers.
 */
int
fleet_send_cb(struct fleet_host *h, char **argv, int argc, fleet_done_cb done,
    void *arg, char **cause)
{
	return (fleet_request(h, argv, argc, NULL, done, arg, cause));
}

static int
fleet_request(struct fleet_host *h, char **argv, int argc,
    struct listener_conn *lc, fleet_done_cb done, void *arg, char **cause)
{
	struct fleet_req	*r;
	struct buf		 b;
	int			 i, n = 0, ok;
	ssize_t			 w;

	if (h->state != FLEET_CONNECTED || h->wfd == -1) {
		xasprintf(cause, "%s is %s", h->name, h->state ==
		    FLEET_CONNECTED ? "connecting" : fleet_state_name(h->state));
		return (-1);
	}
	TAILQ_FOREACH(r, &h->reqs, entry)
		n++;
	if (n >= FLEET_MAX_REQS) {
		xasprintf(cause, "%s: too many requests in flight", h->name);
		return (-1);
	}
	r = xcalloc(1, sizeof *r);
	r->id = fleet_next_id++;
	r->lc = lc;
	r->done = done;
	r->done_arg = arg;
	buf_init(&b);
	buf_printf(&b, "{\"id\":%lld,\"argv\":[", r->id);
	for (i = 0; i < argc; i++) {
		if (i != 0)
			buf_addc(&b, ',');
		json_cstr(&b, argv[i]);
	}
	buf_adds(&b, "]}\n");
	/* One small line into a pipe: whole, or the host is in trouble. */
	w = write(h->wfd, b.data, b.len);
	ok = w == (ssize_t)b.len;
	buf_free(&b);
	if (!ok) {
		free(r);
		xasprintf(cause, "%s: cannot write to ssh", h->name);
		return (-1);
	}
	TAILQ_INSERT_TAIL(&h->reqs, r, entry);
	return (0);
}

/* {"t":"reply","id":N,"rc":R,"out":"..."}: to whoever asked. */
int
fleet_reply(struct fleet_host *h, struct json_doc *d)
{
	struct fleet_req	*r;
	struct buf		 b;
	long long		 id, rc;
	char			*out, *c;

	if (json_get_int(d, 0, "id", &id) != 0 ||
	    json_get_int(d, 0, "rc", &rc) != 0 || rc < 0 || rc > 255)
		return (-1);
	TAILQ_FOREACH(r, &h->reqs, entry) {
		if (r->id == id)
			break;
	}
	if (r == NULL)
		return (-1);
	TAILQ_REMOVE(&h->reqs, r, entry);
	out = json_get_str(d, 0, "out");
	/* Printed on the user's terminal: no control bytes but \n. */
	c = fleet_clean_text(out != NULL ? out : "", 65536);
	free(out);
	if (r->lc != NULL) {
		buf_init(&b);
		buf_printf(&b, "{\"ok\":true,\"rc\":%lld", rc);
		json_key(&b, "out");
		json_cstr(&b, c);
		buf_addc(&b, '}');
		listener_send(r->lc, &b);
		buf_free(&b);
	}
	if (r->done != NULL)
		r->done(r->done_arg, (int)rc, c);
	free(c);
	free(r);
	return (0);
}

/* A listener connection closed: its requests answer nobody. */
void
fleet_conn_gone(struct listener_conn *lc)
{
	struct fleet_host	*h;
	struct fleet_req	*r;

	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		TAILQ_FOREACH(r, &h->reqs, entry) {
			if (r->lc == lc)
				r->lc = NULL;
		}
	}
}

/*
 * The helper's socket, for the fleet: "hosts" (lisa hosts), "remote"
 * (a command on a remote pane: {"cmd":"remote","target":"%N@HOST",
 * "argv":[...]}, the pane's local id put in for the target). 1 if it was
 * one of these.
 */
int
fleet_listener(struct listener_conn *lc, const char *cmd, struct json_doc *d)
{
	struct fleet_host	*h;
	struct buf		 b;
	char			*target, *argv[8], *cause = NULL, id[16];
	char			*id_s;
	int			 arr, n, i, pid, ok = 1;

	if (strcmp(cmd, "hosts") == 0) {
		buf_init(&b);
		buf_adds(&b, "{\"ok\":true,\"hosts\":");
		fleet_hosts_json(&b);
		buf_addc(&b, '}');
		listener_send(lc, &b);
		buf_free(&b);
		return (1);
	}
	if (strcmp(cmd, "jump") == 0) {
		target = json_get_str(d, 0, "target");
		if ((id_s = json_get_str(d, 0, "window")) != NULL &&
		    id_s[0] == '@' && strspn(id_s + 1, "0123456789") ==
		    strlen(id_s + 1) && id_s[1] != '\0' && strlen(id_s) < 11)
			fleet_jump_set(atoi(id_s + 1), target);
		free(id_s);
		free(target);
		buf_init(&b);
		buf_adds(&b, "{\"ok\":true}");
		listener_send(lc, &b);
		buf_free(&b);
		return (1);
	}
	if (strcmp(cmd, "remote") != 0)
		return (0);
	target = json_get_str(d, 0, "target");
	arr = json_get(d, 0, "argv");
	n = json_array_size(d, arr);
	memset(argv, 0, sizeof argv);
	/* "@HOST": a command of the host's own (lisa resume), no pane. */
	if (target != NULL && target[0] == '@') {
		pid = -1;
		if ((h = fleet_find(target + 1)) == NULL) {
			listener_send_error(lc, "no such host (as in "
			    "@lisa-hosts)");
			free(target);
			return (1);
		}
	} else if (fleet_parse_target(target, &h, &pid) != 0) {
		listener_send_error(lc, "no such remote pane (%N@HOST, HOST "
		    "as in @lisa-hosts)");
		free(target);
		return (1);
	}
	free(target);
	if (n < 1 || n > 7) {
		listener_send_error(lc, "bad argv");
		return (1);
	}
	snprintf(id, sizeof id, "%%%d", pid);
	for (i = 0; i < n && ok; i++) {
		if (json_tok_str(d, json_array_item(d, arr, i), &argv[i]) != 0)
			ok = 0;
		/* The target, as the remote knows it. */
		else if (strcmp(argv[i], "-") == 0 && pid != -1) {
			free(argv[i]);
			argv[i] = xstrdup(id);
		}
	}
	if (!ok || (pid == -1 && strcmp(argv[0], "resume") != 0))
		listener_send_error(lc, "bad argv");
	else if (fleet_send(h, argv, n, lc, &cause) != 0) {
		listener_send_error(lc, cause);
		free(cause);
	}
	for (i = 0; i < n; i++)
		free(argv[i]);
	return (1);
}
