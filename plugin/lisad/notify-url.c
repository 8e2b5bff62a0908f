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

void
notify_url_post(const char *curl, const char *url, int json,
    const struct notify_post *m)
{
	struct buf	 cfg, body;
	int		 cp[2], bp[2];
	pid_t		 pid;

	if (compat_pipe(cp) != 0)
		return;
	if (compat_pipe(bp) != 0) {
		close(cp[0]);
		close(cp[1]);
		return;
	}
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
		buf_adds(&body, m->text);
	}
	if ((pid = fork()) == -1) {
		close(cp[0]);
		close(cp[1]);
		close(bp[0]);
		close(bp[1]);
	} else if (pid == 0) {
		close(cp[1]);
		close(bp[1]);
		/* (the body's pipe to 3 first, kept as the rest is closed) */
		if (bp[0] != 3) {
			if (cp[0] == 3 && (cp[0] = dup(cp[0])) == -1)
				_exit(127);
			dup2(bp[0], 3);
			close(bp[0]);
		}
		fcntl(3, F_SETFD, 0);
		notify_child_from(cp[0], -1, 4);
		execl(curl, "curl", "-s", "-S", "--max-time", NOTIFY_URL_SECONDS,
		    "-K", "-", "--data-binary", "@/dev/fd/3", (char *)NULL);
		_exit(127);
	} else {
		close(cp[0]);
		close(bp[0]);
		notify_url_write(cp[1], &cfg);
		notify_url_write(bp[1], &body);
		log_debug("notify url: %s posted as %s", m->group,
		    json ? "json" : "ntfy");
	}
	buf_free(&cfg);
	buf_free(&body);
}
