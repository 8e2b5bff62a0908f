/*
 * Per-pane classification. Signals arrive as events (output, titles and
 * OSC sequences in it, tmux updates, process exits, hooks, agent files);
 * each marks the pane for a classification at the end of this loop turn,
 * so a burst costs one. The classifier says when to look again if nothing
 * happens (debounce, grace, stale) and whether it needs the screen; those
 * are the only timers, and the screen is captured only then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"
#include "watch-int.h"

#define WATCH_LOOKS	100	/* tree looks a second shared by those */
#define WATCH_GAP_SLACK	100	/* ms: a timer a little early still looks */

/*
 * How many agents work now (alive, in_progress): what the budget of tree
 * looks is shared by. Counted again at most once a WATCH_RESCAN.
 */
static u_int
watch_working(uint64_t now)
{
	static uint64_t	 counted_at;
	static u_int	 working;
	struct pane	*p;

	if (counted_at != 0 && now - counted_at < WATCH_RESCAN)
		return (working);
	counted_at = now;
	working = 0;
	RB_FOREACH(p, panes, &panes) {
		if (p->watch != NULL && p->watch->agent_alive &&
		    watch_matches(p, 1u << ST_IN_PROGRESS))
			working++;
	}
	return (working);
}

/*
 * While an agent's output flows its tree is looked at again (tools start
 * and end unannounced) once a WATCH_RESCAN; past WATCH_LOOKS working
 * agents, WATCH_LOOKS looks a second are shared among them (at 500, each
 * every 5 s).
 */
static uint64_t
watch_rescan_gap(uint64_t now)
{
	uint64_t	gap = (uint64_t)watch_working(now) * 1000 / WATCH_LOOKS;

	return (gap > WATCH_RESCAN ? gap : WATCH_RESCAN);
}

/*
 * A deadline came while the agent works and its output flows (a stream
 * paused by pane-mute.c moves out_last without a word): the verdict stands
 * on that output, so the tree is looked at only when its turn comes.
 */
static int
watch_scan_waits(struct pane *p, uint64_t now)
{
	struct watch	*w = p->watch;

	/* (a young child coming of age is a deadline of the tree's own) */
	if (w->young_at != 0 && now >= w->young_at)
		return (0);
	return (w->classified && w->res.state == ST_IN_PROGRESS &&
	    !w->res.settled && w->cpu_at != 0 && p->out_last != 0 &&
	    now - p->out_last < lisad.debounce_ms &&
	    now - w->cpu_at + WATCH_GAP_SLACK < watch_rescan_gap(now));
}

void
watch_new(struct pane *p)
{
	struct watch	*w;

	w = xcalloc(1, sizeof *w);
	w->pub_jump = -1;
	osc_init(&w->osc);
	w->agent_pidfd = -1;
	w->agent_exit_status = w->agent_exit_signal = -1;
	w->osc133_exit = -1;
	w->screen_signal = w->shell_signal = -1;
	w->watch_since = time_mono_ms();
	loop_timer_init(&w->timer, watch_run, p);
	loop_timer_init(&w->capture_timer, watch_capture_timer, p);
	w->wd_level = w->wd_pending = -1;
	/* Once: initialising an armed timer would corrupt the loop's tree. */
	loop_timer_init(&w->wd_timer, wd_timer_cb, p);
	p->watch = w;
}

void
watch_unwatch_agent(struct watch *w)
{
	if (w->agent_pidfd != -1) {
		loop_del(w->agent_ev);
		close(w->agent_pidfd);
	}
	w->agent_pidfd = -1;
	w->agent_ev = NULL;
}

void
watch_free(struct pane *p)
{
	struct watch	*w = p->watch;
	int		 i;

	if (w == NULL)
		return;
	if (ended_is(p))
		ended_changed();
	loop_timer_del(&w->timer);
	loop_timer_del(&w->capture_timer);
	watchdog_free(p);
	watch_unwatch_agent(w);
	free(w->termination);
	free(w->title);
	free(w->session_dir);
	free(w->transcript_dir);
	free(w->session_cwd);
	free(w->pane_cwd);
	free(w->agent_exe);
	free(w->codex_home);
	free(w->rollout);
	free(w->rollout_before);
	free(w->gemini_home);
	free(w->agent_log);
	free(w->copilot_log);
	free(w->gemini_chats);
	free(w->hook_subject);
	question_free(&w->question);
	buf_free(&w->usage_part);
	for (i = 0; i < PUBLISH_NFIELDS; i++)
		free(w->pub[i]);
	free(w->pub_lisa);
	free(w);
	p->watch = NULL;
}

/* Classify at the end of this loop turn. */
void
watch_touch(struct pane *p)
{
	p->watch->touched = 1;
	loop_timer_add(&p->watch->timer, 0);
}

void
watch_poke(struct pane *p)
{
	watch_touch(p);
}

/* Look at the process tree again in ms (a deadline, not a poll). */
void
watch_rescan_in(struct pane *p, uint64_t ms)
{
	struct watch	*w = p->watch;
	uint64_t	 at = time_mono_ms() + ms;

	if (w->rescan_at == 0 || at < w->rescan_at)
		w->rescan_at = at;
	watch_touch(p);
}

/* A fresh agent (or a new one in the same pane): forget the last run's. */
void
watch_reset_run(struct watch *w)
{
	w->agent_exit_status = w->agent_exit_signal = -1;
	w->osc133_exit = w->shell_signal = -1;
	w->tail_len = 0;
	w->codex = CX_NONE;
	w->session = SS_NONE;
	w->session_stale = w->session_failed = 0;
	w->hook = HK_NONE;
	w->hook_question = 0;
	free(w->session_dir);
	w->session_dir = NULL;
	w->env_unread = 0;
	memset(&w->session_stamp, 0, sizeof w->session_stamp);
	free(w->transcript_dir);
	w->transcript_dir = NULL;
	free(w->codex_home);
	w->codex_home = NULL;
	w->codex_resume_read = 0;
	/* (kept: a session it left behind is not the next agent's) */
	if (w->rollout != NULL) {
		free(w->rollout_before);
		w->rollout_before = w->rollout;
	}
	w->rollout = NULL;
	free(w->gemini_home);
	w->gemini_home = NULL;
	free(w->gemini_chats);
	w->gemini_chats = NULL;
	free(w->agent_log);
	w->agent_log = NULL;
	free(w->copilot_log);
	w->copilot_log = NULL;
	w->copilot_off = 0;
	w->claude_session_id[0] = '\0';
	w->argv_session[0] = w->chat_session[0] = '\0';
	free(w->agent_exe);
	w->agent_exe = NULL;
	free(w->session_cwd);
	w->session_cwd = NULL;
	free(w->pane_cwd);
	w->pane_cwd = NULL;
	w->pane_cwd_pid = 0;
	w->transcript = TX_NONE;
	w->transcript_at = 0;
	memset(&w->transcript_stamp, 0, sizeof w->transcript_stamp);
	usage_init(&w->usage);
	bgtasks_init(&w->bg);
	w->bg_ended_at = 0;
	w->usage_ino = w->usage_dev = w->usage_off = 0;
	buf_reset(&w->usage_part);
	w->usage_skip = 0;
	w->screen = 0;
	w->screen_at = 0;
	w->title_cleared = 0;
	w->retry_at = 0;
	w->children = 0;
	w->cpu_busy = 0;
}

/*
 * A shell says how its job died ("Killed") right after the death, maybe
 * before lisa has heard of it: the last bytes before, and what follows.
 */
void
watch_shell_words(struct pane *p, const char *data, size_t len)
{
	struct watch	*w = p->watch;
	int		 sig;

	if ((sig = agent_shell_death_stream(data, len)) != -1) {
		log_debug("pane %%%d: shell reports signal %d", p->id, sig);
		w->shell_signal = sig;
		watch_touch(p);
	}
}

static enum codex_state
watch_codex_state(const char *s)
{
	static const struct {
		const char		*word;
		enum codex_state	 st;
	} words[] = {
		{ "idle", CX_IDLE }, { "working", CX_WORKING },
		{ "blocked", CX_BLOCKED }, { "done", CX_DONE },
		{ "error", CX_ERROR }, { "clear", CX_CLEAR },
	};
	size_t	i, n;

	if (strncmp(s, "state=", 6) != 0)
		return (CX_NONE);
	s += 6;
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		n = strlen(words[i].word);
		if (strncmp(s, words[i].word, n) == 0 &&
		    (s[n] == '\0' || s[n] == ':'))
			return (words[i].st);
	}
	return (CX_NONE);
}

static void
watch_osc(const struct osc_event *ev, void *arg)
{
	struct pane	*p = arg;
	struct watch	*w = p->watch;
	uint64_t	 now = time_mono_ms();
	enum codex_state cx;

	if (ev->kind == OSC_EV_BEL) {
		/* (our own bell never gets here: pane_output drops it) */
		w->bell_at = now;
		watch_touch(p);
		return;
	}
	switch (ev->number) {
	case 0:
	case 2:
		if (!ev->passthrough)
			watch_title(p, ev->payload);
		break;
	case 7501:
		if ((cx = watch_codex_state(ev->payload)) != CX_NONE) {
			/* A turn's start: its thread's rollout may be new. */
			if (cx == CX_WORKING && w->codex != CX_WORKING) {
				w->codex_turn_at = now;
				if (w->agent_alive && w->agent != NULL &&
				    w->agent->codex_files)
					agentfiles_codex_look(p);
			}
			w->codex = cx;
			w->codex_at = now;
			w->scan = w->scan || !w->agent_seen;
			watch_touch(p);
		}
		break;
	case 133:
		if (ev->payload[0] == 'C')
			ended_command(p);
		else if (ev->payload[0] == 'D') {
			w->osc133_exit = ev->payload[1] == ';' ?
			    atoi(ev->payload + 2) : 0;
			w->osc133_at = now;
			/* The shell's command ended: was it the agent? */
			if (w->agent_alive) {
				w->scan = 1;
				proc_forget();
			}
			watch_touch(p);
		}
		break;
	case 9:
	case 99:
	case 777:
		w->notify_at = now;
		watch_touch(p);
		break;
	}
}

static void
watch_retry_marks(struct pane *p, const char *data, size_t len)
{
	struct watch	*w = p->watch;
	const char	*m;
	int		 i;

	for (i = 0; i < 3 && (m = w->agent->retry_marks[i]) != NULL; i++) {
		if (memmem(data, len, m, strlen(m)) != NULL) {
			if (w->retry_at == 0 || strcmp(w->res.detail,
			    "retrying") != 0) {
				log_debug("pane %%%d: retry mark in its output",
				    p->id);
				watch_touch(p);
			}
			if (w->retry_at == 0)
				w->retry_since = time_mono_ms();
			w->retry_at = time_mono_ms();
			return;
		}
	}
}

static void
watch_tail(struct watch *w, const char *data, size_t len)
{
	size_t	keep;

	if (len >= sizeof w->tail) {
		memcpy(w->tail, data + len - sizeof w->tail, sizeof w->tail);
		w->tail_len = sizeof w->tail;
		return;
	}
	keep = sizeof w->tail - len;
	if (keep > w->tail_len)
		keep = w->tail_len;
	memmove(w->tail, w->tail + w->tail_len - keep, keep);
	memcpy(w->tail + keep, data, len);
	w->tail_len = keep + len;
}

/*
 * Output of a pane with no agent: look for one. A look from before these
 * bytes (generic: the ps that ran while they came, kept a moment) shows
 * the program that exec'd into the agent, and a quiet agent would bring
 * no other.
 */
static void
watch_output_scan(struct watch *w)
{
	w->output_scanned = w->scan = 1;
	w->output_scan_at = time_mono_ms();
	w->output_unscanned = 0;
	proc_forget();
}

/*
 * tmux dropped output of the pane that we never saw (we fell behind: a
 * pause) and its screen was read again: for a pane with no agent, those
 * bytes may have been an agent starting, as any output would.
 */
void
watch_output_dropped(struct pane *p)
{
	if (!p->watch->agent_seen)
		watch_output_scan(p->watch);
}

/* The hot path: every decoded chunk of a watched pane. */
void
watch_output(struct pane *p, const char *data, size_t len)
{
	struct watch	*w = p->watch;

	watchdog_output(p);
	osc_scan(&w->osc, data, len, watch_osc, p);
	/* The shell an agent ended in is in use again? */
	if (w->classified && !w->agent_alive && ended_is(p)) {
		ended_output(p);
		watch_touch(p);
	}
	/*
	 * A working agent that retries says so in its spinner line, maybe
	 * before lisa has seen the turn start: look whatever the state.
	 */
	if (w->agent != NULL && w->agent_alive)
		watch_retry_marks(p, data, len);
	/*
	 * Output only matters when it can change the verdict: not for a pane
	 * with no agent (a command change tells us when one starts), and not
	 * while a working state stands on output (the debounce timer does).
	 */
	if (!w->agent_seen) {
		/*
		 * Something new writes: if it is an agent, see it now. And
		 * again at most once a second while output flows: a program
		 * that execs an agent in the same process says nothing else
		 * (and tmux < 3.7 sends lisa no subscriptions to tell).
		 */
		if (!w->output_scanned ||
		    time_mono_ms() - w->output_scan_at >= WATCH_RESCAN) {
			watch_output_scan(w);
			watch_touch(p);
		} else if (!w->output_unscanned)
			watch_scan_later(p);
		return;
	}
	if (w->agent_alive)
		watch_tail(w, data, len);
	else if (w->shell_words_left > 0 &&
	    time_mono_ms() - w->agent_gone_at < WATCH_SHELL_WORDS) {
		/* In the tail: the report may come in two chunks. */
		watch_tail(w, data, len);
		w->shell_words_left -= len < w->shell_words_left ? len :
		    w->shell_words_left;
		watch_shell_words(p, w->tail, w->tail_len);
	}
	/*
	 * A working verdict made in the quiet (a screen read, a silent busy
	 * title) has no timer behind it: output that comes must bring a new
	 * one, or a dialog drawn in one burst after it is never read.
	 */
	if (!w->classified || w->res.state != ST_IN_PROGRESS ||
	    w->res.settled)
		watch_touch(p);
	else if (w->agent_alive && time_mono_ms() - w->cpu_at >=
	    watch_rescan_gap(time_mono_ms())) {
		/*
		 * Tools start and end without a word in the stream an agent
		 * redraws cell by cell: while it works, its tree is looked at
		 * again, at most once a second (the gap above) and only while
		 * output flows.
		 */
		w->scan = 1;
		watch_touch(p);
	}
}

/* tmux told us something (command, title, death, new pane). */
void
watch_changed(struct pane *p)
{
	struct watch	*w = p->watch;

	watch_title_told(p);
	w->scan = 1;
	w->output_scanned = 0;
	watch_touch(p);
}

void
watch_hook(struct pane *p, enum hook_event ev, int question)
{
	struct watch	*w = p->watch;

	w->hook = ev;
	w->hook_at = time_mono_ms();
	w->hook_question = question;
	w->scan = 1;
	/* A dialog read before its hook came: read again, with the hook. */
	if (ev == HK_PERMISSION && w->question_ok && !w->capturing)
		watch_capture(p);
	watch_touch(p);
}

/*
 * A wait on a dialog whose question lisa has not read: the screen, read
 * now and then again a few times (a hook tells of a dialog before it is
 * drawn, and an agent that waits draws nothing more), at most
 * WATCH_QUESTION_TRIES reads a wait.
 */
#define WATCH_QUESTION_TRIES 4
static void
watch_question_look(struct pane *p, struct cls_result *r, uint64_t now)
{
	struct watch	*w = p->watch;
	static const uint64_t after[WATCH_QUESTION_TRIES] = { 0, 300, 700,
	    1500 };

	if (r->state != ST_WAITING_INPUT || !question_detail(r->detail) ||
	    w->question_ok) {
		w->question_tries = 0;
		return;
	}
	if (w->question_tries >= WATCH_QUESTION_TRIES || w->capture_failed)
		return;
	if (now < w->question_at) {
		if (r->recheck_at == 0 || w->question_at < r->recheck_at)
			r->recheck_at = w->question_at;
		return;
	}
	if (!w->capturing)
		watch_capture(p);
	if (++w->question_tries < WATCH_QUESTION_TRIES) {
		w->question_at = now + after[w->question_tries];
		if (r->recheck_at == 0 || w->question_at < r->recheck_at)
			r->recheck_at = w->question_at;
	}
}

static void
watch_input(struct pane *p, struct cls_input *in)
{
	struct watch	*w = p->watch;

	memset(in, 0, sizeof *in);
	in->now = time_mono_ms();
	in->pane_dead = p->dead;
	in->exit_status = p->dead_status;
	in->exit_signal = p->dead_signal;
	in->agent_seen = w->agent_seen;
	in->agent_alive = w->agent_alive;
	in->agent_since = w->agent_since;
	in->agent_exit_status = w->agent_exit_status;
	in->agent_exit_signal = w->agent_exit_signal;
	in->agent_gone_busy = w->agent_gone_busy;
	in->children = w->children;
	in->background = w->bg.n;
	in->background_ended_at = w->bg_ended_at;
	in->cpu_busy = w->cpu_busy;
	in->proc_failed = w->proc_failed;
	/* The kill was of this pane's process and this agent, not a later. */
	if (w->killed_by != KILLED_NONE && (w->killed_pid == p->pid ||
	    (p->dead && p->pid <= 0)) && w->killed_agent == w->agent_pid)
		in->killed_by = w->killed_by;
	in->last_output = p->out_last;
	if (w->title_cleared)
		in->title = TITLE_CLEARED;
	else if (!watch_title_ours(w))
		in->title = TITLE_UNKNOWN;
	else
		in->title = agent_title(w->agent, w->title);
	in->title_at = w->title_at;
	in->codex = w->codex;
	in->codex_at = w->codex_at;
	in->retry_at = w->retry_at;
	in->retry_since = w->retry_at != 0 ? w->retry_since : 0;
	in->limit_wait = lisad.limit_wait_ms;
	/*
	 * A shell draws no prompt while the agent runs in front of it: only a
	 * mark made after the agent started can be the agent's exit code.
	 */
	if (w->osc133_at > w->agent_since) {
		in->osc133_exit = w->osc133_exit;
		in->osc133_at = w->osc133_at;
	} else
		in->osc133_exit = -1;
	in->screen = w->screen;
	in->screen_at = w->screen_at;
	in->screen_signal = w->screen_signal;
	in->shell_signal = w->shell_signal;
	in->capture_failed = w->capture_failed;
	in->session = w->session;
	in->session_at = w->session_at;
	in->session_stale = w->session_stale;
	in->session_failed = w->session_failed;
	in->hook = w->hook;
	in->hook_at = w->hook_at;
	in->hooks_partial = w->agent != NULL && w->agent->hooks_partial;
	in->dialog_clock = w->agent != NULL && w->agent->dialog_clock;
	in->dialog_spinner = w->agent != NULL && w->agent->dialog_spinner;
	in->error_screen = w->agent != NULL && w->agent->error_screen;
	in->output_rate = p->rate > 1e6 ? 1000000 : (unsigned)p->rate;
	in->transcript = w->transcript;
	in->transcript_at = w->transcript_at;
	in->gemini_chat = w->agent != NULL && w->agent->gemini_files;
	in->pi_session = w->agent != NULL && w->agent->pi_files;
	in->cline_session = w->agent != NULL && w->agent->cline_files;
	in->hook_question = w->hook_question;
	in->debounce = lisad.debounce_ms;
	in->grace = lisad.grace_ms;
	in->stale = lisad.stale_ms;
	in->carried_quiet = w->carry_quiet;
	in->carried_from = w->carry_from;
	in->carried_until = w->carry_until;
}

/*
 * When an exit verdict that may still be refined began (0: not one), and
 * in *settle how long it waits for the exit code. Codex says goodbye
 * before it exits: while its process lives, the code may still come
 * (later on a loaded machine, or where no pidfd tells of the exit at once:
 * then the shell's mark, the pane's death or its prompt's output do, each
 * an event that looks again).
 */
static uint64_t
watch_exiting(struct pane *p, const struct cls_result *r, uint64_t *settle)
{
	struct watch	*w = p->watch;

	*settle = WATCH_EXIT_SETTLE;
	if (p->dead || w->closing || r->lifecycle != LC_EXITED)
		return (0);
	if (strcmp(r->reason, "codex_osc_clear") == 0) {
		if (w->agent_alive)
			*settle = WATCH_EXIT_ALIVE;
		return (w->codex_at);
	}
	if (strcmp(r->reason, "hook_session_end") == 0)
		return (w->hook_at);
	if (strcmp(r->reason, "agent_exited") == 0 ||
	    strcmp(r->reason, "agent_exited_clean") == 0 ||
	    strcmp(r->reason, "agent_gone_while_busy") == 0)
		return (w->agent_gone_at);
	return (0);
}

void
watch_run(void *arg)
{
	struct pane		*p = arg;
	struct watch		*w = p->watch;
	struct cls_input	 in;
	struct cls_result	 r;
	enum cls_state		 from;
	char			 old_detail[sizeof w->res.detail];
	uint64_t		 now, at, settle;
	int			 waited;

	/* /proc on events that call for it, and when a deadline comes. */
	if (w->rescan_at != 0 && time_mono_ms() >= w->rescan_at) {
		w->rescan_at = 0;
		w->scan = 1;
	}
	/* (bytes that came after the last look: this one is theirs) */
	if (w->output_unscanned && w->scan) {
		w->output_unscanned = 0;
		w->output_scan_at = time_mono_ms();
		proc_forget();
	}
	if (w->scan || (!w->touched && w->agent_alive &&
	    !watch_scan_waits(p, time_mono_ms())))
		watch_scan(p);
	/* A dead pane's agent went with it (without pidfd nothing says so). */
	if (p->dead && w->agent_alive)
		watch_agent_gone(p);
	agentfiles_look(p);
	resume_record_check(p);
	/* Respawned: the last death's record is history. */
	if (!p->dead && (w->term_reported || w->term_asked)) {
		w->term_reported = w->term_asked = 0;
		free(w->termination);
		w->termination = NULL;
	}
	/* Dead: its last screen, for the termination record. */
	if (p->dead && !w->term_asked && w->agent != NULL &&
	    !runs_is_run_pane(p->id)) {
		w->term_asked = 1;
		if (!w->capturing)
			watch_capture(p);
	}
	w->touched = 0;
	watch_input(p, &in);
	classify(&in, &r);
	now = in.now;
	ended_held(p, &r);

	/*
	 * An agent on its way out (it said goodbye, or left a live shell) and
	 * nothing decisive known yet: give the process, the pane and the shell
	 * a moment to report the exit code ("Killed", OSC 133), and look at
	 * the screen once they have.
	 */
	if ((at = watch_exiting(p, &r, &settle)) != 0) {
		if (now - at < settle) {
			loop_timer_del(&w->timer);
			loop_timer_add(&w->timer, at + settle - now);
			return;
		}
		/*
		 * Gone with no word of how: read the screen before saying it
		 * ended well (a shell's "Killed", a wrapper's "terminated by
		 * signal" may be there); its reply looks again.
		 */
		if (!w->agent_alive && w->screen_at < at + WATCH_EXIT_SETTLE &&
		    !w->capture_failed) {
			watch_capture(p);
			if (w->capturing)
				return;
		}
	}
	if (r.want_capture && !w->capturing && !w->capture_failed)
		watch_capture(p);
	watch_question_look(p, &r, now);

	from = w->classified ? w->res.state : ST_NONE;
	snprintf(old_detail, sizeof old_detail, "%s", w->res.detail);
	if (!w->classified || r.state != w->res.state ||
	    strcmp(r.detail, w->res.detail) != 0 ||
	    strcmp(r.reason, w->res.reason) != 0) {
		if (!w->classified || r.state != w->res.state)
			w->since = time_real_ms();
		/*
		 * A turn's retries end with it; a limit waited out is still
		 * that turn's retrying, until it ends too.
		 */
		waited = w->classified && w->res.reason != NULL &&
		    strcmp(w->res.reason, "limit_waited_out") == 0;
		if ((from == ST_IN_PROGRESS || waited) &&
		    r.state != ST_IN_PROGRESS &&
		    strcmp(r.reason, "limit_waited_out") != 0)
			w->retry_at = 0;
		w->res = r;
		w->classified = 1;
		/* A question is a wait's: read again for the next one. */
		if (r.state != ST_WAITING_INPUT && w->question_ok) {
			w->question_ok = 0;
			question_free(&w->question);
		}
		if (from == ST_NONE && w->carry_state != ST_NONE &&
		    w->carry_state == r.state) {
			/* As a helper before us said: not news, no notice. */
			w->since = w->carry_since;
			events_add("restored", p->id, "%s (%s) %s",
			    cls_state_name(r.state), r.detail, r.reason);
		} else if (w->held_new) {
			/* Said before: not a new transition, no notification. */
			w->held_new = 0;
			w->starting = 0;
			w->since = w->held_since;
			events_add("restored", p->id, "%s (%s) %s",
			    cls_state_name(r.state), r.detail, r.reason);
		} else if (r.state != from || strcmp(r.detail, old_detail) != 0)
			/* A new state, or a new detail of it, is an event. */
			events_transition(p, from, &r,
			    w->agent != NULL ? w->agent->name : NULL);
		if (from == ST_CRASHED || from == ST_COMPLETED ||
		    r.state == ST_CRASHED || r.state == ST_COMPLETED)
			ended_changed();
		w->carry_state = ST_NONE;
		live_changed();
		publish_pane(p);
		listener_pane_changed(p);
	} else
		w->res = r;
	/* Seen at a prompt, or working by its own word: it has started. */
	if (r.state == ST_WAITING_INPUT || (r.state == ST_IN_PROGRESS &&
	    !r.weak))
		w->starting = 0;

	/* A young child comes of age: look at the tree again then. */
	if (w->young_at != 0 && (r.recheck_at == 0 || w->young_at < r.recheck_at))
		r.recheck_at = w->young_at;
	if (w->rescan_at != 0 && (r.recheck_at == 0 ||
	    w->rescan_at < r.recheck_at))
		r.recheck_at = w->rescan_at;
	/* An ended agent's shell: has it run a command since? */
	if ((at = ended_check(p, now)) != 0 && (r.recheck_at == 0 ||
	    at < r.recheck_at))
		r.recheck_at = at;
	loop_timer_del(&w->timer);
	if (r.recheck_at != 0)
		loop_timer_add(&w->timer, r.recheck_at > now ?
		    r.recheck_at - now : 0);
	pane_mute_verdict(p);
	watchdog_check(p);
}

/* The watchdog wants fresh children and CPU before it acts. */
