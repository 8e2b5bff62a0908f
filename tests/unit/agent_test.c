/*
 * Agent profiles against what the real agents print (titles and screen
 * lines as recorded in the measurement notes), and the user's agents.json.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "shared.h"
#include "agent.h"

static int
setup(void **state)
{
	char	*cause = NULL;

	return (agent_load("/nonexistent/agents.json", &cause));
}

static void
test_match(void **state)
{
	char	*node_codex[] = { "node", "/usr/lib/node_modules/.bin/codex",
		    "exec" };
	char	*node_gemini[] = { "node", "--max-old-space-size=4096",
		    "/x/bundle/gemini.js" };
	char	*node_qwen[] = { "/usr/bin/node", "--max-old-space-size=12052",
		    "/x/node_modules/.bin/qwen" };
	/* Qwen 0.24.4's own children: its cli.js, named by its path's end. */
	char	*node_qwen_cli[] = { "/x/node/bin/node", "--expose-gc",
		    "/x/node_modules/@qwen-code/qwen-code/cli.js" };
	char	*node_other_cli[] = { "node", "/x/not-qwen-code/cli.js" };
	char	*node_other[] = { "node", "server.js" };
	/* Copilot CLI: its wrapper, and its native child named MainThread. */
	char	*node_copilot[] = { "node",
		    "/x/node_modules/.bin/copilot" };
	char	*native_copilot[] = {
		    "/x/node_modules/@github/copilot-linux-x64/copilot" };
	char	*node_pi[] = { "node", "/x/node_modules/.bin/pi" };
	/* Kilo: its node wrapper, and its native child ".kilo". */
	char	*node_kilo[] = { "node", "/x/node_modules/.bin/kilo" };
	char	*native_kilo[] = { "/x/node_modules/@kilocode/cli/bin/.kilo" };
	char	*node_grok[] = { "node", "/x/node_modules/.bin/grok" };
	char	*node_cn[] = { "node", "/x/node_modules/.bin/cn" };
	char	*node_ox[] = { "node", "/x/node_modules/.bin/open-codex" };
	char	*node_cn_js[] = { "node", "/x/@continuedev/cli/dist/cn.js" };
	char	*none[] = { NULL };
	char	*run_argv[] = { "sh", "run" };

	assert_string_equal(agent_match("claude", none, 0)->name, "claude");
	assert_string_equal(agent_match("codex", none, 0)->name, "codex");
	assert_string_equal(agent_match("node", node_codex, 3)->name, "codex");
	assert_string_equal(agent_match("node", node_gemini, 3)->name,
	    "gemini");
	assert_string_equal(agent_match("node", node_qwen, 3)->name, "qwen");
	assert_string_equal(agent_match("node", node_qwen_cli, 3)->name,
	    "qwen");
	assert_null(agent_match("node", node_other_cli, 2));
	assert_null(agent_match("node", node_other, 2));
	assert_null(agent_match("bash", none, 0));
	assert_string_equal(agent_match("node", node_copilot, 2)->name,
	    "copilot");
	assert_string_equal(agent_match("MainThread", native_copilot, 1)->name,
	    "copilot");
	assert_string_equal(agent_match("opencode", none, 0)->name,
	    "opencode");
	/* pi: its process.title, or node running its bin. */
	assert_string_equal(agent_match("pi", none, 0)->name, "pi");
	assert_string_equal(agent_match("node", node_pi, 2)->name, "pi");
	assert_string_equal(agent_match("node", node_kilo, 2)->name, "kilo");
	assert_string_equal(agent_match(".kilo", native_kilo, 1)->name, "kilo");
	assert_string_equal(agent_match("node", node_grok, 2)->name, "grok");
	assert_string_equal(agent_match("node", node_cn, 2)->name, "continue");
	assert_string_equal(agent_match("open-codex", none, 0)->name,
	    "open-codex");
	assert_string_equal(agent_match("node", node_ox, 2)->name,
	    "open-codex");
	assert_string_equal(agent_match("node", node_cn_js, 2)->name,
	    "continue");
	/* "run" (a lisa run of no known agent) is never a process's. */
	assert_non_null(agent_by_name("run"));
	assert_null(agent_match("run", none, 0));
	assert_null(agent_match("sh", run_argv, 2));
	assert_int_equal(agent_count(), 14);
}

struct title_case {
	const char		*agent;
	const char		*title;
	enum title_class	 want;
};

static const struct title_case titles[] = {
	{ "claude", "\xe2\x9c\xb3 Claude Code", TITLE_IDLE },
	{ "claude", "\xe2\x9c\xb3 Mock session title", TITLE_IDLE },
	{ "claude", "\xe2\xa0\x82 Mock session title", TITLE_BUSY },
	{ "claude", "\xe2\xa0\x90 Claude Code", TITLE_BUSY },
	{ "claude", "vm", TITLE_UNKNOWN },
	{ "codex", "\xe2\xa0\x8b Mock task title | work", TITLE_BUSY },
	{ "codex", "\xe2\xa0\x8f work", TITLE_BUSY },
	{ "codex", "[ ! ] Action Required | Mock task title | work",
	  TITLE_WAITING },
	{ "codex", "[ . ] Action Required | Mock task title | work",
	  TITLE_WAITING },
	{ "codex", "Mock task title | work", TITLE_IDLE },
	{ "gemini", "\xe2\x9c\xa6  Working\xe2\x80\xa6 (work)", TITLE_BUSY },
	{ "gemini", "\xe2\x97\x87  Ready (work)            ", TITLE_IDLE },
	{ "gemini", "\xe2\x9c\x8b  Action Required (work)", TITLE_WAITING },
	/* Qwen Code 0.24.4 (a mark and U+FE0E); 0.15.10's never changes. */
	{ "qwen", "\xe2\x97\x90\xef\xb8\x8e Qwen - work", TITLE_BUSY },
	{ "qwen", "\xe2\x9c\xb3\xef\xb8\x8e Qwen - work", TITLE_WAITING },
	{ "qwen", "Qwen - work", TITLE_UNKNOWN },
};

static void
test_titles(void **state)
{
	size_t	i;

	for (i = 0; i < sizeof titles / sizeof titles[0]; i++) {
		if (agent_title(agent_by_name(titles[i].agent),
		    titles[i].title) != titles[i].want)
			fail_msg("%s title \"%s\"", titles[i].agent,
			    titles[i].title);
	}
}

struct screen_case {
	const char	*agent;
	const char	*screen;
	unsigned	 want;
};

static const struct screen_case screens[] = {
	/* Qwen Code 0.24.4: a cancelled prompt back in its box; answering. */
	{ "qwen", "\xe2\x94\x80\xe2\x94\x80\n> #mock error 500 \n"
	  "\xe2\x94\x80\xe2\x94\x80\n  \xe2\x9e\x9c work \xc2\xb7 mock-model\n"
	  "  Auto mode (shift + tab to cycle)\n", SCREEN_PROMPT },
	{ "qwen", "> Type your message\n  Enter to steer \xc2\xb7 Ctrl+Q to "
	  "queue \xc2\xb7 Auto mode (shift + tab to cycle)\n",
	  SCREEN_BUSY|SCREEN_PROMPT },
	{ "claude", " Bash command\n   sleep 20\n Do you want to proceed?\n"
	  " \xe2\x9d\xaf 1. Yes\n   2. Yes, and always allow\n   3. No\n"
	  " Esc to cancel \xc2\xb7 Tab to amend \xc2\xb7 ctrl+e to explain\n",
	  SCREEN_PERMISSION },
	{ "claude", " \xe2\x98\x90 Choice\nPick one\n\xe2\x9d\xaf 1. Option A\n"
	  "Enter to select \xc2\xb7 \xe2\x86\x91/\xe2\x86\x93 to navigate "
	  "\xc2\xb7 Esc to cancel\n", SCREEN_QUESTION },
	{ "claude", "Quick safety check: Is this a project you created or one "
	  "you trust?\n\xe2\x9d\xaf 1. Yes, I trust this folder\n",
	  SCREEN_TRUST },
	{ "claude", "\xe2\x9c\xbb Percolating\xe2\x80\xa6 (12s \xc2\xb7 \xe2\x86\x93"
	  " 333 tokens)\n  esc to interrupt \xc2\xb7 \xe2\x86\x90 for agents\n",
	  SCREEN_BUSY },
	{ "claude", "\xe2\x9c\xbb API error \xc2\xb7 Retrying in 5s \xc2\xb7 "
	  "attempt 4/10\n  esc to interrupt\n", SCREEN_RETRYING|SCREEN_BUSY },
	{ "claude", "\xe2\x97\x8f Bash(sleep 20)\n  \xe2\x8e\xbf  Running\xe2\x80"
	  "\xa6 (6s)\n  esc to interrupt\n", SCREEN_TOOL|SCREEN_BUSY },
	{ "claude", "\xe2\x97\x8f API Error: 500 Internal server error.\n"
	  "\xe2\x9d\xaf \n  ? for shortcuts\n", SCREEN_ERROR|SCREEN_PROMPT },
	{ "claude", "  \xe2\x8e\xbf  Interrupted \xc2\xb7 What should Claude do "
	  "instead?\n  ? for shortcuts\n", SCREEN_INTERRUPTED|SCREEN_PROMPT },
	{ "claude", "Resume this session with:\nclaude --resume abc\n$ ",
	  SCREEN_EXITED },
	{ "claude", "\xe2\x9c\xbb Working\xe2\x80\xa6\n  esc to interrupt\n"
	  "Killed\n$ ", SCREEN_BUSY|SCREEN_KILLED },
	/* bash writes at the cursor: after Claude's prompt glyph and NBSP. */
	{ "claude", "\xe2\x9d\xaf\xc2\xa0Killed\n$ \xe2\x94\x80\n"
	  "  esc to interrupt\n", SCREEN_BUSY|SCREEN_KILLED },
	{ "claude", "\xe2\x97\x8f Unkilled\n", 0 },
	/* Under load: bash's word right after the last spinner frame. */
	{ "claude", "\xe2\x9c\xbb Percolating\xe2\x80\xa6 (1s \xc2\xb7 40 "
	  "tokens)Killed\nbash-5.2# ", SCREEN_KILLED },
	{ "claude", "the process was notKilled here\n", 0 },
	{ "codex", "Would you like to run the following command?\n"
	  "$ touch x\n\xe2\x80\xba 1. Yes, proceed (y)\n"
	  "Press enter to confirm or esc to cancel\n", SCREEN_PERMISSION },
	{ "codex", "\xe2\x80\xa2 Working (12s \xe2\x80\xa2 esc to interrupt)\n",
	  SCREEN_BUSY },
	{ "codex", "\xe2\x80\xa2 Reconnecting... 1/5 (2s \xe2\x80\xa2 esc to "
	  "interrupt)\n", SCREEN_RETRYING|SCREEN_BUSY },
	{ "codex", "\xe2\x96\xa0 We\xe2\x80\x99re currently experiencing high "
	  "demand\n\xe2\x80\xba Ask Codex to do anything\n",
	  SCREEN_ERROR|SCREEN_PROMPT },
	{ "codex", "\xe2\x96\xa0 Conversation interrupted - use /feedback\n",
	  SCREEN_INTERRUPTED },
	{ "codex", "Trust this folder? Codex can read, edit\n", SCREEN_TRUST },
	{ "gemini", "Allow execution of [Shell]?\n\xe2\x97\x8f 1. Allow once\n",
	  SCREEN_PERMISSION },
	{ "gemini", " \xe2\xa0\xa6 Thinking... (esc to cancel, 3s)\n",
	  SCREEN_BUSY },
	{ "gemini", "Do you trust the files in this folder?\n", SCREEN_TRUST },
	{ "codex", "plain shell output\n$ ", 0 },
	{ "codex", "[1]+  Terminated   codex\n$ ", SCREEN_KILLED },
	/* OpenCode 1.18.33's bottom row and dialog, as captured. */
	{ "opencode", "   \xe2\xac\x9d\xe2\xac\x9d\xe2\x96\xa0\xe2\x96\xa0  esc "
	  "interrupt      tab agents  ctrl+p commands\n",
	  SCREEN_BUSY|SCREEN_PROMPT },
	{ "opencode", "   \xe2\x96\xa0\xe2\xac\x9d mock error 500 [retrying in "
	  "2s attempt #3]        esc interrupt\n", SCREEN_RETRYING|SCREEN_BUSY },
	{ "opencode", "   /tmp/work        120 (0%)  ctrl+p commands\n",
	  SCREEN_PROMPT },
	{ "opencode", "  \xe2\x94\x83  \xe2\x96\xb3 Permission required\n"
	  "  \xe2\x94\x83   Allow once   Allow always   Reject\n",
	  SCREEN_PERMISSION },
	{ "opencode", "  Continue  opencode -s ses_de94c81b9ffe\n", SCREEN_EXITED },
	/* Kilo Code's CLI 7.7.7's rows, its dialog and its reject form. */
	{ "kilo", "   \xe2\x96\xa0\xe2\x96\xa0\xe2\xac\x9d\xe2\xac\x9d  esc "
	  "interrupt         tab agents  ctrl+p commands\n",
	  SCREEN_BUSY|SCREEN_PROMPT },
	{ "kilo", "       120 (0%)  ctrl+p commands\n", SCREEN_PROMPT },
	{ "kilo", "  \xe2\x94\x83  \xe2\x96\xb3 Permission required\n"
	  "  \xe2\x94\x83   Allow once   Allow always   Reject\n",
	  SCREEN_PERMISSION },
	{ "kilo", "  \xe2\x94\x83  \xe2\x96\xb3 Reject permission\n"
	  "  \xe2\x94\x83  Tell Kilo what to do differently\n",
	  SCREEN_PERMISSION },
	{ "kilo", "  \xe2\x96\x88\xe2\x96\x88  \xe2\x96\x88\xe2\x96\x88  "
	  "kilo -s ses_dcf5e270fffeW5Ijhzg51a0oj5\n", SCREEN_EXITED },
	/*
	 * Grok CLI 0.0.34's rows, as captured: its input box is always
	 * drawn; an error is the turn's end only right over it.
	 */
	{ "grok", "  / Thinking... (2s \xc2\xb7 \xe2\x86\x91 810 tokens \xc2\xb7 "
	  "esc to interrupt)\n  \xe2\x95\xad\xe2\x94\x80\xe2\x94\x80\n"
	  "  \xe2\x8f\xb8 auto-edit: off (shift + tab)  \xe2\x89\x8b mock\n",
	  SCREEN_BUSY|SCREEN_PROMPT },
	{ "grok", "  Do you want to proceed with this operation?\n"
	  "   1. Yes\n", SCREEN_PERMISSION },
	{ "grok", "  \xe2\x8f\xba Sorry, I encountered an error: Grok API error: "
	  "500 mock error 500\n\n  \xe2\x95\xad\xe2\x94\x80\xe2\x94\x80\n"
	  "  \xe2\x94\x82 \xe2\x9d\xaf Ask me anything...\n"
	  "  \xe2\x8f\xb8 auto-edit: off (shift + tab)  \xe2\x89\x8b mock\n",
	  SCREEN_ERROR|SCREEN_PROMPT },
	{ "grok", "  \xe2\x8f\xba Sorry, I encountered an error: Grok API error: "
	  "429 Rate limit reached for requests.\n  \xe2\x95\xad\xe2\x94\x80\n"
	  "  \xe2\x8f\xb8 auto-edit: off (shift + tab)  \xe2\x89\x8b mock\n",
	  SCREEN_ERROR|SCREEN_LIMIT|SCREEN_PROMPT },
	/* An earlier turn's error, a turn since: no error now. */
	{ "grok", "  \xe2\x8f\xba Sorry, I encountered an error: Grok API error: "
	  "500 mock error 500\n  > hi\n  \xe2\x8f\xba Done.\n"
	  "  \xe2\x95\xad\xe2\x94\x80\xe2\x94\x80\n"
	  "  \xe2\x8f\xb8 auto-edit: off (shift + tab)  \xe2\x89\x8b mock\n",
	  SCREEN_PROMPT },
	/*
	 * Continue's CLI 1.5.47's rows, as captured: its busy row over its
	 * dialogs too; an error is the turn's end only right over its box.
	 */
	{ "continue", " \xe2\xa3\xbf\xe2\xa3\xbf\xe2\xa3\xbf  ( 3s \xe2\x80\xa2 "
	  "esc to interrupt )\n\xe2\x95\xad\xe2\x94\x80\xe2\x94\x80\n"
	  "  /work  \xe2\x97\x89 Continue CLI\n", SCREEN_BUSY|SCREEN_PROMPT },
	{ "continue", " \xe2\xa1\xaf  ( 1m 7s \xe2\x80\xa2 esc to interrupt )\n"
	  "\xe2\x94\x82    Continue + don't ask again (shift+tab)    "
	  "\xe2\x94\x82\n", SCREEN_BUSY|SCREEN_PERMISSION },
	{ "continue", "\xe2\x94\x82    No, and tell Continue what to do "
	  "differently (esc)\n", SCREEN_PERMISSION },
	/* (quoted in the conversation, outside its box: no dialog) */
	{ "continue", "  > No, and tell Continue what to do differently "
	  "(esc)\n\xe2\x95\xad\xe2\x94\x80\n", 0 },
	{ "continue", "\xe2\x94\x82  \xe2\x86\x91/\xe2\x86\x93 navigate, "
	  "Enter select      \xe2\x94\x82\n", SCREEN_QUESTION },
	/* (its slash menu's keys are no question) */
	{ "continue", "  \xe2\x86\x91/\xe2\x86\x93 to navigate, Enter to "
	  "select, Tab to complete\n", 0 },
	{ "continue", "\xe2\x97\x8f #mock error 500\nError: 500 mock error "
	  "500\n\xe2\x95\xad\xe2\x94\x80\xe2\x94\x80\xe2\x95\xae\n",
	  SCREEN_ERROR },
	{ "continue", "\xe2\x97\x8f #mock limit 1 please\nError: 429 Rate "
	  "limit reached for requests. Please try again in 1s.\n"
	  "\xe2\x95\xad\xe2\x94\x80\xe2\x94\x80\xe2\x95\xae\n",
	  SCREEN_ERROR|SCREEN_LIMIT },
	/* An earlier turn's error, a turn since: no error now. */
	{ "continue", "Error: 500 mock error 500\n\xe2\x97\x8f hi\n"
	  "\xe2\x97\x8f Mock answer: done.\n\xe2\x95\xad\xe2\x94\x80\n", 0 },
	/* Its retries' lines stay: retrying only over its turn and busy row. */
	{ "continue", "Retrying request (2/9). Error: 500 mock error 500\n"
	  "\xe2\x97\x8f #mock error 500\n \xe2\xa3\xbf  ( 30s \xe2\x80\xa2 "
	  "esc to interrupt )\n", SCREEN_RETRYING|SCREEN_BUSY },
	/* as the real one draws it too: a blank line over its busy row */
	{ "continue", "Retrying request (4/9). Error: 500 mock error 500\n"
	  "\xe2\x97\x8f #mock error 500\n\n \xe2\xa0\x90\xe2\xa1\x80  ( 28s "
	  "\xe2\x80\xa2 esc to interrupt )\n", SCREEN_RETRYING|SCREEN_BUSY },
	{ "continue", "Retrying request (8/9). Error: 500 mock error 500\n"
	  "\xe2\x97\x8f #mock error 500\nError: 500 mock error 500\n"
	  "\xe2\x97\x8f hi\n \xe2\xa3\xbf  ( 3s \xe2\x80\xa2 "
	  "esc to interrupt )\n", SCREEN_BUSY },
	{ "continue", " Interrupted by user - Press enter to continue\n",
	  SCREEN_INTERRUPTED },
	/* open-codex 0.1.31's rows, as captured (capture-pane -J). */
	{ "open-codex", "\xe2\x95\xad\xe2\x94\x80\xe2\x94\x80\n"
	  "\xe2\x94\x82(    \xe2\x97\x8f )  Thinking...         \xe2\x94\x82\n"
	  "  send q or ctrl+c to exit | send \"/clear\" to reset\n",
	  SCREEN_BUSY|SCREEN_PROMPT },
	/* its first prompt: suggestions under the box */
	{ "open-codex", "\xe2\x94\x82 send a message or press tab to select "
	  "a suggestion    \xe2\x94\x82\n\xe2\x95\xb0\xe2\x94\x80\n"
	  "  try: explain this codebase to me | fix any build errors\n",
	  SCREEN_PROMPT },
	{ "open-codex", "\xe2\x94\x82" "Allow command?           \xe2\x94\x82\n"
	  "\xe2\x94\x82  \xe2\x9d\xaf Yes (y)          \xe2\x94\x82\n",
	  SCREEN_PERMISSION },
	{ "open-codex", "    codex\n    \xe2\x9a\xa0\xef\xb8\x8f  Network error "
	  "while contacting OpenAI. Please check your connection and try "
	  "again.\n\xe2\x95\xad\xe2\x94\x80\n\xe2\x94\x82 send a message\n",
	  SCREEN_ERROR },
	{ "open-codex", "    \xe2\x9a\xa0\xef\xb8\x8f  Rate limit reached. Error "
	  "details: Status: 429, Code: rate_limit_exceeded\n"
	  "\xe2\x95\xad\xe2\x94\x80\n", SCREEN_ERROR|SCREEN_LIMIT },
	/* An earlier turn's warning, a turn since: no error now. */
	{ "open-codex", "    \xe2\x9a\xa0\xef\xb8\x8f  Network error while "
	  "contacting OpenAI.\nuser\nhi\n    codex\n    Mock answer.\n"
	  "\xe2\x95\xad\xe2\x94\x80\n", 0 },
	/* GitHub Copilot CLI 1.0.102's footer and dialogs, as captured. */
	{ "copilot", " \xe2\x97\x8e Working \xc2\xb7 17 B esc esc interrupt     "
	  "mock-model\n", SCREEN_BUSY },
	{ "copilot", " \xe2\x86\x90 open sidebar \xc2\xb7 Interactive \xc2\xb7 "
	  "Manual Approval \xc2\xb7 / commands \xc2\xb7 ? help \xc2\xb7 tab next "
	  "tab\n", SCREEN_PROMPT },
	{ "copilot", "\xe2\x94\x82 Do you want to run this command?\n"
	  "\xe2\x94\x82 \xe2\x9d\xaf 1. Yes\n", SCREEN_PERMISSION },
	{ "copilot", "\xe2\x94\x82 Do you trust the files in this folder?\n",
	  SCREEN_TRUST },
	{ "copilot", " \xe2\x9c\x97 Failed to get response from the AI model; "
	  "retried 5 times\n", SCREEN_ERROR },
	{ "copilot", "   \xe2\x96\x94\xe2\x96\x94    Resume     copilot "
	  "--resume=bcdef31a-b025\n", SCREEN_EXITED },
};

static void
test_screens(void **state)
{
	size_t	i;
	int	sig;
	unsigned got;

	for (i = 0; i < sizeof screens / sizeof screens[0]; i++) {
		got = agent_screen(agent_by_name(screens[i].agent),
		    screens[i].screen, &sig);
		if (got != screens[i].want)
			fail_msg("%s screen %zu: got %#x want %#x",
			    screens[i].agent, i, got, screens[i].want);
	}
	agent_screen(agent_by_name("codex"), "[1]+  Terminated   codex\n",
	    &sig);
	assert_int_equal(sig, 15);
	assert_int_equal(agent_shell_death("tokens)Killed\r\nbash-5.2# "), 9);
	assert_int_equal(agent_shell_death("Killed"), 9);
	assert_int_equal(agent_shell_death("overKilled "), -1);
	/* The bytes: after the agent's cursor move, or in its title. */
	assert_int_equal(agent_shell_death_stream("agents\033[1AKilled\r\n"
	    "\033[?2004hbash-5.2# ", 36), 9);
	assert_int_equal(agent_shell_death_stream("\033]0;Killed\a ", 12), -1);
	assert_int_equal(agent_shell_death_stream("\033]0;x\033\\Killed", 13),
	    9);
	assert_int_equal(agent_shell_death_stream("\033[1", 3), -1);
	assert_int_equal(agent_shell_death_stream("Kil\0led\n", 8), -1);
	/* A node wrapper that outlives its native child (Copilot's). */
	assert_int_equal(agent_shell_death("GitHub Copilot native binary at "
	    "/x/copilot was terminated by signal SIGKILL.\r\nGitHub Copilot "
	    "CLI: no platform package found.\r\n$ "), 9);
	assert_int_equal(agent_shell_death("terminated by signal SIGTERM"), 15);
	assert_int_equal(agent_shell_death("I sent it SIGKILL.\n"), -1);
	assert_int_equal(agent_shell_death("terminated by signal SIGKILLS"),
	    -1);
	assert_string_equal(agent_hint_name(SCREEN_TRUST), "trust");
}

static char *
write_file(const char *text)
{
	char	*path = strdup("/tmp/lisa-agents-XXXXXX");
	int	 fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return (path);
}

static void
test_user_file(void **state)
{
	char	*path, *cause = NULL;

	path = write_file("{\"agents\":[{\"name\":\"mybot\",\"comm\":"
	    "[\"mybot\"],\"title\":{\"busy\":\"^\\\\*\"},\"screen\":"
	    "{\"permission\":\"Allow\\\\?\"}},{\"name\":\"claude\","
	    "\"comm\":[\"claude2\"]}]}");
	assert_int_equal(agent_load(path, &cause), 0);
	assert_string_equal(agent_match("mybot", NULL, 0)->name, "mybot");
	assert_int_equal(agent_title(agent_by_name("mybot"), "* busy"),
	    TITLE_BUSY);
	/* The user's claude replaced ours. */
	assert_null(agent_match("claude", NULL, 0));
	assert_string_equal(agent_match("claude2", NULL, 0)->name, "claude");
	unlink(path);
	free(path);

	/* Broken files: reported, built-ins kept, nothing half-added. */
	path = write_file("{\"agents\":[{\"name\":\"x\",\"comm\":[\"x\"]},"
	    "{\"name\":\"bad\",\"comm\":[\"b\"],\"title\":{\"busy\":\"(\"}}]}");
	assert_int_equal(agent_load(path, &cause), -1);
	assert_non_null(strstr(cause, "bad pattern"));
	free(cause);
	assert_null(agent_match("x", NULL, 0));
	assert_string_equal(agent_match("claude", NULL, 0)->name, "claude");
	unlink(path);
	free(path);

	path = write_file("{\"agents\": [ {\"name\": ");
	cause = NULL;
	assert_int_equal(agent_load(path, &cause), -1);
	assert_non_null(strstr(cause, "invalid JSON"));
	free(cause);
	unlink(path);
	free(path);
	assert_int_equal(agent_count(), 14);
}

/* Patterns glibc would build out into gigabytes are refused (fuzzing). */
static void
test_pattern_limits(void **state)
{
	static const struct {
		const char	*pattern;
		int		 ok;
	} cases[] = {
		{ "^[*] ", 1 },
		{ "Allow\\?", 1 },
		{ "a+b*c?", 1 },
		{ "x{3}", 1 },
		{ "x{2,16}y{1,}", 1 },
		{ "[+*?]+", 1 },
		{ "\\++", 1 },
		{ "[]+]+", 1 },
		{ "l?+++", 0 },
		{ "a*?", 0 },
		{ "a{3}+", 0 },
		{ "a{17}", 0 },
		{ "a{1,99}", 0 },
		{ "a{1}b{1}c{1}", 0 },
		{ "a{x}", 0 },
	};
	char	 big[AGENT_MAX_PATTERN + 2], *path, *cause = NULL;
	size_t	 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if ((agent_pattern_check(cases[i].pattern) == NULL) !=
		    cases[i].ok)
			fail_msg("pattern %s", cases[i].pattern);
	}
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_non_null(agent_pattern_check(big));

	/* The fuzzer's input: refused with a reason, not 2 GB. */
	path = write_file("{\"agents\":[{\"name\":\"x\",\"comm\":[\"x\"],"
	    "\"title\":{\"idle\":\"^re\\u00e9l\\\\?++++++++++++++++++++"
	    "++++++++++++++++++++++++++++++++++++++++++++++\"}}]}");
	assert_int_equal(agent_load(path, &cause), -1);
	assert_non_null(strstr(cause, "stacked repetition"));
	free(cause);
	assert_null(agent_match("x", NULL, 0));
	unlink(path);
	free(path);
	assert_int_equal(agent_count(), 14);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_titles),
		cmocka_unit_test(test_screens),
		cmocka_unit_test(test_user_file),
		cmocka_unit_test(test_pattern_limits),
	};

	return (cmocka_run_group_tests_name("agent", tests, setup, NULL));
}
