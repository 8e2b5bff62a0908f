/*
 * lisa run: start an agent in a new tmux window through a wrapper that
 * records how the run went; lisa runs: the records.
 *
 * The wrapper (`lisa _run ID`, the pane's own process) keeps the pane
 * after exit (remain-on-exit on, for this pane), runs the agent with its
 * stdin and stdout on the terminal as before and its stderr through a pipe
 * that the wrapper copies to the terminal and summarises, and writes the
 * record at each step: launching (by lisa run), running (pid), finished
 * (exit code or signal, termination). It exits the way the agent did, so
 * tmux shows the same status.
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisa.h"

#define RUN_DRAIN_MS	200	/* stderr still open after the agent */

static long long
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/*
 * Tell the helper (if it runs) that a record changed; with drain (a pane),
 * also to stop its output to the helper before the pane dies. 0 if the
 * helper said so.
 */
static int
run_poke(struct lisa_ctx *ctx, const char *id, const char *drain)
{
	struct buf	 req;
	char		*reply = NULL, *cause = NULL;
	int		 fd, rc = -1;

	if ((fd = client_connect(ctx->sockpath, &cause)) == -1) {
		free(cause);
		return (-1);
	}
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"run\",\"id\":");
	json_cstr(&req, id);
	if (drain != NULL) {
		buf_adds(&req, ",\"drain\":");
		json_cstr(&req, drain);
	}
	buf_adds(&req, "}\n");
	if (client_request(fd, req.data, &reply, &cause) != 0)
		free(cause);
	else if (strstr(reply, drain != NULL ? "\"drained\":true" :
	    "\"ok\":true") != NULL)
		rc = 0;
	free(reply);
	close(fd);
	buf_free(&req);
	return (rc);
}

/* Who asked for this run to end, if anyone: runs/ID.kill. */
static char *
run_killed_by(const char *dir, const char *id)
{
	char	*path, buf[16];
	int	 fd;
	ssize_t	 n;

	xasprintf(&path, "%s/%s.kill", dir, id);
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_CLOEXEC);
	free(path);
	if (fd == -1)
		return (NULL);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (NULL);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (strcmp(buf, "user") != 0 && strcmp(buf, "daemon") != 0)
		return (NULL);
	return (xstrdup(buf));
}

static __attribute__((noreturn)) void
run_child(struct run *r, int errfd, const sigset_t *old)
{
	int	e;

	sigprocmask(SIG_SETMASK, old, NULL);
	signal(SIGCHLD, SIG_DFL);	/* a self-pipe's (osdep-generic.c) */
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	dup2(errfd, 2);
	if (r->cwd != NULL && chdir(r->cwd) != 0)
		dprintf(2, "lisa: %s: %s\n", r->cwd, strerror(errno));
	execvp(r->argv[0], r->argv);
	e = errno;
	dprintf(2, "lisa: cannot run %s: %s\n", r->argv[0], strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

/* Copy the agent's stderr to the terminal and into the summary. */
static int
run_copy(int fd, struct run_stderr *rs)
{
	char	buf[16384];
	ssize_t	n;
	size_t	off;

	n = read(fd, buf, sizeof buf);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return (0);
	if (n <= 0)
		return (-1);
	run_stderr_feed(rs, buf, (size_t)n);
	for (off = 0; off < (size_t)n; ) {
		ssize_t w = write(2, buf + off, (size_t)n - off);

		if (w <= 0)
			break;	/* the terminal is gone: keep summarising */
		off += (size_t)w;
	}
	return (0);
}

int
cmd_run_wrapper(struct lisa_ctx *ctx, const char *id)
{
	const char		*pane = getenv("TMUX_PANE"), *drain = NULL;
	struct tmux_caps	 caps;
	const char		*argv[] = { "set-option", "-p", "-t", NULL,
				    "remain-on-exit", "on", NULL };
	struct run		 r;
	struct run_stderr	 rs;
	struct pollfd		 pfd[2];
	struct buf		 term, sj;
	sigset_t		 set, old;
	struct rlimit		 rl;
	char			*dir, *cause = NULL, *out = NULL, *killed_by;
	int			 errp[2], sfd, status = 0, done = 0, code, sig;
	long long		 drain_until = 0;
	pid_t			 child;

	if (id == NULL || (dir = run_dir(ctx->rundir, &cause)) == NULL ||
	    run_read(dir, id, &r, &cause) != 0) {
		fprintf(stderr, "lisa: run %s: %s\n", id != NULL ? id : "?",
		    cause != NULL ? cause : "no id");
		return (127);
	}
	/* This pane stays after the agent exits, whatever the user's default. */
	if (pane != NULL) {
		argv[3] = pane;
		client_tmux(ctx, &out, argv);
		free(out);
		strlcpy(r.pane, pane, sizeof r.pane);
		client_tmux_caps(ctx, &caps);
		if (!caps.dead_hook || getenv("LISA_RUN_DRAIN") != NULL)
			drain = pane;
	}

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if ((sfd = osdep_signal_fd(&set, &old)) == -1 ||
	    compat_pipe(errp) != 0) {
		fprintf(stderr, "lisa: run: %s\n", strerror(errno));
		return (127);
	}
	/* The agent gets ^C and ^\; we stay to write down what happened. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	if ((child = fork()) == -1) {
		fprintf(stderr, "lisa: fork: %s\n", strerror(errno));
		return (127);
	}
	if (child == 0) {
		close(errp[0]);
		/* O_CLOEXEC on errp[1] goes with the dup2 to fd 2. */
		run_child(&r, errp[1], &old);
	}
	close(errp[1]);
	free(r.lifecycle);
	r.lifecycle = xstrdup("running");
	r.pid = child;
	r.started = now_ms();
	if (run_write(dir, &r, &cause) != 0) {
		fprintf(stderr, "lisa: run record: %s\n", cause);
		free(cause);
	}
	run_poke(ctx, r.id, NULL);

	run_stderr_init(&rs);
	pfd[0].fd = errp[0];
	pfd[0].events = POLLIN;
	pfd[1].fd = sfd;
	pfd[1].events = POLLIN;
	for (;;) {
		int	timeout = -1;

		if (done) {
			timeout = (int)(drain_until - now_ms());
			if (timeout <= 0 || pfd[0].fd == -1)
				break;
		}
		if (poll(pfd, 2, timeout) == -1 && errno != EINTR)
			break;
		if (pfd[0].fd != -1 && (pfd[0].revents & (POLLIN|POLLHUP)) &&
		    run_copy(pfd[0].fd, &rs) != 0)
			pfd[0].fd = -1;	/* every writer closed it */
		if (!(pfd[1].revents & POLLIN) ||
		    (sig = osdep_signal_next(sfd)) == 0)
			continue;
		if (sig == SIGCHLD) {
			if (!done && waitpid(child, &status, WNOHANG) == child) {
				done = 1;
				/* Its children may hold stderr open: not long. */
				drain_until = now_ms() + RUN_DRAIN_MS;
			}
		} else if (!done)
			kill(child, sig);	/* hangup, term */
	}
	if (!done)
		waitpid(child, &status, 0);
	run_stderr_finish(&rs);

	code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	sig = WIFSIGNALED(status) ? WTERMSIG(status) : -1;
	killed_by = run_killed_by(dir, r.id);
	buf_init(&sj);
	run_stderr_json(&sj, &rs);
	buf_init(&term);
	run_termination(&term, code, sig, killed_by, sj.data);
	free(r.lifecycle);
	r.lifecycle = xstrdup("finished");
	r.exit_code = code;
	r.signal = sig;
	r.ended = now_ms();
	r.termination = buf_detach(&term);
	if (run_write(dir, &r, &cause) != 0)
		fprintf(stderr, "lisa: run record: %s\n", cause);
	/*
	 * Where tmux may crash on a kept pane that dies with output in
	 * flight to a control client (3.2, tmux #2828), the helper first
	 * stops that output; if it cannot say it did, the pane is not kept.
	 */
	if (run_poke(ctx, r.id, drain) != 0 && drain != NULL) {
		argv[5] = "off";
		client_tmux(ctx, &out, argv);
		free(out);
	}

	/*
	 * Leave as the agent left, so tmux shows its status or signal; but
	 * the agent dumped its own core, if any: no second one, of lisa,
	 * in the user's directory.
	 */
	if (sig > 0) {
		rl.rlim_cur = rl.rlim_max = 0;
		setrlimit(RLIMIT_CORE, &rl);
		signal(sig, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		raise(sig);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	}
	return (code >= 0 ? code : 1);
}

struct run_opts {
	const char	*name;
	const char	*session;
	const char	*cwd;
	const char	*fallback;
	int		 retries;
	char		**argv;
	int		  argc;
};


/* lisa run's options: a usage error (exit 2) names what was wrong. */
static void
run_parse_opts(int argc, char **argv, struct run_opts *o)
{
	const struct lisa_cmd	*c = lisa_cmd_find("run");
	char			*end;
	int			 i;

	memset(o, 0, sizeof *o);
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (argv[i][0] != '-')
			break;
		/* A new window of this session, as without --session. */
		if (strcmp(argv[i], "--window") == 0) {
			o->session = NULL;
			continue;
		}
		if (strcmp(argv[i], "--name") != 0 &&
		    strcmp(argv[i], "--session") != 0 &&
		    strcmp(argv[i], "--cwd") != 0 &&
		    strcmp(argv[i], "--fallback") != 0 &&
		    strcmp(argv[i], "--retries") != 0)
			args_usage_error(c, "unknown option: %s", argv[i]);
		if (i + 1 >= argc)
			args_usage_error(c, "%s needs a value", argv[i]);
		if (strcmp(argv[i], "--name") == 0)
			o->name = argv[++i];
		else if (strcmp(argv[i], "--session") == 0)
			o->session = argv[++i];
		else if (strcmp(argv[i], "--cwd") == 0)
			o->cwd = argv[++i];
		else if (strcmp(argv[i], "--fallback") == 0)
			o->fallback = argv[++i];
		else {
			o->retries = (int)strtol(argv[++i], &end, 10);
			if (*argv[i] == '\0' || *end != '\0' || o->retries < 0)
				args_usage_error(c, "--retries: not a count: %s",
				    argv[i]);
		}
	}
	o->argv = argv + i;
	o->argc = argc - i;
	if (o->argc == 0)
		args_usage_error(c, "no command to run");
}

/* lisa run's usage errors, before anything is asked of tmux. */
void
cmd_run_check(int argc, char **argv)
{
	struct run_opts	o;

	run_parse_opts(argc, argv, &o);
}

/* Start the wrapper for a written record in a new window; its pane. */
char *
run_launch(struct lisa_ctx *ctx, const struct run *r, const char *session)
{
	const char	*argv[24];
	char		*out = NULL, *self = client_self(), target[256];
	char		*name, *cwd, *sname;
	int		 n = 0, has = 0;
	if (session != NULL) {
		const char *hs[] = { "has-session", "-t", NULL, NULL };
		char	   *o2 = NULL;

		snprintf(target, sizeof target, "=%s", session);
		hs[2] = target;
		has = client_tmux(ctx, &o2, hs) == 0;
		free(o2);
	}
	argv[n++] = session != NULL && !has ? "new-session" : "new-window";
	argv[n++] = "-d";
	argv[n++] = "-P";
	argv[n++] = "-F";
	argv[n++] = "#{pane_id}";
	/* (tmux expands these as formats: names are text, never #(...)) */
	name = ctl_format_str(r->name);
	cwd = r->cwd != NULL ? ctl_format_str(r->cwd) : NULL;
	sname = session != NULL ? ctl_format_str(session) : NULL;
	if (session != NULL && !has) {
		argv[n++] = "-s";
		argv[n++] = sname;
	} else if (session != NULL) {
		snprintf(target, sizeof target, "=%s:", session);
		argv[n++] = "-t";
		argv[n++] = target;
	}
	argv[n++] = "-n";
	argv[n++] = name;
	if (cwd != NULL) {
		argv[n++] = "-c";
		argv[n++] = cwd;
	}
	argv[n++] = "--";
	argv[n++] = self;
	argv[n++] = "-S";
	argv[n++] = ctx->sid.socket;
	argv[n++] = "_run";
	argv[n++] = r->id;
	argv[n] = NULL;
	if (client_tmux(ctx, &out, argv) != 0 || out == NULL ||
	    out[0] != '%') {
		free(out);
		out = NULL;
	}
	free(name);
	free(cwd);
	free(sname);
	free(self);
	return (out);
}

int
cmd_run(struct lisa_ctx *ctx, int argc, char **argv)
{
	struct run_opts	 o;
	struct run	 r;
	char		*dir, *cause = NULL, *pane, cwd[4096];
	int		 i;

	run_parse_opts(argc, argv, &o);
	if ((dir = run_dir(ctx->rundir, &cause)) == NULL) {
		fprintf(stderr, "lisa: %s\n", cause);
		return (1);
	}
	run_init(&r);
	run_new_id(r.id, sizeof r.id);
	r.base = xstrdup(o.name != NULL ? o.name : basename(o.argv[0]));
	r.name = xstrdup(r.base);
	r.server = xstrdup(ctx->sid.socket);
	r.instance = xstrdup(client_instance(ctx));
	r.argv = xcalloc((size_t)o.argc + 1, sizeof *r.argv);
	for (i = 0; i < o.argc; i++)
		r.argv[r.argc++] = xstrdup(o.argv[i]);
	if (o.cwd != NULL)
		r.cwd = xstrdup(o.cwd);
	else if (getcwd(cwd, sizeof cwd) != NULL)
		r.cwd = xstrdup(cwd);
	r.fallback = o.fallback != NULL ? xstrdup(o.fallback) : NULL;
	r.retries = o.retries > 0 ? o.retries : 0;
	r.lifecycle = xstrdup("launching");
	r.created = now_ms();
	if (run_write(dir, &r, &cause) != 0) {
		fprintf(stderr, "lisa: %s\n", cause);
		return (1);
	}
	if ((pane = run_launch(ctx, &r, o.session)) == NULL) {
		fprintf(stderr, "lisa: tmux could not start the window\n");
		return (1);
	}
	printf("%s %s %s\n", r.id, r.name, pane);
	free(pane);
	run_free(&r);
	free(dir);
	return (0);
}

static int
run_cmp(const void *a0, const void *b0)
{
	const struct run	*a = a0, *b = b0;

	return (a->created < b->created ? -1 : a->created > b->created);
}

/*
 * This server's runs, oldest first: of the instance running now (what
 * actions may act on), or with all, those of earlier servers at the same
 * socket too (r->current says which). A record with no instance (an older
 * lisa's) is never current: its pane ids may be another server's.
 */
int
run_list(struct lisa_ctx *ctx, struct run **out, size_t *n, int all)
{
	const char	*now = client_instance(ctx);

	DIR		*d;
	struct dirent	*de;
	struct run	*list = NULL, r;
	char		*dir, *cause = NULL, *path;
	size_t		 len;

	*n = 0;
	if ((dir = run_dir(ctx->rundir, &cause)) == NULL) {
		fprintf(stderr, "lisa: %s\n", cause);
		return (-1);
	}
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return (-1);
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		if (run_read(path, NULL, &r, &cause) != 0) {
			free(cause);
			cause = NULL;
			free(path);
			continue;
		}
		r.current = *now != '\0' && r.instance != NULL &&
		    strcmp(r.instance, now) == 0;
		if (r.server == NULL || strcmp(r.server, ctx->sid.socket) != 0 ||
		    (!r.current && !all))
			run_free(&r);
		else {
			list = xreallocarray(list, *n + 1, sizeof *list);
			list[(*n)++] = r;
		}
		free(path);
	}
	closedir(d);
	free(dir);
	if (*n > 1)
		qsort(list, *n, sizeof *list, run_cmp);
	*out = list;
	return (0);
}

/* "error: exit 3 (200 stderr lines)" from a termination record. */
static const char *
run_summary(const char *term, char *out, size_t len)
{
	struct json_doc	*d;
	char		*cause = NULL, *reason, *by, *msg;
	long long	 lines = 0;
	int		 se;

	*out = '\0';
	if (term == NULL || (d = json_parse(term, strlen(term), &cause)) ==
	    NULL) {
		free(cause);
		return (out);
	}
	reason = json_get_str(d, 0, "reason");
	by = json_get_str(d, 0, "terminated_by");
	msg = json_get_str(d, 0, "message");
	if ((se = json_get(d, 0, "stderr")) >= 0)
		json_get_int(d, se, "total_lines", &lines);
	snprintf(out, len, "%s by %s%s%s", reason != NULL ? reason : "?",
	    by != NULL ? by : "?", msg != NULL ? ": " : "",
	    msg != NULL ? msg : "");
	if (lines > 0)
		snprintf(out + strlen(out), len - strlen(out),
		    " (%lld stderr lines)", lines);
	free(reason);
	free(by);
	free(msg);
	json_free(d);
	return (out);
}

int
cmd_runs(struct lisa_ctx *ctx, int json)
{
	struct run	*list;
	struct buf	 b;
	size_t		 n, i;
	int		 old = 0, cur = 0;

	if (run_list(ctx, &list, &n, 1) != 0)
		return (1);
	buf_init(&b);
	if (json) {
		buf_addc(&b, '[');
		for (i = 0; i < n; i++) {
			if (i != 0)
				buf_addc(&b, ',');
			run_json(&b, &list[i]);
			/* (not in the record: the helper's marker) */
			b.len--;
			buf_printf(&b, ",\"current\":%s%s}", list[i].current ?
			    "true" : "false", list[i].escalated &&
			    list[i].current ? ",\"escalated\":true" : "");
		}
		buf_addc(&b, ']');
		printf("%s\n", b.data);
	} else {
		printf("%-10s %-16s %-7s %-6s %-10s %-8s %s\n", "ID", "NAME",
		    "ATTEMPT", "PANE", "LIFECYCLE", "EXIT", "TERMINATION");
		for (i = 0; i < n; i++) {
			char	exitbuf[16], line[256];

			if (list[i].signal > 0)
				snprintf(exitbuf, sizeof exitbuf, "sig %d",
				    list[i].signal);
			else if (list[i].exit_code >= 0)
				snprintf(exitbuf, sizeof exitbuf, "%d",
				    list[i].exit_code);
			else
				snprintf(exitbuf, sizeof exitbuf, "-");
			/* (oldest first: an earlier server's come first) */
			if (!list[i].current && !old++)
				printf("-- of an earlier tmux server at this "
				    "socket (its panes are gone; nothing acts "
				    "on them):\n");
			if (list[i].current && old && !cur++)
				printf("-- of this tmux server:\n");
			printf("%-10s ", list[i].id);
			utf8_column(stdout, list[i].name, 16);
			printf(" %-7d %-6s %-10s %-8s %s%s\n", list[i].attempt,
			    list[i].pane[0] ? list[i].pane : "-",
			    list[i].lifecycle, exitbuf,
			    run_summary(list[i].termination, line,
			    sizeof line), list[i].escalated &&
			    list[i].current ? "; waits for your decision: "
			    "lisa retry [--fallback] PANE, or lisa's menu" : "");
		}
	}
	for (i = 0; i < n; i++)
		run_free(&list[i]);
	free(list);
	buf_free(&b);
	return (0);
}
