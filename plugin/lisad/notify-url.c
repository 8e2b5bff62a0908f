/*
 * Notifications to a phone: each one POSTed to @lisa-notify-url, in ntfy's
 * format (title, priority and tags as headers, the text as the body) or as
 * one JSON object (@lisa-notify-url-format json), by curl run as a child
 * the helper never waits for. lisa opens no port and has no TLS of its own.
 *
 * The URL may hold a secret (an ntfy topic, a webhook's token): it goes to
 * curl on its standard input as a config line, never on a command line
 * (ps would show it) or into a log; the body goes through another pipe.
 * What a pane said (titles, names) reaches curl only as quoted config
 * values with every control character dropped: it cannot add a header.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "tell.h"

#define NOTIFY_URL_SECONDS	"10"	/* curl gives up: a slow server */
#define NOTIFY_URL_RETRY_MS	2000	/* after a refused connection */

/* A value inside a curl config's double quotes; control bytes dropped. */
static void
notify_url_quote(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			continue;
		if (*s == '"' || *s == '\\')
			buf_addc(b, '\\');
		buf_addc(b, *s);
	}
	buf_addc(b, '"');
}

static void
notify_url_json(struct buf *b, const struct notify_post *m)
{
	buf_addc(b, '{');
	json_key(b, "title");
	json_cstr(b, m->title);
	json_key(b, "message");
	json_cstr(b, m->text);
	json_key(b, "group");
	json_cstr(b, m->group);
	json_key(b, "state");
	json_cstr(b, m->state);
	json_key(b, "agent");
	json_cstr(b, m->agent);
	json_key(b, "pane");
	json_cstr(b, m->pane);
	buf_adds(b, "}\n");
}

/* Write all of it to a pipe the child reads; small, so it never blocks. */
static void
notify_url_write(int fd, const struct buf *b)
{
	const char	*p = b->data;
	size_t		 left = b->len;
	ssize_t		 n;

	while (left > 0) {
		if ((n = write(fd, p, left)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		p += n;
		left -= (size_t)n;
	}
	close(fd);
}

/*
 * One POST and what came of it: curl's HTTP code on its stdout (-w), its
 * exit status from SIGCHLD, both read from the loop, never waited for.
 * Kept, config and body, for the one retry a refused connection gets.
 */
struct notify_url_job {
	pid_t			 pid;
	int			 fd;
	struct loop_fd		*lf;
	char			 code[8];
	size_t			 ncode;
	int			 eof;
	int			 exited;
	int			 status;
	int			 tries;
	char			 group[16];
	struct buf		 cfg;
	struct buf		 body;
	struct loop_timer	 timer;
	TAILQ_ENTRY(notify_url_job) entry;
};
static TAILQ_HEAD(, notify_url_job) notify_url_jobs =
    TAILQ_HEAD_INITIALIZER(notify_url_jobs);
static char	*notify_url_curl;

/* The last failure, for doctor and info: what, never the URL. */
char	 notify_url_error[128];
int64_t	 notify_url_error_at;

static void	notify_url_spawn(struct notify_url_job *);

static void
notify_url_free(struct notify_url_job *j)
{
	TAILQ_REMOVE(&notify_url_jobs, j, entry);
	loop_timer_del(&j->timer);
	if (j->lf != NULL)
		loop_del(j->lf);
	if (j->fd != -1)
		close(j->fd);
	buf_free(&j->cfg);
	buf_free(&j->body);
	free(j);
}

/* curl's exit codes a user meets, in words (its man page's). */
const char *
notify_url_exit_text(int code)
{
	switch (code) {
	case 6:
		return ("could not resolve the host");
	case 7:
		return ("could not connect");
	case 28:
		return ("no answer within " NOTIFY_URL_SECONDS " s");
	case 35:
	case 60:
		return ("TLS failed");
	case 52:
		return ("the server answered nothing");
	case 55:
	case 56:
		return ("the connection broke");
	}
	return ("curl failed");
}

/*
 * An HTTP status in words for doctor. Telegram's Bot API (GROUP
 * "telegram") says which setting it could not take by its status alone:
 * 401 a token it does not know, 400 a chat it does not (or a message it
 * will not take), 403 a chat the bot may not write to, 404 no such bot,
 * 409 a second getUpdates of the same bot (another helper polls it).
 */
void
notify_url_http_text(char *out, size_t len, const char *group, int http)
{
	const char	*why = NULL;

	if (strcmp(group, "telegram") == 0) {
		switch (http) {
		case 400:
			why = "the chat? (@lisa-telegram-chat)";
			break;
		case 401:
		case 404:
			why = "the bot's token (@lisa-telegram-token)";
			break;
		case 403:
			why = "the bot may not write to the chat";
			break;
		case 409:
			why = "another program reads this bot's updates (one "
			    "helper per bot)";
			break;
		}
	}
	if (why != NULL)
		snprintf(out, len, "Telegram answered HTTP %d: %s", http, why);
	else
		snprintf(out, len, "the server answered HTTP %d", http);
}

/* Both halves in (its code read to EOF, its exit reaped): judge it. */
static void
notify_url_done(struct notify_url_job *j)
{
	int	code, http;

	if (!j->eof || !j->exited)
		return;
	code = WIFEXITED(j->status) ? WEXITSTATUS(j->status) : -1;
	j->code[j->ncode] = '\0';
	http = atoi(j->code);
	if (code == 0 && http >= 200 && http < 300) {
		notify_stats.posts++;
		log_debug("notify url: %s delivered (HTTP %d)", j->group, http);
		notify_url_free(j);
		return;
	}
	/* Refused or no such host: nothing was sent; once more, soon. */
	if ((code == 6 || code == 7) && j->tries == 1) {
		log_debug("notify url: %s: %s, once more", j->group,
		    notify_url_exit_text(code));
		j->tries++;
		j->eof = j->exited = 0;
		j->ncode = 0;
		loop_timer_add(&j->timer, NOTIFY_URL_RETRY_MS);
		return;
	}
	if (code == 0)
		notify_url_http_text(notify_url_error, sizeof notify_url_error,
		    j->group, http);
	else if (code == -1)
		snprintf(notify_url_error, sizeof notify_url_error,
		    "curl was killed");
	else
		snprintf(notify_url_error, sizeof notify_url_error,
		    "%s (curl exit %d%s)", notify_url_exit_text(code), code,
		    j->tries > 1 ? ", tried twice" : "");
	notify_url_error_at = time_real_ms();
	notify_stats.posts_failed++;
	log_warnx("notify url: %s not delivered: %s", j->group,
	    notify_url_error);
	notify_url_free(j);
}

static void
notify_url_read(int fd, short revents, void *arg)
{
	struct notify_url_job	*j = arg;
	char			 data[64];
	ssize_t			 n;
	size_t			 take;

	n = read(fd, data, sizeof data);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		take = sizeof j->code - 1 - j->ncode;
		if ((size_t)n < take)
			take = (size_t)n;
		memcpy(j->code + j->ncode, data, take);
		j->ncode += take;
		return;
	}
	loop_del(j->lf);
	j->lf = NULL;
	close(j->fd);
	j->fd = -1;
	j->eof = 1;
	notify_url_done(j);
}

/* A child ended (lisad.c's SIGCHLD): one of ours? */
void
notify_url_reaped(pid_t pid, int status)
{
	struct notify_url_job	*j;

	TAILQ_FOREACH(j, &notify_url_jobs, entry) {
		if (j->pid == pid) {
			j->pid = -1;
			j->exited = 1;
			j->status = status;
			notify_url_done(j);
			return;
		}
	}
}

static void
notify_url_again(void *arg)
{
	notify_url_spawn(arg);
}

/* Three pipes (its config, body and code), or -1 and none left open. */
static int
notify_url_pipes(int *cp, int *bp, int *op)
{
	if (compat_pipe(cp) != 0)
		return (-1);
	if (compat_pipe(bp) == 0) {
		if (compat_pipe(op) == 0)
			return (0);
		close(bp[0]);
		close(bp[1]);
	}
	close(cp[0]);
	close(cp[1]);
	return (-1);
}

/* curl, its config on stdin (the URL), the body on 3, its code on 1. */
static void
notify_url_spawn(struct notify_url_job *j)
{
	int	cp[2], bp[2], op[2], i;
	pid_t	pid;

	if (notify_url_pipes(cp, bp, op) != 0)
		goto fail;
	if ((pid = fork()) == -1) {
		for (i = 0; i < 2; i++) {
			close(cp[i]);
			close(bp[i]);
			close(op[i]);
		}
		goto fail;
	}
	if (pid == 0) {
		close(cp[1]);
		close(bp[1]);
		close(op[0]);
		/* (the body's pipe to 3 first, kept as the rest is closed) */
		if (bp[0] != 3) {
			if (cp[0] == 3 && (cp[0] = dup(cp[0])) == -1)
				_exit(127);
			if (op[1] == 3 && (op[1] = dup(op[1])) == -1)
				_exit(127);
			dup2(bp[0], 3);
			close(bp[0]);
		}
		fcntl(3, F_SETFD, 0);
		notify_child_from(cp[0], op[1], 4);
		execl(notify_url_curl, "curl", "-s", "-S", "--max-time",
		    NOTIFY_URL_SECONDS, "-o", "/dev/null", "-w",
		    "%{http_code}", "-K", "-", "--data-binary", "@/dev/fd/3",
		    (char *)NULL);
		_exit(127);
	}
	close(cp[0]);
	close(bp[0]);
	close(op[1]);
	j->pid = pid;
	j->fd = op[0];
	fcntl(j->fd, F_SETFL, O_NONBLOCK);
	j->lf = loop_add(j->fd, POLLIN, notify_url_read, j);
	notify_url_write(cp[1], &j->cfg);
	notify_url_write(bp[1], &j->body);
	log_debug("notify url: %s posted (try %d)", j->group, j->tries);
	return;
fail:
	log_warn("notify url: cannot run curl");
	snprintf(notify_url_error, sizeof notify_url_error,
	    "curl could not be run");
	notify_url_error_at = time_real_ms();
	notify_stats.posts_failed++;
	notify_url_free(j);
}

/* A job for CFG and BODY (both taken), run now. */
static void
notify_url_job(const char *curl, struct buf *cfg, struct buf *body,
    const char *group)
{
	struct notify_url_job	*j;

	free(notify_url_curl);
	notify_url_curl = xstrdup(curl);
	j = xcalloc(1, sizeof *j);
	j->fd = -1;
	j->pid = -1;
	j->tries = 1;
	j->cfg = *cfg;
	j->body = *body;
	strlcpy(j->group, group, sizeof j->group);
	loop_timer_init(&j->timer, notify_url_again, j);
	TAILQ_INSERT_TAIL(&notify_url_jobs, j, entry);
	notify_url_spawn(j);
}

void
notify_url_post(const char *curl, const char *url, int json,
    const struct notify_post *m)
{
	struct buf		 cfg, body;

	buf_init(&cfg);
	buf_init(&body);
	buf_adds(&cfg, "url = ");
	notify_url_quote(&cfg, url);
	buf_adds(&cfg, "\n");
	if (json) {
		buf_adds(&cfg, "header = \"Content-Type: application/json\"\n");
		notify_url_json(&body, m);
	} else {
		buf_adds(&cfg, "header = ");
		buf_printf(&body, "Title: %s", m->title);
		notify_url_quote(&cfg, body.data);
		buf_reset(&body);
		buf_printf(&cfg, "\nheader = \"Priority: %s\"\n",
		    m->urgent ? "urgent" : "high");
		buf_printf(&cfg, "header = \"Tags: %s\"\n", m->tag);
		if (m->actions != NULL) {
			buf_reset(&body);
			buf_printf(&body, "Actions: %s", m->actions);
			buf_adds(&cfg, "header = ");
			notify_url_quote(&cfg, body.data);
			buf_adds(&cfg, "\n");
			buf_reset(&body);
		}
		buf_adds(&body, m->text);
	}
	notify_url_job(curl, &cfg, &body, m->group);
}

/*
 * A POST of JSON BODY to URL (a bot's API: Telegram's), the same way: the
 * URL, which holds the bot's token, on curl's stdin; what came of it
 * counted with the pushes, under GROUP.
 */
void
notify_url_send(const char *curl, const char *url, const char *body,
    const char *group)
{
	struct buf	cfg, b;

	buf_init(&cfg);
	buf_init(&b);
	buf_adds(&cfg, "url = ");
	notify_url_quote(&cfg, url);
	buf_adds(&cfg, "\nheader = \"Content-Type: application/json\"\n");
	buf_adds(&b, body);
	notify_url_job(curl, &cfg, &b, group);
}

/*
 * A curl whose output the caller reads (the phone's taps: tap-ntfy.c,
 * tap-telegram.c): ARGV (argv[0] "curl", ending in "-K -"), CFG (its URL,
 * which may hold a secret) on its standard input, its standard output in
 * *FD, non-blocking. Its pid, or -1.
 */
pid_t
notify_url_reader(const char *curl, char *const argv[], const struct buf *cfg,
    int *fd)
{
	int	cp[2], op[2];
	pid_t	pid;

	if (compat_pipe(cp) != 0)
		return (-1);
	if (compat_pipe(op) != 0) {
		close(cp[0]);
		close(cp[1]);
		return (-1);
	}
	if ((pid = fork()) == -1) {
		close(cp[0]);
		close(cp[1]);
		close(op[0]);
		close(op[1]);
		return (-1);
	}
	if (pid == 0) {
		close(cp[1]);
		close(op[0]);
		notify_child(cp[0], op[1]);
		execv(curl, argv);
		_exit(127);
	}
	close(cp[0]);
	close(op[1]);
	notify_url_write(cp[1], cfg);	/* (a few bytes: never blocks) */
	*fd = op[0];
	fcntl(*fd, F_SETFL, O_NONBLOCK);
	return (pid);
}

/* At exit: what is still out is the kernel's to end (curl's own timeout). */
void
notify_url_close(void)
{
	struct notify_url_job	*j;

	while ((j = TAILQ_FIRST(&notify_url_jobs)) != NULL)
		notify_url_free(j);
	free(notify_url_curl);
	notify_url_curl = NULL;
}
