/* Connecting to the helper and exchanging one JSON line each way. */
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"


int
client_setup(struct lisa_ctx *ctx, const char *label, const char *path,
    char **cause)
{
	memset(ctx, 0, sizeof *ctx);
	if (server_find(&ctx->sid, label, path, cause) != 0)
		return (-1);
	if (runtime_dir(&ctx->rundir, cause) != 0)
		return (-1);
	ctx->sockpath = runtime_path(ctx->rundir, ctx->sid.key, ".sock");
	ctx->lockpath = runtime_path(ctx->rundir, ctx->sid.key, ".lock");
	return (0);
}

int
client_connect(const char *path, char **cause)
{
	struct sockaddr_un	sa;
	int			fd;

	if (runtime_sockaddr(path, &sa, cause) != 0)
		return (-1);
	if ((fd = compat_socket_unix(0)) == -1) {
		xasprintf(cause, "socket: %s", strerror(errno));
		return (-1);
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		xasprintf(cause, "helper not running (%s)", strerror(errno));
		close(fd);
		return (-1);
	}
	return (fd);
}

/* Send one request line, read one reply line. */
int
client_request(int fd, const char *req, char **reply, char **cause)
{
	return (client_request_ms(fd, req, reply, cause, CLIENT_TIMEOUT_MS));
}

/* The same, waiting at most ms for the reply. */
int
client_request_ms(int fd, const char *req, char **reply, char **cause,
    int ms)
{
	struct buf	 b;
	struct pollfd	 pfd;
	size_t		 off = 0, len = strlen(req);
	ssize_t		 n;
	char		 tmp[65536], *nl;

	while (off < len) {
		n = write(fd, req + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			xasprintf(cause, "write: %s", strerror(errno));
			return (-1);
		}
		off += (size_t)n;
	}
	buf_init(&b);
	for (;;) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, ms) == 0) {
			xasprintf(cause, "helper did not answer");
			buf_free(&b);
			return (-1);
		}
		n = read(fd, tmp, sizeof tmp);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			xasprintf(cause, "helper closed the connection");
			buf_free(&b);
			return (-1);
		}
		buf_add(&b, tmp, (size_t)n);
		if ((nl = memchr(b.data, '\n', b.len)) != NULL) {
			*nl = '\0';
			b.len = (size_t)(nl - b.data);
			break;
		}
	}
	*reply = buf_detach(&b);
	return (0);
}

/* Connect, ask, parse; the reply must say ok. */
/* {"cmd":CMD,"pane":PANE} to the helper, its answer in *d. */
int
client_ask_pane(struct lisa_ctx *ctx, const char *cmd, const char *pane,
    struct json_doc **d, char **cause)
{
	struct buf	 req;
	int		 rc;

	buf_init(&req);
	buf_printf(&req, "{\"cmd\":\"%s\",\"pane\":", cmd);
	json_cstr(&req, pane);
	buf_adds(&req, "}\n");
	rc = client_call(ctx, req.data, d, cause);
	buf_free(&req);
	return (rc);
}

int
client_call(struct lisa_ctx *ctx, const char *req, struct json_doc **out,
    char **cause)
{
	/* A key's client waits on us (cmd-key-to.c): not for long. */
	return (client_call_ms(ctx, req, out, cause, ctx->key_to != NULL ?
	    CLIENT_KEY_MS : CLIENT_TIMEOUT_MS));
}

/* The same, for a request the helper takes longer over (lisa answer). */
int
client_call_ms(struct lisa_ctx *ctx, const char *req, struct json_doc **out,
    char **cause, int ms)
{
	struct json_doc	*d;
	char		*reply, *err;
	int		 fd, ok = 0;

	if ((fd = client_connect(ctx->sockpath, cause)) == -1)
		return (-1);
	if (client_request_ms(fd, req, &reply, cause, ms) != 0) {
		close(fd);
		return (-1);
	}
	close(fd);
	if ((d = json_parse(reply, strlen(reply), cause)) == NULL) {
		free(reply);
		return (-1);
	}
	free(reply);
	if (json_get_bool(d, 0, "ok", &ok) != 0 || !ok) {
		err = json_get_str(d, 0, "error");
		xasprintf(cause, "%s", err != NULL ? err : "request failed");
		free(err);
		json_free(d);
		return (-1);
	}
	*out = d;
	return (0);
}

/*
 * tmux ARGV run by the helper on its control connection (key-tmux.c): its
 * exit status as a tmux client's would be; -2 if the helper would not (an
 * older helper, a command it does not run), so the caller runs tmux;
 * -1 if tmux did not answer it (a tmux client would wait as long).
 */
static int
client_tmux_helper(struct lisa_ctx *ctx, char **out, const char *const *argv)
{
	struct json_doc	*d;
	struct buf	 req;
	char		*cause = NULL;
	long long	 status;
	int		 i, rc;

	*out = NULL;
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"tmux\",\"argv\":[");
	for (i = 0; argv[i] != NULL; i++) {
		if (i != 0)
			buf_addc(&req, ',');
		json_cstr(&req, argv[i]);
	}
	buf_adds(&req, "]}\n");
	rc = client_call(ctx, req.data, &d, &cause);
	buf_free(&req);
	if (rc != 0) {
		rc = cause != NULL && strcmp(cause, "tmux did not answer") == 0 ?
		    -1 : -2;
		free(cause);
		return (rc);
	}
	if (json_get_int(d, 0, "status", &status) != 0)
		status = 1;
	if (status == 0)
		*out = json_get_str(d, 0, "out");
	json_free(d);
	return ((int)status);
}

/*
 * Run "tmux -u -S SOCKET ARGV..." (or "tmux -V" when ctx is NULL) with no
 * stdin or stderr; *out gets its output. Returns its
 * exit status, or -1.
 */
int
client_tmux_all(struct lisa_ctx *ctx, char **out, const char *const *argv)
{
	const char	*full[40];
	int		 n = 0, rc;

	/* A key's: on the helper's connection, no tmux client started. */
	if (ctx != NULL && ctx->key_to != NULL &&
	    (rc = client_tmux_helper(ctx, out, argv)) != -2)
		return (rc);
	full[n++] = "tmux";
	if (ctx == NULL)
		full[n++] = "-V";
	else {
		full[n++] = "-N";	/* never start a server */
		full[n++] = "-u";
		full[n++] = "-S";
		full[n++] = ctx->sid.socket;
		for (; *argv != NULL && n < 39; argv++)
			full[n++] = *argv;
	}
	full[n] = NULL;
	return (client_capture("tmux", full, out));
}

/*
 * Run FILE (searched in PATH) with ARGV, stdin and stderr on /dev/null,
 * and collect its standard output. Its exit status, or -1.
 */
int
client_capture(const char *file, const char *const *argv, char **out)
{
	return (client_capture_err(file, argv, out, 0));
}

/*
 * Run FILE with ARGV and INPUT on its standard input (its output and
 * errors on /dev/null). Its exit status, or -1.
 */
int
client_feed(const char *file, const char *const *argv, const char *input)
{
	int	 p[2], status, null, rc;
	size_t	 len = strlen(input);
	pid_t	 pid;

	if (pipe(p) != 0)
		return (-1);
	if ((pid = fork()) == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(p[0], 0);
		dup2(null, 1);
		dup2(null, 2);
		close(p[0]);
		close(p[1]);
		execvp(file, (char **)argv);
		_exit(127);
	}
	close(p[0]);
	rc = pid != -1 && write(p[1], input, len) == (ssize_t)len ? 0 : -1;
	close(p[1]);
	if (pid == -1)
		return (-1);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (rc != 0 || !WIFEXITED(status))
		return (-1);
	return (WEXITSTATUS(status));
}

/* The same; with merge, its standard error goes into *out too. */
int
client_capture_err(const char *file, const char *const *argv, char **out,
    int merge)
{
	struct buf	 b;
	char		 tmp[4096];
	int		 p[2], status, null;
	ssize_t		 r;
	pid_t		 pid;

	*out = NULL;
	if (pipe(p) != 0)
		return (-1);
	if ((pid = fork()) == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(p[1], 1);
		dup2(merge ? p[1] : null, 2);
		close(p[0]);
		execvp(file, (char **)argv);
		_exit(127);
	}
	close(p[1]);
	buf_init(&b);
	while ((r = read(p[0], tmp, sizeof tmp)) > 0)
		buf_add(&b, tmp, (size_t)r);
	close(p[0]);
	if (pid == -1 || waitpid(pid, &status, 0) == -1) {
		buf_free(&b);
		return (-1);
	}
	*out = buf_detach(&b);
	return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/*
 * The tmux server running now, as "PID-START" (its pid and start time):
 * a server started again at the same socket is another instance, and what
 * lisa recorded of the old one (runs, events) is not about its panes. ""
 * when tmux does not say (no server).
 */
const char *
client_instance(struct lisa_ctx *ctx)
{
	const char	*argv[] = { "display-message", "-p",
			    "#{pid}-#{start_time}", NULL };
	char		*out = NULL;

	if (ctx->instance != NULL)
		return (ctx->instance);
	if (client_tmux(ctx, &out, argv) != 0 || out == NULL ||
	    strspn(out, "0123456789-") != strlen(out) || *out == '-') {
		free(out);
		out = xstrdup("");
	}
	ctx->instance = out;
	return (out);
}

/* The same, first line only. */
int
client_tmux(struct lisa_ctx *ctx, char **out, const char *const *argv)
{
	int	rc;

	rc = client_tmux_all(ctx, out, argv);
	if (*out != NULL)
		(*out)[strcspn(*out, "\n")] = '\0';
	return (rc);
}

/*
 * Run tmux ARGV (its -F format "ID VALUE") and return the first ID (a tmux
 * id starting with lead: '%', '@', '$') whose VALUE is value, or NULL. An
 * id has no space, so it goes first and a space separates.
 */
char *
client_tmux_find(struct lisa_ctx *ctx, const char *const *argv, char lead,
    const char *value)
{
	char	*out = NULL, *line, *rest, *sep, *found = NULL;

	if (client_tmux_all(ctx, &out, argv) != 0 || out == NULL) {
		free(out);
		return (NULL);
	}
	rest = out;
	while ((line = strsep(&rest, "\n")) != NULL) {
		if (line[0] != lead || (sep = strchr(line, ' ')) == NULL)
			continue;
		*sep++ = '\0';
		if (strcmp(sep, value) == 0) {
			found = xstrdup(line);
			break;
		}
	}
	free(out);
	return (found);
}

/*
 * What the server's tmux can do, asked of the server itself (its binary
 * may not be the tmux in PATH). Unknown versions count as recent.
 */
void
client_tmux_caps(struct lisa_ctx *ctx, struct tmux_caps *caps)
{
	const char		*argv[] = { "display-message", "-p",
				    "#{version}", NULL };
	struct tmux_version	 v;
	char			*out = NULL;

	if (ctx != NULL && *ctx->key_version != '\0')
		out = xstrdup(ctx->key_version);	/* (the key said) */
	else if (client_tmux(ctx, &out, argv) != 0)
		out = NULL;
	if (out == NULL || tmux_version_parse(out, &v) != 0) {
		memset(&v, 0, sizeof v);
		v.major = TMUX_NEWEST_MAJOR;
		v.minor = TMUX_NEWEST_MINOR;
	}
	free(out);
	tmux_caps_get(&v, caps);
}

/* Does a tmux server accept connections on our socket? */
int
client_server_up(struct lisa_ctx *ctx)
{
	struct sockaddr_un	sun;
	int			fd, ok;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, ctx->sid.socket, sizeof sun.sun_path) >=
	    sizeof sun.sun_path)
		return (0);
	if ((fd = compat_socket_unix(0)) == -1)
		return (0);
	ok = connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0;
	close(fd);
	return (ok);
}

/* This lisa's own path, for commands that run it again. */
char *
client_self(void)
{
	char	buf[4096];

	if (osdep_self_exe(buf, sizeof buf) != 0)
		return (xstrdup("lisa"));
	return (xstrdup(buf));
}

/*
 * A pane id the helper knows is a pane of this server (it hears tmux say
 * so): taken as it is, with no tmux client started (the suites' waits ask
 * by id hundreds of times a minute, a tmux process each). tmux's own word
 * otherwise: a pane the helper does not know (yet), another form of
 * target, no helper.
 */
static int
client_known_pane(struct lisa_ctx *ctx, const char *target)
{
	struct json_doc	*d;
	char		*cause = NULL;
	int		 known;

	if (target[0] != '%' || target[1] == '\0' ||
	    target[1 + strspn(target + 1, "0123456789")] != '\0' ||
	    strlen(target) > 12)
		return (0);
	if (client_ask_pane(ctx, "status", target, &d, &cause) != 0) {
		free(cause);
		return (0);
	}
	/* (a pane it does not know: {"pane_id":..,"state":"not_found"}) */
	known = json_get(d, json_get(d, 0, "pane"), "pane_pid") != -1;
	json_free(d);
	return (known);
}

/*
 * TARGET (or $TMUX_PANE) to "%N"; NULL, after tmux's own words on stderr,
 * if tmux has no such pane. Exactly as tmux would take it: display-message
 * alone falls back to the current pane on a target it cannot find
 * (CMD_FIND_CANFAIL), so capture-pane, which refuses one, checks it first
 * in the same tmux call.
 */
char *
client_resolve(struct lisa_ctx *ctx, const char *target)
{
	const char	*argv[] = { "tmux", "-N", "-u", "-S", ctx->sid.socket,
			    "capture-pane", "-p", "-S", "0", "-E", "0", "-t",
			    NULL, ";", "display-message", "-p", "-t", NULL,
			    "#{pane_id}", NULL };
	char		*out = NULL, *last, *nl;
	int		 rc;

	if (target == NULL)
		target = getenv("TMUX_PANE");
	if (target == NULL) {
		fprintf(stderr, "lisa: no target (not inside tmux): give a "
		    "pane, e.g. %%3 or session:1.0\n");
		exit(2);
	}
	if (client_known_pane(ctx, target))
		return (xstrdup(target));
	argv[12] = argv[17] = target;
	rc = client_capture_err("tmux", argv, &out, 1);
	/* The pane id is the last line (the first is the pane's top row). */
	while (out != NULL && (nl = strrchr(out, '\n')) != NULL &&
	    nl[1] == '\0')
		*nl = '\0';
	last = out != NULL ? ((nl = strrchr(out, '\n')) != NULL ? nl + 1 :
	    out) : NULL;
	if (rc != 0 || last == NULL || last[0] != '%' ||
	    last[strspn(last + 1, "0123456789") + 1] != '\0') {
		fprintf(stderr, "lisa: %s\n", rc != 0 && out != NULL &&
		    *out != '\0' ? out : "no such pane");
		free(out);
		return (NULL);
	}
	last = xstrdup(last);
	free(out);
	return (last);
}
