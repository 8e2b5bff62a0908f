/*
 * ntfy's side of answering from the phone (docs/phone.md). An ask's push
 * carries ntfy "http" actions: a tap makes the phone POST the button's
 * token to the reply topic (@lisa-notify-reply-url, else the push topic's
 * URL with "-reply"). lisa reads that topic as ntfy's JSON stream, by a
 * curl it runs only while an ask with buttons is open: no port is opened,
 * and at rest nothing is held. What came of a tap is pushed back.
 *
 * The reply URL, like the push URL, may hold a secret: it reaches curl on
 * its standard input as a config line, never a command line or a log.
 */
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "tap.h"
#include "tell.h"

#define TAP_NTFY_LINE_MAX	65536
#define TAP_NTFY_BACKOFF_MIN	1000	/* ms, doubled to the max */
#define TAP_NTFY_BACKOFF_MAX	60000
/*
 * ntfy sends a keepalive every 45 s: a stream below a byte a second for
 * this long is a stalled link, ended and made again.
 */
#define TAP_NTFY_STALL_S	150
#define TAP_NTFY_STALL_STR	"150"

static struct {
	char		*curl;
	char		*url;		/* @lisa-notify-url, ntfy's format */
	char		*reply;		/* @lisa-notify-reply-url */
	int		 json;		/* a JSON webhook: no buttons */
} tap_ntfy;

/* The subscription to the reply topic: one curl, while asks are open. */
static struct {
	pid_t		 pid;
	int		 fd;
	struct loop_fd	*lf;
	struct buf	 in;
	char		 last[64];	/* the last message's id: since= */
	int64_t		 since;		/* unix s, before the first ask */
	uint64_t	 backoff;
	struct loop_timer retry;
	int		 retry_ready;
	int		 retrying;
	char		*url;		/* the reply topic read */
} tap_sub = { .pid = -1, .fd = -1 };

static void	tap_ntfy_start(void);

/* Options: @lisa-notify-url and -format for the push, -reply-url. */
void
tap_ntfy_option(const char *name, const char *value)
{
	if (strcmp(name, "@lisa-notify-url") == 0) {
		free(tap_ntfy.url);
		tap_ntfy.url = *value != '\0' && options_url_valid(value) ?
		    xstrdup(value) : NULL;
	} else if (strcmp(name, "@lisa-notify-reply-url") == 0) {
		free(tap_ntfy.reply);
		tap_ntfy.reply = *value != '\0' && options_url_valid(value) ?
		    xstrdup(value) : NULL;
	} else if (strcmp(name, "@lisa-notify-url-format") == 0)
		tap_ntfy.json = strcmp(value, "json") == 0;
}

/* Before the options are read again: lisa's defaults. */
void
tap_ntfy_reset(const char *curl)
{
	free(tap_ntfy.curl);
	free(tap_ntfy.url);
	free(tap_ntfy.reply);
	memset(&tap_ntfy, 0, sizeof tap_ntfy);
	tap_ntfy.curl = curl != NULL ? xstrdup(curl) : NULL;
}

/*
 * The reply topic's URL: the one given, else the push topic's with
 * "-reply" after its path (before a query). NULL if there is none.
 */
static char *
tap_ntfy_reply_url(void)
{
	const char	*u = tap_ntfy.url, *path, *end;
	char		*out;

	if (tap_ntfy.reply != NULL)
		return (xstrdup(tap_ntfy.reply));
	if (u == NULL || tap_ntfy.json)
		return (NULL);
	if ((path = strstr(u, "://")) == NULL ||
	    (path = strchr(path + 3, '/')) == NULL)
		return (NULL);
	end = path + strcspn(path, "?#");
	if (end - path < 2 || end[-1] == '/')
		return (NULL);		/* no topic */
	xasprintf(&out, "%.*s-reply%s", (int)(end - u), u, end);
	return (out);
}

/* Buttons go with pushes to ntfy, a reply topic known and curl there. */
int
tap_ntfy_on(void)
{
	char	*r;
	int	 ok;

	if (!tap_cfg.on || tap_ntfy.curl == NULL || tap_ntfy.url == NULL ||
	    tap_ntfy.json)
		return (0);
	r = tap_ntfy_reply_url();
	/*
	 * (a comma, semicolon or quote would end ntfy's action early; the
	 * push topic itself would read lisa's own pushes as taps)
	 */
	ok = r != NULL && strcspn(r, ",;'\"\\") == strlen(r) &&
	    strcmp(r, tap_ntfy.url) != 0;
	free(r);
	return (ok);
}

/* The Actions header's value for B: 0 if there is one. */
int
tap_ntfy_actions(struct buf *b, const struct tap_buttons *bt)
{
	char	*r;
	int	 i;

	if (!tap_ntfy_on() || bt->n == 0)
		return (-1);
	r = tap_ntfy_reply_url();
	for (i = 0; i < bt->n; i++) {
		buf_printf(b, "%shttp, %s, %s, method=POST, body=%s, "
		    "clear=true", i != 0 ? "; " : "", bt->label[i], r,
		    bt->token[i]);
	}
	free(r);
	return (0);
}

/* What came of a tap, pushed back to the phone. */
static void
tap_ntfy_told(void *arg, int ok, const char *text)
{
	struct notify_post	m;

	if (text == NULL)
		return;
	log_debug("phone: %s", text);
	if (tap_ntfy.url == NULL || tap_ntfy.curl == NULL)
		return;
	memset(&m, 0, sizeof m);
	m.title = ok ? "lisa: answered" : "lisa: not answered";
	m.text = text;
	m.group = "answer";
	m.state = "";
	m.agent = "";
	m.pane = "";
	m.tag = ok ? "white_check_mark" : "no_entry";
	notify_url_post(tap_ntfy.curl, tap_ntfy.url, 0, &m);
}

/* One line of the stream: a message's text is a tap's token. */
static void
tap_ntfy_line(const char *line, size_t len)
{
	struct json_doc	*d;
	char		*cause, *event, *id, *msg, *s, *e;

	if ((d = json_parse(line, len, &cause)) == NULL) {
		log_debug("phone: a line of the reply topic skipped: %s",
		    cause);
		free(cause);
		return;
	}
	event = json_get_str(d, 0, "event");
	if (event != NULL)
		tap_working();	/* (open, keepalive: the server is there) */
	if (event != NULL && strcmp(event, "message") == 0) {
		if ((id = json_get_str(d, 0, "id")) != NULL &&
		    strlen(id) < sizeof tap_sub.last &&
		    strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu"
		    "vwxyz0123456789") == strlen(id))
			strlcpy(tap_sub.last, id, sizeof tap_sub.last);
		free(id);
		if ((msg = json_get_str(d, 0, "message")) != NULL) {
			/* (what a phone's body may have around it) */
			for (s = msg; *s == ' ' || *s == '\n'; s++)
				;
			e = s + strlen(s);
			while (e > s && (e[-1] == ' ' || e[-1] == '\n' ||
			    e[-1] == '\r'))
				*--e = '\0';
			tap_take(s, tap_ntfy_told, NULL);
		}
		free(msg);
	}
	free(event);
	json_free(d);
}

static void
tap_ntfy_read(int fd, short revents, void *arg)
{
	char	 tmp[8192], *nl;
	ssize_t	 n;

	n = read(fd, tmp, sizeof tmp);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		loop_del(tap_sub.lf);
		tap_sub.lf = NULL;
		close(tap_sub.fd);
		tap_sub.fd = -1;
		return;		/* (curl's exit says the rest) */
	}
	buf_add(&tap_sub.in, tmp, (size_t)n);
	while ((nl = memchr(tap_sub.in.data, '\n', tap_sub.in.len)) != NULL) {
		*nl = '\0';
		tap_ntfy_line(tap_sub.in.data, (size_t)(nl - tap_sub.in.data));
		buf_consume(&tap_sub.in, (size_t)(nl - tap_sub.in.data) + 1);
	}
	if (tap_sub.in.len > TAP_NTFY_LINE_MAX) {
		log_warnx("phone: a line of the reply topic over 64 KiB: "
		    "dropped");
		buf_reset(&tap_sub.in);
	}
}

static void
tap_ntfy_retry_cb(void *arg)
{
	tap_sub.retrying = 0;
	tap_ntfy_changed();
}

/* curl ended (SIGCHLD): again after a while if asks are still open. */
void
tap_ntfy_reaped(pid_t pid, int status)
{
	if (pid != tap_sub.pid)
		return;
	tap_sub.pid = -1;
	if (tap_sub.lf != NULL) {
		loop_del(tap_sub.lf);
		tap_sub.lf = NULL;
		close(tap_sub.fd);
		tap_sub.fd = -1;
	}
	buf_reset(&tap_sub.in);
	tap_reader_failed("the reply topic's stream", status, TAP_NTFY_STALL_S,
	    "@lisa-notify-reply-url, or its token");
	if (!tap_pending())
		return;
	log_debug("phone: the reply topic's stream ended (status %d): again "
	    "in %llu ms", status, (unsigned long long)tap_sub.backoff);
	if (!tap_sub.retry_ready) {
		loop_timer_init(&tap_sub.retry, tap_ntfy_retry_cb, NULL);
		tap_sub.retry_ready = 1;
	}
	tap_sub.retrying = 1;
	loop_timer_add(&tap_sub.retry, tap_sub.backoff);
	tap_sub.backoff = tap_sub.backoff * 2 > TAP_NTFY_BACKOFF_MAX ?
	    TAP_NTFY_BACKOFF_MAX : tap_sub.backoff * 2;
}

/* curl -N on the reply topic's JSON stream, its URL on its stdin. */
static void
tap_ntfy_start(void)
{
	static char	*argv[] = { "curl", "-s", "-f", "-N", "--speed-limit",
	    "1", "--speed-time", TAP_NTFY_STALL_STR, "-K", "-", NULL };
	struct buf	 cfg;
	char		*r, *q;
	pid_t		 pid;

	if ((r = tap_ntfy_reply_url()) == NULL)
		return;
	buf_init(&cfg);
	q = r + strcspn(r, "?#");
	/* (since: what came while we were not there, none of it twice) */
	buf_printf(&cfg, "url = \"%.*s/json?", (int)(q - r), r);
	if (tap_sub.last[0] != '\0')
		buf_printf(&cfg, "since=%s", tap_sub.last);
	else
		buf_printf(&cfg, "since=%lld", (long long)tap_sub.since);
	if (*q == '?')
		buf_printf(&cfg, "&%s", q + 1);
	buf_adds(&cfg, "\"\n");
	pid = notify_url_reader(tap_ntfy.curl, argv, &cfg, &tap_sub.fd);
	buf_free(&cfg);
	free(tap_sub.url);
	tap_sub.url = r;
	if (pid == -1) {
		log_warn("phone: cannot read the reply topic");
		return;
	}
	tap_sub.pid = pid;
	buf_reset(&tap_sub.in);
	tap_sub.lf = loop_add(tap_sub.fd, POLLIN, tap_ntfy_read, NULL);
	log_debug("phone: reading the reply topic (curl %ld)", (long)pid);
}

static void
tap_ntfy_stop(void)
{
	if (tap_sub.pid > 0) {
		kill(tap_sub.pid, SIGTERM);
		log_debug("phone: no ask open: the reply topic let go");
	}
	/* (its exit is reaped, and finds nothing open: no retry) */
	if (tap_sub.lf != NULL) {
		loop_del(tap_sub.lf);
		tap_sub.lf = NULL;
		close(tap_sub.fd);
		tap_sub.fd = -1;
	}
	if (tap_sub.retry_ready)
		loop_timer_del(&tap_sub.retry);
	tap_sub.retrying = 0;
	tap_sub.last[0] = '\0';
	tap_sub.since = 0;
	tap_sub.backoff = TAP_NTFY_BACKOFF_MIN;
}

/* The asks open changed: the reply topic read while there are any. */
void
tap_ntfy_changed(void)
{
	int	want = tap_pending() && tap_ntfy_on();

	if (want && tap_sub.pid == -1 && !tap_sub.retrying) {
		if (tap_sub.backoff == 0)
			tap_sub.backoff = TAP_NTFY_BACKOFF_MIN;
		/*
		 * From before the first ask on, kept through reconnects: a
		 * tap made while the stream was down (a stall, a restart)
		 * is read when it is up again, if no message came before.
		 */
		if (tap_sub.last[0] == '\0' && tap_sub.since == 0)
			tap_sub.since = time_real_ms() / 1000 - 1;
		tap_ntfy_start();
	} else if (!want && (tap_sub.pid != -1 || tap_sub.retrying))
		tap_ntfy_stop();
}

/* A curl reads the reply topic now. */
int
tap_ntfy_reading(void)
{
	return (tap_sub.pid != -1);
}

/* The options were read again: a reply topic no longer ours let go. */
void
tap_ntfy_apply(void)
{
	char	*r = tap_ntfy_on() ? tap_ntfy_reply_url() : NULL;

	if (tap_sub.url != NULL && (r == NULL || strcmp(r, tap_sub.url) != 0) &&
	    (tap_sub.pid != -1 || tap_sub.retrying)) {
		log_debug("phone: the reply topic changed");
		tap_ntfy_stop();
		tap_working();	/* (what failed was the old topic's) */
	}
	free(r);
	tap_ntfy_changed();
}

void
tap_ntfy_close(void)
{
	tap_ntfy_stop();
	free(tap_sub.url);
	tap_sub.url = NULL;
	buf_free(&tap_sub.in);
	tap_ntfy_reset(NULL);
}
