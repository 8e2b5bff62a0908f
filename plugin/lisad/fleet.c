/*
 * The fleet (docs/fleet.md): for each @lisa-hosts entry, one long-lived
 * ssh that runs `lisa bridge` on the host. Its stdout is the remote
 * helper's pane stream (fleet-pane.c reads it), its stdin carries the few
 * commands the user runs on remote panes, its stderr the reason a
 * connection failed. OpenSSH does the auth, the multiplexing, the jump
 * hosts; lisa listens on nothing. A host that drops is down until a
 * retry (capped backoff: a deadline, never a poll) connects again.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet.h"
#include "tell.h"

#define FLEET_BACKOFF_MIN	1000	/* ms */
#define FLEET_BACKOFF_MAX	60000
/*
 * ssh gives up on a host that does not answer after 15 s (ConnectTimeout);
 * a host that answers but whose shell start-up or lisa hangs is ours to
 * give up on: no hello from its bridge in this long, and it is down.
 */
#define FLEET_HELLO_MS		20000

/* A local window that shows a remote pane (cmd-jump.c): its badge. */
#define FLEET_MAX_JUMPS		64
struct fleet_jump {
	int			 window;
	char			*host;
	int			 pane;
	TAILQ_ENTRY(fleet_jump)	 entry;
};
static TAILQ_HEAD(, fleet_jump) fleet_jumps =
    TAILQ_HEAD_INITIALIZER(fleet_jumps);

struct fleet_hosts	 fleet_hosts = TAILQ_HEAD_INITIALIZER(fleet_hosts);
static char		*fleet_cfg_hosts;
static char		*fleet_cfg_ssh;
static char		*fleet_cfg_remote;
static char		*fleet_ssh;		/* what the hosts run with */
static char		*fleet_remote;

static void	fleet_connect(struct fleet_host *);

void
fleet_reset_config(void)
{
	free(fleet_cfg_hosts);
	free(fleet_cfg_ssh);
	free(fleet_cfg_remote);
	fleet_cfg_hosts = fleet_cfg_ssh = fleet_cfg_remote = NULL;
}

void
fleet_option(const char *name, const char *value)
{
	char	**to;

	if (strcmp(name, "@lisa-hosts") == 0)
		to = &fleet_cfg_hosts;
	else if (strcmp(name, "@lisa-ssh-command") == 0)
		to = &fleet_cfg_ssh;
	else if (strcmp(name, "@lisa-remote-lisa") == 0)
		to = &fleet_cfg_remote;
	else
		return;
	free(*to);
	*to = xstrdup(value);
}

struct fleet_host *
fleet_find(const char *entry)
{
	struct fleet_host	*h;

	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		if (strcmp(h->name, entry) == 0)
			return (h);
	}
	return (NULL);
}

/* "%N@ENTRY": a remote pane (tmux's targets never look like that). */
int
fleet_parse_target(const char *s, struct fleet_host **h, int *id)
{
	const char	*p;
	char		*entry;

	if (s == NULL || s[0] != '%' || (p = strchr(s, '@')) == NULL ||
	    p == s + 1 || p - s > 11)
		return (-1);
	*id = 0;
	for (s++; s < p; s++) {
		if (*s < '0' || *s > '9')
			return (-1);
		*id = *id * 10 + (*s - '0');
	}
	entry = xstrdup(p + 1);
	*h = fleet_find(entry);
	free(entry);
	return (*h != NULL ? 0 : -1);
}

/* A host's new state: into the events log, and its panes' word. */
void
fleet_set_state(struct fleet_host *h, enum fleet_state st, const char *why)
{
	struct buf	b;

	strlcpy(h->reason, why != NULL ? why : "", sizeof h->reason);
	if (h->state != st) {
		if (h->state == FLEET_CONNECTED)
			fleet_pane_unconfirm(h);
		buf_init(&b);
		json_key(&b, "host");
		json_cstr(&b, h->name);
		json_key(&b, "from");
		json_cstr(&b, fleet_state_name(h->state));
		json_key(&b, "to");
		json_cstr(&b, fleet_state_name(st));
		json_key(&b, "reason");
		json_cstr(&b, h->reason);
		events_json_add("host", -1, b.data);
		buf_free(&b);
		h->since = time_real_ms();
	}
	h->state = st;
	publish_schedule();
}

/* Close our ends; the child, if any, gets SIGTERM and is reaped later. */
static void
fleet_disconnect(struct fleet_host *h)
{
	struct fleet_req	*r;

	if (h->rev != NULL)
		loop_del(h->rev);
	if (h->eev != NULL)
		loop_del(h->eev);
	h->rev = h->eev = NULL;
	if (h->rfd != -1)
		close(h->rfd);
	if (h->wfd != -1)
		close(h->wfd);
	if (h->efd != -1)
		close(h->efd);
	h->rfd = h->wfd = h->efd = -1;
	/* (a stopped ssh takes its SIGTERM when continued) */
	if (h->pid > 0) {
		kill(h->pid, SIGTERM);
		kill(h->pid, SIGCONT);
	}
	h->pid = 0;
	loop_timer_del(&h->hello);
	fleet_check_free(h);
	buf_reset(&h->in);
	buf_reset(&h->errbuf);
	/* Requests in flight will not be answered: say so. */
	while ((r = TAILQ_FIRST(&h->reqs)) != NULL) {
		TAILQ_REMOVE(&h->reqs, r, entry);
		if (r->lc != NULL)
			listener_send_error(r->lc, "the host went down");
		if (r->done != NULL)
			r->done(r->done_arg, -1, "the host went down");
		free(r);
	}
	/* (its panes stay, not current: fleet_pane_current) */
	h->synced = 0;
}

static void
fleet_retry_cb(void *arg)
{
	fleet_connect(arg);
}

/* A down host, tried again now, its backoff from the start (a wake). */
void
fleet_retry_now(struct fleet_host *h)
{
	/* (not armed: down for good, until its entry changes) */
	if (h->state != FLEET_DOWN || !h->retry.armed)
		return;
	loop_timer_del(&h->retry);
	h->backoff = FLEET_BACKOFF_MIN;
	log_debug("fleet %s: tried again now", h->name);
	fleet_connect(h);
}

static void
fleet_hello_cb(void *arg)
{
	struct fleet_host	*h = arg;
	char			 why[FLEET_MAX_STR + 160];

	if (h->state != FLEET_CONNECTING)
		return;
	snprintf(why, sizeof why, "no answer from lisa bridge there in %d s "
	    "(the remote shell's start-up or lisa hangs?)%s%s",
	    FLEET_HELLO_MS / 1000, h->err[0] != '\0' ? "; ssh said: " : "",
	    h->err);
	fleet_down(h, why);
}

/* Down, with why; try again after the backoff. */
void
fleet_down(struct fleet_host *h, const char *why)
{
	log_warnx("fleet %s: down: %s", h->name, why);
	fleet_disconnect(h);
	fleet_set_state(h, FLEET_DOWN, why);
	loop_timer_init(&h->retry, fleet_retry_cb, h);
	loop_timer_add(&h->retry, h->backoff);
	h->backoff *= 2;
	if (h->backoff > FLEET_BACKOFF_MAX)
		h->backoff = FLEET_BACKOFF_MAX;
}

/* ssh's last line of stderr: its reason, if the connection fails. */
static void
fleet_err_cb(int fd, short revents, void *arg)
{
	struct fleet_host	*h = arg;
	char			 tmp[4096], *nl, *c;
	ssize_t			 n;

	n = read(fd, tmp, sizeof tmp);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		loop_del(h->eev);
		h->eev = NULL;
		close(h->efd);
		h->efd = -1;
		return;
	}
	buf_add(&h->errbuf, tmp, (size_t)n);
	while ((nl = memchr(h->errbuf.data, '\n', h->errbuf.len)) != NULL) {
		*nl = '\0';
		if (nl != h->errbuf.data && nl[-1] == '\r')
			nl[-1] = '\0';
		if (*h->errbuf.data != '\0') {
			c = fleet_clean(h->errbuf.data, sizeof h->err - 1);
			strlcpy(h->err, c, sizeof h->err);
			free(c);
			log_debug("fleet %s: %s", h->name, h->err);
			/* While it connects, what ssh says is the news. */
			if (h->state == FLEET_CONNECTING) {
				strlcpy(h->reason, "ssh says: ",
				    sizeof h->reason);
				strlcat(h->reason, h->err, sizeof h->reason);
			}
		}
		buf_consume(&h->errbuf, (size_t)(nl - h->errbuf.data) + 1);
	}
	if (h->errbuf.len > FLEET_MAX_STR)
		buf_reset(&h->errbuf);
}

static void
fleet_read_cb(int fd, short revents, void *arg)
{
	struct fleet_host	*h = arg;
	char			 tmp[65536], *nl, why[FLEET_MAX_STR + 32];
	ssize_t			 n;
	size_t			 len;

	n = read(fd, tmp, sizeof tmp);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		/* Drain what ssh said on its way out. */
		if (h->efd != -1)
			fleet_err_cb(h->efd, POLLIN, h);
		snprintf(why, sizeof why, "%s", h->err[0] != '\0' ? h->err :
		    "the connection closed");
		fleet_down(h, why);
		return;
	}
	buf_add(&h->in, tmp, (size_t)n);
	while ((nl = memchr(h->in.data, '\n', h->in.len)) != NULL) {
		len = (size_t)(nl - h->in.data);
		if (len > FLEET_MAX_LINE) {
			fleet_down(h, "a line longer than 256 KiB");
			return;
		}
		fleet_pane_line(h, h->in.data, len);
		if (h->rfd == -1)
			return;		/* a line took it down */
		buf_consume(&h->in, len + 1);
		if (h->synced)
			h->backoff = FLEET_BACKOFF_MIN;
	}
	if (h->in.len > FLEET_MAX_LINE)
		fleet_down(h, "a line longer than 256 KiB");
}

/*
 * The command ssh runs on the host, read by the user's login shell there
 * (sh, bash, zsh, fish, csh: words and single quotes they all read alike).
 * A socket name is [A-Za-z0-9._-] (fleet_host_new), so it needs no quoting;
 * @lisa-remote-lisa is the user's own text for that shell.
 */
static char *
fleet_remote_command(struct fleet_host *h)
{
	struct buf	 b;
	char		 l[FLEET_MAX_STR + 8];

	*l = '\0';
	if (h->socket != NULL)
		snprintf(l, sizeof l, " -L %s", h->socket);
	buf_init(&b);
	if (fleet_remote != NULL)
		buf_printf(&b, "exec %s%s bridge", fleet_remote, l);
	else
		buf_printf(&b, "exec sh -c 'if command -v lisa >/dev/null 2>&1; "
		    "then exec lisa \"$@\" bridge; else exec "
		    "~/.tmux/plugins/lisa/bin/lisa \"$@\" bridge; fi' sh%s", l);
	return (buf_detach(&b));
}

static void
fleet_connect(struct fleet_host *h)
{
	int		 in[2], out[2], err[2];
	char		*remote, *sh, why[FLEET_MAX_STR * 2];
	pid_t		 pid;
	sigset_t	 set;

	fleet_disconnect(h);
	h->err[0] = '\0';
	if (h->socket != NULL && (*h->socket == '\0' || strspn(h->socket,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
	    != strlen(h->socket))) {
		/* (never retried: the entry has to change) */
		fleet_set_state(h, FLEET_DOWN,
		    "the socket name after / must be letters, digits, . _ -");
		return;
	}
	if (compat_pipe(in) != 0)
		goto fail;
	if (compat_pipe(out) != 0) {
		close(in[0]);
		close(in[1]);
		goto fail;
	}
	if (compat_pipe(err) != 0) {
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		goto fail;
	}
	remote = fleet_remote_command(h);
	/*
	 * The user's ssh command is theirs (options, a wrapper); the host
	 * and the remote command go as sh's arguments, never into its text.
	 * BatchMode: nobody is there to answer a prompt. A host that does not
	 * answer is down after 15 s, a link that dies after 12 to 16 (issue
	 * 46: a stalled host shown within 20 s, with room for a busy machine):
	 * ssh's keepalives, not ours, so the helper wakes for nothing at rest.
	 */
	xasprintf(&sh, "exec %s -T -o BatchMode=yes -o ConnectTimeout=15 "
	    "-o ServerAliveInterval=4 -o ServerAliveCountMax=3 -- "
	    "\"$1\" \"$2\"",
	    fleet_ssh != NULL ? fleet_ssh : "ssh");
	if ((pid = fork()) == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		/* (all: a helper of 500 sessions has more than 256) */
		compat_closefrom(3);
		lisad_child_limits();
		/* Our signal mask is not ssh's; no tty: ssh asks nothing. */
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&set);
		sigprocmask(SIG_SETMASK, &set, NULL);
		setsid();
		execl("/bin/sh", "sh", "-c", sh, "sh", h->dest, remote,
		    (char *)NULL);
		_exit(127);
	}
	free(sh);
	free(remote);
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (pid == -1) {
		close(in[1]);
		close(out[0]);
		close(err[0]);
		goto fail;
	}
	h->pid = pid;
	h->wfd = in[1];
	h->rfd = out[0];
	h->efd = err[0];
	compat_fd_flags(h->rfd, 1);
	compat_fd_flags(h->efd, 1);
	compat_fd_flags(h->wfd, 1);
	h->rev = loop_add(h->rfd, POLLIN, fleet_read_cb, h);
	h->eev = loop_add(h->efd, POLLIN, fleet_err_cb, h);
	h->connects++;
	log_debug("fleet %s: ssh pid %ld", h->name, (long)pid);
	h->err[0] = '\0';
	/*
	 * A retry says why the last try failed: it was down for a moment
	 * only, and a glance while it tries again should still tell.
	 */
	if (h->state == FLEET_DOWN && h->reason[0] != '\0') {
		snprintf(why, sizeof why, "ssh started again (down before: "
		    "%.*s); waiting for lisa bridge there to answer",
		    FLEET_MAX_STR, h->reason);
		fleet_set_state(h, FLEET_CONNECTING, why);
	} else
		fleet_set_state(h, FLEET_CONNECTING, "ssh started; waiting "
		    "for lisa bridge there to answer");
	loop_timer_add(&h->hello, FLEET_HELLO_MS);
	return;
fail:
	fleet_down(h, strerror(errno));
}

/* A child of ours was reaped (lisad.c): if a host's ssh, why it went. */
void
fleet_reaped(pid_t pid, int status)
{
	struct fleet_host	*h;

	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		if (h->pid != pid)
			continue;
		h->pid = 0;
		if (h->err[0] == '\0' && WIFEXITED(status))
			snprintf(h->err, sizeof h->err, "ssh exited %d",
			    WEXITSTATUS(status));
		log_debug("fleet %s: ssh exited (%s)", h->name, h->err);
	}
}

static struct fleet_host *
fleet_host_new(const char *entry)
{
	struct fleet_host	*h;
	char			*slash;

	h = xcalloc(1, sizeof *h);
	h->name = xstrdup(entry);
	h->dest = xstrdup(entry);
	if ((slash = strchr(h->dest, '/')) != NULL) {
		*slash = '\0';
		h->socket = xstrdup(slash + 1);
	}
	h->rfd = h->wfd = h->efd = -1;
	h->since = time_real_ms();
	h->backoff = FLEET_BACKOFF_MIN;
	buf_init(&h->in);
	buf_init(&h->errbuf);
	RB_INIT(&h->panes);
	TAILQ_INIT(&h->reqs);
	loop_timer_init(&h->retry, fleet_retry_cb, h);
	loop_timer_init(&h->hello, fleet_hello_cb, h);
	TAILQ_INSERT_TAIL(&fleet_hosts, h, entry);
	return (h);
}

static void
fleet_host_free(struct fleet_host *h)
{
	loop_timer_del(&h->retry);
	fleet_disconnect(h);
	h->state = FLEET_DOWN;	/* (its waits: not_found) */
	fleet_pane_clear(h);
	TAILQ_REMOVE(&fleet_hosts, h, entry);
	buf_free(&h->in);
	buf_free(&h->errbuf);
	free(h->name);
	free(h->dest);
	free(h->socket);
	free(h);
	publish_schedule();
}

static int
fleet_same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a == b);
	return (strcmp(a, b) == 0);
}

/*
 * After a (re)load of the options: connect new hosts, drop hosts no longer
 * listed, and reconnect all when the ssh or remote command changed.
 */
void
fleet_apply(void)
{
	struct fleet_host	*h, *h1;
	char			*list, *word, *rest;
	int			 n = 0, again;

	again = !fleet_same(fleet_ssh, fleet_cfg_ssh) ||
	    !fleet_same(fleet_remote, fleet_cfg_remote);
	free(fleet_ssh);
	free(fleet_remote);
	fleet_ssh = fleet_cfg_ssh != NULL && *fleet_cfg_ssh != '\0' ?
	    xstrdup(fleet_cfg_ssh) : NULL;
	fleet_remote = fleet_cfg_remote != NULL && *fleet_cfg_remote != '\0' ?
	    xstrdup(fleet_cfg_remote) : NULL;
	TAILQ_FOREACH(h, &fleet_hosts, entry)
		h->listed = 0;
	list = rest = xstrdup(fleet_cfg_hosts != NULL ? fleet_cfg_hosts : "");
	while ((word = strsep(&rest, OPTIONS_HOSTS_SEP)) != NULL) {
		/* (an entry starting with - would be an ssh option) */
		if (*word == '\0' || options_host_invalid(word) != NULL)
			continue;
		if ((h = fleet_find(word)) != NULL) {
			h->listed = 1;
			if (again)
				fleet_connect(h);
			continue;
		}
		if (++n > FLEET_MAX_HOSTS) {
			log_warnx("fleet: more than %d hosts; %s and the "
			    "rest are left out", FLEET_MAX_HOSTS, word);
			break;
		}
		h = fleet_host_new(word);
		h->listed = 1;
		fleet_connect(h);
	}
	free(list);
	TAILQ_FOREACH_SAFE(h, &fleet_hosts, entry, h1) {
		if (!h->listed)
			fleet_host_free(h);
	}
}

/* Window @window now shows the remote pane target (%N@HOST). */
void
fleet_jump_set(int window, const char *target)
{
	struct fleet_jump	*j;
	struct fleet_host	*h;
	int			 id, n = 0;

	if (fleet_parse_target(target, &h, &id) != 0)
		return;
	TAILQ_FOREACH(j, &fleet_jumps, entry) {
		if (j->window == window)
			break;
		n++;
	}
	if (j == NULL) {
		if (n >= FLEET_MAX_JUMPS) {
			j = TAILQ_FIRST(&fleet_jumps);
			TAILQ_REMOVE(&fleet_jumps, j, entry);
			free(j->host);
			free(j);
		}
		j = xcalloc(1, sizeof *j);
		j->window = window;
		TAILQ_INSERT_TAIL(&fleet_jumps, j, entry);
	} else
		free(j->host);
	j->host = xstrdup(h->name);
	j->pane = id;
	publish_schedule();
}

/* The state of the remote pane a jump window shows, or ST_NONE. */
enum cls_state
fleet_jump_state(int window, const char **detail)
{
	struct fleet_jump	*j;
	struct fleet_host	*h;
	struct fleet_pane	*fp;

	TAILQ_FOREACH(j, &fleet_jumps, entry) {
		if (j->window != window)
			continue;
		if ((h = fleet_find(j->host)) == NULL ||
		    (fp = fleet_pane_find(h, j->pane)) == NULL ||
		    !fp->has_state || !fleet_pane_current(h, fp))
			return (ST_NONE);
		*detail = fp->detail;
		return (fp->state);
	}
	return (ST_NONE);
}

void
fleet_close(void)
{
	struct fleet_jump	*j;

	while ((j = TAILQ_FIRST(&fleet_jumps)) != NULL) {
		TAILQ_REMOVE(&fleet_jumps, j, entry);
		free(j->host);
		free(j);
	}
	while (!TAILQ_EMPTY(&fleet_hosts))
		fleet_host_free(TAILQ_FIRST(&fleet_hosts));
	fleet_reset_config();
	free(fleet_ssh);
	free(fleet_remote);
	fleet_ssh = fleet_remote = NULL;
}

/* `lisa hosts --json`. */
void
fleet_hosts_json(struct buf *b)
{
	struct fleet_host	*h;
	char			 when[40];

	buf_addc(b, '[');
	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		if (h != TAILQ_FIRST(&fleet_hosts))
			buf_addc(b, ',');
		buf_addc(b, '{');
		json_key(b, "host");
		json_cstr(b, h->name);
		json_key(b, "state");
		json_cstr(b, fleet_state_name(h->state));
		json_key(b, "since");
		rfc3339(h->since, when, sizeof when);
		json_cstr(b, when);
		json_key(b, "reason");
		json_cstr(b, h->reason);
		json_key(b, "panes");
		buf_printf(b, "%d", fleet_pane_count(h));
		json_key(b, "connects");
		buf_printf(b, "%llu", (unsigned long long)h->connects);
		json_key(b, "resume");
		buf_printf(b, "%d", h->resumable);
		buf_addc(b, '}');
	}
	buf_addc(b, ']');
}

/*
 * lisa stop: the jump windows (cmd-jump.c) are the user's now, but the
 * options lisa set on them go.
 */
void
fleet_restore(struct buf *script)
{
	char	*out = NULL, *line, *rest, *sep;

	if (tmux_run(&out, "list-windows", "-a", "-F",
	    "#{window_id} #{@lisa_jump}", (char *)NULL) != 0 || out == NULL) {
		free(out);
		return;
	}
	rest = out;
	while ((line = strsep(&rest, "\n")) != NULL) {
		if (line[0] != '@' || (sep = strchr(line, ' ')) == NULL ||
		    sep[1] == '\0')
			continue;
		*sep = '\0';
		if (strspn(line + 1, "0123456789") != strlen(line + 1))
			continue;
		buf_printf(script, "set-option -wqu -t '%s' @lisa_jump\n"
		    "set-option -wqu -t '%s' @lisa_jump_target\n", line, line);
	}
	free(out);
}
