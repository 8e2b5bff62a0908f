/*
 * What a fleet host sends (fleet-pane.c): any bytes, as lines. Whatever
 * they are, the panes kept come out of lisa list --json as JSON that
 * parses, with no control byte in a string, and no more than the bound.
 * The helper around it is stubbed: this is the parser, alone.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "tell.h"
#include "tap.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct fleet_hosts	fleet_hosts = TAILQ_HEAD_INITIALIZER(fleet_hosts);

void
listener_fleet_changed(struct fleet_host *h, struct fleet_pane *fp, int id)
{
}

void
events_json_add(const char *type, int pane, const char *fields)
{
	struct json_doc	*d;
	struct buf	 b;
	char		*cause = NULL;

	/* What goes into the events log must be JSON too. */
	buf_init(&b);
	buf_printf(&b, "{\"x\":1%s%s}", *fields != '\0' ? "," : "", fields);
	if ((d = json_parse(b.data, b.len, &cause)) == NULL)
		abort();
	json_free(d);
	buf_free(&b);
}

void
notify_remote(const char *host, int rpane, const char *rtoken,
    const struct question *rq, const char *agent, const char *where, const char *detail,
    const char *asks, enum cls_state from, enum cls_state to, uint64_t *at,
    int *group)
{
}

void
tap_pane_over(const char *host, int pane)
{
}

void
publish_schedule(void)
{
}

void
publish_place_add(struct publish_places *pl, int group, int64_t since,
    const char *where)
{
}

/* A host's hello ends its connect deadline (fleet.c's timer). */
void
loop_timer_del(struct loop_timer *t)
{
}

int
fleet_reply(struct fleet_host *h, struct json_doc *d)
{
	return (-1);
}

/* A hello (fleet.c's, whose events go to events_json_add above). */
void
fleet_set_state(struct fleet_host *h, enum fleet_state st, const char *why)
{
	h->state = st;
}

/* A pong (fleet-check.c): no check is pending here. */
int
fleet_check_answered(struct fleet_host *h, long long id)
{
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fleet_host	 h;
	struct json_doc		*d;
	struct buf		 b;
	const char		*p = (const char *)data, *end = p + size, *nl;
	char			*cause = NULL, *sum;

	memset(&h, 0, sizeof h);
	h.name = (char *)"host/x";
	RB_INIT(&h.panes);
	TAILQ_INIT(&h.reqs);
	TAILQ_INSERT_TAIL(&fleet_hosts, &h, entry);
	while (p < end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		fleet_pane_line(&h, p, (size_t)(nl - p));
		p = nl + 1;
	}
	if (fleet_pane_count(&h) > FLEET_MAX_PANES)
		abort();
	h.state = FLEET_CONNECTED;
	/* Both answers: the whole list and the menu's brief one. */
	for (int brief = 0; brief <= 1; brief++) {
		buf_init(&b);
		buf_addc(&b, '[');
		fleet_list_json(&b, 1, brief);
		buf_addc(&b, ']');
		if ((d = json_parse(b.data, b.len, &cause)) == NULL)
			abort();
		json_free(d);
		/* (json_str escapes every control byte: none is raw) */
		for (size_t i = 0; i < b.len; i++) {
			if ((unsigned char)b.data[i] < 0x20)
				abort();
		}
		buf_free(&b);
	}
	sum = fleet_hosts_summary();
	free(sum);
	fleet_pane_clear(&h);
	TAILQ_REMOVE(&fleet_hosts, &h, entry);
	return (0);
}
