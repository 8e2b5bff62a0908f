/*
 * Recent pane lifecycle events (died, closed, resync), kept in memory in a
 * bounded ring for `lisa events`. The classifier adds transitions and the
 * on-disk JSONL log.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"

#define EVENTS_MAX 256

struct event {
	int64_t	 ts;
	int	 pane;
	char	*type;
	char	*detail;
};
static struct event	events[EVENTS_MAX];
static unsigned		events_next;
static unsigned		events_count;

void
events_add(const char *type, int pane, const char *fmt, ...)
{
	struct event	*e = &events[events_next];
	va_list		 ap;

	free(e->type);
	free(e->detail);
	e->ts = time_real_ms();
	e->pane = pane;
	e->type = xstrdup(type);
	va_start(ap, fmt);
	xvasprintf(&e->detail, fmt, ap);
	va_end(ap);
	events_next = (events_next + 1) % EVENTS_MAX;
	if (events_count < EVENTS_MAX)
		events_count++;
}

void
events_json(struct buf *b)
{
	struct event	*e;
	unsigned	 i, start;
	char		 id[32];

	buf_addc(b, '[');
	start = (events_next + EVENTS_MAX - events_count) % EVENTS_MAX;
	for (i = 0; i < events_count; i++) {
		e = &events[(start + i) % EVENTS_MAX];
		if (i != 0)
			buf_addc(b, ',');
		buf_addc(b, '{');
		json_key(b, "ts_ms");
		buf_printf(b, "%lld", (long long)e->ts);
		json_key(b, "pane_id");
		snprintf(id, sizeof id, "%%%d", e->pane);
		json_cstr(b, id);
		json_key(b, "event");
		json_cstr(b, e->type);
		json_key(b, "detail");
		json_cstr(b, e->detail);
		buf_addc(b, '}');
	}
	buf_addc(b, ']');
}
