/*
 * A control-mode connection: bytes in, lines out, replies matched to the
 * commands we sent. tmux answers every command line from our stdin with one
 * %begin/%end (or %error) block flagged 1, in order, so a FIFO of callbacks is
 * enough - as long as we never send a line that gets no block (empty,
 * whitespace-only, a comment, or several commands joined by ';'). Blocks
 * flagged 0 come from the attach itself or from hooks; they are dropped.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"

#define CTL_READ_SIZE	(256 * 1024)
#define CTL_READ_BUDGET	(4 * 1024 * 1024)	/* per call, to stay fair */
#define CTL_MAX_BODY	(64 * 1024 * 1024)

struct ctl_cmd {
	ctl_reply_cb		 cb;
	void			*arg;
	int			 flags;		/* CTL_SEND_* */
	TAILQ_ENTRY(ctl_cmd)	 entry;
};
TAILQ_HEAD(ctl_cmds, ctl_cmd);

struct ctl_client {
	int			 rfd;
	int			 wfd;
	const struct ctl_callbacks *cb;
	void			*arg;

	struct buf		 in;
	size_t			 scanned;	/* no '\n' before this offset */
	int			 skipping;	/* inside an over-long line */
	struct buf		 out;
	struct buf		 dec;		/* decoded %output */

	struct ctl_cmds		 cmds;
	size_t			 ncmds;

	int			 inblock;
	long long		 btime;
	unsigned long		 bnumber;
	int			 bflags;
	struct buf		 body;
	size_t			 body_lines;
	int			 body_truncated;

	struct ctl_stats	 stats;
};

struct ctl_client *
ctl_client_new(int rfd, int wfd, const struct ctl_callbacks *cb, void *arg)
{
	struct ctl_client	*c;

	c = xcalloc(1, sizeof *c);
	c->rfd = rfd;
	c->wfd = wfd;
	c->cb = cb;
	c->arg = arg;
	buf_init(&c->in);
	buf_init(&c->out);
	buf_init(&c->dec);
	buf_init(&c->body);
	TAILQ_INIT(&c->cmds);
	return (c);
}

/* Free the client; pending commands are dropped without their callbacks. */
void
ctl_client_free(struct ctl_client *c)
{
	struct ctl_cmd	*cmd;

	if (c == NULL)
		return;
	while ((cmd = TAILQ_FIRST(&c->cmds)) != NULL) {
		TAILQ_REMOVE(&c->cmds, cmd, entry);
		free(cmd);
	}
	buf_free(&c->in);
	buf_free(&c->out);
	buf_free(&c->dec);
	buf_free(&c->body);
	free(c);
}

int
ctl_client_rfd(struct ctl_client *c)
{
	return (c->rfd);
}

int
ctl_client_wfd(struct ctl_client *c)
{
	return (c->wfd);
}

/* Stop writing: closing tmux -C's stdin makes it detach and exit. */
void
ctl_client_close_write(struct ctl_client *c)
{
	if (c->wfd != -1)
		close(c->wfd);
	c->wfd = -1;
	buf_reset(&c->out);
}

size_t
ctl_client_inflight(struct ctl_client *c)
{
	return (c->ncmds);
}

const struct ctl_stats *
ctl_client_stats(struct ctl_client *c)
{
	return (&c->stats);
}

/* Forget the callbacks that carry arg (its owner is going away). */
void
ctl_client_cancel_arg(struct ctl_client *c, void *arg)
{
	struct ctl_cmd	*cmd;

	TAILQ_FOREACH(cmd, &c->cmds, entry) {
		if (cmd->arg == arg)
			cmd->cb = NULL;
	}
}

static void
ctl_block_end(struct ctl_client *c, int ok)
{
	struct ctl_cmd	*cmd;

	c->inblock = 0;
	if ((c->bflags & 1) == 0) {
		log_debug("control: dropped block %lu flags %d (%zu bytes)",
		    c->bnumber, c->bflags, c->body.len);
		buf_reset(&c->body);
		return;
	}
	c->stats.replies++;
	if ((cmd = TAILQ_FIRST(&c->cmds)) == NULL) {
		c->stats.stray_replies++;
		log_warnx("control: reply %lu with no command waiting",
		    c->bnumber);
		buf_reset(&c->body);
		return;
	}
	TAILQ_REMOVE(&c->cmds, cmd, entry);
	c->ncmds--;
	if (!ok)
		log_debug("control: command failed: %s", c->body.data);
	if (ok && (cmd->flags & CTL_SEND_UNPAD) && c->body.data != NULL)
		c->body.len = ctl_unpad(c->body.data, c->body.len);
	if (cmd->cb != NULL)
		cmd->cb(c, ok, c->body.data != NULL ? c->body.data : "",
		    c->body.len, cmd->arg);
	free(cmd);
	buf_reset(&c->body);
}

static void
ctl_block_line(struct ctl_client *c, char *line, size_t len)
{
	struct ctl_event	ev;
	char			saved[64];
	size_t			n;

	/* Only a %end/%error with the same triple closes the block. */
	if (len > 5 && line[0] == '%' &&
	    (memcmp(line, "%end ", 5) == 0 || memcmp(line, "%error ", 7) == 0)) {
		n = len < sizeof saved ? len : sizeof saved - 1;
		memcpy(saved, line, n);
		saved[n] = '\0';
		if (len < sizeof saved && ctl_parse(saved, n, &ev) == 0 &&
		    ev.time == c->btime && ev.number == c->bnumber &&
		    ev.cmdflags == c->bflags) {
			ctl_block_end(c, ev.type == CTL_END);
			return;
		}
	}
	if (c->body.len + len + 1 > CTL_MAX_BODY) {
		if (!c->body_truncated)
			log_warnx("control: reply %lu too long, truncated",
			    c->bnumber);
		c->body_truncated = 1;
		return;
	}
	if (c->body_lines++ != 0)
		buf_addc(&c->body, '\n');
	buf_add(&c->body, line, len);
}

static void
ctl_dispatch(struct ctl_client *c, char *line, size_t len)
{
	struct ctl_event	ev;
	size_t			n;

	c->stats.lines++;
	if (c->inblock) {
		ctl_block_line(c, line, len);
		return;
	}
	if (ctl_parse(line, len, &ev) != 0) {
		c->stats.malformed++;
		log_warnx("control: malformed line skipped: %.80s", line);
		return;
	}
	switch (ev.type) {
	case CTL_OUTPUT:
		c->stats.output_lines++;
		buf_reserve(&c->dec, ev.textlen);
		n = ctl_unescape(ev.text, ev.textlen, c->dec.data);
		c->stats.output_bytes += n;
		if (c->cb->output != NULL)
			c->cb->output(c, ev.pane, c->dec.data, n, ev.age,
			    c->arg);
		return;
	case CTL_BEGIN:
		c->inblock = 1;
		c->btime = ev.time;
		c->bnumber = ev.number;
		c->bflags = ev.cmdflags;
		c->body_truncated = 0;
		c->body_lines = 0;
		buf_reset(&c->body);
		return;
	case CTL_END:
	case CTL_ERROR:
		c->stats.malformed++;
		log_warnx("control: %%%s %lu without %%begin skipped", ev.word,
		    ev.number);
		return;
	case CTL_UNKNOWN:
		c->stats.unknown++;
		log_debug("control: unknown notification skipped: %.80s",
		    line);
		return;
	default:
		break;
	}
	if (c->cb->event != NULL)
		c->cb->event(c, &ev, c->arg);
}

/* Split what has arrived into lines and dispatch the complete ones. */
static void
ctl_process(struct ctl_client *c)
{
	char	*start, *nl, *end;
	size_t	 used;

	start = c->in.data;
	end = c->in.data + c->in.len;
	nl = memchr(start + c->scanned, '\n', (size_t)(end - start) - c->scanned);
	while (nl != NULL) {
		*nl = '\0';
		if (c->skipping)
			c->skipping = 0;
		else
			ctl_dispatch(c, start, (size_t)(nl - start));
		start = nl + 1;
		nl = memchr(start, '\n', (size_t)(end - start));
	}
	used = (size_t)(start - c->in.data);
	buf_consume(&c->in, used);
	c->scanned = c->in.len;
	if (c->in.len > CTL_MAX_LINE) {
		if (!c->skipping) {
			c->stats.dropped_long++;
			log_warnx("control: line over %d bytes dropped",
			    CTL_MAX_LINE);
		}
		c->skipping = 1;
		buf_reset(&c->in);
		c->scanned = 0;
	}
}

/* Feed bytes directly (tests, benchmarks, replays). */
int
ctl_client_feed(struct ctl_client *c, const char *data, size_t len)
{
	buf_add(&c->in, data, len);
	ctl_process(c);
	return (0);
}

/*
 * Read what is available, up to a budget. Returns 1 if more may be waiting,
 * 0 when drained, -1 at EOF or on error.
 */
int
ctl_client_read(struct ctl_client *c)
{
	ssize_t	n;
	size_t	total = 0;

	while (total < CTL_READ_BUDGET) {
		buf_reserve(&c->in, CTL_READ_SIZE);
		n = read(c->rfd, c->in.data + c->in.len, CTL_READ_SIZE);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return (0);
			log_warn("control: read");
			return (-1);
		}
		if (n == 0)
			return (-1);
		c->in.len += (size_t)n;
		c->in.data[c->in.len] = '\0';
		total += (size_t)n;
		ctl_process(c);
	}
	return (1);
}

int
ctl_client_pending_write(struct ctl_client *c)
{
	return (c->out.len != 0);
}

/* Write queued commands; -1 if the connection is gone. */
int
ctl_client_flush(struct ctl_client *c)
{
	ssize_t	n;

	if (c->wfd == -1)
		return (c->out.len == 0 ? 0 : -1);
	while (c->out.len != 0) {
		n = write(c->wfd, c->out.data, c->out.len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return (0);
			log_warn("control: write");
			return (-1);
		}
		buf_consume(&c->out, (size_t)n);
	}
	return (0);
}

/*
 * Check a command line: it must produce exactly one reply block. No control
 * bytes (a newline would split it), not blank, not a comment, and no ';'
 * outside quotes (a failing command would drop the rest without blocks).
 */
static int
ctl_check_command(const char *cmd)
{
	const char	*p;
	char		 quote = 0;
	int		 blank = 1;

	for (p = cmd; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return (-1);
		if (blank && *p != ' ') {
			if (*p == '#')
				return (-1);
			blank = 0;
		}
		if (quote == 0) {
			if (*p == '"' || *p == '\'')
				quote = *p;
			else if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == ';')
				return (-1);
		} else if (quote == '"' && *p == '\\' && p[1] != '\0')
			p++;
		else if (*p == quote)
			quote = 0;
	}
	if (blank || quote != 0)
		return (-1);
	return (0);
}

/*
 * Queue one command; cb (may be NULL) gets its reply. Returns -1 and sends
 * nothing if the line would not get exactly one reply.
 */
int
ctl_client_send(struct ctl_client *c, const char *cmd, ctl_reply_cb cb,
    void *arg)
{
	return (ctl_client_send_flags(c, cmd, 0, cb, arg));
}

/* The same, FLAGS (CTL_SEND_*) saying what to do to its reply first. */
int
ctl_client_send_flags(struct ctl_client *c, const char *cmd, int flags,
    ctl_reply_cb cb, void *arg)
{
	struct ctl_cmd	*q;

	if (ctl_check_command(cmd) != 0) {
		log_warnx("control: refused to send command: %.80s", cmd);
		return (-1);
	}
	log_debug("control: > %s", cmd);
	buf_adds(&c->out, cmd);
	buf_addc(&c->out, '\n');
	q = xcalloc(1, sizeof *q);
	q->cb = cb;
	q->arg = arg;
	q->flags = flags;
	TAILQ_INSERT_TAIL(&c->cmds, q, entry);
	c->ncmds++;
	return (0);
}
