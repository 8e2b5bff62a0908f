/*
 * The built-in agent profiles: what the real agents were measured to
 * print (docs/classification.md). Titles and screens are POSIX ERE,
 * matched as bytes (C locale), so UTF-8 glyphs are written as their
 * bytes; agent.c compiles them.
 */
#include <stddef.h>

#include "agent-int.h"

#define BRAILLE "\xe2[\xa0-\xa3][\x80-\xbf]"	/* U+2800-U+28FF */

const struct builtin agent_builtins[] = {
	{
		.name = "claude",
		/* Its own resume, the session id as $1 (lisa resume). */
		.resume = "claude --resume \"$1\"",
		.comm = { "claude" },
		.title_busy = "^" BRAILLE,
		.title_idle = "^\xe2\x9c\xb3",			/* ✳ */
		.screen = {
			[0] = "Do you want to proceed\\?|Esc to cancel \xc2\xb7 "
			    "Tab to amend",
			[1] = "Enter to select \xc2\xb7 \xe2\x86\x91/\xe2\x86\x93 "
			    "to navigate",
			[2] = "Yes, I trust this folder|Is this a project you "
			    "created or one you trust",
			[3] = "esc to interrupt",
			/* 2.1.332: "API error · retrying in 1s · attempt 1/3" */
			[4] = "[Rr]etrying in [0-9]+s \xc2\xb7 attempt [0-9]+/[0-9]+",
			[5] = "\xe2\x8e\xbf  Running\xe2\x80\xa6",
			[6] = "API Error:|Invalid API key|Request timed out",
			[7] = "Interrupted \xc2\xb7 What should Claude do instead",
			[8] = "\\? for shortcuts",
			[9] = "Resume this session with:",
			/* An API key's 429; a plan's limit ("resets 3pm"). */
			[11] = "Request rejected \\(429\\)|usage limit reached|"
			    "hit your (usage )?limit|limit reached .*resets",
		},
		.retry_marks = { "Retrying in ", "\xc2\xb7 retrying in " },
		.claude_files = 1,
	},
	{
		.name = "codex",
		.resume = "codex resume \"$1\"",
		.comm = { "codex" },
		.argv = { "codex", "codex.js" },
		.title_busy = "^" BRAILLE,
		.title_idle = ".",
		.title_waiting = "^\\[ [!.] \\] Action Required",
		.screen = {
			[0] = "Would you like to run the following command\\?|"
			    "Press enter to confirm or esc to cancel",
			[1] = "Choose what happens to the current task",
			[2] = "Trust this folder\\?",
			[3] = "esc to interr",
			[4] = "Reconnecting\\.\\.\\. [0-9]+/[0-9]+|Server is busy, "
			    "reconnecting",
			[5] = "\xe2\x80\xa2 Running |background terminal running",
			[6] = "^\xe2\x96\xa0 [^C]",			/* ■ */
			[7] = "\xe2\x96\xa0 Conversation interrupted",
			[8] = "\xe2\x80\xba Ask Codex to do anything",
			[9] = "Disconnected from this task|To continue this "
			    "session, run:",
			[11] = "last status: 429 Too Many Requests|"
			    "hit your usage limit|usage limit reached",
		},
		.retry_marks = { "Reconnecting... ", "reconnecting " },
		.osc7501 = 1,
		.codex_files = 1,
	},
	{
		.name = "gemini",
		.comm = { "gemini" },
		.argv = { "gemini", "gemini.js" },
		.title_busy = "^\xe2\x9c\xa6",			/* ✦ */
		.title_idle = "^\xe2\x97\x87",			/* ◇ */
		.title_waiting = "^\xe2\x9c\x8b",		/* ✋ */
		.screen = {
			[0] = "Allow execution of|Apply this change\\?",
			[2] = "Do you trust the files in this folder\\?",
			[3] = "\\(esc to cancel, ",
			[7] = "Request cancelled\\.",
			[8] = "Type your message or @path/to/file",
			[9] = "To resume this session: gemini --resume",
			/*
			 * 0.61.0's quota dialog, gone once answered; the
			 * error it leaves is read from the chat log, since
			 * its text stays on screen after the next turns.
			 */
			[11] = "Usage limit reached for ",
		},
		.gemini_files = 1,
		/* (its goodbye says so; -r also takes "latest" or a number) */
		.resume = "gemini --resume \"$1\"",
	},
	{
		/*
		 * Qwen Code (a fork of Gemini CLI). 0.15.10's title never
		 * changes ("Qwen - <dir>"), so its screen tells; 0.24.4's
		 * has a mark before it while it answers (◐) and while a
		 * dialog waits (✳), none at rest (that title is no state:
		 * 0.15.10's says the same whatever it does). Its input box is
		 * drawn while it works too: the spinner row ("esc to
		 * cancel)") says busy; the permission dialog's spinner stands
		 * still, so the pane settles and is read. 0.24.4 starts as
		 * "node .../qwen", which runs "node .../qwen-code/cli.js"
		 * twice over: its own, not tools.
		 */
		.name = "qwen",
		.comm = { "qwen" },
		.argv = { "qwen", "qwen-code/cli.js" },
		.title_busy = "^\xe2\x97\x90",			/* ◐ */
		.title_waiting = "^\xe2\x9c\xb3",		/* ✳ */
		.screen = {
			[0] = "Allow execution of|Yes, allow once|Waiting for "
			    "user confirmation",
			[2] = "Do you trust (the files in )?this folder",
			/* 0.24.4's footer while it answers, too */
			[3] = "esc to cancel\\)|Enter to steer \xc2\xb7 Ctrl\\+Q "
			    "to queue",
			[6] = "\xe2\x9c\x95 ",			/* ✕ */
			[7] = "Request cancelled\\.",
			/*
			 * 0.24.4 puts a cancelled prompt back in its input
			 * box: then its footer says it waits.
			 */
			[8] = "Type your message or @path/to/file|"
			    "\\(shift \\+ tab to cycle\\)|\\? for shortcuts",
			[9] = "To continue this session, run qwen --resume",
		},
		.qwen_files = 1,
		.resume = "qwen --resume \"$1\"",
		/*
		 * Its hooks (Claude's, taken over) say nothing of a refused
		 * permission, and its dialog came with no hook (0.15.10).
		 */
		.hooks_partial = 1,
	},
	{
		.name = "aider",
		.comm = { "aider" },
		.argv = { "aider" },
		.screen = {
			[0] = "\\(Y\\)es/\\(N\\)o",
			[8] = "^[a-z-]*> $",
		},
	},
	{
		/*
		 * OpenCode 1.18.33 (a native Bun binary): its title is
		 * "OpenCode", then "OC | <session title>", whatever it does.
		 * Its bottom row says: "esc interrupt" while it works, with
		 * "[retrying in 3s attempt #2]" while it retries (a 429 too:
		 * it waits out the limit by itself), "ctrl+p commands" at its
		 * prompt. Hooks: the plugin `lisa hooks install opencode`.
		 */
		.name = "opencode",
		.comm = { "opencode" },
		.argv = { "opencode" },
		.screen = {
			[0] = "Permission required|Allow (once|always)",
			[3] = "esc (again to )?interrupt",
			[4] = "\\[retrying (in [0-9]+s )?attempt #[0-9]+\\]",
			[8] = "ctrl\\+p commands",
			[9] = "Continue +opencode -s ses_",
		},
		.retry_marks = { "[retrying " },
		/* Its retry row is replaced when the retry ends. */
		.retry_screen = 1,
		.opencode_files = 1,
		.resume = "opencode -s \"$1\"",
		/* Buttons, the selected one drawn only in colour. */
		.dialog_buttons = 1,
	},
	{
		/*
		 * Kilo Code's CLI 7.7.7 (npm @kilocode/cli), a fork of
		 * OpenCode: a node wrapper and its native child ".kilo".
		 * OpenCode's screen, dialog, log lines and plugin events, in
		 * "kilo" directories; its title is "Kilo CLI" whatever it
		 * does. On exit it prints "kilo -s ses_...". Its Reject (and
		 * Escape) opens a form that asks why, a wait of its own.
		 */
		.name = "kilo",
		.comm = { "kilo", ".kilo" },
		.argv = { "kilo", "kilocode", ".kilo" },
		.screen = {
			[0] = "Permission required|Allow (once|always)|"
			    "Tell Kilo what to do differently",
			[3] = "esc (again to )?interrupt",
			[4] = "\\[retrying (in [0-9]+s )?attempt #[0-9]+\\]",
			[8] = "ctrl\\+p commands",
			[9] = "kilo -s ses_",
		},
		.retry_marks = { "[retrying " },
		.retry_screen = 1,
		.opencode_files = 1,
		.opencode_dir = "kilo",
		.resume = "kilo -s \"$1\"",
		.dialog_buttons = 1,
		.reject_form = "Tell Kilo what to do differently",
	},
	{
		/*
		 * Grok CLI 0.0.34 (npm @vibe-kit/grok-cli): node running its
		 * bin; its title says nothing ("vm"). Its busy row ends "esc
		 * to interrupt)"; its input box sits over "auto-edit: off
		 * (shift + tab)". Its dialog's options are numbered, but only
		 * arrows and Enter pick, the selected one drawn in colour.
		 * A failed turn ends with its error right over the input box
		 * (a 429 after two retries of its own).
		 */
		.name = "grok",
		.comm = { "grok" },
		.argv = { "grok" },
		.screen = {
			[0] = "Do you want to proceed with this operation\\?",
			[3] = "esc to interrupt\\)",
			[6] = "Sorry, I encountered an error: [^\n]*(\n *)+"
			    "\xe2\x95\xad",
			[8] = "auto-edit: (on|off) \\(shift \\+ tab\\)",
			[11] = "Grok API error: 429[^\n]*(\n *)+\xe2\x95\xad",
		},
		.dialog_list = 1,
		.error_screen = 1,
	},
	{
		/*
		 * Continue's CLI 1.5.47 (npm @continuedev/cli, "cn"): node
		 * running its bin; its title says nothing. Its busy row, "⠋
		 * ( 3s • esc to interrupt )", turns over its dialogs too: a
		 * tool's ("> Continue (tab)", Escape denies) and its own
		 * questions' ("❯ Option A", arrows and Enter). It retries a
		 * failed request ten times in two minutes ("Retrying request
		 * (1/9)", a line that stays), then ends the turn with the
		 * error right over its input box.
		 */
		.name = "continue",
		.comm = { "cn" },
		.argv = { "cn", "cn.js" },
		.screen = {
			/* (inside its box: quoted higher up, no dialog) */
			[0] = "^\xe2\x94\x82 +(> )?(Continue \\+ don't ask "
			    "again \\(shift\\+tab\\)|No, and tell Continue "
			    "what to do differently \\(esc\\))",
			[1] = "^\xe2\x94\x82 +\xe2\x86\x91/\xe2\x86\x93 navigate, "
			    "Enter select",
			[3] = "\\([^)]* \xe2\x80\xa2 esc to interrupt \\)",
			/*
			 * Its retry's line stays, over the turn's own "● ..."
			 * (its prompt): retrying only right over that and the
			 * busy row, a blank line between or not (its stream is
			 * paused by then: a spinner).
			 */
			[4] = "^Retrying request \\([0-9]+/[0-9]+\\)[^\n]*\n"
			    "\xe2\x97\x8f [^\n]*(\n(  [^\n]*)?){0,3}\n[^\n]*"
			    "esc to interrupt \\)",
			[6] = "^Error: [^\n]*(\n *)+\xe2\x95\xad",
			[7] = "Interrupted by user - Press enter to continue",
			[8] = "\xe2\x97\x89 Continue CLI",	/* ◉ */
			[11] = "^Error: 429 [^\n]*(\n *)+\xe2\x95\xad",
		},
		.retry_marks = { "Retrying request (" },
		.retry_screen = 1,
		.dialog_spinner = 1,
		.dialog_list = 1,
		.error_screen = 1,
	},
	{
		/*
		 * open-codex 0.1.31 (npm open-codex; it names its process
		 * "open-codex"), a fork of Codex's first (TypeScript) CLI that
		 * talks to other providers; its title says nothing. "( ● )
		 * Thinking..." in its input box while it works (it streams
		 * nothing: the answer comes whole); "send q or ctrl+c to exit"
		 * under it always (its suggestions, "try: ...", before a
		 * first turn). Its dialog, in a box, "$ CMD" over "Allow
		 * command?", its options a pointer list, each its key in
		 * parentheses. It retries a failing request by itself, then
		 * ends the turn with "⚠️  ..." over its input box.
		 */
		.name = "open-codex",
		.comm = { "open-codex" },
		.argv = { "open-codex" },
		.screen = {
			[0] = "^\xe2\x94\x82" "Allow command\\?",
			/* outside a git repository it asks first */
			[2] = "coding agent outside of a git repo",
			[3] = "^\xe2\x94\x82\\( *\xe2\x97\x8f *\\) +Thinking",
			[6] = "^    \xe2\x9a\xa0\xef\xb8\x8f  [^\n]*(\n    "
			    "[^\n]*)*\n\xe2\x95\xad",
			/* under its box: suggestions until a first turn */
			[8] = "^  (send q or ctrl\\+c to exit|try: explain this "
			    "codebase to me)",
			[11] = "^    \xe2\x9a\xa0\xef\xb8\x8f  Rate limit reached"
			    "[^\n]*(\n    [^\n]*)*\n\xe2\x95\xad",
		},
		.error_screen = 1,
	},
	{
		/*
		 * GitHub Copilot CLI 1.0.102 (npm @github/copilot): a node
		 * wrapper and its native child, whose name is "MainThread":
		 * known by argv. Its title is "<intent> - GitHub Copilot",
		 * whatever it does. Its footer says "Working … esc esc
		 * interrupt" while it works and "/ commands · ? help" at
		 * its prompt. A retry's line stays on screen after it, so
		 * retries are known from the stream only.
		 */
		.name = "copilot",
		.comm = { "copilot" },
		.argv = { "copilot" },
		.screen = {
			[0] = "Do you want to run this command\\?",
			[2] = "Do you trust the files in this folder\\?",
			[3] = "esc esc (interrupt|edit prompt)",
			[6] = "\xe2\x9c\x97 Failed to get response",	/* ✗ */
			[7] = "Operation cancelled by user",
			[8] = "/ commands \xc2\xb7 \\? help",
			[9] = "Resume +copilot --resume=",
		},
		.retry_marks = { "Retrying..." },
		/*
		 * Its hooks say nothing when a permission is refused, a
		 * turn is interrupted or fails on a 4xx (no agentStop).
		 */
		.hooks_partial = 1,
		/* A number moves its dialog's pointer; Enter picks. */
		.answer_enter = 1,
		/*
		 * Its tool's line over the dialog counts the seconds it has
		 * waited ("$ Shell ... 34s"): output while nobody works.
		 */
		.dialog_clock = 1,
		.copilot_files = 1,
		.resume = "copilot --resume=\"$1\"",
	},
	{
		/*
		 * pi 1.6.0 (npm @earendil-works/pi-coding-agent; it names its
		 * process "pi"): its title is "π - <dir>" whatever it does, and
		 * it asks nothing but whether to trust a project's own files.
		 * A row over its input box says "⠼ Working" while it works,
		 * "Retrying (1/3) in 2s" while it retries; its footer
		 * ("0.4%/200k (auto)") is always drawn. Its session file
		 * tells how each turn ended (pi-file.c).
		 */
		.name = "pi",
		.comm = { "pi" },
		.argv = { "pi" },
		.screen = {
			[2] = "Trust project folder\\?",
			[3] = "^\xe2\x94\x80\xe2\x94\x80 " BRAILLE " Working",
			[4] = "^\xe2\x94\x80\xe2\x94\x80 " BRAILLE " Retrying "
			    "\\([0-9]+/[0-9]+\\) in [0-9]+s",
			[5] = "^ Elapsed [0-9]+\\.[0-9]s",
			[7] = "^ Operation aborted",
			[8] = "[0-9]%/[0-9.]+[kM]?( |$)",
			[9] = "^To resume this session:|^pi --session [0-9a-f]",
		},
		.retry_marks = { "Retrying (" },
		.pi_files = 1,
		.resume = "pi --session \"$1\"",
	},
	{
		/*
		 * Cline CLI 3.0.65 (npm cline; its native binary is named
		 * "cline"): its title is its task, whatever it does, and its
		 * spinner turns while its dialogs wait too, so its session
		 * file (cline-file.c) says busy or waiting. Its row says
		 * "⠋ Thinking... (esc to cancel)" while it works (and while it
		 * retries a failed request, silently); its footer
		 * ("○ Plan ● Act (Tab)") is always drawn.
		 */
		.name = "cline",
		.comm = { "cline" },
		.argv = { "cline" },
		.screen = {
			[0] = "Cline needs permission|Approve tool call\\?",
			[1] = "Cline is asking a question",
			[3] = "\\(esc to cancel\\)",
			[6] = "^ \\* Error: ",
			[8] = "(Plan|Act) \\(Tab\\)",
			[9] = "Continue +cline --id ",
		},
		.cline_files = 1,
		/* Its question is no "pending" in the file: the screen says. */
		.dialog_spinner = 1,
		.resume = "cline --id \"$1\"",
	},
	{
		/*
		 * A `lisa run` of a command that is none of the above: never
		 * matched by a process, given to the pane when its run ends
		 * so that the run's ending shows like an agent's (run-watch.c).
		 */
		.name = "run",
	},
};

const size_t agent_nbuiltins = sizeof agent_builtins /
    sizeof agent_builtins[0];
