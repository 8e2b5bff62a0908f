/*
 * Answering a waiting agent's dialog on purpose: lisa answer, the menu's
 * "Allow once", "Deny" and "Reply...". The one place lisa presses a key
 * that a dialog takes, so every step is checked at that moment:
 *
 *   1. the verdict is a wait on a dialog, and the asker's token (what
 *      `lisa status --json` printed: the dialog's fingerprint and how
 *      many dialogs lisa had seen there, this server, the pane, its
 *      process and agent) is the pane's now, whole;
 *   2. the screen is read (capture-pane), twice, ANSWER_SETTLE_MS apart,
 *      and the dialog on it must carry the fingerprint of the token
 *      (question.c: every line of it), else nothing is sent (a read
 *      that does not match is read once more, a frame mid-redraw);
 *   3. the key is the agent's own for that option, from what it drew
 *      ("(y)", "(esc)", else the option's number); "always" (don't ask
 *      again) only when it was named, never from allow or a default;
 *   4. the key is sent once. The dialog that follows, whatever it looks
 *      like, is another (the pane's count of dialogs moves on: no token
 *      made before names it). The screen is read until the dialog has
 *      gone (ANSWER_GONE_MS); if it has not, the key is sent again only
 *      when it provably was not taken (no byte of output from the pane,
 *      no word from the agent's hooks or files, the screen the same to
 *      the byte), else the answer says it was not taken and stops.
 *
 * A reply (TEXT) declines the dialog, waits for the agent's prompt, then
 * types TEXT there through act_nudge and its own checks.
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

#define ANSWER_REPLY_MS		5000	/* tmux's answer to a screen read */
#define ANSWER_RECHECK_MS	300	/* between reads after the key */
/*
 * A dialog is answered once two reads this far apart show it: a TUI takes
 * keys a moment after it draws (Claude Code lost a key sent sooner). One
 * still drawn ANSWER_AGAIN_MS after its key, with nothing at all moved in
 * the pane since, did not take it: the key goes once more.
 */
#define ANSWER_SETTLE_MS	400
#define ANSWER_AGAIN_MS		1500
#define ANSWER_GONE_MS		4000	/* the dialog must have gone by then */
#define ANSWER_NEXT_MS		3000	/* then, the verdict's move */
#define ANSWER_PROMPT_MS	10000	/* a reply: its prompt back by then */

/*
 * The pane as the key left: its output, the agent's own signals, its
 * screen. Nothing of it moved, and the dialog is still drawn: the key
 * was not taken.
 */
struct answer_mark {
	uint64_t	 out_bytes;
	int		 muted;
	uint64_t	 hook_at;
	uint64_t	 session_at;
	uint64_t	 transcript_at;
	uint64_t	 title_at;
	uint64_t	 codex_at;
	char		*screen;
};

enum answer_phase {
	ANSWER_READ,		/* the first read: check, then the key */
	ANSWER_POINTED,		/* answer_enter: the pointer moved? Enter */
	ANSWER_SENT,		/* the key is in: has the dialog gone? */
	ANSWER_NEXT,		/* it has: what does the agent do now? */
	ANSWER_PROMPT,		/* a reply: waiting for the prompt */
	ANSWER_TYPING,		/* a reply: act_nudge types it */
};

struct answer {
	uint64_t		 id;
	struct act_who		 who;
	char			 what[16];	/* allow, deny, always, N */
	char			*text;		/* a reply's */
	char			 token[ANSWER_TOKEN_LEN];	/* the one seen */
	char			 key[64];
	struct question		 q;		/* the dialog answered */
	char			 chose[96];
	int			 pick;		/* its option's index */
	int			 buttons;	/* OpenCode's: read with colour */
	int			 settled;	/* read twice, ANSWER_SETTLE_MS apart */
	int			 reread;	/* one that did not match, again */
	int			 again;		/* its key sent a second time */
	int			 history;	/* this read: with the history */
	char			 kind[16];	/* ... of this kind of dialog */
	enum answer_phase	 phase;
	uint64_t		 sent_at;
	struct answer_mark	 mark;		/* the pane when the key went */
	struct listener_conn	*lc;
	struct loop_timer	 timer;
	struct loop_timer	 deadline;
	TAILQ_ENTRY(answer)	 entry;
};
static TAILQ_HEAD(, answer) answers = TAILQ_HEAD_INITIALIZER(answers);
static uint64_t answer_next_id = 1;

static void	answer_read(struct answer *);

static struct answer *
answer_find(void *arg)
{
	struct answer	*a;
	uint64_t	 id = (uint64_t)(uintptr_t)arg;

	TAILQ_FOREACH(a, &answers, entry) {
		if (a->id == id)
			return (a);
	}
	return (NULL);
}

/* The pane's verdict, "in_progress/tool", for the report. */
static void
answer_verdict(struct pane *p, char *out, size_t len)
{
	struct watch	*w = p != NULL ? p->watch : NULL;

	if (p == NULL || p->dead || w == NULL || !w->agent_alive)
		snprintf(out, len, "ended");
	else
		snprintf(out, len, "%s%s%s", cls_state_name(w->res.state),
		    *w->res.detail != '\0' ? "/" : "", w->res.detail);
}

/*
 * The end: the asker answered (refused: why), an event (answer or
 * answer_refused), and the answer forgotten.
 */
static void
answer_finish(struct answer *a, const char *refused)
{
	struct pane	*p = pane_find(a->who.pane);
	struct buf	 b, e;
	char		 now[64];

	answer_verdict(p, now, sizeof now);
	buf_init(&b);
	buf_init(&e);
	buf_adds(&e, "\"by\":\"user\"");
	if (refused != NULL) {
		buf_adds(&b, "{\"ok\":false,\"error\":");
		json_cstr(&b, refused);
		json_key(&e, "refused");
		json_cstr(&e, refused);
	} else {
		buf_printf(&b, "{\"ok\":true,\"pane\":\"%%%d\"", a->who.pane);
		json_key(&b, "asked");
		json_cstr(&b, a->q.text);
		json_key(&b, "subject");
		json_cstr(&b, a->q.subject);
		if (a->q.hook_subject != NULL) {
			json_key(&b, "hook_subject");
			json_cstr(&b, a->q.hook_subject);
		}
		json_key(&b, "chose");
		json_cstr(&b, a->chose);
		json_key(&b, "key");
		json_cstr(&b, a->key);
		json_key(&b, "now");
		json_cstr(&b, now);
		if (a->text != NULL) {
			json_key(&b, "typed");
			json_cstr(&b, a->text);
		}
		json_key(&e, "chose");
		json_cstr(&e, a->chose);
		json_key(&e, "then");
		json_cstr(&e, now);
	}
	json_key(&e, "fingerprint");
	json_cstr(&e, a->q.fingerprint[0] != '\0' ? a->q.fingerprint : NULL);
	buf_addc(&b, '}');
	if (a->lc != NULL)
		listener_send(a->lc, &b);
	events_json_add(refused != NULL ? "answer_refused" : "answer",
	    a->who.pane, e.data);
	log_debug("pane %%%d: answer %s: %s", a->who.pane, a->what,
	    refused != NULL ? refused : a->chose);
	buf_free(&b);
	buf_free(&e);
	TAILQ_REMOVE(&answers, a, entry);
	loop_timer_del(&a->timer);
	loop_timer_del(&a->deadline);
	question_free(&a->q);
	free(a->mark.screen);
	free(a->text);
	free(a);
}

/* The option's key, as tmux's send-keys takes it. */
static void
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
static int
answer_needs_enter(struct answer *a, struct pane *p)
{
	return (isdigit((unsigned char)*a->key) && p->watch->agent != NULL &&
	    p->watch->agent->answer_enter);
}

/* Enter, once the pointer is on the option chosen (answer_enter). */
static void
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

/*
 * A dialog of buttons (OpenCode's): the selected one is known from its
 * colours alone (capture-pane -e); Right moves to the one chosen, and
 * Enter goes once the screen shows it selected (ANSWER_POINTED).
 */
static void
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
	if ((sel = question_selected_sgr(raw, q)) == -1) {
		answer_finish(a, "which of its buttons is selected is not "
		    "on its screen (colour alone): nothing sent");
		return;
	}
	moves = (a->pick - sel + q->noptions) % q->noptions;
	a->sent_at = time_mono_ms();
	if (moves == 0) {
		*a->key = '\0';
		answer_enter(a, p);
		a->phase = ANSWER_SENT;
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	buf_init(&b);
	buf_printf(&b, "send-keys -t '%%%d'", a->who.pane);
	*a->key = '\0';
	while (moves-- > 0) {
		buf_adds(&b, " Right");
		strlcat(a->key, *a->key != '\0' ? " Right" : "Right",
		    sizeof a->key);
	}
	if (s != NULL)
		session_send(s, b.data, NULL, NULL);
	buf_free(&b);
	a->phase = ANSWER_POINTED;
	loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
}

/* What the pane is as the key leaves, to tell later whether it moved. */
static void
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
static int
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
 * The first key has gone: any dialog drawn from now on is another, and
 * no token made before names it.
 */
static void
answer_keyed(struct answer *a, struct pane *p, const char *screen,
    size_t len)
{
	answer_mark_set(&a->mark, p, screen, len);
	p->watch->question_seq++;
	a->sent_at = time_mono_ms();
}

/* The first read: the same dialog as seen? Then its key. */
static void
answer_first(struct answer *a, struct pane *p, int drawn, struct question *q,
    const char *screen, size_t len, const char *raw)
{
	char		 msg[512], now[ANSWER_TOKEN_LEN];
	int		 pick;

	if (!drawn) {
		answer_finish(a, "no dialog on its screen now");
		return;
	}
	answer_token(p, q->fingerprint, now, sizeof now);
	if (!sha256_equal_hex(now, a->token)) {
		/*
		 * A frame caught mid-redraw (a clock in the dialog, a busy
		 * machine) reads as another dialog: once more, a moment on.
		 */
		if (!a->reread) {
			a->reread = 1;
			loop_timer_add(&a->timer, ANSWER_SETTLE_MS);
			return;
		}
		snprintf(msg, sizeof msg, "the dialog on its screen is not the "
		    "one you saw (it now asks \"%s\"): nothing sent", q->text);
		answer_finish(a, msg);
		return;
	}
	question_move(&a->q, q);
	if ((pick = question_option_key(&a->q, a->what, a->key,
	    sizeof a->key)) == -1) {
		snprintf(msg, sizeof msg, "the dialog has no option for "
		    "\"%s\"%s: nothing sent", a->what, strcmp(a->what,
		    "always") == 0 ? " (none says always or don't ask again)" :
		    "");
		answer_finish(a, msg);
		return;
	}
	strlcpy(a->chose, a->q.options[pick], sizeof a->chose);
	a->pick = pick;
	if (!a->settled) {
		a->settled = 1;
		loop_timer_add(&a->timer, ANSWER_SETTLE_MS);
		return;
	}
	answer_keyed(a, p, screen, len);
	if (*a->key == '\0') {
		answer_button(a, p, &a->q, raw);
		return;
	}
	answer_send(a, p);
	a->phase = answer_needs_enter(a, p) ? ANSWER_POINTED : ANSWER_SENT;
	loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
}

/*
 * The number moved the pointer (answer_enter): Enter only when the same
 * dialog has it on the option chosen (a key read with the number in one
 * chunk is lost: it goes alone, later).
 */
static void
answer_pointed(struct answer *a, struct pane *p, int drawn,
    struct question *q, const char *raw)
{
	int	same;

	same = drawn && strcmp(q->fingerprint, a->q.fingerprint) == 0;
	if (same && a->buttons)
		q->selected = question_selected_sgr(raw, q);
	if (!same) {
		/* The number alone answered it: no Enter. */
		a->phase = a->text != NULL ? ANSWER_PROMPT : ANSWER_NEXT;
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	if (q->selected != a->pick) {
		if (time_mono_ms() - a->sent_at >= ANSWER_GONE_MS)
			answer_finish(a, "the pointer did not move to the "
			    "option: Enter not sent");
		else
			loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	answer_enter(a, p);
	a->phase = ANSWER_SENT;
	a->sent_at = time_mono_ms();
	loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
}

/*
 * The key is in: has the dialog gone? A dialog still drawn that looks
 * the same is not pressed again unless nothing at all moved since the key
 * (answer_mark_still): it may be the next one, drawn alike.
 */
static void
answer_after(struct answer *a, struct pane *p, int drawn, struct question *q,
    const char *screen, size_t len)
{
	int	same;

	same = drawn && strcmp(q->fingerprint, a->q.fingerprint) == 0;
	if (!same) {
		a->phase = a->text != NULL ? ANSWER_PROMPT : ANSWER_NEXT;
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	if (!a->again && !a->buttons && !answer_needs_enter(a, p) &&
	    time_mono_ms() - a->sent_at >= ANSWER_AGAIN_MS &&
	    answer_mark_still(&a->mark, p, screen, len)) {
		a->again = 1;
		log_debug("pane %%%d: answer: nothing moved since the key: "
		    "not taken, sent once more", a->who.pane);
		answer_send(a, p);
		strlcat(a->key, ", again: the first was not taken",
		    sizeof a->key);
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	if (time_mono_ms() - a->sent_at >= ANSWER_GONE_MS)
		answer_finish(a, "not taken: the dialog is still there; "
		    "nothing more was sent");
	else
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
}

/* The reply typed (or refused) by act_nudge: the answer ends with it. */
static void
answer_typed(int pane, const char *refused)
{
	struct answer	*a;
	char		 msg[256];

	TAILQ_FOREACH(a, &answers, entry) {
		if (a->who.pane == pane && a->phase == ANSWER_TYPING)
			break;
	}
	if (a == NULL)
		return;
	if (refused != NULL) {
		snprintf(msg, sizeof msg, "declined with \"%s\", but the "
		    "reply was not typed: %s", a->chose, refused);
		answer_finish(a, msg);
	} else
		answer_finish(a, NULL);
}

/*
 * After the dialog went: the verdict's move (ANSWER_NEXT), or a reply's
 * prompt (ANSWER_PROMPT). Checked on a timer, bounded.
 */
static void
answer_settle(struct answer *a)
{
	struct pane	*p;
	struct watch	*w;
	const char	*why;
	char		 inc[64];
	uint64_t	 age = time_mono_ms() - a->sent_at;

	if ((why = act_who_same(&a->who, &p)) != NULL) {
		/* The agent went with the answer ("No, exit"): that is news. */
		if (a->phase == ANSWER_NEXT)
			answer_finish(a, NULL);
		else
			answer_finish(a, why);
		return;
	}
	w = p->watch;
	if (a->phase == ANSWER_NEXT) {
		if (w->res.state != ST_WAITING_INPUT ||
		    strcmp(w->res.detail, a->q.kind) != 0 ||
		    age >= ANSWER_NEXT_MS + ANSWER_GONE_MS)
			answer_finish(a, NULL);
		else
			loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
		return;
	}
	/* (act_nudge reads the screen for a dialog again) */
	if (w->res.state == ST_WAITING_INPUT && strcmp(w->res.detail,
	    "prompt") == 0) {
		a->phase = ANSWER_TYPING;
		act_incarnation(p, inc, sizeof inc);
		act_nudge(p, a->text, 0, inc, "user", NULL, answer_typed);
		return;
	}
	if (age >= ANSWER_PROMPT_MS)
		answer_finish(a, "declined, but the agent's prompt did not "
		    "come back: the reply was not typed");
	else
		loop_timer_add(&a->timer, ANSWER_RECHECK_MS);
}

/* capture-pane -e's text without its escape sequences: what -p gives. */
static char *
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

static void
answer_read_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct answer	*a;
	struct pane	*p;
	struct question	 q;
	const char	*why;
	char		*raw, *plain = NULL;
	int		 drawn;

	if ((a = answer_find(arg)) == NULL)
		return;
	loop_timer_del(&a->deadline);
	if ((why = act_who_same(&a->who, &p)) != NULL) {
		if (a->phase == ANSWER_SENT || a->phase == ANSWER_POINTED) {
			/* It went with the key: the dialog went too. */
			a->phase = ANSWER_NEXT;
			answer_settle(a);
		} else
			answer_finish(a, why);
		return;
	}
	if (!ok) {
		answer_finish(a, "tmux could not read the screen");
		return;
	}
	/* Buttons: read with their colours, the text without them. */
	raw = a->buttons ? xstrndup(body, len) : NULL;
	if (raw != NULL) {
		plain = answer_plain(raw);
		body = plain;
		len = strlen(plain);
	}
	/*
	 * The screen first; a dialog whose top is not on it, again with the
	 * history, as the watch reads it (never the history alone: a dialog
	 * gone from the screen is still there).
	 */
	if (!a->history) {
		drawn = watch_question(p->watch, body, len, &q) == 0;
		if (drawn && !q.top_seen) {
			strlcpy(a->kind, q.kind, sizeof a->kind);
			question_free(&q);
			free(raw);
			free(plain);
			a->history = 1;
			answer_read(a);
			return;
		}
	} else {
		drawn = watch_question_kinded(p->watch, a->kind, body, len,
		    &q) == 0;
		a->history = 0;
	}
	if (a->phase == ANSWER_READ)
		answer_first(a, p, drawn, &q, body, len, raw);
	else if (a->phase == ANSWER_POINTED)
		answer_pointed(a, p, drawn, &q, raw);
	else
		answer_after(a, p, drawn, &q, body, len);
	question_free(&q);
	free(raw);
	free(plain);
}

static void
answer_read(struct answer *a)
{
	struct pane	*p;
	struct session	*s;
	const char	*why;
	char		 cmd[64];

	if ((why = act_who_same(&a->who, &p)) != NULL) {
		answer_finish(a, why);
		return;
	}
	if (a->history)
		snprintf(cmd, sizeof cmd, "capture-pane -p -J%s -S -%d -t "
		    "'%%%d'", a->buttons ? " -e" : "", WATCH_DIALOG_HISTORY,
		    a->who.pane);
	else
		snprintf(cmd, sizeof cmd, "capture-pane -p -J%s -t '%%%d'",
		    a->buttons ? " -e" : "", a->who.pane);
	if ((s = pane_session(p)) == NULL || session_send_screen(s, cmd,
	    answer_read_cb, (void *)(uintptr_t)a->id) != 0) {
		answer_finish(a, "no tmux client for its session");
		return;
	}
	loop_timer_add(&a->deadline, ANSWER_REPLY_MS);
}

static void
answer_timer_cb(void *arg)
{
	struct answer	*a = arg;

	if (a->phase == ANSWER_SENT || a->phase == ANSWER_POINTED ||
	    a->phase == ANSWER_READ)
		answer_read(a);
	else
		answer_settle(a);
}

static void
answer_deadline_cb(void *arg)
{
	answer_finish(arg, "tmux did not show the screen in time");
}

/*
 * Answer pane P's dialog with WHAT (allow, yes, y, deny, no, n, always,
 * N) or with REPLY (decline with the dialog's no, then type REPLY at the
 * prompt; WHAT empty or deny). TOKEN is the one the asker saw (lisa status
 * --json's question.token, whole); NULL or empty: the dialog lisa shows
 * now. LC is answered when it is done.
 */
void
answer_start(struct pane *p, const char *what, const char *reply,
    const char *token, struct listener_conn *lc)
{
	struct watch	*w = p->watch;
	struct answer	*a, *o;
	const char	*why = NULL, *choice;
	char		 msg[256];

	a = xcalloc(1, sizeof *a);
	a->id = answer_next_id++;
	act_who_set(&a->who, p);
	a->buttons = w != NULL && w->agent != NULL && w->agent->dialog_buttons;
	a->lc = lc;
	choice = question_choice(what);
	/* A reply declines the dialog first (its "no": the agent asks). */
	if (reply != NULL && (*what == '\0' || (choice != NULL &&
	    strcmp(choice, "deny") == 0)))
		choice = "deny";
	else if (reply != NULL)
		choice = NULL;
	strlcpy(a->what, choice != NULL ? choice : "", sizeof a->what);
	if (reply != NULL)
		a->text = xstrdup(reply);
	loop_timer_init(&a->timer, answer_timer_cb, a);
	loop_timer_init(&a->deadline, answer_deadline_cb, a);
	TAILQ_FOREACH(o, &answers, entry) {
		if (o->who.pane == p->id)
			why = "an answer to it is under way";
	}
	TAILQ_INSERT_TAIL(&answers, a, entry);

	if (token != NULL && *token != '\0')
		strlcpy(a->token, token, sizeof a->token);
	else if (w != NULL && w->question_ok)
		answer_token(p, w->question.fingerprint, a->token,
		    sizeof a->token);

	if (why != NULL)
		;
	else if (choice == NULL && reply != NULL)
		why = "a reply goes with deny or alone (--reply TEXT)";
	else if (choice == NULL)
		why = "answer allow (yes, y), deny (no, n), always or an "
		    "option's number; a reply with --reply TEXT";
	else if (reply != NULL && *reply == '\0')
		why = "an empty reply";
	else if (token != NULL && *token != '\0' &&
	    (why = answer_token_check(p, token)) != NULL)
		;
	else if (p->dead)
		why = "the pane is dead";
	else if (a->who.agent_pid == 0)
		why = "no agent runs there";
	else if (w->res.state != ST_WAITING_INPUT || guard_verdict(
	    cls_state_name(w->res.state), w->res.detail) == NULL) {
		snprintf(msg, sizeof msg, "it does not wait on a dialog (it "
		    "is %s%s%s)", cls_state_name(w->res.state),
		    *w->res.detail != '\0' ? "/" : "", w->res.detail);
		why = msg;
	} else if (*a->token == '\0')
		why = "lisa has not read its dialog yet: look again (lisa "
		    "status --json), then answer";
	if (why != NULL) {
		answer_finish(a, why);
		return;
	}
	answer_read(a);
}

/* A connection that went away is answered no more. */
void
answer_conn_gone(struct listener_conn *lc)
{
	struct answer	*a;

	TAILQ_FOREACH(a, &answers, entry) {
		if (a->lc == lc)
			a->lc = NULL;
	}
}

/* The helper stops: an answer halfway is dropped (nothing more sent). */
void
answer_close(void)
{
	struct answer	*a;

	while ((a = TAILQ_FIRST(&answers)) != NULL)
		answer_finish(a, "lisa is stopping");
}
