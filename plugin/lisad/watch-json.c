/*
 * A pane's classification as JSON: state, reason and every signal behind
 * it with its age (`lisa status --json`, `lisa explain`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"
#include "fleet.h"

/*
 * What a waiting agent asks (question.c), as lisa read it: the whole
 * command (and the hook's, where it says more), how many lines of the
 * screen the fingerprint covers, and the token an answer names it by.
 */
static void
watch_question_json(struct buf *b, struct pane *p, const struct question *q)
{
	char	token[ANSWER_TOKEN_LEN];
	int	i;

	buf_addc(b, '{');
	json_key(b, "kind");
	json_cstr(b, q->kind);
	json_key(b, "tool");
	json_cstr(b, *q->tool != '\0' ? q->tool : NULL);
	json_key(b, "subject");
	json_cstr(b, q->subject != NULL && *q->subject != '\0' ? q->subject :
	    NULL);
	json_key(b, "subject_lines");
	buf_printf(b, "%d", q->subject_lines);
	json_key(b, "hook_subject");
	json_cstr(b, q->hook_subject);
	json_key(b, "text");
	json_cstr(b, q->text);
	json_key(b, "options");
	buf_addc(b, '[');
	for (i = 0; i < q->noptions; i++) {
		if (i > 0)
			buf_addc(b, ',');
		json_cstr(b, q->options[i]);
	}
	buf_addc(b, ']');
	json_key(b, "selected");
	buf_printf(b, "%d", q->selected);
	json_key(b, "source");
	json_cstr(b, q->source);
	json_key(b, "lines");
	buf_printf(b, "%d", q->lines);
	json_key(b, "whole");
	buf_adds(b, q->top_seen ? "true" : "false");
	json_key(b, "fingerprint");
	json_cstr(b, q->fingerprint);
	answer_token(p, q->fingerprint, token, sizeof token);
	json_key(b, "token");
	json_cstr(b, token);
	buf_addc(b, '}');
}

static void
watch_age(struct buf *b, uint64_t at, uint64_t now)
{
	json_key(b, "age_ms");
	json_int_or_null(b, at != 0, (long long)(now - at));
}

/* A signal entry: "name": {"value": ..., "age_ms": ...}. */
static void
watch_signal_str(struct buf *b, const char *name, const char *value,
    uint64_t at, uint64_t now)
{
	json_key(b, name);
	buf_adds(b, "{\"value\":");
	json_cstr(b, value);
	watch_age(b, at, now);
	buf_addc(b, '}');
}

static void
watch_signals(struct buf *b, struct pane *p, uint64_t now)
{
	static const char	*codex_names[] = { "none", "idle", "working",
				    "blocked", "done", "error", "clear" };
	static const char	*session_names[] = { "none", "idle", "busy",
				    "waiting", "shell" };
	static const char	*hook_names[] = { "none", "SessionStart",
				    "UserPromptSubmit", "PreToolUse",
				    "PermissionRequest", "PostToolUse", "Stop",
				    "StopFailure", "Notification idle_prompt",
				    "Notification permission_prompt",
				    "SessionEnd", "agent-turn-complete",
				    "StopFailure rate_limit" };
	static const char	*title_names[] = { "unknown", "busy", "idle",
				    "waiting", "cleared" };
	static const char	*transcript_names[] = { "none", "working",
				    "turn_done", "api_error", "interrupted",
				    "limit" };
	struct watch		*w = p->watch;
	unsigned		 bit;
	int			 first = 1;

	buf_adds(b, "{");
	json_key(b, "pane");
	buf_printf(b, "{\"dead\":%s,\"command\":", p->dead ? "true" : "false");
	json_cstr(b, p->command != NULL ? p->command : "");
	buf_addc(b, '}');
	json_key(b, "output");
	/* A rate is only as recent as the output behind it. */
	buf_printf(b, "{\"bytes\":%llu,\"rate_bps\":%.0f",
	    (unsigned long long)p->out_bytes, p->out_last != 0 &&
	    now - p->out_last < 2000 ? p->rate : 0.0);
	watch_age(b, p->out_last, now);
	buf_addc(b, '}');
	json_key(b, "process");
	buf_adds(b, "{\"agent_pid\":");
	json_int_or_null(b, w->agent_seen, w->agent_pid);
	buf_printf(b, ",\"alive\":%s,\"children\":%d,\"cpu_busy\":%s,"
	    "\"readable\":%s", w->agent_alive ? "true" : "false", w->children,
	    w->cpu_busy ? "true" : "false", w->proc_failed ? "false" : "true");
	watch_age(b, w->agent_since, now);
	buf_addc(b, '}');
	if (w->title != NULL) {
		json_key(b, "title");
		buf_adds(b, "{\"value\":");
		json_cstr(b, w->title);
		json_key(b, "class");
		json_cstr(b, title_names[w->title_cleared ? TITLE_CLEARED :
		    agent_title(w->agent, w->title)]);
		/* Set before this agent ran: not used. */
		json_key(b, "agent_set");
		buf_adds(b, watch_title_ours(w) ? "true" : "false");
		watch_age(b, w->title_at, now);
		buf_addc(b, '}');
	}
	if (w->codex != CX_NONE)
		watch_signal_str(b, "codex_osc7501", codex_names[w->codex],
		    w->codex_at, now);
	if (w->osc133_at != 0) {
		json_key(b, "osc133_exit");
		buf_printf(b, "{\"value\":%d", w->osc133_exit);
		watch_age(b, w->osc133_at, now);
		buf_addc(b, '}');
	}
	if (w->shell_signal != -1) {
		json_key(b, "shell_report");
		buf_printf(b, "{\"signal\":%d", w->shell_signal);
		watch_age(b, w->agent_gone_at, now);
		buf_addc(b, '}');
	}
	if (w->screen_at != 0 || w->capture_failed) {
		json_key(b, "screen");
		buf_adds(b, "{\"hints\":[");
		for (bit = 1; bit < (1u << SCREEN_NHINTS); bit <<= 1) {
			if ((w->screen & bit) == 0)
				continue;
			if (!first)
				buf_addc(b, ',');
			json_cstr(b, agent_hint_name(bit));
			first = 0;
		}
		buf_printf(b, "],\"capture_failed\":%s",
		    w->capture_failed ? "true" : "false");
		watch_age(b, w->screen_at, now);
		buf_addc(b, '}');
	}
	if (w->session != SS_NONE || w->session_failed) {
		json_key(b, w->agent != NULL && w->agent->cline_files ?
		    "cline_session" : "claude_session");
		buf_adds(b, "{\"value\":");
		json_cstr(b, session_names[w->session]);
		buf_printf(b, ",\"stale\":%s,\"failed\":%s",
		    w->session_stale ? "true" : "false",
		    w->session_failed ? "true" : "false");
		watch_age(b, w->session_at, now);
		buf_addc(b, '}');
	}
	if (w->hook != HK_NONE)
		watch_signal_str(b, "hook", hook_names[w->hook], w->hook_at,
		    now);
	if (w->transcript != TX_NONE)
		watch_signal_str(b, w->agent != NULL && w->agent->pi_files ?
		    "pi_session" : "claude_transcript",
		    transcript_names[w->transcript], w->transcript_at, now);
	if (ended_is(p) && !p->dead) {
		/* Watching the shell for a new command (ended.c). */
		json_key(b, "ended_shell");
		buf_printf(b, "{\"watching\":%s}", w->ended_base_set ?
		    "true" : "false");
	}
	if (w->held && !w->agent_seen) {
		/* Seen by a helper before this one, which said so. */
		json_key(b, "carried_over");
		buf_printf(b, "{\"value\":true,\"exit_code\":");
		json_int_or_null(b, w->held_exit >= 0, w->held_exit);
		buf_addc(b, '}');
	}
	if (w->bell_at != 0 || w->notify_at != 0) {
		json_key(b, "attention");
		buf_adds(b, "{\"bell_age_ms\":");
		json_int_or_null(b, w->bell_at != 0,
		    (long long)(now - w->bell_at));
		buf_adds(b, ",\"notify_age_ms\":");
		json_int_or_null(b, w->notify_at != 0,
		    (long long)(now - w->notify_at));
		buf_addc(b, '}');
	}
	buf_addc(b, '}');
}

/* The agent's exit code, if it has ended and one is known; else -1. */
int
watch_exit_code(struct pane *p)
{
	struct watch	*w = p->watch;

	if (w->held && !w->agent_seen)
		return (w->held_exit);
	if (p->dead)
		return (p->dead_status);
	if (w->agent_seen && !w->agent_alive)
		return (w->agent_exit_status >= 0 ? w->agent_exit_status :
		    w->osc133_exit);
	return (-1);
}

/*
 * "context": how full the agent's context window is, and "tokens": what
 * it used over its session, by kind; null where it records none.
 */
static void
watch_usage(struct buf *b, struct watch *w)
{
	const struct usage	*u = &w->usage;
	int			 i;

	json_key(b, "context");
	if (!u->known)
		buf_adds(b, "null");
	else if (u->window <= 0)	/* no window the agent or lisa knows */
		buf_printf(b, "{\"used\":%lld,\"window\":null,"
		    "\"percent\":null}", u->context);
	else
		buf_printf(b, "{\"used\":%lld,\"window\":%lld,"
		    "\"percent\":%d}", u->context, u->window,
		    usage_percent(u));
	json_key(b, "tokens");
	if (!u->known) {
		buf_adds(b, "null");
		return;
	}
	buf_addc(b, '{');
	for (i = 0; i < USAGE_NPARTS; i++) {
		json_key(b, usage_part_name(i));
		buf_printf(b, "%lld", u->total[i]);
	}
	buf_addc(b, '}');
}

/* The classification keys of `lisa status --json` / `lisa list --json`. */
void
watch_json(struct buf *b, struct pane *p)
{
	struct watch	*w = p->watch;
	uint64_t	 now = time_mono_ms();
	char		 since[40];
	int		 agent = w->classified && w->res.state != ST_NONE;
	int		 code;

	json_key(b, "agent");
	json_cstr(b, agent && w->agent != NULL ? w->agent->name : NULL);
	json_key(b, "state");
	json_cstr(b, agent ? cls_state_name(w->res.state) : NULL);
	json_key(b, "detail");
	json_cstr(b, agent ? w->res.detail : NULL);
	/* How the status line counts it: "asks" apart from "waiting". */
	json_key(b, "group");
	json_cstr(b, agent ? ui_group_name(ui_group_of_verdict(w->res.state,
	    w->res.detail)) : NULL);
	json_key(b, "lifecycle");
	json_cstr(b, agent ? cls_lifecycle_name(w->res.lifecycle) : NULL);
	json_key(b, "activity");
	json_cstr(b, agent ? cls_activity_name(w->res.activity) : NULL);
	json_key(b, "reason");
	json_cstr(b, agent ? w->res.reason : NULL);
	json_key(b, "since");
	rfc3339(w->since, since, sizeof since);
	json_cstr(b, agent ? since : NULL);
	if (agent) {
		json_key(b, "state_age_ms");
		buf_printf(b, "%lld", (long long)(time_real_ms() - w->since));
	}
	json_key(b, "question");
	if (agent && w->question_ok && w->res.state == ST_WAITING_INPUT)
		watch_question_json(b, p, &w->question);
	else
		buf_adds(b, "null");
	code = watch_exit_code(p);
	json_key(b, "exit_code");
	json_int_or_null(b, code >= 0, code);
	watch_usage(b, w);
	json_key(b, "signals");
	watch_signals(b, p, now);
}

/* An agent as the menus and prefix A read it (watch_list_json). */
static void
watch_json_brief(struct buf *b, struct pane *p)
{
	struct watch	*w = p->watch;
	struct session	*s = p->nsessions > 0 ? session_find(p->sessions[0]) :
			    NULL;
	const char	*sname = s != NULL ? s->name : "";
	char		*target;

	buf_printf(b, "{\"pane_id\":\"%%%d\",\"host\":null", p->id);
	json_key(b, "session");
	json_cstr(b, sname);
	buf_printf(b, ",\"window\":%d", p->window_index);
	json_key(b, "window_name");
	json_cstr(b, p->window_name != NULL ? p->window_name : "");
	buf_printf(b, ",\"pane_index\":%d", p->pane_index);
	/* (as pane_json's: session:window.pane) */
	xasprintf(&target, "%s:%d.%d", sname, p->window_index, p->pane_index);
	json_key(b, "target");
	json_cstr(b, target);
	free(target);
	json_key(b, "agent");
	json_cstr(b, w->agent != NULL ? w->agent->name : NULL);
	json_key(b, "state");
	json_cstr(b, cls_state_name(w->res.state));
	json_key(b, "detail");
	json_cstr(b, w->res.detail);
	buf_printf(b, ",\"state_age_ms\":%lld}",
	    (long long)(time_real_ms() - w->since));
}

/*
 * lisa list: every pane (pane_json), then the fleet's. BRIEF: the agents
 * only, each with what the menus read: at 1,000 agents the whole list
 * (880 KB) was most of what a key press cost.
 */
void
watch_list_json(struct buf *b, int brief)
{
	struct pane	*p;
	struct watch	*w;

	buf_adds(b, "{\"ok\":true,\"panes\":[");
	RB_FOREACH(p, panes, &panes) {
		w = p->watch;
		if (brief && !(w->classified && w->res.state != ST_NONE))
			continue;
		if (b->data[b->len - 1] != '[')
			buf_addc(b, ',');
		if (brief)
			watch_json_brief(b, p);
		else
			pane_json(b, p);
	}
	fleet_list_json(b, b->data[b->len - 1] == '[', brief);
	buf_adds(b, "]}");
}
