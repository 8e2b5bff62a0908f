/*
 * Output of a pane not listed yet. A new window's %window-add asks for a
 * list of the session's panes, and the pane's first bytes can come before
 * that reply: an agent's first words (Codex says it is idle with an OSC
 * 7501 once, at boot) were dropped on a busy machine. They are held here,
 * a few panes and a few KB each, and handed to pane_output when the list
 * reply makes the pane; a listing that does not make it drops them.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"

/* The newest bytes are kept: a state said last is the one that holds. */
#define PANE_EARLY_MAX		16
#define PANE_EARLY_BYTES	16384

struct pane_early {
	int			 session;
	int			 pane;
	uint64_t		 age;
	struct buf		 data;
	TAILQ_ENTRY(pane_early)	 entry;
};
static TAILQ_HEAD(, pane_early) pane_early = TAILQ_HEAD_INITIALIZER(pane_early);
static u_int	pane_early_count;

static void
pane_early_free(struct pane_early *e)
{
	TAILQ_REMOVE(&pane_early, e, entry);
	buf_free(&e->data);
	free(e);
	pane_early_count--;
}

void
pane_early_hold(struct session *s, int id, const char *data, size_t len,
    uint64_t age)
{
	struct pane_early	*e;

	TAILQ_FOREACH(e, &pane_early, entry) {
		if (e->session == s->id && e->pane == id)
			break;
	}
	if (e == NULL) {
		/* (the oldest is a pane that closed unlisted, likeliest) */
		if (pane_early_count == PANE_EARLY_MAX)
			pane_early_free(TAILQ_FIRST(&pane_early));
		e = xcalloc(1, sizeof *e);
		e->session = s->id;
		e->pane = id;
		buf_init(&e->data);
		TAILQ_INSERT_TAIL(&pane_early, e, entry);
		pane_early_count++;
		log_debug("pane %%%d: output before its listing, held", id);
	}
	if (len > PANE_EARLY_BYTES) {
		data += len - PANE_EARLY_BYTES;
		len = PANE_EARLY_BYTES;
	}
	if (e->data.len + len > PANE_EARLY_BYTES)
		buf_consume(&e->data, e->data.len + len - PANE_EARLY_BYTES);
	buf_add(&e->data, data, len);
	e->age = age;
}

/*
 * Session S's list reply is in: what its panes said before is theirs now;
 * the rest was a pane gone by then.
 */
void
pane_early_listed(struct session *s)
{
	struct pane_early	*e, *e1;
	struct buf		 data;

	TAILQ_FOREACH_SAFE(e, &pane_early, entry, e1) {
		if (e->session != s->id)
			continue;
		if (pane_find(e->pane) == NULL) {
			log_debug("pane %%%d: not listed, its output dropped",
			    e->pane);
			pane_early_free(e);
			continue;
		}
		/* (out of the list first: pane_output may hold nothing now) */
		data = e->data;
		buf_init(&e->data);
		log_debug("pane %%%d: %zu bytes from before its listing",
		    e->pane, data.len);
		pane_output(s, e->pane, data.data, data.len, e->age);
		buf_free(&data);
		pane_early_free(e);
	}
}

void
pane_early_session_gone(int sid)
{
	struct pane_early	*e, *e1;

	TAILQ_FOREACH_SAFE(e, &pane_early, entry, e1) {
		if (e->session == sid)
			pane_early_free(e);
	}
}

void
pane_early_close(void)
{
	while (!TAILQ_EMPTY(&pane_early))
		pane_early_free(TAILQ_FIRST(&pane_early));
}
