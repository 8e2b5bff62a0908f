/*
 * Pane events: state transitions, deaths, closes, resyncs. Kept three
 * ways: a ring in memory (lisa events asks the helper), a JSONL file in the
 * runtime directory (bounded in bytes and lines, rotated to .1, each line
 * one write(2) on an O_APPEND fd so no line is ever torn), and pushed to
 * `lisa events --follow` and `lisa wait` as they happen.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "tell.h"

#define EVENTS_MAX 1024

struct event {
	int64_t	 ts;
	char	*line;		/* the JSON object, as written */
};
static struct event	events[EVENTS_MAX];
static unsigned		events_next;
static unsigned		events_count;

static int		events_fd = -1;
static char		*events_path;
static uint64_t		events_bytes;
static uint64_t		events_lines;

/*
 * The full file becomes .1 and an empty one takes its name, with the name
 * never missing in between: a reader (`tail -F`, a script that stats it)
 * must not see it gone. link() may not be there (some filesystems): then a
 * plain rename, with its moment of no file.
 */
static void
events_rotate(void)
{
	char	*old, *new;
	int	 fd, linked;

	if (events_fd != -1)
		close(events_fd);
	events_fd = -1;
	xasprintf(&old, "%s.1", events_path);
	xasprintf(&new, "%s.new", events_path);
	fd = open(new, O_WRONLY|O_CREAT|O_TRUNC|O_APPEND|O_NOFOLLOW|O_CLOEXEC,
	    0600);
	if (unlink(old) != 0 && errno != ENOENT)
		log_warn("unlink %s", old);
	linked = fd != -1 && link(events_path, old) == 0;
	if (linked && rename(new, events_path) == 0)
		events_fd = fd;
	else {
		if (fd != -1) {
			close(fd);
			unlink(new);
		}
		/* Linked: .1 is the file already, the name goes. */
		if (linked)
			unlink(events_path);
		else if (rename(events_path, old) != 0 && errno != ENOENT)
			log_warn("rename %s", events_path);
		events_fd = open(events_path, O_WRONLY|O_CREAT|O_APPEND|
		    O_NOFOLLOW|O_CLOEXEC, 0600);
	}
	free(new);
	free(old);
	events_bytes = events_lines = 0;
}

static void	events_keep(int64_t, const char *, size_t);

/* Whole lines of a file a helper before us wrote, into the ring. */
static void
events_load(struct buf *b)
{
	const char	*line, *nl, *end, *ts;
	long long	 ms;

	if (b->len == 0)
		return;	/* no file yet: data is NULL */
	end = b->data + b->len;
	for (line = b->data; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			break;	/* a torn last line is not an event */
		events_lines++;
		if (nl - line < 2 || *line != '{' || nl[-1] != '}')
			continue;
		ts = memmem(line, (size_t)(nl - line), "\"ts_ms\":", 8);
		if (ts == NULL || sscanf(ts + 8, "%lld", &ms) != 1)
			continue;
		events_keep(ms, line, (size_t)(nl - line));
	}
}

void
events_open(void)
{
	struct stat	st;
	struct buf	b;
	char		tmp[65536];
	ssize_t		n;
	int		fd;

	events_path = runtime_path(lisad.rundir, lisad.sid.key,
	    ".events.jsonl");
	events_fd = open(events_path, O_WRONLY|O_CREAT|O_APPEND|O_NOFOLLOW|
	    O_CLOEXEC, 0600);
	if (events_fd == -1) {
		log_warn("open %s", events_path);
		return;
	}
	if (fstat(events_fd, &st) == 0)
		events_bytes = (uint64_t)st.st_size;
	/*
	 * The lines a previous helper left: counted, and the last of them
	 * back in the ring, so `lisa events` goes on across a restart.
	 */
	if ((fd = open(events_path, O_RDONLY|O_NOFOLLOW|O_CLOEXEC)) != -1) {
		buf_init(&b);
		while ((n = read(fd, tmp, sizeof tmp)) > 0)
			buf_add(&b, tmp, (size_t)n);
		close(fd);
		events_load(&b);
		buf_free(&b);
	}
}

void
events_close(void)
{
	if (events_fd != -1)
		close(events_fd);
	events_fd = -1;
	free(events_path);
	events_path = NULL;
}

/* Into the ring, the oldest out. */
static void
events_keep(int64_t ts, const char *line, size_t len)
{
	struct event	*e = &events[events_next];

	free(e->line);
	e->ts = ts;
	e->line = xstrndup(line, len);
	events_next = (events_next + 1) % EVENTS_MAX;
	if (events_count < EVENTS_MAX)
		events_count++;
}

static void
events_record(struct buf *b, int64_t ts)
{
	events_keep(ts, b->data, b->len);

	buf_addc(b, '\n');
	if (events_fd != -1) {
		if (events_bytes + b->len > lisad.events_max_bytes ||
		    events_lines + 1 > lisad.events_max_lines)
			events_rotate();
		if (events_fd != -1 &&
		    write(events_fd, b->data, b->len) == (ssize_t)b->len) {
			events_bytes += b->len;
			events_lines++;
		}
	}
	listener_event(b->data, b->len);
}

static void
events_start(struct buf *b, int64_t ts, int pane, const char *type)
{
	char	when[40], id[32];

	rfc3339(ts, when, sizeof when);
	buf_addc(b, '{');
	json_key(b, "ts");
	json_cstr(b, when);
	json_key(b, "ts_ms");
	buf_printf(b, "%lld", (long long)ts);
	/* (-1: the helper's own, of no pane: helper_stopped) */
	if (pane >= 0) {
		snprintf(id, sizeof id, "%%%d", pane);
		json_key(b, "pane_id");
		json_cstr(b, id);
	}
	json_key(b, "event");
	json_cstr(b, type);
	/* Whose %N: a server started later reuses the ids. */
	json_key(b, "server");
	json_cstr(b, lisad.instance);
}

/* died, closed, resync: with a free-form detail. */
void
events_add(const char *type, int pane, const char *fmt, ...)
{
	struct buf	 b;
	va_list		 ap;
	char		*detail;
	int64_t		 ts = time_real_ms();

	va_start(ap, fmt);
	xvasprintf(&detail, fmt, ap);
	va_end(ap);
	buf_init(&b);
	events_start(&b, ts, pane, type);
	json_key(&b, "detail");
	json_cstr(&b, detail);
	buf_addc(&b, '}');
	events_record(&b, ts);
	buf_free(&b);
	free(detail);
}

/* An event with fields given as JSON ("k":v,...; no braces). */
void
events_json_add(const char *type, int pane, const char *fields)
{
	struct buf	 b;
	int64_t		 ts = time_real_ms();

	buf_init(&b);
	events_start(&b, ts, pane, type);
	if (fields != NULL && *fields != '\0') {
		buf_addc(&b, ',');
		buf_adds(&b, fields);
	}
	buf_addc(&b, '}');
	events_record(&b, ts);
	buf_free(&b);
}

void
events_transition(struct pane *p, enum cls_state from,
    const struct cls_result *r, const char *agent)
{
	struct buf	b;
	int64_t		ts = time_real_ms();

	buf_init(&b);
	events_start(&b, ts, p->id, "transition");
	json_key(&b, "agent");
	json_cstr(&b, agent);
	json_key(&b, "from");
	json_cstr(&b, cls_state_name(from));
	json_key(&b, "to");
	json_cstr(&b, cls_state_name(r->state));
	json_key(&b, "detail");
	json_cstr(&b, r->detail);
	json_key(&b, "reason");
	json_cstr(&b, r->reason);
	buf_addc(&b, '}');
	log_debug("pane %%%d: %s -> %s (%s) %s", p->id, cls_state_name(from),
	    cls_state_name(r->state), r->detail, r->reason);
	events_record(&b, ts);
	/* events_record added a newline. */
	if (b.len > 0 && b.data[b.len - 1] == '\n')
		b.data[--b.len] = '\0';
	notify_transition(p, from, r, b.data);
	buf_free(&b);
}

/* The ring as a JSON array, events at or after since (ms, 0 = all). */
void
events_json(struct buf *b, int64_t since)
{
	struct event	*e;
	unsigned	 i, start;
	int		 first = 1;

	buf_addc(b, '[');
	start = (events_next + EVENTS_MAX - events_count) % EVENTS_MAX;
	for (i = 0; i < events_count; i++) {
		e = &events[(start + i) % EVENTS_MAX];
		if (e->ts < since)
			continue;
		if (!first)
			buf_addc(b, ',');
		buf_adds(b, e->line);
		first = 0;
	}
	buf_addc(b, ']');
}
