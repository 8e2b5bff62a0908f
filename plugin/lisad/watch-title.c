/*
 * A pane's title: as its program set it (OSC 0 and 2 in its output), as
 * tmux told it (a title from before lisa came), and whether it is the
 * agent's own or one left from before the agent began.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "watch-int.h"

/* The pane's title, as its program set it. */
void
watch_title(struct pane *p, const char *title)
{
	struct watch	*w = p->watch;

	/*
	 * The same title again is no news, unless the agent runs and the
	 * title was not known to be its own (a wrapper's, set before it
	 * began, that it sets again). Before the agent is seen it is no news
	 * either: output read late is not output written late.
	 */
	if (w->title != NULL && strcmp(w->title, title) == 0 &&
	    (!w->agent_seen || watch_title_ours(w)))
		return;
	/* Agents set a title soon after they start. */
	if (!w->agent_seen) {
		w->scan = 1;
		proc_forget();
	}
	free(w->title);
	w->title = xstrdup(title);
	/* What tmux's #{pane_title} now says too (lisa list's TITLE). */
	free(p->title);
	p->title = xstrdup(title);
	w->title_cleared = (*title == '\0');
	w->title_at = time_mono_ms();
	watch_touch(p);
}

/* Titles set before we attached arrive through tmux only. */
void
watch_title_told(struct pane *p)
{
	struct watch	*w = p->watch;

	if (p->title != NULL && (w->title == NULL ||
	    (w->title_at == 0 && strcmp(w->title, p->title) != 0))) {
		free(w->title);
		w->title = xstrdup(p->title);
		w->title_told_at = time_mono_ms();
	}
}

/*
 * Is the pane's title this agent's? One it set after it started (its
 * process's start, whole seconds on some systems: osdep-generic; or, if
 * lisa saw that process as something else before, after that look), or
 * one tmux had when lisa began to watch the pane, if the agent was there
 * then (or came within a second) and before tmux told lisa the title: a
 * pane made before lisa, or a new pane whose first program set its title
 * before tmux listed the pane for us - not tmux's default there, the host
 * name, which an agent that sets none (codex exec) would inherit. Not a
 * title set before the agent started, nor the last run's.
 */
int
watch_title_ours(struct watch *w)
{
	static char	host[256];

	if (w->title_at != 0)
		return (w->title_at + w->agent_began_slack >= w->agent_began);
	/*
	 * Known before the agent began (sh -c 'printf title; exec claude'
	 * met as sh): the title is the shell's, whatever the moment lisa
	 * first came (a ps that ran long made that second a guess).
	 */
	if (w->title_told_at + w->agent_began_slack <= w->agent_began)
		return (0);
	if (w->agent_began > w->watch_since + 1000)
		return (0);
	if (*host == '\0' && gethostname(host, sizeof host - 1) != 0)
		return (0);
	return (w->title != NULL && strcmp(w->title, host) != 0);
}
