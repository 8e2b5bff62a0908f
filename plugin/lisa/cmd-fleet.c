/*
 * The command line's side of the fleet (docs/fleet.md): `lisa hosts`, and
 * commands on a remote pane, %N@HOST, which the helper runs on that host
 * through its ssh connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisa.h"

/* A target of the fleet's form: %N@HOST (tmux's never look like it). */
int
fleet_is_target(const char *s)
{
	const char	*p;

	if (s == NULL || s[0] != '%' || (p = strchr(s, '@')) == NULL ||
	    p == s + 1 || p[1] == '\0')
		return (0);
	for (s++; s < p; s++) {
		if (*s < '0' || *s > '9')
			return (0);
	}
	return (1);
}

/*
 * Run `lisa CMD %N ARGS...` on the pane's host: its output is printed
 * here, its exit status is ours.
 */
int
cmd_remote(struct lisa_ctx *ctx, const char *cmd, const char *target,
    char **args, int nargs)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*cause = NULL, *out, *at;
	long long	 rc = 1;
	int		 i;

	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"remote\"");
	json_key(&req, "target");
	json_cstr(&req, target);
	json_key(&req, "argv");
	buf_addc(&req, '[');
	json_cstr(&req, cmd);
	/* The pane, as its host knows it ("@HOST": the host's own). */
	if (target[0] != '@')
		buf_adds(&req, ",\"-\"");
	for (i = 0; i < nargs; i++) {
		buf_addc(&req, ',');
		json_cstr(&req, args[i]);
	}
	buf_adds(&req, "]}\n");
	/* (an answer waits for the host's, which waits for its agent) */
	if (client_call_ms(ctx, req.data, &d, &cause, strcmp(cmd, "answer") ==
	    0 || strcmp(cmd, "resume") == 0 ? CLIENT_ANSWER_MS + 5000 :
	    CLIENT_TIMEOUT_MS) != 0) {
		fprintf(stderr, "lisa: %s\n", cause);
		free(cause);
		buf_free(&req);
		return (1);
	}
	buf_free(&req);
	json_get_int(d, 0, "rc", &rc);
	if ((out = json_get_str(d, 0, "out")) != NULL) {
		/* The remote's JSON is its own view: the pane is remote here. */
		if (rc == 0 && (at = strstr(out, "\"host\":null")) != NULL) {
			buf_init(&req);
			buf_add(&req, out, (size_t)(at - out));
			buf_adds(&req, "\"host\":");
			json_cstr(&req, strchr(target, '@') + 1);
			buf_adds(&req, at + 11);
			free(out);
			out = buf_detach(&req);
		}
		fputs(out, rc == 0 ? stdout : stderr);
		free(out);
	}
	json_free(d);
	return ((int)rc);
}

/* lisa hosts [--json]: each @lisa-hosts entry, its state, since, why. */
int
cmd_hosts(struct lisa_ctx *ctx, int json)
{
	struct json_doc	*d;
	char		*cause = NULL, *v[4];
	int		 hosts, n, i, j, item;
	long long	 panes, resume;
	static const char *keys[] = { "host", "state", "since", "reason" };

	if (client_call(ctx, "{\"cmd\":\"hosts\"}\n", &d, &cause) != 0) {
		fprintf(stderr, "lisa: %s\n", cause);
		free(cause);
		return (1);
	}
	hosts = json_get(d, 0, "hosts");
	if (json) {
		json_dump(d, hosts, stdout);
		printf("\n");
		json_free(d);
		return (0);
	}
	n = json_array_size(d, hosts);
	if (n == 0)
		printf("no hosts (set -g @lisa-hosts 'HOST ...')\n");
	else
		printf("%-24s %-11s %-6s %-6s %-24s %s\n", "HOST", "STATE",
		    "PANES", "RESUME", "SINCE", "REASON");
	for (i = 0; i < n; i++) {
		item = json_array_item(d, hosts, i);
		for (j = 0; j < 4; j++)
			v[j] = json_get_str(d, item, keys[j]);
		panes = resume = 0;
		json_get_int(d, item, "panes", &panes);
		/* Agents of an ended tmux there: lisa resume --host HOST. */
		json_get_int(d, item, "resume", &resume);
		utf8_column(stdout, v[0] ? v[0] : "?", 24);
		printf(" %-11s %-6lld %-6lld %-24s %s\n", v[1] ? v[1] : "?",
		    panes, resume, v[2] ? v[2] : "", v[3] ? v[3] : "");
		for (j = 0; j < 4; j++)
			free(v[j]);
	}
	json_free(d);
	return (0);
}
