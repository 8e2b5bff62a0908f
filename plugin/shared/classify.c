/*
 * The rules, in the order the seed monitor taught us: what the pane's end
 * says first; then explicit agent state (hooks, Codex's OSC 7501, Claude's
 * session file), newest first; then title, screen and output activity; then
 * the process tree; a grace period makes a new agent "just started"; and
 * only an agent that is alive, quiet, not waiting and not running anything
 * for the stale threshold is "stuck". Every result names its reason.
 */
#include <stdio.h>
#include <string.h>

#include "classify.h"

/*
 * Retry text counts this long. Agents draw it once and then redraw only the
 * cells that change (the countdown digits), so while it counts the screen
 * is looked at again before it runs out.
 */
#define RETRY_FRESH_MS 3000
/* How far apart one turn end's entries in different files may be. */
#define TURN_END_SLACK_MS 2000
/*
 * pi writes each failed try as an error and, a few ms later, withdraws it
 * when it retries: its error is the turn's end once that long unwithdrawn.
 */
#define PI_ERROR_SETTLE_MS 500
/* A background task ended: the agent's turn about it is starting. */
#define BG_END_SLACK_MS 3000
#define RETRY_CHECK_MS 2000
/*
 * A wait whose kind the screen must tell is read DIALOG_READ_MS after its
 * evidence and every DIALOG_READ_MS after while no dialog is drawn, for at
 * most DIALOG_WAIT_MS (then "permission"), whatever the debounce: an agent
 * that redraws its title forever (Codex, once a second) never lets the
 * pane settle.
 */
#define DIALOG_READ_MS 300
#define DIALOG_WAIT_MS 1500

static void
set(struct cls_result *r, enum cls_state st, const char *detail,
    const char *reason)
{
	r->state = st;
	snprintf(r->detail, sizeof r->detail, "%s", detail);
	r->reason = reason;
}

/* An exit seen by any route: status 0 completed, else crashed. */
static void
set_exit(struct cls_result *r, int status, int sig, const char *why_sig,
    const char *why_ok, const char *why_status)
{
	char	detail[32];

	if (sig >= 0) {
		snprintf(detail, sizeof detail, "signal %d", sig);
		set(r, ST_CRASHED, detail, why_sig);
	} else if (status == 0)
		set(r, ST_COMPLETED, "exit 0", why_ok);
	else {
		snprintf(detail, sizeof detail, "exit %d", status);
		set(r, ST_CRASHED, detail, why_status);
	}
}

static uint64_t
earliest(uint64_t a, uint64_t b)
{
	if (a == 0)
		return (b);
	if (b == 0)
		return (a);
	return (a < b ? a : b);
}

/* The screen is newer than whatever it is meant to explain. */
static int
screen_fresh(const struct cls_input *in, uint64_t since)
{
	return (in->screen_at != 0 && in->screen_at >= since);
}

/*
 * Waiting, and for what: hooks or the screen tell the kind. SINCE is when
 * the evidence of waiting came, 0 if it tells the kind itself. A screen
 * read before it cannot tell (the dialog may not be drawn yet; after a
 * restart, it is not read yet): the detail stays empty until a settled
 * screen is read, rather than a guess that changes a moment later.
 */
static void
set_waiting(const struct cls_input *in, struct cls_result *r,
    const char *reason, uint64_t since)
{
	const char	*detail = "permission";
	uint64_t	 next;

	if (in->hook_question || (in->screen & SCREEN_QUESTION))
		detail = "question";
	else if (in->screen & SCREEN_TRUST)
		detail = "trust";
	else if (since != 0 && (!screen_fresh(in, since) ||
	    (!(in->screen & SCREEN_PERMISSION) &&
	    in->screen_at < since + DIALOG_WAIT_MS)))
		detail = "";	/* not read since, or not drawn yet */
	set(r, ST_WAITING_INPUT, detail, reason);
	if (*detail != '\0' || in->capture_failed)
		return;
	next = since + DIALOG_READ_MS;
	if (screen_fresh(in, since) && in->screen_at + DIALOG_READ_MS > next)
		next = in->screen_at + DIALOG_READ_MS;
	if (in->now >= next)
		r->want_capture = 1;
	else
		r->recheck_at = earliest(r->recheck_at, next);
}

/*
 * When the newest evidence of retrying was seen: the retry text in this
 * turn's output, or a screen captured after it that still shows it (0:
 * none, or the screen since shows none).
 */
static uint64_t
retry_evidence(const struct cls_input *in)
{
	if (in->screen_at != 0 && in->screen_at >= in->retry_at)
		return ((in->screen & SCREEN_RETRYING) ? in->screen_at : 0);
	return (in->retry_at);
}

/*
 * Retrying, by evidence no older than RETRY_FRESH_MS (or a screen read
 * since SINCE); arranges the look before that evidence runs out.
 */
static int
retrying_now(const struct cls_input *in, struct cls_result *r,
    uint64_t since)
{
	uint64_t	seen;
	int		retrying;

	if (in->retry_at == 0)
		return (screen_fresh(in, since) &&
		    (in->screen & SCREEN_RETRYING));
	seen = retry_evidence(in);
	retrying = seen != 0 && in->now - seen < RETRY_FRESH_MS;
	/* Still counting down? Look before the evidence runs out. */
	if (retrying && in->now - seen >= RETRY_CHECK_MS)
		r->want_capture = 1;
	else if (retrying)
		r->recheck_at = earliest(r->recheck_at, seen + RETRY_CHECK_MS);
	return (retrying);
}

/*
 * Retrying against a rate or usage limit (its screen, read in this streak,
 * says so) for longer than limit_wait: the agent waits the limit out by
 * itself, maybe for an hour (Codex's retry-after: 15 minutes an attempt).
 * It is not working, whatever it animates: waiting, on a limit. A short
 * retry stays "retrying"; arranges the look when it would become long.
 */
static int
limit_waited(const struct cls_input *in, struct cls_result *r)
{
	uint64_t	long_at = in->retry_since + in->limit_wait;

	if (in->limit_wait == 0 || in->retry_since == 0)
		return (0);
	if (in->now < long_at) {
		r->recheck_at = earliest(r->recheck_at, long_at);
		return (0);
	}
	/* Long: a screen read since tells a limit from any other retry. */
	if (in->screen_at < long_at) {
		if (!in->capture_failed)
			r->want_capture = 1;
		return (0);
	}
	return ((in->screen & SCREEN_LIMIT) != 0);
}

/* Working, and on what. */
static void
set_working(const struct cls_input *in, struct cls_result *r,
    const char *reason, uint64_t since)
{
	if (retrying_now(in, r, since) && limit_waited(in, r))
		set(r, ST_WAITING_INPUT, "limit", "limit_waited_out");
	else if (retrying_now(in, r, since))
		set(r, ST_IN_PROGRESS, "retrying", reason);
	else if (in->hook == HK_PRE_TOOL || in->children > 0 ||
	    (screen_fresh(in, since) && (in->screen & SCREEN_TOOL)))
		set(r, ST_IN_PROGRESS, "tool", reason);
	else
		set(r, ST_IN_PROGRESS, "generating", reason);
}

/*
 * A spinner that turns over a dialog (Cline's, over a question its file
 * does not tell of): while it works, its screen is read once a debounce
 * at most, and a dialog on one read since SINCE, no older than three
 * debounces, is a wait.
 */
static int
spinner_dialog(const struct cls_input *in, struct cls_result *r,
    uint64_t since)
{
	if (!in->dialog_spinner)
		return (0);
	if (in->screen_at == 0 || in->now - in->screen_at >= in->debounce)
		r->want_capture = 1;
	else
		r->recheck_at = earliest(r->recheck_at, in->screen_at +
		    in->debounce);
	if (!(in->screen & (SCREEN_PERMISSION|SCREEN_QUESTION|SCREEN_TRUST)) ||
	    !screen_fresh(in, since) || in->now - in->screen_at >=
	    3 * in->debounce)
		return (0);
	set_waiting(in, r, "screen_dialog_spinner", 0);
	return (1);
}

/*
 * The newest explicit statement of the agent's state. Returns 0 if there
 * is none.
 */
static int
explicit_state(const struct cls_input *in, struct cls_result *r,
    uint64_t *at)
{
	uint64_t	hook_at = in->hook != HK_NONE ? in->hook_at : 0;
	uint64_t	codex_at = in->codex != CX_NONE ? in->codex_at : 0;
	uint64_t	sess_at = in->session != SS_NONE &&
			    !in->session_stale ? in->session_at : 0;
	/*
	 * A transcript states how a turn ended; that a turn began says
	 * nothing about dialogs since (they write no entry).
	 */
	uint64_t	tx_at = in->transcript != TX_NONE &&
			    in->transcript != TX_WORKING ? in->transcript_at : 0;

	if (in->pi_session && tx_at != 0 && (in->transcript == TX_API_ERROR ||
	    in->transcript == TX_LIMIT) &&
	    in->now < tx_at + PI_ERROR_SETTLE_MS) {
		r->recheck_at = earliest(r->recheck_at,
		    tx_at + PI_ERROR_SETTLE_MS);
		tx_at = 0;
	}
	if (hook_at == 0 && codex_at == 0 && sess_at == 0 && tx_at == 0)
		return (0);
	/*
	 * "shell" is written once the turn has ended: the turn's end, read
	 * later (both in one wakeup on a busy machine), is not newer news.
	 */
	if (in->session == SS_SHELL && sess_at != 0 &&
	    in->transcript == TX_TURN_DONE)
		tx_at = 0;
	if (tx_at > hook_at && tx_at > codex_at && tx_at > sess_at) {
		*at = tx_at;
		switch (in->transcript) {
		case TX_TURN_DONE:
			set(r, ST_WAITING_INPUT, "prompt", in->pi_session ?
			    "pi_session_turn_done" :
			    "claude_transcript_turn_done");
			break;
		case TX_API_ERROR:
			set(r, ST_WAITING_INPUT, "error", in->pi_session ?
			    "pi_session_api_error" :
			    "claude_transcript_api_error");
			break;
		case TX_LIMIT:
			set(r, ST_WAITING_INPUT, "limit", in->gemini_chat ?
			    "gemini_chat_limit" : in->pi_session ?
			    "pi_session_limit" : "claude_transcript_limit");
			break;
		case TX_INTERRUPTED:
			set(r, ST_WAITING_INPUT, "prompt", in->pi_session ?
			    "pi_session_interrupted" :
			    "claude_transcript_interrupted");
			break;
		case TX_NONE:
		case TX_WORKING:
			return (0);
		}
		return (1);
	}
	if (codex_at >= hook_at && codex_at >= sess_at) {
		*at = codex_at;
		switch (in->codex) {
		case CX_WORKING:
			set_working(in, r, "codex_osc_working", codex_at);
			break;
		case CX_BLOCKED:
			set_waiting(in, r, "codex_osc_blocked", codex_at);
			break;
		case CX_DONE:
			set(r, ST_WAITING_INPUT, "prompt", "codex_osc_done");
			break;
		case CX_ERROR:
			set(r, ST_WAITING_INPUT, "error", "codex_osc_error");
			break;
		case CX_IDLE:
			set(r, ST_WAITING_INPUT, "prompt", "codex_osc_idle");
			break;
		case CX_CLEAR:
			set(r, ST_COMPLETED, "agent exited", "codex_osc_clear");
			break;
		case CX_NONE:
			return (0);
		}
		return (1);
	}
	if (sess_at >= hook_at) {
		*at = sess_at;
		switch (in->session) {
		case SS_BUSY:
			if (spinner_dialog(in, r, sess_at))
				break;
			set_working(in, r, in->cline_session ?
			    "cline_session_busy" : "claude_session_busy",
			    sess_at);
			break;
		case SS_WAITING:
			set_waiting(in, r, in->cline_session ?
			    "cline_session_waiting" : "claude_session_waiting",
			    sess_at);
			break;
		case SS_SHELL:
			/* Its turn is over; a background shell still runs. */
			set(r, ST_IN_PROGRESS, "background",
			    "claude_session_shell");
			break;
		case SS_IDLE:
		case SS_NONE:
			/* Idle after a failed turn: both are written at once. */
			if ((in->transcript == TX_API_ERROR ||
			    in->transcript == TX_LIMIT) &&
			    in->transcript_at + TURN_END_SLACK_MS >= sess_at)
				set(r, ST_WAITING_INPUT,
				    in->transcript == TX_LIMIT ? "limit" :
				    "error", "claude_session_idle");
			else
				set(r, ST_WAITING_INPUT, "prompt",
				    in->cline_session ? "cline_session_idle" :
				    "claude_session_idle");
			break;
		}
		return (1);
	}
	*at = hook_at;
	switch (in->hook) {
	case HK_PROMPT:
	case HK_PRE_TOOL:
	case HK_POST_TOOL:
		set_working(in, r, "hook_working", hook_at);
		break;
	case HK_PERMISSION:
	case HK_NOTIFY_PERMISSION:
		set_waiting(in, r, "hook_permission", 0);
		break;
	case HK_STOP:
	case HK_TURN_COMPLETE:
		set(r, ST_WAITING_INPUT, "prompt", "hook_stop");
		break;
	case HK_STOP_FAILURE:
		set(r, ST_WAITING_INPUT, "error", "hook_stop_failure");
		break;
	case HK_STOP_LIMIT:
		set(r, ST_WAITING_INPUT, "limit", "hook_stop_limit");
		break;
	case HK_NOTIFY_IDLE:
		set(r, ST_WAITING_INPUT, "prompt", "hook_idle");
		break;
	case HK_SESSION_START:
		set(r, ST_WAITING_INPUT, "prompt", "hook_session_start");
		break;
	case HK_SESSION_END:
		set(r, ST_COMPLETED, "agent exited", "hook_session_end");
		break;
	case HK_NONE:
		return (0);
	}
	return (1);
}

/*
 * 3b. Hooks that miss turn ends (Copilot's say nothing when a permission
 * is refused, a turn interrupted or a request refused with a 4xx; Qwen's
 * nothing of its permission dialog): their "working" or "waiting" stands
 * until a screen read after the pane settled shows a dialog (working:
 * then waiting) or the agent at its prompt, with no dialog and no spinner.
 */
static void
hooks_partial_check(const struct cls_input *in, struct cls_result *r,
    uint64_t quiet_since, uint64_t at)
{
	uint64_t	settle = quiet_since;

	if (!in->hooks_partial || strncmp(r->reason, "hook_", 5) != 0)
		return;
	if (r->state != ST_IN_PROGRESS && (r->state != ST_WAITING_INPUT ||
	    strcmp(r->detail, "prompt") == 0 ||
	    strcmp(r->detail, "error") == 0 ||
	    strcmp(r->detail, "limit") == 0))
		return;
	if (at > settle)
		settle = at;
	if (in->title_at > settle)
		settle = in->title_at;
	if (in->now - settle < in->debounce) {
		r->recheck_at = earliest(r->recheck_at, settle + in->debounce);
		return;
	}
	if (!screen_fresh(in, settle)) {
		if (!in->capture_failed)
			r->want_capture = 1;
	} else if (r->state == ST_IN_PROGRESS && (in->screen &
	    (SCREEN_PERMISSION|SCREEN_QUESTION|SCREEN_TRUST)))
		set_waiting(in, r, "screen_dialog_after_hook", 0);
	else if ((in->screen & SCREEN_PROMPT) && !(in->screen &
	    (SCREEN_PERMISSION|SCREEN_QUESTION|SCREEN_TRUST|SCREEN_BUSY|
	    SCREEN_RETRYING|SCREEN_TOOL)))
		set(r, ST_WAITING_INPUT, "prompt", "screen_prompt_after_hook");
}

/* Title, screen and output activity, for agents that say nothing more. */
/* Output slower than this (bytes/s) can be a clock, not work. */
#define CLS_CLOCK_RATE	256

/* A dialog on a read at most three debounces old: a clock's wait stands. */
static int
clock_dialog_stands(const struct cls_input *in)
{
	return ((in->screen & (SCREEN_PERMISSION|SCREEN_QUESTION|
	    SCREEN_TRUST)) && in->screen_at != 0 &&
	    in->now - in->screen_at < 3 * in->debounce);
}

static void
observed_state(const struct cls_input *in, struct cls_result *r,
    uint64_t quiet_since)
{
	/* A screen is evidence only if taken after the pane settled. */
	uint64_t	settle = quiet_since > in->title_at ? quiet_since :
			    in->title_at;
	int		settled = in->now - settle >= in->debounce;
	int		fresh = screen_fresh(in, settle);

	switch (in->title) {
	case TITLE_WAITING:
		set_waiting(in, r, "title_action_required", in->title_at);
		return;
	case TITLE_BUSY:
		/*
		 * A busy title over a silent pane: Gemini CLI keeps "Working"
		 * while its quota dialog waits (its spinner row stops). A
		 * settled screen tells; a working agent's spinner never lets
		 * the pane settle, so this costs one capture at most.
		 */
		if (settled && fresh && (in->screen & SCREEN_LIMIT) &&
		    !(in->screen & (SCREEN_BUSY|SCREEN_RETRYING)))
			set(r, ST_WAITING_INPUT, "limit",
			    "title_busy_screen_limit");
		else {
			set_working(in, r, "title_busy", in->title_at);
			if (settled && !fresh)
				r->want_capture = 1;
		}
		return;
	case TITLE_IDLE:
		/* Idle or waiting: only the screen can tell. */
		if (fresh && (in->screen &
		    (SCREEN_PERMISSION|SCREEN_QUESTION|SCREEN_TRUST)))
			set_waiting(in, r, "title_idle_screen_dialog", 0);
		else {
			set(r, ST_WAITING_INPUT, "prompt", "title_idle");
			if (!fresh && settled)
				r->want_capture = 1;
		}
		return;
	default:
		break;
	}
	/*
	 * A clock redrawn over a dialog (Copilot CLI counts the seconds its
	 * tool has waited): output too slow to be work is read on screen,
	 * once a debounce at most, and the dialog stands while a screen read
	 * within the last three debounces shows it (the second in which it
	 * was drawn is fast), so that one answered at the agent itself is
	 * seen within that.
	 */
	if (in->now - quiet_since < in->debounce && in->dialog_spinner &&
	    spinner_dialog(in, r, 0))
		return;
	if (in->now - quiet_since < in->debounce && in->dialog_clock) {
		if (in->output_rate >= CLS_CLOCK_RATE)
			;	/* (work's pace: no read for it) */
		else if (in->screen_at == 0 || in->now - in->screen_at >=
		    in->debounce)
			r->want_capture = 1;
		else
			r->recheck_at = earliest(r->recheck_at, in->screen_at +
			    in->debounce);
		if (clock_dialog_stands(in)) {
			set_waiting(in, r, "screen_dialog_clock", 0);
			return;
		}
	}
	if (in->now - quiet_since < in->debounce) {
		/* A countdown redrawn: still retrying while the evidence is. */
		set(r, ST_IN_PROGRESS, retrying_now(in, r, quiet_since) ?
		    "retrying" : "generating", "output_active");
		return;
	}
	if (!fresh) {
		r->want_capture = 1;
		/*
		 * The clock's tick came after the last read, which showed the
		 * dialog: it stands until the read asked for now says not
		 * (said "working" for that moment, the dialog was let go and
		 * read again as another, its token refused: Copilot, loaded).
		 */
		if (in->dialog_clock && clock_dialog_stands(in)) {
			set_waiting(in, r, "screen_dialog_clock", 0);
			return;
		}
		set(r, ST_IN_PROGRESS, "generating", "output_quiet");
		return;
	}
	if (in->screen & (SCREEN_PERMISSION|SCREEN_QUESTION|SCREEN_TRUST))
		set_waiting(in, r, "screen_dialog", 0);
	else if (in->screen & (SCREEN_BUSY|SCREEN_RETRYING))
		set_working(in, r, "screen_busy", quiet_since);
	else if (in->screen & SCREEN_LIMIT)
		set(r, ST_WAITING_INPUT, "limit", "screen_limit");
	else if ((in->screen & SCREEN_ERROR) && in->error_screen)
		set(r, ST_WAITING_INPUT, "error", "screen_error");
	else if (in->screen & (SCREEN_PROMPT|SCREEN_INTERRUPTED|SCREEN_ERROR))
		set(r, ST_WAITING_INPUT, "prompt", "screen_prompt");
	else
		set(r, ST_IN_PROGRESS, "generating", "output_quiet");
}

void
classify(const struct cls_input *in, struct cls_result *r)
{
	uint64_t	quiet_since, at = 0;
	int		weak;

	memset(r, 0, sizeof *r);
	r->reason = "no_agent";

	if (!in->agent_seen)
		return;		/* lisa classifies agent panes only */

	/*
	 * 0. Ended on purpose (the user's kill, the watchdog's terminate): its
	 * own ending, not a crash, whatever signal or status it left.
	 */
	if (in->killed_by != KILLED_NONE &&
	    (in->pane_dead || !in->agent_alive)) {
		r->lifecycle = LC_EXITED;
		if (in->killed_by == KILLED_USER)
			set(r, ST_COMPLETED, "killed by you", "killed_by_user");
		else
			set(r, ST_COMPLETED, "killed by lisa",
			    "killed_by_watchdog");
		return;
	}

	/* 1. The pane is dead: its status decides. */
	if (in->pane_dead) {
		r->lifecycle = LC_EXITED;
		if (in->exit_signal >= 0 || in->exit_status >= 0) {
			set_exit(r, in->exit_status, in->exit_signal,
			    "pane_dead_signal", "pane_dead_exit0",
			    "pane_dead_status");
		} else if (in->codex == CX_CLEAR ||
		    in->title == TITLE_CLEARED ||
		    (in->screen & SCREEN_EXITED))
			set(r, ST_COMPLETED, "agent exited",
			    "pane_dead_clean_exit");
		else
			set(r, ST_CRASHED, "unknown", "pane_dead_no_status");
		return;
	}

	/* 2. The agent is gone but the pane lives (back at a shell). */
	if (!in->agent_alive) {
		r->lifecycle = LC_EXITED;
		if (in->agent_exit_signal >= 0 || in->agent_exit_status >= 0)
			set_exit(r, in->agent_exit_status, in->agent_exit_signal,
			    "agent_exit_signal", "agent_exit0",
			    "agent_exit_status");
		else if (in->osc133_exit >= 0)
			set_exit(r, in->osc133_exit, -1, "", "shell_osc133_exit0",
			    "shell_osc133_exit");
		else if (in->shell_signal > 0)
			set_exit(r, -1, in->shell_signal, "shell_reported_signal",
			    "", "");
		else if (in->screen & SCREEN_KILLED)
			set_exit(r, -1, in->screen_signal > 0 ?
			    in->screen_signal : 9, "screen_shell_killed", "", "");
		else if (in->codex == CX_CLEAR || in->title == TITLE_CLEARED ||
		    (in->screen & SCREEN_EXITED) || in->hook == HK_SESSION_END)
			set(r, ST_COMPLETED, "agent exited", "agent_exited_clean");
		else if (in->title == TITLE_BUSY || in->codex == CX_WORKING ||
		    (in->session_stale && in->session == SS_BUSY) ||
		    in->hook == HK_PROMPT || in->hook == HK_PRE_TOOL ||
		    in->hook == HK_POST_TOOL ||
		    (in->agent_gone_busy && (in->screen & SCREEN_BUSY)))
			/*
			 * Its last word was "working": it did not end well. A
			 * busy row still drawn after it went (read once it had:
			 * watch.c) is that word when nothing else says it
			 * (Qwen's wrapper's exit 1, reaped by the shell first).
			 */
			set(r, ST_CRASHED, "unknown", "agent_gone_while_busy");
		else
			set(r, ST_COMPLETED, "agent exited", "agent_exited");
		return;
	}

	r->lifecycle = LC_RUNNING;
	quiet_since = in->last_output > in->agent_since ? in->last_output :
	    in->agent_since;
	weak = 0;

	/* 3. Explicit state; 4. failures; 5. what we observe. */
	if (explicit_state(in, r, &at))
		hooks_partial_check(in, r, quiet_since, at);
	else {
		if (in->proc_failed)
			set(r, ST_DEGRADED, "", "proc_unreadable");
		else if (in->session_failed && in->title == TITLE_UNKNOWN)
			set(r, ST_DEGRADED, "", "session_file_unreadable");
		else {
			observed_state(in, r, quiet_since);
			weak = r->reason != NULL &&
			    (strcmp(r->reason, "output_active") == 0 ||
			    strcmp(r->reason, "output_quiet") == 0 ||
			    strcmp(r->reason, "title_idle") == 0);
			if (r->want_capture && in->capture_failed) {
				set(r, ST_DEGRADED, "", "capture_failed");
				weak = 0;
			}
		}
	}

	/* 6. A child process means a tool is running, whatever else. */
	if (in->children > 0 && weak && r->state == ST_IN_PROGRESS)
		set(r, ST_IN_PROGRESS, "tool", "process_children");

	/*
	 * 6b. A turn that ended with work still running (a background shell)
	 * is not done: the agent takes it up when that work ends.
	 */
	if (r->state == ST_WAITING_INPUT && strcmp(r->detail, "prompt") == 0) {
		if (in->background > 0) {
			set(r, ST_IN_PROGRESS, "background",
			    "claude_background_tasks");
			weak = 0;
		} else if (in->background_ended_at != 0 &&
		    in->background_ended_at >= at &&
		    in->now - in->background_ended_at < BG_END_SLACK_MS) {
			/*
			 * It just ended, after the last "idle": Claude is
			 * starting the turn that reads it (its "busy" comes
			 * a moment later). Not a prompt to tell anyone of.
			 */
			set(r, ST_IN_PROGRESS, "background",
			    "claude_background_ended");
			r->recheck_at = earliest(r->recheck_at,
			    in->background_ended_at + BG_END_SLACK_MS);
			weak = 0;
		}
	}

	/* 7. Grace: a new agent is "just started" until it shows more. */
	if (in->agent_since != 0 && in->now - in->agent_since < in->grace) {
		if (weak || (r->state == ST_WAITING_INPUT &&
		    strcmp(r->detail, "prompt") == 0)) {
			set(r, ST_JUST_STARTED, "", "grace_period");
			r->lifecycle = LC_STARTING;
		}
		r->recheck_at = earliest(r->recheck_at,
		    in->agent_since + in->grace);
	}

	/*
	 * 8. Working but silent for too long, with nothing running: stuck.
	 * Background work is silent by nature: never stuck for that.
	 */
	if (r->state == ST_IN_PROGRESS && in->stale != 0 &&
	    strcmp(r->detail, "background") != 0) {
		uint64_t	last;

		/* (a signal a helper before us had read: its clock goes on) */
		if (in->carried_quiet != 0 && at >= in->carried_from &&
		    at <= in->carried_until && at > in->carried_quiet)
			at = in->carried_quiet;
		last = quiet_since > at ? quiet_since : at;
		r->quiet_at = last;

		if (in->now - last < in->stale || in->children != 0 ||
		    in->cpu_busy)
			r->recheck_at = earliest(r->recheck_at,
			    last + in->stale);
		else if (strcmp(r->reason, "screen_busy") == 0 &&
		    in->now - in->screen_at >= in->debounce &&
		    !in->capture_failed)
			/*
			 * Busy by a screen read when the output stopped: the
			 * last frame can land between that read and the end
			 * of a pause (seen with OpenCode). Read it again
			 * before calling it stuck.
			 */
			r->want_capture = 1;
		else
			set(r, ST_STUCK, "", weak ? "stale_no_activity" :
			    "stale_despite_working_state");
	}

	/* Quiet decisions come due after the debounce. */
	if (in->title_at > quiet_since)
		quiet_since = in->title_at;
	if (in->now - quiet_since < in->debounce)
		r->recheck_at = earliest(r->recheck_at,
		    quiet_since + in->debounce);
	else
		r->settled = 1;
	/* Waiting for what: a settled screen tells question from permission. */
	if (r->state == ST_WAITING_INPUT && (strcmp(r->detail, "permission") ==
	    0 || *r->detail == '\0') && !screen_fresh(in, quiet_since) &&
	    in->now - quiet_since >= in->debounce)
		r->want_capture = 1;
	/*
	 * An error may be a usage or rate limit: where no signal said which
	 * (Codex's OSC 7501 error), its screen does. Claude's transcript
	 * says which (rate_limit or not): an earlier turn's 429 still on
	 * screen is not this error.
	 */
	if (r->state == ST_WAITING_INPUT && strcmp(r->detail, "error") == 0 &&
	    in->transcript != TX_API_ERROR) {
		if (!screen_fresh(in, quiet_since)) {
			if (in->now - quiet_since >= in->debounce)
				r->want_capture = 1;
		} else if (in->screen & SCREEN_LIMIT)
			set(r, ST_WAITING_INPUT, "limit", "screen_limit");
	}

	switch (r->state) {
	case ST_IN_PROGRESS:
		r->activity = AC_WORKING;
		break;
	case ST_WAITING_INPUT:
		r->activity = strcmp(r->detail, "prompt") == 0 ||
		    strcmp(r->detail, "error") == 0 ||
		    strcmp(r->detail, "limit") == 0 ? AC_IDLE : AC_WAITING;
		break;
	case ST_JUST_STARTED:
		r->activity = AC_IDLE;
		break;
	default:
		break;
	}
	if (r->state == ST_COMPLETED)
		r->lifecycle = LC_EXITED;
	r->weak = weak;
}
