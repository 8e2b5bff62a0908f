/*
 * How an agent pane that lisa did not start ended: what is known without
 * the wrapper - tmux's exit status or signal for the pane, and the last
 * lines its screen showed (captured after the death) in place of stderr.
 * Reported once per death, as the "terminated" event and in the pane's
 * status. Runs started by lisa run have the wrapper's record instead.
 */
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "watch.h"

#define TERM_SCREEN_LINES	50

/* The last non-blank lines of a capture, as a JSON array. */
static void
termination_lines(struct buf *b, const char *text, size_t len)
{
	const char	*end = text + len, *p, *line[TERM_SCREEN_LINES];
	size_t		 n = 0, llen[TERM_SCREEN_LINES], i, l;

	/* Backwards, skipping the blank lines at the bottom. */
	p = end;
	while (p > text && n < TERM_SCREEN_LINES) {
		const char	*e = p, *s = p;

		if (e > text && e[-1] == '\n')
			e--;
		s = e;
		while (s > text && s[-1] != '\n')
			s--;
		l = (size_t)(e - s);
		while (l > 0 && s[l - 1] == ' ')
			l--;
		if (l != 0 || n != 0) {
			line[n] = s;
			llen[n++] = l;
		}
		p = s;
	}
	while (n > 0 && llen[n - 1] == 0)
		n--;
	buf_addc(b, '[');
	for (i = n; i > 0; i--) {
		if (i != n)
			buf_addc(b, ',');
		json_str(b, line[i - 1], utf8_cut(line[i - 1], llen[i - 1],
		    RUN_LINE_MAX));
	}
	buf_addc(b, ']');
}

/* The pane is dead and its screen was captured (or could not be). */
void
termination_report(struct pane *p, const char *text, size_t len)
{
	struct watch	*w = p->watch;
	struct buf	 b, ev;
	int		 sig = p->dead_signal > 0 ? p->dead_signal : -1;

	if (w == NULL || !p->dead || w->term_reported || w->agent == NULL ||
	    runs_is_run_pane(p->id))
		return;
	w->term_reported = 1;
	buf_init(&b);
	run_termination(&b, sig > 0 ? -1 : p->dead_status, sig, NULL, NULL);
	/* Instead of stderr, which only lisa run sees: the screen. */
	if (b.len > 0 && b.data[b.len - 1] == '}')
		b.len--;
	buf_adds(&b, ",\"screen_tail\":");
	if (text != NULL)
		termination_lines(&b, text, len);
	else
		buf_adds(&b, "null");
	buf_addc(&b, '}');
	free(w->termination);
	w->termination = buf_detach(&b);
	buf_init(&ev);
	json_key(&ev, "agent");
	json_cstr(&ev, w->agent->name);
	json_key(&ev, "termination");
	buf_adds(&ev, w->termination);
	events_json_add("terminated", p->id, ev.data);
	buf_free(&ev);
}

void
termination_json(struct buf *b, struct pane *p)
{
	if (p->watch == NULL || p->watch->termination == NULL)
		return;
	json_key(b, "termination");
	buf_adds(b, p->watch->termination);
}
