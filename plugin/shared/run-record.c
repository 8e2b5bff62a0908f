/*
 * Run records: runs/ID.json in the per-user runtime directory. Written
 * whole each time (temp file, fsync, rename), so a reader sees the old
 * record or the new one, never half of one.
 */
#include <sys/types.h>
#include <sys/stat.h>
#ifdef __APPLE__
#include <sys/random.h>	/* getentropy; after sys/types.h, as macOS needs */
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shared.h"

/* <rundir>/runs, made 0700 if it is not there. */
char *
run_dir(const char *rundir, char **cause)
{
	struct stat	 st;
	char		*dir;

	xasprintf(&dir, "%s/runs", rundir);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		xasprintf(cause, "mkdir %s: %s", dir, strerror(errno));
		free(dir);
		return (NULL);
	}
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != getuid() || (st.st_mode & 077) != 0) {
		xasprintf(cause, "%s is not a private directory", dir);
		free(dir);
		return (NULL);
	}
	return (dir);
}

void
run_init(struct run *r)
{
	memset(r, 0, sizeof *r);
	r->exit_code = -1;
	r->signal = -1;
	r->attempt = 1;
}

void
run_free(struct run *r)
{
	int	i;

	free(r->name);
	free(r->base);
	free(r->server);
	free(r->instance);
	for (i = 0; i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	free(r->cwd);
	free(r->fallback);
	free(r->prev);
	free(r->lifecycle);
	free(r->termination);
	run_init(r);
}

void
run_new_id(char *out, size_t len)
{
	unsigned char	rnd[4];

	/* getentropy: glibc, musl, macOS and the BSDs all have it. */
	if (getentropy(rnd, sizeof rnd) != 0)
		memset(rnd, 0, sizeof rnd);
	snprintf(out, len, "r%02x%02x%02x%02x", rnd[0], rnd[1], rnd[2],
	    rnd[3]);
}

static void
run_key_ll(struct buf *b, const char *key, long long v, int has)
{
	json_key(b, key);
	json_int_or_null(b, has, v);
}

void
run_json(struct buf *b, const struct run *r)
{
	int	i;

	buf_addc(b, '{');
	json_key(b, "id");
	json_cstr(b, r->id);
	json_key(b, "name");
	json_cstr(b, r->name);
	json_key(b, "base");
	json_cstr(b, r->base);
	json_key(b, "server");
	json_cstr(b, r->server);
	json_key(b, "instance");
	json_cstr(b, r->instance);
	json_key(b, "argv");
	buf_addc(b, '[');
	for (i = 0; i < r->argc; i++) {
		if (i != 0)
			buf_addc(b, ',');
		json_cstr(b, r->argv[i]);
	}
	buf_addc(b, ']');
	json_key(b, "cwd");
	json_cstr(b, r->cwd);
	json_key(b, "fallback");
	json_cstr(b, r->fallback);
	run_key_ll(b, "retries", r->retries, 1);
	run_key_ll(b, "attempt", r->attempt, 1);
	json_key(b, "on_fallback");
	buf_adds(b, r->on_fallback ? "true" : "false");
	json_key(b, "prev");
	json_cstr(b, r->prev);
	run_key_ll(b, "crashes", r->crashes, 1);
	run_key_ll(b, "failures", r->failures, 1);
	json_key(b, "lifecycle");
	json_cstr(b, r->lifecycle);
	json_key(b, "pane");
	json_cstr(b, r->pane[0] != '\0' ? r->pane : NULL);
	run_key_ll(b, "pid", r->pid, r->pid > 0);
	run_key_ll(b, "created_ms", r->created, r->created > 0);
	run_key_ll(b, "started_ms", r->started, r->started > 0);
	run_key_ll(b, "ended_ms", r->ended, r->ended > 0);
	run_key_ll(b, "exit_code", r->exit_code, r->exit_code >= 0);
	run_key_ll(b, "signal", r->signal, r->signal >= 0);
	json_key(b, "termination");
	buf_adds(b, r->termination != NULL ? r->termination : "null");
	buf_addc(b, '}');
}

int
run_write(const char *dir, const struct run *r, char **cause)
{
	struct buf	 b;
	char		*tmp, *path;
	int		 fd, rc = -1;

	xasprintf(&path, "%s/%s.json", dir, r->id);
	xasprintf(&tmp, "%s/.%s.%ld.tmp", dir, r->id, (long)getpid());
	buf_init(&b);
	run_json(&b, r);
	buf_addc(&b, '\n');
	fd = open(tmp, O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW|O_CLOEXEC, 0600);
	if (fd == -1)
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
	else if (write(fd, b.data, b.len) != (ssize_t)b.len || fsync(fd) != 0)
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
	else if (rename(tmp, path) != 0)
		xasprintf(cause, "%s: %s", path, strerror(errno));
	else
		rc = 0;
	if (fd != -1)
		close(fd);
	if (rc != 0)
		unlink(tmp);
	buf_free(&b);
	free(tmp);
	free(path);
	return (rc);
}

static char *
run_str(struct json_doc *d, const char *key)
{
	return (json_get_str(d, 0, key));
}

static long long
run_ll(struct json_doc *d, const char *key, long long def)
{
	long long	v;

	return (json_get_int(d, 0, key, &v) == 0 ? v : def);
}

/* A record from its JSON text. */
int
run_parse(const char *text, size_t len, struct run *r, char **cause)
{
	struct json_doc	*d;
	char		*s;
	int		 tok, i, n, b;

	run_init(r);
	if ((d = json_parse(text, len, cause)) == NULL)
		return (-1);
	if (json_type(d, 0) != JSON_T_OBJECT) {
		json_free(d);
		xasprintf(cause, "run record is not an object");
		return (-1);
	}
	/* An id names a file: ours are short, letters, digits, '-' '_'. */
	if ((s = run_str(d, "id")) != NULL && !run_id_valid(s)) {
		free(s);
		json_free(d);
		xasprintf(cause, "run record with a bad id");
		return (-1);
	}
	if (s != NULL) {
		strlcpy(r->id, s, sizeof r->id);
		free(s);
	}
	r->name = run_str(d, "name");
	r->base = run_str(d, "base");
	r->server = run_str(d, "server");
	r->instance = run_str(d, "instance");
	r->cwd = run_str(d, "cwd");
	r->fallback = run_str(d, "fallback");
	r->prev = run_str(d, "prev");
	r->lifecycle = run_str(d, "lifecycle");
	/*
	 * A pane is tmux's id, %N, or none: anything else (text cut inside
	 * a character, a quote bound for a tmux command) is dropped.
	 */
	if ((s = run_str(d, "pane")) != NULL) {
		if (run_pane_valid(s))
			strlcpy(r->pane, s, sizeof r->pane);
		free(s);
	}
	r->retries = (int)run_ll(d, "retries", 0);
	r->attempt = (int)run_ll(d, "attempt", 1);
	r->crashes = (int)run_ll(d, "crashes", 0);
	r->failures = (int)run_ll(d, "failures", 0);
	if (json_get_bool(d, 0, "on_fallback", &b) == 0)
		r->on_fallback = b;
	r->pid = run_ll(d, "pid", 0);
	r->created = run_ll(d, "created_ms", 0);
	r->started = run_ll(d, "started_ms", 0);
	r->ended = run_ll(d, "ended_ms", 0);
	r->exit_code = (int)run_ll(d, "exit_code", -1);
	r->signal = (int)run_ll(d, "signal", -1);
	if ((tok = json_get(d, 0, "argv")) >= 0 &&
	    json_type(d, tok) == JSON_T_ARRAY &&
	    (n = json_array_size(d, tok)) > 0) {
		r->argv = xcalloc((size_t)n + 1, sizeof *r->argv);
		for (i = 0; i < n; i++) {
			if (json_tok_str(d, json_array_item(d, tok, i), &s) == 0)
				r->argv[r->argc++] = s;
		}
	}
	if ((tok = json_get(d, 0, "termination")) >= 0 &&
	    json_type(d, tok) == JSON_T_OBJECT)
		r->termination = json_tok_text(d, tok);
	json_free(d);
	if (r->id[0] == '\0' || r->argc == 0) {
		xasprintf(cause, "run record without id or command");
		run_free(r);
		return (-1);
	}
	return (0);
}

int
run_pane_valid(const char *pane)
{
	size_t	len = strlen(pane);

	return (pane[0] == '%' && len > 1 && len <= 10 &&
	    strspn(pane + 1, "0123456789") == len - 1);
}

int
run_id_valid(const char *id)
{
	size_t	len = strlen(id);

	return (len != 0 && len < sizeof ((struct run *)NULL)->id &&
	    strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-_") == len);
}

/* Read dir/ID.json (or a path, when id is NULL). */
int
run_read(const char *dir, const char *id, struct run *r, char **cause)
{
	struct stat	 st;
	char		*path, *text;
	int		 fd, rc;
	ssize_t		 got;

	run_init(r);
	if (id != NULL && !run_id_valid(id)) {
		xasprintf(cause, "%s: not a run id", id);
		return (-1);
	}
	if (id != NULL)
		xasprintf(&path, "%s/%s.json", dir, id);
	else
		path = xstrdup(dir);
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > 1024 * 1024) {
		xasprintf(cause, "%s: %s", path, fd == -1 ? strerror(errno) :
		    "not a small regular file");
		if (fd != -1)
			close(fd);
		free(path);
		return (-1);
	}
	text = xmalloc((size_t)st.st_size + 1);
	got = read(fd, text, (size_t)st.st_size);
	close(fd);
	if (got != st.st_size) {
		xasprintf(cause, "%s: short read", path);
		rc = -1;
	} else
		rc = run_parse(text, (size_t)got, r, cause);
	free(text);
	free(path);
	if (rc == 0) {
		path = run_escalate_path(dir, id != NULL ? id : r->id);
		r->escalated = path != NULL && access(path, F_OK) == 0;
		free(path);
	}
	return (rc);
}

/*
 * The marker of a run that waits for the human's decision (retry,
 * fallback, skip, abort), beside its record. DIR is the runs directory,
 * or a record's own path (its directory is taken).
 */
char *
run_escalate_path(const char *dir, const char *id)
{
	char		*path;
	const char	*slash;
	size_t		 dlen;

	if (!run_id_valid(id))
		return (NULL);
	dlen = strlen(dir);
	if (dlen > 5 && strcmp(dir + dlen - 5, ".json") == 0 &&
	    (slash = strrchr(dir, '/')) != NULL)
		dlen = (size_t)(slash - dir);
	xasprintf(&path, "%.*s/%s.escalate", (int)dlen, dir, id);
	return (path);
}

/*
 * How a run ended, by the table: 0 completed; 126/127 could not
 * start; 130/131/143 interrupted; any other code or a signal crashed,
 * unless lisa or the user killed it on purpose (killed_by).
 */
const char *
run_outcome(int code, int sig, const char *killed_by)
{
	if (killed_by != NULL)
		return ("terminated");
	if (sig > 0)
		return ("error");
	if (code == 0)
		return ("completed");
	if (code == 130 || code == 131 || code == 143)
		return ("terminated");
	return ("error");
}

/* {reason, terminated_by[, message, exit_code, signal, stderr]} */
/*
 * A signal's name without "SIG", as the shell says it: the same on every
 * system lisa builds for (glibc's sigabbrev_np is glibc's alone).
 */
static const char *
run_signal_name(int sig)
{
	static const struct {
		int		 sig;
		const char	*name;
	} names[] = {
		{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" },
		{ SIGILL, "ILL" }, { SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" },
		{ SIGBUS, "BUS" }, { SIGFPE, "FPE" }, { SIGKILL, "KILL" },
		{ SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
		{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
		{ SIGCHLD, "CHLD" }, { SIGCONT, "CONT" }, { SIGSTOP, "STOP" },
		{ SIGTSTP, "TSTP" }, { SIGTTIN, "TTIN" }, { SIGTTOU, "TTOU" },
		{ SIGURG, "URG" }, { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" },
		{ SIGVTALRM, "VTALRM" }, { SIGPROF, "PROF" },
		{ SIGWINCH, "WINCH" }, { SIGSYS, "SYS" },
	};
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (names[i].sig == sig)
			return (names[i].name);
	}
	return (NULL);
}

void
run_termination(struct buf *b, int code, int sig, const char *killed_by,
    const char *stderr_json)
{
	const char	*reason = run_outcome(code, sig, killed_by);
	const char	*by = "agent", *abbrev;
	char		 msg[128];

	if (killed_by != NULL)
		by = killed_by;
	else if (strcmp(reason, "terminated") == 0)
		by = "user";
	abbrev = sig > 0 ? run_signal_name(sig) : NULL;
	if (sig > 0)
		snprintf(msg, sizeof msg, "killed by signal %d (SIG%s)", sig,
		    abbrev != NULL ? abbrev : "?");
	else if (code == 127)
		snprintf(msg, sizeof msg, "could not start: command not found "
		    "(exit 127)");
	else if (code == 126)
		snprintf(msg, sizeof msg, "could not start: not executable "
		    "(exit 126)");
	else if (strcmp(reason, "terminated") == 0)
		snprintf(msg, sizeof msg, "interrupted (exit %d)", code);
	else
		snprintf(msg, sizeof msg, "exit %d", code);
	buf_addc(b, '{');
	json_key(b, "reason");
	json_cstr(b, reason);
	json_key(b, "terminated_by");
	json_cstr(b, by);
	/* message, exit code and stderr: only for errors (the metadata). */
	if (strcmp(reason, "error") == 0) {
		json_key(b, "message");
		json_cstr(b, msg);
		json_key(b, "exit_code");
		json_int_or_null(b, sig <= 0, code);
		json_key(b, "signal");
		json_int_or_null(b, sig > 0, sig);
		json_key(b, "stderr");
		buf_adds(b, stderr_json != NULL ? stderr_json : "null");
	}
	buf_addc(b, '}');
}

/*
 * The record of the next attempt after prev: the same command again
 * ("name-r2", "-r3", ...), or on fallback the fallback command with the
 * count started again ("name-fb", "name-fb-r2").
 */
int
run_next(const struct run *prev, int fallback, struct run *r)
{
	struct timespec	ts;
	int		i, switching = fallback && !prev->on_fallback;

	run_init(r);
	run_new_id(r->id, sizeof r->id);
	r->base = xstrdup(prev->base != NULL ? prev->base : prev->name);
	r->server = prev->server != NULL ? xstrdup(prev->server) : NULL;
	r->instance = prev->instance != NULL ? xstrdup(prev->instance) : NULL;
	r->cwd = prev->cwd != NULL ? xstrdup(prev->cwd) : NULL;
	r->fallback = prev->fallback != NULL ? xstrdup(prev->fallback) : NULL;
	r->retries = prev->retries;
	r->prev = xstrdup(prev->id);
	r->on_fallback = prev->on_fallback || fallback;
	r->attempt = switching ? 1 : prev->attempt + 1;
	if (!switching) {
		r->crashes = prev->crashes;
		r->failures = prev->failures;
	}
	if (switching) {
		r->argv = xcalloc(4, sizeof *r->argv);
		r->argv[r->argc++] = xstrdup("/bin/sh");
		r->argv[r->argc++] = xstrdup("-c");
		r->argv[r->argc++] = xstrdup(prev->fallback);
	} else {
		r->argv = xcalloc((size_t)prev->argc + 1, sizeof *r->argv);
		for (i = 0; i < prev->argc; i++)
			r->argv[r->argc++] = xstrdup(prev->argv[i]);
	}
	if (r->attempt > 1)
		xasprintf(&r->name, "%s%s-r%d", r->base, r->on_fallback ?
		    "-fb" : "", r->attempt);
	else
		xasprintf(&r->name, "%s%s", r->base, r->on_fallback ? "-fb" :
		    "");
	r->lifecycle = xstrdup("launching");
	strlcpy(r->pane, prev->pane, sizeof r->pane);
	clock_gettime(CLOCK_REALTIME, &ts);
	r->created = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return (0);
}
