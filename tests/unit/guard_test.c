/*
 * The guard before keys reach a pane: every agent's dialogs as the real
 * CLIs draw them (the measurement notes), the shapes of agents lisa has
 * no profile for, and screens that must not count as a dialog.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "agent.h"
#include "guard.h"

static int
setup(void **state)
{
	char	*cause = NULL;

	return (agent_load("/nonexistent/agents.json", &cause));
}

static void
check(const char *agent, const char *screen, enum guard_kind kind,
    const char *what, const char *choice)
{
	struct guard	g;

	guard_screen(agent != NULL ? agent_by_name(agent) : NULL, screen, &g);
	if (g.kind != kind || strcmp(g.what, what) != 0 ||
	    strcmp(g.choice, choice) != 0)
		fail_msg("%s: %d/%s/%s, want %d/%s/%s, for:\n%s",
		    agent != NULL ? agent : "-", g.kind, g.what, g.choice, kind,
		    what, choice, screen);
}

static void
test_dialogs(void **state)
{
	/* Claude Code's permission dialog (2.1.x). */
	check("claude", "\xe2\x97\x8f Bash(touch nudged_marker.txt)\n"
	    " Bash command\n   touch nudged_marker.txt\n"
	    " Do you want to proceed?\n \xe2\x9d\xaf 1. Yes\n"
	    "   2. Yes, and always allow access to proj/ from this project\n"
	    "   3. No\n Esc to cancel \xc2\xb7 Tab to amend\n",
	    GUARD_DIALOG, "permission", "1. Yes");
	/* Its question (AskUserQuestion). */
	check("claude", " \xe2\x98\x90 Choice\nPick one\n"
	    "\xe2\x9d\xaf 1. Option A\n  2. Option B\nEnter to select "
	    "\xc2\xb7 \xe2\x86\x91/\xe2\x86\x93 to navigate \xc2\xb7 Esc to "
	    "cancel\n", GUARD_DIALOG, "question", "1. Option A");
	/* Its trust dialog. */
	check("claude", "Quick safety check: Is this a project you created "
	    "or one you trust?\n\xe2\x9d\xaf 1. Yes, I trust this folder\n"
	    "  2. No, exit\n", GUARD_DIALOG, "trust",
	    "1. Yes, I trust this folder");
	/* Codex's approval. */
	check("codex", "Would you like to run the following command?\n"
	    "$ touch x\n\xe2\x80\xba 1. Yes, proceed (y)\n"
	    "  2. No, and tell Codex what to do differently (esc)\n"
	    "Press enter to confirm or esc to cancel\n",
	    GUARD_DIALOG, "permission", "1. Yes, proceed (y)");
	/* Codex's Ctrl-C modal: a choice its profile does not name. */
	check("codex", "Task is still running\n\xe2\x80\xba 1. Cancel task"
	    "        Stop the current task\n  2. Run in background\n",
	    GUARD_DIALOG, "choice", "1. Cancel task        Stop the "
	    "current task");
	/* Gemini CLI's approval, in its box. */
	check("gemini", "\xe2\x94\x82 ? Shell touch x\n\xe2\x94\x82 Allow "
	    "execution of [Shell]?\n\xe2\x94\x82 \xe2\x97\x8f 1. Allow once\n"
	    "\xe2\x94\x82   2. Allow for this session\n", GUARD_DIALOG,
	    "permission", "1. Allow once");
	/* An agent lisa has no profile for: the shapes alone. */
	check(NULL, "Approve the plan?\n  > 1. Yes, auto-accept edits\n"
	    "    2. No, keep planning\n", GUARD_DIALOG, "choice",
	    "1. Yes, auto-accept edits");
	check(NULL, "Apply these edits? (y/n)\n", GUARD_DIALOG,
	    "confirmation", "");
	check("aider", "Create new file x.py? (Y)es/(N)o [Yes]:\n",
	    GUARD_DIALOG, "permission", "");
}

static void
test_not_dialogs(void **state)
{
	/* At the prompt. */
	check("claude", "\xe2\x97\x8f Done.\n\n\xe2\x9d\xaf \n? for shortcuts"
	    "\n", GUARD_NONE, "", "");
	check("codex", "\xe2\x80\xba Ask Codex to do anything\n", GUARD_NONE,
	    "", "");
	/* A numbered list in the agent's answer, no pointer on it. */
	check("claude", "Steps:\n  1. Build\n  2. Test\n\xe2\x9d\xaf \n",
	    GUARD_NONE, "", "");
	/* Working. */
	check("claude", "\xe2\x9c\xbb Thinking\xe2\x80\xa6 (esc to interrupt)"
	    "\n", GUARD_BUSY, "busy", "");
	/* A pointer without a number; a number with no dot. */
	check(NULL, "> 12 files\n\xe2\x9d\xaf 3\n", GUARD_NONE, "", "");
	check(NULL, "", GUARD_NONE, "", "");
}

static void
test_verdict(void **state)
{
	assert_null(guard_verdict("waiting_input", "prompt"));
	assert_null(guard_verdict("in_progress", "generating"));
	assert_null(guard_verdict("completed", ""));
	assert_null(guard_verdict(NULL, NULL));
	assert_string_equal(guard_verdict("waiting_input", "permission"),
	    "permission");
	assert_string_equal(guard_verdict("waiting_input", "question"),
	    "question");
	assert_string_equal(guard_verdict("waiting_input", "limit"), "limit");
	/* Its detail still coming (a screen not yet read): a dialog. */
	assert_string_equal(guard_verdict("waiting_input", ""), "a dialog");
	assert_string_equal(guard_verdict("waiting_input", NULL), "a dialog");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dialogs),
		cmocka_unit_test(test_not_dialogs),
		cmocka_unit_test(test_verdict),
	};

	return (cmocka_run_group_tests(tests, setup, NULL));
}
