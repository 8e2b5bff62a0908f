/*
 * What a pane's screen shows (capture-pane): the hints of its bottom
 * lines, and the dialog drawn there, read the same way whether the watch
 * looks or an answer checks (answer.c): the same lines give the same
 * fingerprint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"
#include "watch-int.h"

/*
 * A capture of the pane's screen: which hints its bottom lines show.
 * Dialogs, spinners and prompts live at the bottom; text higher up is
 * conversation, which may quote anything.
 */
#define WATCH_SCREEN_LINES 15

/* The start of TEXT's last WATCH_SCREEN_LINES lines that are not blank. */
static const char *
watch_screen_tail(const char *text, size_t len)
{
	const char	*start = text + len;
	int		 lines = 0, blank = 1;

	while (start > text) {
		if (start[-1] == '\n') {
			if (!blank && ++lines == WATCH_SCREEN_LINES)
				break;
			blank = 1;
		} else if (start[-1] != ' ')
			blank = 0;
		start--;
	}
	return (start);
}

/* The kind of dialog the screen hints say is drawn, or NULL. */
static const char *
watch_question_kind(unsigned screen)
{
	if (screen & SCREEN_PERMISSION)
		return ("permission");
	if (screen & SCREEN_QUESTION)
		return ("question");
	if (screen & SCREEN_TRUST)
		return ("trust");
	return (NULL);
}

/*
 * The dialog on a screen just read (capture-pane text), KIND as its hints
 * say (for a read with the pane's history over it, the kind the screen
 * before it showed): every line of it, whatever the bottom lines hold,
 * and with the hook's command where the hook agrees. 0 if one is drawn;
 * Q is the caller's to question_free either way.
 */
int
watch_question_kinded(struct watch *w, const char *kind, const char *text,
    size_t len, struct question *q)
{
	char	*copy;
	int	 rc;

	memset(q, 0, sizeof *q);
	if (kind == NULL)
		return (-1);
	copy = xstrndup(text, len);
	rc = question_from_screen(kind, copy, q);
	free(copy);
	if (rc == 0 && w->hook_subject != NULL)
		question_add_hook(q, w->hook_tool, w->hook_subject);
	return (rc);
}

/*
 * The dialog on a screen just read, as watch_screen reads it: the same
 * lines, the same kind, the same hook, so the same fingerprint. 0 if one
 * is drawn; Q is the caller's to question_free either way.
 */
int
watch_question(struct watch *w, const char *text, size_t len,
    struct question *q)
{
	const char	*start = watch_screen_tail(text, len);
	char		*copy;
	int		 signal;
	unsigned	 screen;

	copy = xstrndup(start, (size_t)(text + len - start));
	screen = agent_screen(w->agent, copy, &signal);
	free(copy);
	return (watch_question_kinded(w, watch_question_kind(screen), text, len,
	    q));
}

static void	watch_capture_history(struct pane *);

/*
 * The dialog on the screen just read (TEXT; HISTORY: with the pane's
 * history over it, of the kind the screen before it showed): what it
 * asks, for status, explain, notifications, the border.
 */
static void
watch_screen_question(struct pane *p, const char *text, size_t len,
    int history)
{
	struct watch	*w = p->watch;
	struct question	 q;
	int		 had = w->question_ok;
	char		 fp[sizeof w->question.fingerprint];

	if (history && !had)
		return;		/* (gone from the screen since) */
	strlcpy(fp, w->question.fingerprint, sizeof fp);
	w->question_ok = watch_question_kinded(w, history ? w->question.kind :
	    watch_question_kind(w->screen), text, len, &q) == 0;
	if (history && !w->question_ok) {
		question_free(&q);	/* (the screen's stands) */
		w->question_ok = 1;
		return;
	}
	if (w->question_ok)
		question_move(&w->question, &q);
	else {
		question_free(&q);
		question_free(&w->question);
	}
	/* Its first line scrolled away: read again, with the history. */
	if (w->question_ok && !w->question.top_seen && !history && !p->dead)
		watch_capture_history(p);
	/* Another dialog (or the same drawn again): another token. */
	if (w->question_ok && (!had || strcmp(w->question.fingerprint,
	    fp) != 0))
		w->question_seq++;
	if (w->question_ok && !had)
		notify_question(p);
	/* Its border says what it asks: a new question, or none now. */
	if (w->question_ok != had || (w->question_ok &&
	    strcmp(w->question.fingerprint, fp) != 0)) {
		publish_pane(p);
		listener_pane_changed(p);	/* status --json, the fleet */
	}
}

/*
 * The screen is as old as the request, not the reply: output that reached
 * us while tmux answered may be newer than what it captured.
 */
void
watch_screen(struct pane *p, const char *text, size_t len, uint64_t asked)
{
	struct watch	*w = p->watch;
	const char	*start = watch_screen_tail(text, len);
	char		*copy;

	copy = xstrndup(start, (size_t)(text + len - start));
	w->screen = agent_screen(w->agent, copy, &w->screen_signal);
	w->screen_at = asked != 0 ? asked : time_mono_ms();
	watch_screen_question(p, text, len, 0);
	w->capture_failed = 0;
	/*
	 * A retry still on screen is fresh evidence, in a turn whose stream
	 * showed one or for an agent whose retry text is a row replaced when
	 * it ends (OpenCode redraws only the countdown's digits; its text
	 * never comes whole in the stream). Not otherwise: an old retry's
	 * line can stay on screen (Codex's "Reconnecting").
	 */
	if ((w->screen & SCREEN_RETRYING) && (w->retry_at != 0 ||
	    (w->agent != NULL && w->agent->retry_screen))) {
		if (w->retry_at == 0)
			w->retry_since = w->screen_at;
		w->retry_at = w->screen_at;
	}
	free(copy);
	log_debug("pane %%%d: screen hints %#x", p->id, w->screen);
	if (p->dead)
		termination_report(p, text, len);
	watch_touch(p);
}

static void
watch_capture_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct pane	*p = arg;

	p->watch->capturing = 0;
	if (!ok) {
		log_warnx("pane %%%d: capture-pane failed: %.*s", p->id,
		    (int)len, body);
		p->watch->capture_failed = 1;
		if (p->dead)
			termination_report(p, NULL, 0);
		watch_touch(p);
		return;
	}
	watch_screen(p, body, len, p->watch->capture_asked);
}

static void
watch_history_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct pane	*p = arg;

	p->watch->capturing = 0;
	if (ok)
		watch_screen_question(p, body, len, 1);
}

/* The screen and the history over it, for a dialog taller than the pane. */
static void
watch_capture_history(struct pane *p)
{
	struct session	*s = pane_session(p);
	char		 cmd[96];

	if (s == NULL || p->watch->capturing)
		return;
	snprintf(cmd, sizeof cmd, "capture-pane -p -J -S -%d -t '%%%d'",
	    WATCH_DIALOG_HISTORY, p->id);
	if (session_send_screen(s, cmd, watch_history_cb, p) == 0) {
		p->watch->capturing = 1;
		p->watch->capture_asked = time_mono_ms();
		log_debug("pane %%%d: a dialog's top is not on screen: its "
		    "history read", p->id);
	}
}

/*
 * How long a screen read of P waits for the pane to be still (0: read
 * now); *SINCE is when the first wait began, 0 when none.
 */
uint64_t
watch_still_wait(struct pane *p, uint64_t *since)
{
	uint64_t	now = time_mono_ms();

	if (p->dead || p->out_last + WATCH_STILL_MS <= now) {
		*since = 0;
		return (0);
	}
	if (*since == 0)
		*since = now;
	if (now - *since >= WATCH_STILL_MAX_MS) {
		*since = 0;
		return (0);
	}
	return (p->out_last + WATCH_STILL_MS - now);
}

/* A read put off while the pane wrote: now. */
void
watch_capture_timer(void *arg)
{
	struct pane	*p = arg;

	p->watch->capturing = 0;
	watch_capture(p);
}

/*
 * Read the screen. Not while the pane is writing: a redraw that reached
 * tmux in two reads is caught half drawn (a dialog's box without its
 * options), read as no dialog, and the same dialog then counts as a new
 * one, its token refused (Copilot's clock in its dialog, a loaded
 * machine). So once the pane has been still WATCH_STILL_MS, for at most
 * WATCH_STILL_MAX_MS: the read counts as under way (capturing) meanwhile.
 */
void
watch_capture(struct pane *p)
{
	struct watch	*w = p->watch;
	struct session	*s = pane_session(p);
	char		 cmd[96];
	uint64_t	 wait;

	if (s == NULL || w->capturing)
		return;
	if ((wait = watch_still_wait(p, &w->capture_wanted)) != 0) {
		w->capturing = 1;
		loop_timer_add(&w->capture_timer, wait);
		return;
	}
	snprintf(cmd, sizeof cmd, "capture-pane -p -J -t '%%%d'", p->id);
	if (session_send_screen(s, cmd, watch_capture_cb, p) == 0) {
		p->watch->capturing = 1;
		p->watch->capture_asked = time_mono_ms();
	}
}
