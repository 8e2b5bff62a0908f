/*
 * The keys of an answer (answer.c): an option's key, Enter, a button
 * reached with Right, a reject form's reply; and the pane's mark as the
 * key left, to tell later whether the key was taken.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"
#include "answer-int.h"

/* The option's key, as tmux's send-keys takes it. */
void
answer_send(struct answer *a, struct pane *p)
{
	struct session	*s = pane_session(p);
	struct buf	 b;

	if (s == NULL)
		return;
	buf_init(&b);
	if (strcasecmp(a->key, "esc") == 0)
		buf_printf(&b, "send-keys -t '%%%d' Escape", a->who.pane);
	else {
		buf_printf(&b, "send-keys -t '%%%d' -l ", a->who.pane);
		ctl_quote_str(&b, a->key);
	}
	session_send(s, b.data, NULL, NULL);
	buf_free(&b);
}

/* Does the agent want Enter after an option's number (Copilot CLI)? */
int
answer_needs_enter(struct answer *a, struct pane *p)
{
	return (isdigit((unsigned char)*a->key) && p->watch->agent != NULL &&
	    p->watch->agent->answer_enter);
}

/* Enter, once the pointer is on the option chosen (answer_enter). */
void
answer_enter(struct answer *a, struct pane *p)
{
	struct session	*s = pane_session(p);
	char		 cmd[64];

	if (s == NULL)
		return;
	snprintf(cmd, sizeof cmd, "send-keys -t '%%%d' Enter", a->who.pane);
	session_send(s, cmd, NULL, NULL);
	strlcat(a->key, *a->key != '\0' ? " Enter" : "Enter", sizeof a->key);
}

/* One move of a list's selection (Down or Up), noted in the key. */
void
answer_move(struct answer *a, struct pane *p, const char *move)
{
	struct session	*s = pane_session(p);
	char		 cmd[64];

	snprintf(cmd, sizeof cmd, "send-keys -t '%%%d' %s", a->who.pane, move);
	if (s != NULL)
		session_send(s, cmd, NULL, NULL);
	if (*a->key != '\0')
		strlcat(a->key, " ", sizeof a->key);
	strlcat(a->key, move, sizeof a->key);
	a->sent_at = time_mono_ms();
}

/*
 * A dialog of buttons (OpenCode's): the selected one is known from its
 * colours alone (capture-pane -e); Right moves to the one chosen, and
 * Enter goes once the screen shows it selected (ANSWER_POINTED). A list
 * (Grok CLI's): one Down or Up at a time, the next once the screen shows
 * the last (two arrows in one read are one unknown key to Ink), never
 * round its end.
 */
void
answer_button(struct answer *a, struct pane *p, const struct question *q,
    const char *raw)
{
	struct session	*s = pane_session(p);
	struct buf	 b;
	int		 sel, moves;

	if (!a->buttons || raw == NULL) {
		answer_finish(a, "the agent has no key for that option: "
		    "nothing sent");
		return;
	}
	if ((sel = q->selected) == -1 &&
	    (sel = question_selected_sgr(raw, q)) == -1) {
		answer_finish(a, "which of its buttons is selected is not "
		    "on its screen (colour alone): nothing sent");
		return;
	}
	a->sent_at = time_mono_ms();
	*a->key = '\0';
	if (sel == a->pick) {
		answer_enter(a, p);
		a->phase = ANSWER_SENT;
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	a->phase = ANSWER_POINTED;
	if (a->list) {
		a->shown = sel;
		answer_move(a, p, sel < a->pick ? "Down" : "Up");
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	moves = (a->pick - sel + q->noptions) % q->noptions;
	buf_init(&b);
	buf_printf(&b, "send-keys -t '%%%d'", a->who.pane);
	while (moves-- > 0) {
		buf_adds(&b, " Right");
		strlcat(a->key, *a->key != '\0' ? " Right" : "Right",
		    sizeof a->key);
	}
	if (s != NULL)
		session_send(s, b.data, NULL, NULL);
	buf_free(&b);
	loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
}

/* What the pane is as the key leaves, to tell later whether it moved. */
void
answer_mark_set(struct answer_mark *m, struct pane *p, const char *screen,
    size_t len)
{
	struct watch	*w = p->watch;

	free(m->screen);
	m->out_bytes = p->out_bytes;
	m->muted = p->muted;
	m->hook_at = w->hook_at;
	m->session_at = w->session_at;
	m->transcript_at = w->transcript_at;
	m->title_at = w->title_at;
	m->codex_at = w->codex_at;
	m->screen = xstrndup(screen, len);
}

/*
 * Nothing moved since the key: not a byte of output (and none held back
 * by a pause), no hook, no session or transcript write, no title, no
 * OSC state, the screen the same to the byte. Then the key was not taken.
 */
int
answer_mark_still(const struct answer_mark *m, struct pane *p,
    const char *screen, size_t len)
{
	struct watch	*w = p->watch;

	return (m->screen != NULL && m->muted == MUTE_NONE &&
	    p->muted == MUTE_NONE && p->out_bytes == m->out_bytes &&
	    w->hook_at == m->hook_at && w->session_at == m->session_at &&
	    w->transcript_at == m->transcript_at &&
	    w->title_at == m->title_at && w->codex_at == m->codex_at &&
	    strlen(m->screen) == len && memcmp(m->screen, screen, len) == 0);
}

/*
 * A deny's reject form (Kilo's "Tell Kilo what to do differently"): the
 * reply typed there, then Enter; no reply, Enter alone. Once, and only
 * while the form is on the screen; one that never comes leaves a reply
 * to the prompt.
 */
void
answer_form(struct answer *a, struct pane *p, const char *screen, size_t len)
{
	struct session	*s = pane_session(p);
	const char	*form = p->watch->agent->reject_form;
	struct buf	 b;

	if (question_find(screen, len, form) == NULL) {
		if (time_mono_ms() - a->sent_at < ANSWER_GONE_MS) {
			loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
			return;
		}
		a->phase = a->text != NULL ? ANSWER_PROMPT : ANSWER_NEXT;
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	if (s == NULL) {
		answer_finish(a, "no tmux client for its session");
		return;
	}
	buf_init(&b);
	if (a->text != NULL) {
		buf_printf(&b, "send-keys -t '%%%d' -l ", a->who.pane);
		ctl_quote_str(&b, a->text);
		session_send(s, b.data, NULL, NULL);
		buf_free(&b);
		buf_init(&b);
		strlcat(a->key, ", the reply in its form", sizeof a->key);
		free(a->text);
		a->text = NULL;
	}
	buf_printf(&b, "send-keys -t '%%%d' Enter", a->who.pane);
	session_send(s, b.data, NULL, NULL);
	buf_free(&b);
	strlcat(a->key, ", Enter", sizeof a->key);
	log_debug("pane %%%d: answer: its reject form, answered",
	    a->who.pane);
	a->phase = ANSWER_NEXT;
	a->sent_at = time_mono_ms();
	loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
}

/* capture-pane -e's text without its escape sequences: what -p gives. */
char *
answer_plain(const char *raw)
{
	struct buf	 b;
	const char	*s = raw;

	buf_init(&b);
	while (*s != '\0') {
		if (s[0] == '\033' && s[1] == '[') {
			for (s += 2; *s != '\0' && (*s < 0x40 || *s > 0x7e);
			    s++)
				;
			if (*s != '\0')
				s++;
		} else if (s[0] == '\033' && s[1] == ']') {
			/* OSC (a hyperlink): to BEL or ST */
			for (s += 2; *s != '\0' && *s != '\a' &&
			    !(s[0] == '\033' && s[1] == '\\'); s++)
				;
			if (*s == '\a')
				s++;
			else if (*s != '\0')
				s += 2;
		} else
			buf_addc(&b, *s++);
	}
	return (buf_detach(&b));
}
