/*
 * The classifier's rules as a table: signals in, state + detail + reason
 * out. Every state and every detail appears at least once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "classify.h"
#include "classify-base.h"

struct row {
	const char		*name;
	struct cls_input	 in;
	enum cls_state		 state;
	const char		*detail;
	const char		*reason;
	int			 capture;	/* want_capture expected */
};

static const struct row rows[] = {
	/* A limit waited out for longer than limit_wait: waiting on it. */
	{ "codex retrying a 429 for 90 s, screen read", { BASE,
	  .codex = CX_WORKING, .codex_at = NOW - 95000, .retry_at = NOW - 50,
	  .retry_since = NOW - 90000, .limit_wait = 60000,
	  .screen = SCREEN_RETRYING | SCREEN_LIMIT | SCREEN_BUSY,
	  .screen_at = NOW - 20000, .last_output = NOW - 50 },
	  ST_WAITING_INPUT, "limit", "limit_waited_out", 0 },
	{ "codex retrying a 429 for 30 s", { BASE, .codex = CX_WORKING,
	  .codex_at = NOW - 35000, .retry_at = NOW - 50,
	  .retry_since = NOW - 30000, .limit_wait = 60000,
	  .screen = SCREEN_RETRYING | SCREEN_LIMIT | SCREEN_BUSY,
	  .screen_at = NOW - 20000, .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "retrying", "codex_osc_working", 0 },
	{ "retrying for 90 s, no screen since: read it", { BASE,
	  .codex = CX_WORKING, .codex_at = NOW - 95000, .retry_at = NOW - 50,
	  .retry_since = NOW - 90000, .limit_wait = 60000,
	  .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "retrying", "codex_osc_working", 1 },
	{ "retrying 500s for 90 s: no limit on screen", { BASE,
	  .codex = CX_WORKING, .codex_at = NOW - 95000, .retry_at = NOW - 50,
	  .retry_since = NOW - 90000, .limit_wait = 60000,
	  .screen = SCREEN_RETRYING | SCREEN_BUSY, .screen_at = NOW - 20000,
	  .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "retrying", "codex_osc_working", 0 },
	/* 1. The pane's end. */
	{ "dead by signal", { BASE, .pane_dead = 1, .exit_signal = 9 },
	  ST_CRASHED, "signal 9", "pane_dead_signal", 0 },
	{ "dead exit 0", { BASE, .pane_dead = 1, .exit_status = 0 },
	  ST_COMPLETED, "exit 0", "pane_dead_exit0", 0 },
	{ "dead exit 3", { BASE, .pane_dead = 1, .exit_status = 3 },
	  ST_CRASHED, "exit 3", "pane_dead_status", 0 },
	{ "dead no status, codex cleared", { BASE, .pane_dead = 1,
	  .codex = CX_CLEAR, .codex_at = NOW - 10 },
	  ST_COMPLETED, "agent exited", "pane_dead_clean_exit", 0 },
	{ "dead no status, title frozen busy", { BASE, .pane_dead = 1,
	  .title = TITLE_BUSY },
	  ST_CRASHED, "unknown", "pane_dead_no_status", 0 },
	/* Dead beats stale "busy" files and titles (SIGKILL leaves them). */
	{ "dead by signal, session file busy", { BASE, .pane_dead = 1,
	  .exit_signal = 9, .session = SS_BUSY, .session_at = NOW - 10,
	  .title = TITLE_BUSY },
	  ST_CRASHED, "signal 9", "pane_dead_signal", 0 },

	/* 0. Ended on purpose: its own ending, never a crash. */
	{ "killed by the user, pane dead by SIGTERM", { BASE, .pane_dead = 1,
	  .exit_signal = 15, .killed_by = KILLED_USER },
	  ST_COMPLETED, "killed by you", "killed_by_user", 0 },
	{ "killed by the user, back at the shell", { BASE, .agent_alive = 0,
	  .agent_exit_signal = 15, .killed_by = KILLED_USER },
	  ST_COMPLETED, "killed by you", "killed_by_user", 0 },
	{ "terminated by the watchdog", { BASE, .pane_dead = 1,
	  .exit_signal = 9, .killed_by = KILLED_LISA },
	  ST_COMPLETED, "killed by lisa", "killed_by_watchdog", 0 },
	/* (a kill that has not ended it yet changes nothing) */
	{ "kill sent, agent still there", { BASE, .killed_by = KILLED_USER,
	  .title = TITLE_BUSY, .title_at = NOW - 100 },
	  ST_IN_PROGRESS, "generating", "title_busy", 0 },

	/* 2. Agent gone, shell still there. */
	{ "agent gone, its hooks last said working", { BASE,
	  .agent_alive = 0, .hook = HK_PRE_TOOL, .hook_at = NOW - 3000 },
	  ST_CRASHED, "unknown", "agent_gone_while_busy", 0 },
	{ "agent gone, its hooks last said the turn ended", { BASE,
	  .agent_alive = 0, .hook = HK_STOP, .hook_at = NOW - 3000 },
	  ST_COMPLETED, "agent exited", "agent_exited", 0 },
	{ "agent exit 0 (pidfd)", { BASE, .agent_alive = 0,
	  .agent_exit_status = 0 },
	  ST_COMPLETED, "exit 0", "agent_exit0", 0 },
	{ "agent exit 1 (pidfd)", { BASE, .agent_alive = 0,
	  .agent_exit_status = 1 },
	  ST_CRASHED, "exit 1", "agent_exit_status", 0 },
	{ "agent killed (pidfd)", { BASE, .agent_alive = 0,
	  .agent_exit_signal = 9 },
	  ST_CRASHED, "signal 9", "agent_exit_signal", 0 },
	{ "agent exit via OSC 133", { BASE, .agent_alive = 0,
	  .osc133_exit = 2 },
	  ST_CRASHED, "exit 2", "shell_osc133_exit", 0 },
	{ "agent exit 0 via OSC 133", { BASE, .agent_alive = 0,
	  .osc133_exit = 0 },
	  ST_COMPLETED, "exit 0", "shell_osc133_exit0", 0 },
	{ "shell wrote Killed after the agent died", { BASE, .agent_alive = 0,
	  .shell_signal = 9, .title = TITLE_BUSY },
	  ST_CRASHED, "signal 9", "shell_reported_signal", 0 },
	{ "shell printed Killed", { BASE, .agent_alive = 0,
	  .screen = SCREEN_KILLED, .screen_signal = 9, .screen_at = NOW },
	  ST_CRASHED, "signal 9", "screen_shell_killed", 0 },
	{ "shell printed Terminated", { BASE, .agent_alive = 0,
	  .screen = SCREEN_KILLED, .screen_signal = 15, .screen_at = NOW },
	  ST_CRASHED, "signal 15", "screen_shell_killed", 0 },
	{ "agent said goodbye", { BASE, .agent_alive = 0,
	  .title = TITLE_CLEARED },
	  ST_COMPLETED, "agent exited", "agent_exited_clean", 0 },
	{ "agent gone while busy (stale session file)", { BASE,
	  .agent_alive = 0, .session = SS_BUSY, .session_stale = 1 },
	  ST_CRASHED, "unknown", "agent_gone_while_busy", 0 },
	{ "agent gone, nothing known", { BASE, .agent_alive = 0 },
	  ST_COMPLETED, "agent exited", "agent_exited", 0 },
	{ "agent gone while working, its busy row left (status unread)",
	  { BASE, .agent_alive = 0, .agent_gone_busy = 1,
	  .screen = SCREEN_BUSY|SCREEN_PROMPT, .screen_at = NOW },
	  ST_CRASHED, "unknown", "agent_gone_while_busy", 0 },
	{ "agent gone while working, no busy row left (it quit)",
	  { BASE, .agent_alive = 0, .agent_gone_busy = 1,
	  .screen = SCREEN_PROMPT, .screen_at = NOW },
	  ST_COMPLETED, "agent exited", "agent_exited", 0 },
	{ "agent gone at its prompt, an old busy row on the screen",
	  { BASE, .agent_alive = 0, .screen = SCREEN_BUSY, .screen_at = NOW },
	  ST_COMPLETED, "agent exited", "agent_exited", 0 },
	{ "agent gone while working, its goodbye drawn",
	  { BASE, .agent_alive = 0, .agent_gone_busy = 1,
	  .screen = SCREEN_BUSY|SCREEN_EXITED, .screen_at = NOW },
	  ST_COMPLETED, "agent exited", "agent_exited_clean", 0 },
	{ "no agent at all", { BASE, .agent_seen = 0, .agent_alive = 0 },
	  ST_NONE, "", "no_agent", 0 },
	{ "a shell pane died: not lisa's business", { BASE, .agent_seen = 0,
	  .agent_alive = 0, .pane_dead = 1, .exit_status = 1 },
	  ST_NONE, "", "no_agent", 0 },

	/* 3. Explicit state: Codex OSC 7501. */
	{ "codex working", { BASE, .codex = CX_WORKING, .codex_at = NOW - 100,
	  .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "generating", "codex_osc_working", 0 },
	{ "codex working, retrying on screen", { BASE, .codex = CX_WORKING,
	  .codex_at = NOW - 5000, .last_output = NOW - 50,
	  .screen = SCREEN_RETRYING|SCREEN_BUSY, .screen_at = NOW - 10 },
	  ST_IN_PROGRESS, "retrying", "codex_osc_working", 0 },
	{ "claude busy, retry text in the stream", { BASE,
	  .title = TITLE_BUSY, .title_at = NOW - 500, .last_output = NOW - 50,
	  .retry_at = NOW - 800 },
	  ST_IN_PROGRESS, "retrying", "title_busy", 0 },
	/* Drawn once, then only the digits change: look again before 3 s. */
	{ "retry text 2.5 s old: check the screen", { BASE,
	  .title = TITLE_BUSY, .title_at = NOW - 500, .last_output = NOW - 50,
	  .retry_at = NOW - 2500 },
	  ST_IN_PROGRESS, "retrying", "title_busy", 1 },
	{ "screen still counting down after the text", { BASE,
	  .session = SS_BUSY, .session_at = NOW - 9000, .last_output = NOW - 50,
	  .retry_at = NOW - 5000, .screen = SCREEN_RETRYING|SCREEN_BUSY,
	  .screen_at = NOW - 100 },
	  ST_IN_PROGRESS, "retrying", "claude_session_busy", 0 },
	{ "screen after the retry text shows none", { BASE,
	  .session = SS_BUSY, .session_at = NOW - 9000, .last_output = NOW - 50,
	  .retry_at = NOW - 1000, .screen = SCREEN_BUSY,
	  .screen_at = NOW - 100 },
	  ST_IN_PROGRESS, "generating", "claude_session_busy", 0 },
	/* The last turn's retry screen says nothing about this one. */
	{ "old retry screen, new turn", { BASE, .session = SS_BUSY,
	  .session_at = NOW - 100, .last_output = NOW - 50,
	  .screen = SCREEN_RETRYING|SCREEN_BUSY, .screen_at = NOW - 700 },
	  ST_IN_PROGRESS, "generating", "claude_session_busy", 0 },
	{ "retry text long gone", { BASE, .title = TITLE_BUSY,
	  .title_at = NOW - 500, .last_output = NOW - 50,
	  .retry_at = NOW - 60000 },
	  ST_IN_PROGRESS, "generating", "title_busy", 0 },
	{ "codex working, running a command", { BASE, .codex = CX_WORKING,
	  .codex_at = NOW - 5000, .last_output = NOW - 50,
	  .screen = SCREEN_TOOL, .screen_at = NOW - 10 },
	  ST_IN_PROGRESS, "tool", "codex_osc_working", 0 },
	/* Waiting for what: no detail until a screen after it is read. */
	{ "codex blocked", { BASE, .codex = CX_BLOCKED, .codex_at = NOW - 100 },
	  ST_WAITING_INPUT, "", "codex_osc_blocked", 1 },
	/*
	 * Its dialog comes ~0.9 s after OSC 7501 blocked: a screen read
	 * before shows none yet; read again every 300 ms (not waiting for a
	 * quiet pane: its title blinks), "permission" once drawn, or after
	 * 1.5 s of none.
	 */
	{ "codex blocked, screen read since, no dialog yet", { BASE,
	  .codex = CX_BLOCKED, .codex_at = NOW - 100, .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "", "codex_osc_blocked", 0 },
	{ "codex blocked, dialog drawn", { BASE, .codex = CX_BLOCKED,
	  .codex_at = NOW - 1000, .screen_at = NOW - 10,
	  .screen = SCREEN_PERMISSION },
	  ST_WAITING_INPUT, "permission", "codex_osc_blocked", 0 },
	{ "codex blocked, no dialog read 400 ms after", { BASE,
	  .codex = CX_BLOCKED, .codex_at = NOW - 800, .screen_at = NOW - 400,
	  .last_output = NOW - 100 },
	  ST_WAITING_INPUT, "", "codex_osc_blocked", 1 },
	{ "codex blocked, no dialog 1.5 s after", { BASE, .codex = CX_BLOCKED,
	  .codex_at = NOW - 1700, .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "permission", "codex_osc_blocked", 0 },
	{ "codex blocked, screen from before", { BASE, .codex = CX_BLOCKED,
	  .codex_at = NOW - 100, .screen = SCREEN_QUESTION,
	  .screen_at = NOW - 200 },
	  ST_WAITING_INPUT, "question", "codex_osc_blocked", 0 },
	{ "codex done", { BASE, .codex = CX_DONE, .codex_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "codex_osc_done", 0 },
	/* An error may be a limit: the screen is read to tell. */
	{ "codex error", { BASE, .codex = CX_ERROR, .codex_at = NOW - 100 },
	  ST_WAITING_INPUT, "error", "codex_osc_error", 1 },
	{ "codex error, its screen says 429", { BASE, .codex = CX_ERROR,
	  .codex_at = NOW - 100, .screen = SCREEN_LIMIT|SCREEN_PROMPT,
	  .screen_at = NOW - 50 },
	  ST_WAITING_INPUT, "limit", "screen_limit", 0 },
	{ "codex error, a plain error on screen", { BASE, .codex = CX_ERROR,
	  .codex_at = NOW - 100, .screen = SCREEN_ERROR|SCREEN_PROMPT,
	  .screen_at = NOW - 50 },
	  ST_WAITING_INPUT, "error", "codex_osc_error", 0 },
	{ "limit on screen, nothing else said", { BASE,
	  .screen = SCREEN_LIMIT|SCREEN_PROMPT, .screen_at = NOW - 50 },
	  ST_WAITING_INPUT, "limit", "screen_limit", 0 },
	{ "codex idle", { BASE, .codex = CX_IDLE, .codex_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "codex_osc_idle", 0 },
	{ "codex cleared (exiting)", { BASE, .codex = CX_CLEAR,
	  .codex_at = NOW - 10 },
	  ST_COMPLETED, "agent exited", "codex_osc_clear", 0 },

	/* Claude's session file. */
	{ "claude session busy", { BASE, .session = SS_BUSY,
	  .session_at = NOW - 100, .last_output = NOW - 200 },
	  ST_IN_PROGRESS, "generating", "claude_session_busy", 0 },
	{ "claude session waiting", { BASE, .session = SS_WAITING,
	  .session_at = NOW - 100 },
	  ST_WAITING_INPUT, "", "claude_session_waiting", 1 },
	{ "title idle, dialog drawn after the capture", { BASE,
	  .title = TITLE_IDLE, .title_at = NOW - 3000,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 2900,
	  .last_output = NOW - 2000 },
	  ST_WAITING_INPUT, "prompt", "title_idle", 1 },
	{ "title idle, dialog drawn, not settled yet", { BASE,
	  .title = TITLE_IDLE, .title_at = NOW - 3000,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 2900,
	  .last_output = NOW - 500 },
	  ST_WAITING_INPUT, "prompt", "title_idle", 0 },
	{ "claude session waiting, question on screen", { BASE,
	  .session = SS_WAITING, .session_at = NOW - 100,
	  .screen = SCREEN_QUESTION, .screen_at = NOW - 50 },
	  ST_WAITING_INPUT, "question", "claude_session_waiting", 0 },
	{ "claude session idle", { BASE, .session = SS_IDLE,
	  .session_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "claude_session_idle", 0 },
	{ "stale session file ignored", { BASE, .session = SS_BUSY,
	  .session_at = NOW - 100, .session_stale = 1, .title = TITLE_IDLE,
	  .title_at = NOW - 3000, .screen = SCREEN_PROMPT,
	  .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "prompt", "title_idle", 0 },

	/* Claude's transcript tail. */
	{ "transcript: a turn began (not evidence of what since)", { BASE,
	  .transcript = TX_WORKING, .transcript_at = NOW - 100,
	  .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "generating", "output_active", 0 },
	{ "transcript: turn began, then a dialog on screen", { BASE,
	  .transcript = TX_WORKING, .transcript_at = NOW - 5000,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "permission", "screen_dialog", 0 },
	{ "transcript: turn done", { BASE, .transcript = TX_TURN_DONE,
	  .transcript_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "claude_transcript_turn_done", 0 },
	{ "transcript: API error", { BASE, .transcript = TX_API_ERROR,
	  .transcript_at = NOW - 100 },
	  ST_WAITING_INPUT, "error", "claude_transcript_api_error", 0 },
	/* It says which error: the last turn's 429 on screen is not this. */
	{ "transcript: API error, an old 429 on screen", { BASE,
	  .transcript = TX_API_ERROR, .transcript_at = NOW - 100,
	  .screen = SCREEN_LIMIT|SCREEN_ERROR|SCREEN_PROMPT,
	  .screen_at = NOW - 50 },
	  ST_WAITING_INPUT, "error", "claude_transcript_api_error", 0 },
	{ "transcript: a limit", { BASE, .transcript = TX_LIMIT,
	  .transcript_at = NOW - 100 },
	  ST_WAITING_INPUT, "limit", "claude_transcript_limit", 0 },
	{ "gemini chat: a limit", { BASE, .transcript = TX_LIMIT,
	  .transcript_at = NOW - 100, .gemini_chat = 1, .title = TITLE_IDLE,
	  .title_at = NOW - 90 },
	  ST_WAITING_INPUT, "limit", "gemini_chat_limit", 0 },
	/* Gemini's quota dialog: "Working" in the title, a silent pane. */
	{ "busy title, silent pane: look at it", { BASE,
	  .title = TITLE_BUSY, .title_at = NOW - 6000 },
	  ST_IN_PROGRESS, "generating", "title_busy", 1 },
	{ "busy title, silent pane, a limit dialog", { BASE,
	  .title = TITLE_BUSY, .title_at = NOW - 6000,
	  .screen = SCREEN_LIMIT, .screen_at = NOW - 100 },
	  ST_WAITING_INPUT, "limit", "title_busy_screen_limit", 0 },
	{ "busy title, silent pane, a spinner and an old limit", { BASE,
	  .title = TITLE_BUSY, .title_at = NOW - 6000,
	  .screen = SCREEN_LIMIT|SCREEN_BUSY, .screen_at = NOW - 100 },
	  ST_IN_PROGRESS, "generating", "title_busy", 0 },
	{ "busy title, output flowing, a limit screen from before", { BASE,
	  .title = TITLE_BUSY, .title_at = NOW - 6000, .last_output = NOW - 50,
	  .screen = SCREEN_LIMIT, .screen_at = NOW - 3000 },
	  ST_IN_PROGRESS, "generating", "title_busy", 0 },
	/* Claude writes "idle" and the failed turn together. */
	{ "session idle after a failed turn", { BASE, .session = SS_IDLE,
	  .session_at = NOW - 100, .transcript = TX_API_ERROR,
	  .transcript_at = NOW - 101 },
	  ST_WAITING_INPUT, "error", "claude_session_idle", 0 },
	{ "session idle after a limit", { BASE, .session = SS_IDLE,
	  .session_at = NOW - 100, .transcript = TX_LIMIT,
	  .transcript_at = NOW - 101 },
	  ST_WAITING_INPUT, "limit", "claude_session_idle", 0 },
	/* A turn that left a background shell running is not done... */
	{ "session idle, a background shell runs", { BASE,
	  .session = SS_IDLE, .session_at = NOW - 100, .background = 1,
	  .children = 1 },
	  ST_IN_PROGRESS, "background", "claude_background_tasks", 0 },
	/* It just ended: Claude's turn about it is starting, not a prompt. */
	{ "background just ended, idle from before", { BASE,
	  .session = SS_IDLE, .session_at = NOW - 5000,
	  .background_ended_at = NOW - 100 },
	  ST_IN_PROGRESS, "background", "claude_background_ended", 0 },
	{ "background ended long ago", { BASE,
	  .session = SS_IDLE, .session_at = NOW - 5000,
	  .background_ended_at = NOW - 4000 },
	  ST_WAITING_INPUT, "prompt", "claude_session_idle", 0 },
	{ "background ended, then the turn about it", { BASE,
	  .session = SS_IDLE, .session_at = NOW - 100,
	  .background_ended_at = NOW - 1000 },
	  ST_WAITING_INPUT, "prompt", "claude_session_idle", 0 },
	/* Claude 2.1.332 says so itself. */
	{ "session shell", { BASE, .session = SS_SHELL,
	  .session_at = NOW - 100 },
	  ST_IN_PROGRESS, "background", "claude_session_shell", 0 },
	/* The turn's end, read after the "shell" written after it. */
	{ "session shell, turn end read later", { BASE, .session = SS_SHELL,
	  .session_at = NOW - 300, .transcript = TX_TURN_DONE,
	  .transcript_at = NOW - 100, .background = 1 },
	  ST_IN_PROGRESS, "background", "claude_session_shell", 0 },
	/* ...and silent work is never stuck. */
	{ "background, silent past stale", { BASE, .session = SS_IDLE,
	  .session_at = NOW - 600000, .last_output = NOW - 600000,
	  .background = 1 },
	  ST_IN_PROGRESS, "background", "claude_background_tasks", 0 },
	/* A question is still a question. */
	{ "background, and a permission dialog", { BASE,
	  .hook = HK_PERMISSION, .hook_at = NOW - 100, .background = 1 },
	  ST_WAITING_INPUT, "permission", "hook_permission", 1 },
	{ "session idle, an old failure", { BASE, .session = SS_IDLE,
	  .session_at = NOW - 100, .transcript = TX_API_ERROR,
	  .transcript_at = NOW - 60000 },
	  ST_WAITING_INPUT, "prompt", "claude_session_idle", 0 },
	{ "transcript: interrupted", { BASE, .transcript = TX_INTERRUPTED,
	  .transcript_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "claude_transcript_interrupted", 0 },
	{ "session file newer than transcript", { BASE,
	  .transcript = TX_TURN_DONE, .transcript_at = NOW - 5000,
	  .session = SS_BUSY, .session_at = NOW - 100,
	  .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "generating", "claude_session_busy", 0 },

	/* Hooks. */
	{ "hook prompt submitted", { BASE, .hook = HK_PROMPT,
	  .hook_at = NOW - 100, .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "generating", "hook_working", 0 },
	{ "hook pre-tool", { BASE, .hook = HK_PRE_TOOL, .hook_at = NOW - 100,
	  .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "tool", "hook_working", 0 },
	{ "hook permission", { BASE, .hook = HK_PERMISSION,
	  .hook_at = NOW - 100 },
	  ST_WAITING_INPUT, "permission", "hook_permission", 1 },
	{ "hook AskUserQuestion", { BASE, .hook = HK_PERMISSION,
	  .hook_at = NOW - 100, .hook_question = 1 },
	  ST_WAITING_INPUT, "question", "hook_permission", 0 },
	{ "hook stop", { BASE, .hook = HK_STOP, .hook_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "hook_stop", 0 },
	/*
	 * Hooks that miss turn ends (Copilot's): a settled screen at the
	 * prompt ends "working" and "waiting"; Claude's hooks are trusted.
	 */
	{ "partial hooks: working, settled screen at prompt", { BASE,
	  .hooks_partial = 1, .hook = HK_PROMPT, .hook_at = NOW - 6000,
	  .last_output = NOW - 4000, .screen = SCREEN_PROMPT|SCREEN_ERROR,
	  .screen_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "screen_prompt_after_hook", 0 },
	{ "partial hooks: refused permission, settled screen at prompt",
	  { BASE, .hooks_partial = 1, .hook = HK_NOTIFY_PERMISSION,
	  .hook_at = NOW - 6000, .last_output = NOW - 4000,
	  .screen = SCREEN_PROMPT, .screen_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "screen_prompt_after_hook", 0 },
	{ "partial hooks: working, quiet, screen not read since", { BASE,
	  .hooks_partial = 1, .hook = HK_PROMPT, .hook_at = NOW - 6000,
	  .last_output = NOW - 4000, .screen = SCREEN_PROMPT,
	  .screen_at = NOW - 4500 },
	  ST_IN_PROGRESS, "generating", "hook_working", 1 },
	{ "partial hooks: a silent tool, its spinner on screen", { BASE,
	  .hooks_partial = 1, .hook = HK_PRE_TOOL, .hook_at = NOW - 6000,
	  .last_output = NOW - 4000, .screen = SCREEN_PROMPT|SCREEN_BUSY,
	  .screen_at = NOW - 100 },
	  ST_IN_PROGRESS, "tool", "hook_working", 0 },
	{ "partial hooks: the permission dialog on screen", { BASE,
	  .hooks_partial = 1, .hook = HK_NOTIFY_PERMISSION,
	  .hook_at = NOW - 6000, .last_output = NOW - 4000,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 100 },
	  ST_WAITING_INPUT, "permission", "hook_permission", 0 },
	{ "partial hooks: working, a dialog on the settled screen", { BASE,
	  .hooks_partial = 1, .hook = HK_PRE_TOOL, .hook_at = NOW - 6000,
	  .last_output = NOW - 4000, .screen = SCREEN_PERMISSION|SCREEN_PROMPT,
	  .screen_at = NOW - 100 },
	  ST_WAITING_INPUT, "permission", "screen_dialog_after_hook", 0 },
	{ "a clock over the dialog: the wait stands, read again", { BASE,
	  .dialog_clock = 1, .last_output = NOW - 200,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 2000 },
	  ST_WAITING_INPUT, "permission", "screen_dialog_clock", 1 },
	{ "a clock over the dialog: a screen read just now", { BASE,
	  .dialog_clock = 1, .last_output = NOW - 200,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 300 },
	  ST_WAITING_INPUT, "permission", "screen_dialog_clock", 0 },
	{ "a clock over the dialog: a screen too old says nothing", { BASE,
	  .dialog_clock = 1, .last_output = NOW - 200,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 9000 },
	  ST_IN_PROGRESS, "generating", "output_active", 1 },
	{ "a clock's tick after the read, quiet since: the wait stands",
	  { BASE, .dialog_clock = 1, .last_output = NOW - 1600,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 2000 },
	  ST_WAITING_INPUT, "permission", "screen_dialog_clock", 1 },
	{ "... but not on a read three debounces old", { BASE,
	  .dialog_clock = 1, .last_output = NOW - 1600,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 5000 },
	  ST_IN_PROGRESS, "generating", "output_quiet", 1 },
	{ "... and not without a clock", { BASE, .last_output = NOW - 1600,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 2000 },
	  ST_IN_PROGRESS, "generating", "output_quiet", 1 },
	{ "a clock's pace, no screen yet: read it", { BASE,
	  .dialog_clock = 1, .last_output = NOW - 200, .output_rate = 12 },
	  ST_IN_PROGRESS, "generating", "output_active", 1 },
	{ "the second the dialog was drawn: fast, and still a wait", { BASE,
	  .dialog_clock = 1, .last_output = NOW - 200, .output_rate = 4000,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 2000 },
	  ST_WAITING_INPUT, "permission", "screen_dialog_clock", 0 },
	{ "work's pace, the dialog read long ago: work, no read", { BASE,
	  .dialog_clock = 1, .last_output = NOW - 200, .output_rate = 4000,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 5000 },
	  ST_IN_PROGRESS, "generating", "output_active", 0 },
	{ "a clock, no dialog on screen: working", { BASE,
	  .dialog_clock = 1, .last_output = NOW - 200,
	  .screen = SCREEN_BUSY, .screen_at = NOW - 500 },
	  ST_IN_PROGRESS, "generating", "output_active", 0 },
	{ "no clock: output over a dialog is work", { BASE,
	  .last_output = NOW - 200,
	  .screen = SCREEN_PERMISSION, .screen_at = NOW - 500 },
	  ST_IN_PROGRESS, "generating", "output_active", 0 },
	{ "partial hooks: output still coming", { BASE, .hooks_partial = 1,
	  .hook = HK_PROMPT, .hook_at = NOW - 6000, .last_output = NOW - 200,
	  .screen = SCREEN_PROMPT, .screen_at = NOW - 100 },
	  ST_IN_PROGRESS, "generating", "hook_working", 0 },
	{ "whole hooks: a prompt on screen does not end working", { BASE,
	  .hook = HK_PROMPT, .hook_at = NOW - 6000,
	  .last_output = NOW - 4000, .screen = SCREEN_PROMPT,
	  .screen_at = NOW - 100 },
	  ST_IN_PROGRESS, "generating", "hook_working", 0 },
	{ "hook stop failure", { BASE, .hook = HK_STOP_FAILURE,
	  .hook_at = NOW - 100 },
	  ST_WAITING_INPUT, "error", "hook_stop_failure", 1 },
	{ "hook stop failure: rate_limit", { BASE, .hook = HK_STOP_LIMIT,
	  .hook_at = NOW - 100 },
	  ST_WAITING_INPUT, "limit", "hook_stop_limit", 0 },
	{ "hook session end", { BASE, .hook = HK_SESSION_END,
	  .hook_at = NOW - 10 },
	  ST_COMPLETED, "agent exited", "hook_session_end", 0 },
	/* The newest explicit signal wins. */
	{ "hook older than session file", { BASE, .hook = HK_STOP,
	  .hook_at = NOW - 5000, .session = SS_BUSY,
	  .session_at = NOW - 100, .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "generating", "claude_session_busy", 0 },
	{ "codex newer than hook", { BASE, .hook = HK_TURN_COMPLETE,
	  .hook_at = NOW - 5000, .codex = CX_WORKING, .codex_at = NOW - 100,
	  .last_output = NOW - 50 },
	  ST_IN_PROGRESS, "generating", "codex_osc_working", 0 },

	/* 5. Title, screen, activity. */
	{ "title busy", { BASE, .title = TITLE_BUSY, .title_at = NOW - 500,
	  .last_output = NOW - 500 },
	  ST_IN_PROGRESS, "generating", "title_busy", 0 },
	{ "title action required", { BASE, .title = TITLE_WAITING,
	  .title_at = NOW - 500 },
	  ST_WAITING_INPUT, "", "title_action_required", 1 },
	{ "title action required, 100 ms ago", { BASE, .title = TITLE_WAITING,
	  .title_at = NOW - 100 },
	  ST_WAITING_INPUT, "", "title_action_required", 0 },
	{ "title action required, settled", { BASE, .title = TITLE_WAITING,
	  .title_at = NOW - 3000 },
	  ST_WAITING_INPUT, "", "title_action_required", 1 },
	{ "title idle, no screen yet", { BASE, .title = TITLE_IDLE,
	  .title_at = NOW - 3000 },
	  ST_WAITING_INPUT, "prompt", "title_idle", 1 },
	{ "title idle, permission dialog", { BASE, .title = TITLE_IDLE,
	  .title_at = NOW - 3000, .screen = SCREEN_PERMISSION,
	  .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "permission", "title_idle_screen_dialog", 0 },
	{ "title idle, trust dialog", { BASE, .title = TITLE_IDLE,
	  .title_at = NOW - 3000, .screen = SCREEN_TRUST,
	  .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "trust", "title_idle_screen_dialog", 0 },
	{ "output flowing", { BASE, .last_output = NOW - 100 },
	  ST_IN_PROGRESS, "generating", "output_active", 0 },
	{ "quiet, screen not read yet", { BASE },
	  ST_IN_PROGRESS, "generating", "output_quiet", 1 },
	{ "quiet, question on screen", { BASE, .screen = SCREEN_QUESTION,
	  .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "question", "screen_dialog", 0 },
	{ "quiet, esc to interrupt on screen", { BASE, .screen = SCREEN_BUSY,
	  .screen_at = NOW - 10 },
	  ST_IN_PROGRESS, "generating", "screen_busy", 0 },
	{ "quiet, prompt on screen", { BASE, .screen = SCREEN_PROMPT,
	  .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "prompt", "screen_prompt", 0 },
	{ "quiet, old screen is not evidence", { BASE,
	  .screen = SCREEN_PROMPT, .screen_at = NOW - 9000 },
	  ST_IN_PROGRESS, "generating", "output_quiet", 1 },

	/* 6. Children: a tool runs. */
	{ "quiet but a child runs", { BASE, .children = 1,
	  .screen = 0, .screen_at = NOW - 10 },
	  ST_IN_PROGRESS, "tool", "process_children", 0 },

	/* 7. Grace. */
	{ "new agent, banner output", { BASE, .agent_since = NOW - 2000,
	  .last_output = NOW - 100 },
	  ST_JUST_STARTED, "", "grace_period", 0 },
	{ "new agent at its prompt", { BASE, .agent_since = NOW - 2000,
	  .codex = CX_IDLE, .codex_at = NOW - 1000 },
	  ST_JUST_STARTED, "", "grace_period", 0 },
	{ "new agent already asking for trust", { BASE,
	  .agent_since = NOW - 2000, .title = TITLE_IDLE,
	  .title_at = NOW - 1500, .screen = SCREEN_TRUST,
	  .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "trust", "title_idle_screen_dialog", 0 },
	{ "new agent working on a prompt from argv", { BASE,
	  .agent_since = NOW - 2000, .codex = CX_WORKING,
	  .codex_at = NOW - 1000, .last_output = NOW - 10 },
	  ST_IN_PROGRESS, "generating", "codex_osc_working", 0 },

	/* 8. Stuck. */
	{ "silent for the stale threshold", { BASE,
	  .agent_since = NOW - 400000, .last_output = NOW - 300000, .screen = 0, .screen_at = NOW - 10 },
	  ST_STUCK, "", "stale_no_activity", 0 },
	/* Busy by an old screen read: read it again before calling it stuck. */
	{ "busy on an old screen, silent for the threshold", { BASE,
	  .agent_since = NOW - 400000, .last_output = NOW - 300000,
	  .screen = SCREEN_BUSY, .screen_at = NOW - 299000 },
	  ST_IN_PROGRESS, "generating", "screen_busy", 1 },
	{ "busy on a screen just read, silent for the threshold", { BASE,
	  .agent_since = NOW - 400000, .last_output = NOW - 300000,
	  .screen = SCREEN_BUSY, .screen_at = NOW - 10 },
	  ST_STUCK, "", "stale_despite_working_state", 0 },
	{ "says working, silent for the threshold", { BASE,
	  .agent_since = NOW - 400000, .codex = CX_WORKING, .codex_at = NOW - 300000,
	  .last_output = NOW - 300000 },
	  ST_STUCK, "", "stale_despite_working_state", 0 },
	/*
	 * A restarted helper (live.c): Codex said "working" 300 s ago; this
	 * helper read it 20 s ago, as it met the agent. Its clock is the
	 * old one: stuck now, not 240 s after the restart.
	 */
	{ "restarted: a signal the helper before had read", { BASE,
	  .agent_since = NOW - 400000, .codex = CX_WORKING,
	  .codex_at = NOW - 20000, .last_output = NOW - 300000,
	  .carried_quiet = NOW - 300000, .carried_from = NOW - 21000,
	  .carried_until = NOW - 19000 },
	  ST_STUCK, "", "stale_despite_working_state", 0 },
	/* ... but one it read later is news. */
	{ "restarted: a signal read after meeting the agent", { BASE,
	  .agent_since = NOW - 400000, .codex = CX_WORKING,
	  .codex_at = NOW - 10000, .last_output = NOW - 300000,
	  .carried_quiet = NOW - 300000, .carried_from = NOW - 21000,
	  .carried_until = NOW - 19000 },
	  ST_IN_PROGRESS, "generating", "codex_osc_working", 0 },
	/* ... and one from before the restart keeps its own time. */
	{ "restarted: a signal older than this helper", { BASE,
	  .agent_since = NOW - 400000, .codex = CX_WORKING,
	  .codex_at = NOW - 100000, .last_output = NOW - 300000,
	  .carried_quiet = NOW - 300000, .carried_from = NOW - 21000,
	  .carried_until = NOW - 19000 },
	  ST_IN_PROGRESS, "generating", "codex_osc_working", 0 },
	{ "silent but a child runs: not stuck", { BASE,
	  .agent_since = NOW - 400000, .last_output = NOW - 300000, .children = 1,
	  .screen_at = NOW - 10 },
	  ST_IN_PROGRESS, "tool", "process_children", 0 },
	{ "silent but CPU busy: not stuck", { BASE,
	  .agent_since = NOW - 400000, .last_output = NOW - 300000, .cpu_busy = 1, .screen_at = NOW - 10 },
	  ST_IN_PROGRESS, "generating", "output_quiet", 0 },
	{ "waiting is never stuck", { BASE, .last_output = NOW - 300000,
	  .codex = CX_BLOCKED, .codex_at = NOW - 300000,
	  .screen_at = NOW - 10 },
	  ST_WAITING_INPUT, "permission", "codex_osc_blocked", 0 },

	/* Degraded: a failing signal and nothing better. */
	{ "proc unreadable", { BASE, .proc_failed = 1 },
	  ST_DEGRADED, "", "proc_unreadable", 0 },
	{ "capture failed when needed", { BASE, .capture_failed = 1 },
	  ST_DEGRADED, "", "capture_failed", 1 },
	{ "corrupt session file, no title", { BASE, .session_failed = 1 },
	  ST_DEGRADED, "", "session_file_unreadable", 0 },
	{ "proc unreadable but codex says", { BASE, .proc_failed = 1,
	  .codex = CX_DONE, .codex_at = NOW - 100 },
	  ST_WAITING_INPUT, "prompt", "codex_osc_done", 0 },
};

static void
test_table(void **state)
{
	struct cls_result	r;
	size_t			i;
	int			bad = 0;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		classify(&rows[i].in, &r);
		if (r.state != rows[i].state ||
		    strcmp(r.detail, rows[i].detail) != 0 ||
		    strcmp(r.reason, rows[i].reason) != 0 ||
		    r.want_capture != rows[i].capture) {
			print_error("row \"%s\": got %s/%s/%s capture %d, want "
			    "%s/%s/%s capture %d\n", rows[i].name,
			    cls_state_name(r.state), r.detail, r.reason,
			    r.want_capture, cls_state_name(rows[i].state),
			    rows[i].detail, rows[i].reason, rows[i].capture);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Every state (but not_found, which is the CLI's) and detail is covered. */
static void
test_coverage(void **state)
{
	static const char *details[] = { "permission", "question", "prompt",
	    "error", "trust", "generating", "tool", "retrying", "exit 0",
	    "agent exited", "signal 9", "exit 3" };
	int	seen[ST_NSTATES] = { 0 };
	size_t	i, j;
	int	found;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		seen[rows[i].state] = 1;
	for (i = 0; i < ST_NSTATES; i++) {
		if (i != ST_NOT_FOUND && !seen[i])
			fail_msg("no row reaches %s", cls_state_name(i));
	}
	for (j = 0; j < sizeof details / sizeof details[0]; j++) {
		found = 0;
		for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
			found |= strcmp(rows[i].detail, details[j]) == 0;
		if (!found)
			fail_msg("no row has detail %s", details[j]);
	}
}

/* Lifecycle and activity follow the state. */
static void
test_fields(void **state)
{
	struct cls_input	in = { BASE, .codex = CX_BLOCKED,
				    .codex_at = NOW - 100 };
	struct cls_result	r;

	classify(&in, &r);
	assert_int_equal(r.lifecycle, LC_RUNNING);
	assert_int_equal(r.activity, AC_WAITING);
	in.codex = CX_DONE;
	classify(&in, &r);
	assert_int_equal(r.activity, AC_IDLE);
	in.agent_since = NOW - 100;
	classify(&in, &r);
	assert_int_equal(r.state, ST_JUST_STARTED);
	assert_int_equal(r.lifecycle, LC_STARTING);
	/* The debounce comes due before the grace period ends. */
	assert_int_equal(r.recheck_at, NOW - 100 + 1500);
	in.pane_dead = 1;
	in.exit_status = 0;
	classify(&in, &r);
	assert_int_equal(r.lifecycle, LC_EXITED);
	assert_int_equal(r.activity, AC_NONE);
}

/* Deadlines: quiet decisions after the debounce, stuck after stale. */
static void
test_recheck(void **state)
{
	struct cls_input	in = { BASE, .last_output = NOW - 200 };
	struct cls_result	r;

	classify(&in, &r);
	assert_int_equal(r.state, ST_IN_PROGRESS);
	assert_int_equal(r.recheck_at, NOW - 200 + 1500);
	in.last_output = NOW - 5000;
	in.screen_at = NOW;
	classify(&in, &r);
	assert_int_equal(r.recheck_at, NOW - 5000 + 240000);
	assert_int_equal(cls_state_from_name("stuck"), ST_STUCK);
	assert_int_equal(cls_state_from_name("bogus"), ST_NSTATES);
}

/* wait --until takes the JSON's state names and the status line's words. */
static void
test_state_words(void **state)
{
	unsigned int	m;

	(void)state;
	m = 0;
	assert_int_equal(cls_state_mask("waiting", &m), 0);
	assert_int_equal(m, 1u << ST_WAITING_INPUT);
	m = 0;
	assert_int_equal(cls_state_mask("waiting_input", &m), 0);
	assert_int_equal(m, 1u << ST_WAITING_INPUT);
	m = 0;
	assert_int_equal(cls_state_mask("working", &m), 0);
	assert_int_equal(m, (1u << ST_JUST_STARTED)|(1u << ST_IN_PROGRESS));
	assert_int_equal(cls_state_mask("done", &m), 0);
	assert_true(m & (1u << ST_COMPLETED));
	m = 0;
	assert_int_equal(cls_state_mask("gone", &m), 0);
	assert_int_equal(m, 1u << ST_NOT_FOUND);
	m = 0;
	assert_int_equal(cls_state_mask("none", &m), -1);
	assert_int_equal(cls_state_mask("waiting2", &m), -1);
	assert_int_equal(cls_state_mask("", &m), -1);
	assert_int_equal(m, 0);
	assert_non_null(strstr(cls_state_names_help(), "waiting_input"));
	assert_non_null(strstr(cls_state_names_help(), "working"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_recheck),
		cmocka_unit_test(test_state_words),
	};

	return (cmocka_run_group_tests_name("classify", tests, NULL, NULL));
}
