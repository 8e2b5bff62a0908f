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
 *      that does not match, or finds none, is read once more: a frame
 *      mid-redraw);
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
 * types TEXT there through act_nudge and its own checks. An agent whose
 * decline opens a form that asks why (Kilo's reject_form) gets TEXT there,
 * its own way to tell it, and Enter; a deny with no reply, Enter alone.
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
void
answer_finish(struct answer *a, const char *refused)
{
	struct pane	*p = pane_find(a->who.pane);
	struct buf	 b, e;
	char		 now[64];

	answer_verdict(p, now, sizeof now);
	buf_init(&b);
	buf_init(&e);
	json_key(&e, "by");
	json_cstr(&e, a->by != NULL ? a->by : "user");
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
	if (a->done != NULL)
		a->done(a->done_arg, refused, a->chose);
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

	if (drawn)
		answer_token(p, q->fingerprint, now, sizeof now);
	if (!drawn || !sha256_equal_hex(now, a->token)) {
		/*
		 * A frame caught mid-redraw (a clock in the dialog, a busy
		 * machine) reads as another dialog, or as none: once more, a
		 * moment on.
		 */
		if (!a->reread) {
			a->reread = 1;
			loop_timer_add(&a->timer, ANSWER_SETTLE_MS);
			return;
		}
		if (!drawn) {
			answer_finish(a, "no dialog on its screen now");
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
	/* Its numbers pick nothing (Grok CLI): arrows to it, then Enter. */
	if (a->list)
		*a->key = '\0';
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

/* The dialog went: a deny's reject form, a reply's prompt, or the news. */
static void
answer_gone(struct answer *a, struct pane *p)
{
	const struct agent_profile	*ap = p->watch->agent;

	if (ap != NULL && ap->reject_form != NULL &&
	    strcmp(a->what, "deny") == 0)
		a->phase = ANSWER_FORM;
	else
		a->phase = a->text != NULL ? ANSWER_PROMPT : ANSWER_NEXT;
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
	/* (a pointer drawn said it already: Continue's) */
	if (same && a->buttons && q->selected == -1)
		q->selected = question_selected_sgr(raw, q);
	if (!same) {
		/* The number alone answered it: no Enter. */
		answer_gone(a, p);
		return;
	}
	/* A list: one move a read, the next once the last one showed. */
	if (q->selected != a->pick && a->list && q->selected != -1 &&
	    q->selected != a->shown) {
		a->shown = q->selected;
		answer_move(a, p, q->selected < a->pick ? "Down" : "Up");
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
		answer_gone(a, p);
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
	if (a->phase == ANSWER_FORM) {
		answer_form(a, p, body, len);
		free(raw);
		free(plain);
		return;
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
	uint64_t	 wait;

	if ((why = act_who_same(&a->who, &p)) != NULL) {
		answer_finish(a, why);
		return;
	}
	/* Not while the pane writes: a redraw half in reads as another. */
	if ((wait = watch_still_wait(p, &a->still_since)) != 0) {
		loop_timer_add(&a->timer, wait);
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
	    a->phase == ANSWER_READ || a->phase == ANSWER_FORM)
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
static void
answer_begin(struct pane *p, const char *what, const char *reply,
    const char *token, struct listener_conn *lc, const char *by,
    answer_done_cb done, void *arg)
{
	struct watch	*w = p->watch;
	struct answer	*a, *o;
	const char	*why = NULL, *choice;
	char		 msg[256];

	a = xcalloc(1, sizeof *a);
	a->id = answer_next_id++;
	a->by = by;
	a->done = done;
	a->done_arg = arg;
	act_who_set(&a->who, p);
	a->buttons = w != NULL && w->agent != NULL &&
	    (w->agent->dialog_buttons || w->agent->dialog_list);
	a->list = w != NULL && w->agent != NULL && w->agent->dialog_list;
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

void
answer_start(struct pane *p, const char *what, const char *reply,
    const char *token, struct listener_conn *lc)
{
	answer_begin(p, what, reply, token, lc, "user", NULL, NULL);
}

/*
 * The same, for a caller in the helper (a phone's tap, tap.c): BY names
 * it in the events, DONE is called at the end, once, whatever it was.
 */
void
answer_start_by(struct pane *p, const char *what, const char *token,
    const char *by, answer_done_cb done, void *arg)
{
	answer_begin(p, what, NULL, token, NULL, by, done, arg);
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
