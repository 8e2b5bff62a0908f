/*
 * An agent's stderr, summarised while it streams by: bounded memory
 * whatever the agent writes (70 + 50 lines of at most RUN_LINE_MAX bytes).
 */
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "run-stderr.h"

/*
 * The longest prefix of s (len bytes) of at most max bytes that does not
 * end inside a UTF-8 character: back off over continuation bytes.
 */
size_t
utf8_cut(const char *s, size_t len, size_t max)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n;

	if (len <= max)
		return (len);
	n = max;
	/* p[n] is the first byte left out: is it inside a character? */
	while (n > 0 && (p[n] & 0xc0) == 0x80 && max - n < 4)
		n--;
	/* Not a character boundary within 3 bytes: not UTF-8, cut as is. */
	if ((p[n] & 0xc0) == 0x80)
		n = max;
	return (n);
}

void
run_stderr_init(struct run_stderr *rs)
{
	memset(rs, 0, sizeof *rs);
	buf_init(&rs->line);
}

static void
run_stderr_line(struct run_stderr *rs)
{
	char	*line;
	size_t	 n = rs->line.len;

	if (n > 0 && rs->line.data[n - 1] == '\r')
		n--;
	n = utf8_cut(rs->line.data != NULL ? rs->line.data : "", n,
	    RUN_LINE_MAX);
	line = xstrndup(rs->line.data != NULL ? rs->line.data : "", n);
	buf_reset(&rs->line);
	rs->line_full = 0;

	rs->total++;
	if (rs->nfirst < RUN_HEAD_LINES + RUN_TAIL_LINES)
		rs->first[rs->nfirst++] = xstrdup(line);
	free(rs->last[rs->lastpos]);
	rs->last[rs->lastpos] = line;
	rs->lastpos = (rs->lastpos + 1) % RUN_TAIL_LINES;
}

void
run_stderr_feed(struct run_stderr *rs, const char *data, size_t len)
{
	const char	*nl;
	size_t		 n, room;

	while (len > 0) {
		nl = memchr(data, '\n', len);
		n = nl != NULL ? (size_t)(nl - data) : len;
		/* Keep a little past the cut: utf8_cut needs the next byte. */
		if (!rs->line_full) {
			room = RUN_LINE_MAX + 4 - rs->line.len;
			buf_add(&rs->line, data, n < room ? n : room);
			if (n >= room)
				rs->line_full = 1;
		}
		if (nl == NULL)
			break;
		run_stderr_line(rs);
		data += n + 1;
		len -= n + 1;
	}
}

/* The stream ended: a last line without its newline still counts. */
void
run_stderr_finish(struct run_stderr *rs)
{
	if (rs->line.len != 0 || rs->line_full)
		run_stderr_line(rs);
}

/* Lines joined with '\n', as one JSON string. */
static void
run_stderr_join(struct buf *b, char *const *lines, size_t from, size_t n,
    size_t ring)
{
	struct buf	j;
	size_t		i;

	buf_init(&j);
	for (i = 0; i < n; i++) {
		if (i != 0)
			buf_addc(&j, '\n');
		buf_adds(&j, lines[ring != 0 ? (from + i) % ring : from + i]);
	}
	buf_addc(&j, '\0');
	json_cstr(b, j.data);
	buf_free(&j);
}

/*
 * The termination metadata's shape: "head" is the whole stderr when it
 * was not cut, else its first lines; "tail", its last lines, only when
 * cut. {"head":"...","tail":"...","truncated":bool,"total_lines":N}
 */
void
run_stderr_json(struct buf *b, const struct run_stderr *rs)
{
	int	cut = rs->total > RUN_HEAD_LINES + RUN_TAIL_LINES;

	buf_adds(b, "{\"head\":");
	run_stderr_join(b, rs->first, 0, cut ? RUN_HEAD_LINES : rs->nfirst,
	    0);
	if (cut) {	/* the ring is full: its oldest line is at lastpos */
		buf_adds(b, ",\"tail\":");
		run_stderr_join(b, rs->last, rs->lastpos, RUN_TAIL_LINES,
		    RUN_TAIL_LINES);
	}
	buf_printf(b, ",\"truncated\":%s,\"total_lines\":%llu}",
	    cut ? "true" : "false", (unsigned long long)rs->total);
}

void
run_stderr_free(struct run_stderr *rs)
{
	size_t	i;

	for (i = 0; i < rs->nfirst; i++)
		free(rs->first[i]);
	for (i = 0; i < RUN_TAIL_LINES; i++)
		free(rs->last[i]);
	buf_free(&rs->line);
	memset(rs, 0, sizeof *rs);
}
