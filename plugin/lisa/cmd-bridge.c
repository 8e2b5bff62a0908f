/*
 * lisa bridge: the remote end of a fleet connection (docs/fleet.md). The
 * local helper runs it over ssh; it makes sure this host's helper runs,
 * then copies that helper's pane stream (the "fleet" request) to stdout,
 * and runs the few commands the local side may ask for, read from stdin.
 * It listens on nothing: ssh's channel is its only way in.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

#define BRIDGE_MAX_REQUEST	(64 * 1024)
#define BRIDGE_MAX_OUTPUT	(64 * 1024)
#define BRIDGE_MAX_ARGS		8

/* What the local side may run here, and nothing else. */
static const char *bridge_allowed[] = {
	"status", "explain", "nudge", "answer", "kill", "retry", "dismiss",
	"resume", NULL
};

static int
bridge_write(const char *data, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		n = write(1, data, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return (-1);
		data += n;
		len -= (size_t)n;
	}
	return (0);
}

/* Run `lisa -S SOCKET ARGV...`, its output and status into *b. */
static void
bridge_run(struct lisa_ctx *ctx, char **argv, int argc, struct buf *out,
    int *rc)
{
	const char	*av[BRIDGE_MAX_ARGS + 4];
	char		*self = client_self(), tmp[4096];
	int		 fds[2], i, k = 0, status, fd;
	ssize_t		 n;
	pid_t		 pid;

	*rc = 127;
	if (pipe(fds) != 0) {
		free(self);
		return;
	}
	av[k++] = self;		/* (where the system cannot say, its path) */
	av[k++] = "-S";
	av[k++] = ctx->sid.socket;
	for (i = 0; i < argc; i++)
		av[k++] = argv[i];
	av[k] = NULL;
	if ((pid = fork()) == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		if ((fd = open("/dev/null", O_RDONLY)) != -1)
			dup2(fd, 0);
		/* (a helper it starts must not hold our pipe open) */
		for (fd = 3; fd < 256; fd++)
			close(fd);
		execv(self, (char *const *)av);
		_exit(127);
	}
	close(fds[1]);
	free(self);
	if (pid == -1) {
		close(fds[0]);
		return;
	}
	while ((n = read(fds[0], tmp, sizeof tmp)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			break;
		if (out->len + (size_t)n <= BRIDGE_MAX_OUTPUT)
			buf_add(out, tmp, (size_t)n);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	*rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 +
	    (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* {"id":N,"argv":[...]} from the local side: run it, answer. */
static int
bridge_request(struct lisa_ctx *ctx, const char *line, size_t len)
{
	struct json_doc	*d;
	struct buf	 b, out;
	char		*argv[BRIDGE_MAX_ARGS], *cause = NULL, *t;
	long long	 id = -1;
	int		 arr, n, i, rc = 2, ok = 1;

	buf_init(&b);
	buf_init(&out);
	memset(argv, 0, sizeof argv);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (0);		/* not ours to answer */
	}
	json_get_int(d, 0, "id", &id);
	/*
	 * {"t":"ping","id":N}: the local side asks whether this connection
	 * still carries (it stalled, or slept): answered here at once, after
	 * whatever the helper's stream had before it.
	 */
	if ((t = json_get_str(d, 0, "t")) != NULL && strcmp(t, "ping") == 0) {
		free(t);
		json_free(d);
		buf_printf(&b, "{\"t\":\"pong\",\"id\":%lld}\n", id);
		rc = bridge_write(b.data, b.len);
		buf_free(&b);
		return (rc);
	}
	free(t);
	arr = json_get(d, 0, "argv");
	n = json_array_size(d, arr);
	if (n < 1 || n > BRIDGE_MAX_ARGS)
		ok = 0;
	for (i = 0; ok && i < n; i++) {
		if (json_tok_str(d, json_array_item(d, arr, i),
		    &argv[i]) != 0)
			ok = 0;
	}
	if (ok) {
		for (i = 0; bridge_allowed[i] != NULL; i++) {
			if (strcmp(argv[0], bridge_allowed[i]) == 0)
				break;
		}
		ok = bridge_allowed[i] != NULL;
	}
	if (ok)
		bridge_run(ctx, argv, n, &out, &rc);
	else
		buf_adds(&out, "lisa bridge: not a command the fleet runs\n");
	buf_adds(&b, "{\"t\":\"reply\"");
	json_key(&b, "id");
	buf_printf(&b, "%lld", id);
	json_key(&b, "rc");
	buf_printf(&b, "%d", rc);
	json_key(&b, "out");
	json_str(&b, out.data != NULL ? out.data : "", out.len);
	buf_adds(&b, "}\n");
	/* What is left to resume, for lisa hosts. */
	if (ok && strcmp(argv[0], "resume") == 0)
		buf_printf(&b, "{\"t\":\"resume\",\"resume\":%d}\n",
		    resume_count(ctx));
	for (i = 0; i < n && i < BRIDGE_MAX_ARGS; i++)
		free(argv[i]);
	json_free(d);
	buf_free(&out);
	rc = bridge_write(b.data, b.len);
	buf_free(&b);
	return (rc);
}

/* Start this host's helper: `lisa start`, quietly. */
static int
bridge_start(struct lisa_ctx *ctx)
{
	struct buf	out;
	char		*argv[] = { (char *)"start" };
	int		 rc;

	buf_init(&out);
	bridge_run(ctx, argv, 1, &out, &rc);
	if (rc != 0)
		fprintf(stderr, "lisa bridge: lisa start: %.*s", (int)out.len,
		    out.data != NULL ? out.data : "");
	buf_free(&out);
	return (rc);
}

int
cmd_bridge(struct lisa_ctx *ctx)
{
	struct pollfd	 pfd[2];
	struct buf	 hin, rin, hello;
	char		*cause = NULL, tmp[65536], *nl, host[256];
	int		 fd = -1, started = 0, i, first = 1;
	ssize_t		 n;
	size_t		 len;

	signal(SIGPIPE, SIG_IGN);
	if (!client_server_up(ctx)) {
		fprintf(stderr, "lisa bridge: no tmux server at %s\n",
		    ctx->sid.socket);
		return (1);
	}
	if ((fd = client_connect(ctx->sockpath, &cause)) == -1) {
		free(cause);
		cause = NULL;
		if (bridge_start(ctx) != 0)
			return (1);
		started = 1;
		for (i = 0; i < 500 && fd == -1; i++) {
			if ((fd = client_connect(ctx->sockpath, &cause)) == -1) {
				free(cause);
				cause = NULL;
				usleep(10000);
			}
		}
		if (fd == -1) {
			fprintf(stderr, "lisa bridge: helper did not come up\n");
			return (1);
		}
	}
	if (gethostname(host, sizeof host) != 0)
		strlcpy(host, "?", sizeof host);
	host[sizeof host - 1] = '\0';
	buf_init(&hello);
	buf_adds(&hello, "{\"t\":\"hello\",\"v\":1");
	json_key(&hello, "lisa");
	json_cstr(&hello, LISA_VERSION);
	json_key(&hello, "system");
	json_cstr(&hello, osdep_name);
	json_key(&hello, "hostname");
	json_cstr(&hello, host);
	json_key(&hello, "resume");
	buf_printf(&hello, "%d", resume_count(ctx));
	json_key(&hello, "started");
	buf_adds(&hello, started ? "true}\n" : "false}\n");
	if (bridge_write(hello.data, hello.len) != 0 ||
	    write(fd, "{\"cmd\":\"fleet\"}\n", 16) != 16) {
		buf_free(&hello);
		return (1);
	}
	buf_free(&hello);
	buf_init(&hin);
	buf_init(&rin);
	for (;;) {
		pfd[0].fd = fd;
		pfd[0].events = POLLIN;
		pfd[1].fd = 0;
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents != 0) {
			n = read(fd, tmp, sizeof tmp);
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0) {
				fprintf(stderr, "lisa bridge: the helper for "
				    "%s stopped\n", ctx->sid.socket);
				break;
			}
			buf_add(&hin, tmp, (size_t)n);
			/* Whole lines only; the first is the reply. */
			while ((nl = memchr(hin.data, '\n', hin.len)) != NULL) {
				len = (size_t)(nl - hin.data) + 1;
				if (!first && bridge_write(hin.data, len) != 0)
					goto out;
				if (first && strncmp(hin.data,
				    "{\"ok\":true", 10) != 0) {
					fprintf(stderr, "lisa bridge: %.*s",
					    (int)len, hin.data);
					goto out;
				}
				first = 0;
				buf_consume(&hin, len);
			}
		}
		if (pfd[1].revents != 0) {
			n = read(0, tmp, sizeof tmp);
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0)
				break;	/* the local side went: so do we */
			buf_add(&rin, tmp, (size_t)n);
			while ((nl = memchr(rin.data, '\n', rin.len)) != NULL) {
				len = (size_t)(nl - rin.data);
				if (bridge_request(ctx, rin.data, len) != 0)
					goto out;
				buf_consume(&rin, len + 1);
			}
			if (rin.len > BRIDGE_MAX_REQUEST)
				break;
		}
	}
out:
	buf_free(&hin);
	buf_free(&rin);
	close(fd);
	return (1);
}
