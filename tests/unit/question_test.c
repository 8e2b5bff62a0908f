/*
 * Questions read off the agents' screens as the real CLIs draw them
 * (Claude Code 2.1, Codex 0.169: ../shared notes, conformance) and as
 * the fake agents of the integration tests do.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"
#include "question.h"

static const char *claude_permission =
    "● Bash(touch x)\n"
    "  ⎿  Waiting…\n"
    "\n"
    "╭──────────────────────────────────────────────╮\n"
    "│ Bash command                                 │\n"
    "│                                              │\n"
    "│   touch x                                    │\n"
    "│   Create the file x                          │\n"
    "│                                              │\n"
    "│ Do you want to proceed?                      │\n"
    "│ ❯ 1. Yes                                     │\n"
    "│   2. Yes, and always allow access to proj/   │\n"
    "│   3. No                                      │\n"
    "│                                              │\n"
    "│ Esc to cancel · Tab to amend · ctrl+e to explain │\n"
    "╰──────────────────────────────────────────────╯\n";

/* Claude Code 2.1.332, as the conformance suite drew it (no box). */
static const char *claude_2_1_332 =
    "\u25cf Running the mock command\n"
    "  \u23bf  $ touch lisa-deny\n"
    "\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\n"
    " Bash command\n"
    " Tip: auto mode handles these prompts for you \u2014 choose \"switch to "
    "auto mode\" below\n"
    " Run the mock command\n"
    "\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\n"
    " touch lisa-deny\n"
    "\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\n"
    " Do you want to proceed?\n"
    " \u276f 1. Yes\n"
    "   2. Yes, and always allow access to /tmp/work from this project\n"
    "   3. Yes, and switch to auto mode \u00b7 auto mode handles these "
    "prompts for you\n"
    "   4. No\n"
    " Esc to cancel \u00b7 Tab to amend\n";

/* Gemini CLI 0.61.0 (the conformance suite's screen, narrowed). */
static const char *gemini_0_61 =
    "\u2726 I will run the command now.\n"
    "\u256d\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e\n"
    "\u2502 ? Shell  touch lisa-deny                 \u2502\n"
    "\u2502 \u256d\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e \u2502\n"
    "\u2502 \u2502 touch lisa-deny                    \u2502 \u2502\n"
    "\u2502 \u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f \u2502\n"
    "\u2502 Allow execution of [Shell]?             \u2502\n"
    "\u2502                                         \u2502\n"
    "\u2502 \u25cf 1. Allow once                        \u2502\n"
    "\u2502   2. Allow for this session             \u2502\n"
    "\u2502   3. No, suggest changes (esc)          \u2502\n"
    "\u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f\n";

/* Qwen Code 0.15.10 and Copilot CLI 1.0.102 (conformance screens). */
static const char *qwen_0_15 =
    "  \u2726 I will run the command now.\n"
    "  \u256d\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e\n"
    "  \u2502 ?  Shell touch lisa-deny (the mock command) \u2190     \u2502\n"
    "  \u2502                                             \u2502\n"
    "  \u2502   touch lisa-deny                           \u2502\n"
    "  \u2502                                             \u2502\n"
    "  \u2502 Allow execution of: 'touch'?                \u2502\n"
    "  \u2502                                             \u2502\n"
    "  \u2502 \u203a 1. Yes, allow once                        \u2502\n"
    "  \u2502   2. Always allow run 'touch *' commands in this project \u2502\n"
    "  \u2502   3. Always allow run 'touch *' commands for this user \u2502\n"
    "  \u2502   4. No, suggest changes (esc)              \u2502\n"
    "  \u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f\n";
static const char *copilot_1_0 =
    " $ Shell the mock command\n"
    "   touch lisa-deny\n"
    "\u256d\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e\n"
    "\u2502 the mock command                       \u2502\n"
    "\u2502 \u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500 \u2502\n"
    "\u2502 \u256d\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e \u2502\n"
    "\u2502 \u2502 touch lisa-deny                  \u2502 \u2502\n"
    "\u2502 \u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f \u2502\n"
    "\u2502                                        \u2502\n"
    "\u2502 Do you want to run this command?       \u2502\n"
    "\u2502                                        \u2502\n"
    "\u2502 \u276f 1. Yes                               \u2502\n"
    "\u2502   2. Yes, and don't ask again for `touch` in this directory \u2502\n"
    "\u2502   3. No, and tell Copilot what to do differently (Esc to stop) \u2502\n"
    "\u2502                                        \u2502\n"
    "\u2502 \u2191/\u2193 to navigate \u00b7 enter to select \u00b7 esc to cancel \u2502\n"
    "\u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f\n";

/* OpenCode 1.18.33 (the conformance suite's screen): buttons. */
static const char *opencode_1_18 =
    "  \u2503  \u25b3 Permission required\n"
    "  \u2503    # Shell command\n"
    "  \u2503\n"
    "  \u2503  $ touch lisa-deny                              /tmp/work/\n"
    "  \u2503\n"
    "  \u2503   Allow once   Allow always   Reject            ctrl+f "
    "fullscreen  \u21c6 select  enter confirm\n"
    "  \u2503                                                 \u2022 OpenCode "
    "1.18.33\n";

static const char *claude_fake =
    "\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\n"
    "\u276f \n"
    "\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\n"
    "  ? for shortcuts \u00b7 \u2190 for agents\n"
    "permission\n"
    "✻ Working (0s · ↓ 10 tokens)\n"
    "  esc to interrupt · ← for agents\n"
    " Bash command\n"
    "   touch x\n"
    " Do you want to proceed?\n"
    " ❯ 1. Yes\n"
    "   2. No\n"
    " Esc to cancel · Tab to amend\n";

static const char *codex_approval =
    "• Working (3s • esc to interrupt)\n"
    "\n"
    "Would you like to run the following command?\n"
    "Environment: local\n"
    "Reason: to create the file\n"
    "$ touch x\n"
    "› 1. Yes, proceed (y)\n"
    "  2. Yes, and don't ask again for commands that start with `touch` (p)\n"
    "  3. No, and tell Codex what to do differently (esc)\n"
    "Press enter to confirm or esc to cancel\n";

static const char *claude_question =
    " ☐ Choice\n"
    "Pick one\n"
    "❯ 1. Option A\n"
    "  2. Option B\n"
    "  3. Type something.\n"
    "  4. Chat about this\n"
    "Enter to select · ↑/↓ to navigate · Esc to cancel\n";

/* A question read again into Q: the one before freed first. */
static int
parse(const char *kind, const char *screen, struct question *q)
{
	question_free(q);
	return (question_from_screen(kind, screen, q));
}

static void
test_claude_permission(void **state)
{
	struct question	q = { 0 };
	char		key[8];

	(void)state;
	assert_int_equal(parse("permission", claude_permission,
	    &q), 0);
	assert_string_equal(q.kind, "permission");
	assert_string_equal(q.tool, "Bash");
	/* (this older dialog draws its description under the command) */
	assert_string_equal(q.subject, "touch x\nCreate the file x");
	assert_string_equal(q.text, "Do you want to proceed?");
	assert_int_equal(q.noptions, 3);
	assert_string_equal(q.options[0], "1. Yes");
	assert_string_equal(q.options[2], "3. No");
	assert_int_equal(q.selected, 0);
	assert_string_equal(q.source, "screen");
	assert_int_equal(strlen(q.fingerprint), 64);
	assert_true(q.top_seen);
	/* allow: the plain yes; always only when named; deny: the no. */
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "1");
	assert_int_equal(question_option_key(&q, "always", key, sizeof key), 1);
	assert_string_equal(key, "2");
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	assert_string_equal(key, "3");
	assert_int_equal(question_option_key(&q, "3", key, sizeof key), 2);
	assert_int_equal(question_option_key(&q, "7", key, sizeof key), -1);
	question_free(&q);
}

/*
 * 2.1.332: the command between dashed rules, under the tool's line and
 * a tip and a description; "auto mode" is a yes that allow must not pick
 * before the plain one.
 */
static void
test_claude_2_1_332(void **state)
{
	struct question	q = { 0 };
	char		key[8];

	(void)state;
	assert_int_equal(parse("permission", claude_2_1_332,
	    &q), 0);
	assert_string_equal(q.tool, "Bash");
	assert_string_equal(q.subject, "touch lisa-deny");
	assert_string_equal(q.text, "Do you want to proceed?");
	assert_int_equal(q.noptions, 4);
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "1");
	assert_int_equal(question_option_key(&q, "always", key, sizeof key), 1);
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 3);
	assert_string_equal(key, "4");
	question_free(&q);
}

/* Gemini: "? Shell  CMD"; allow once by number, this session is always. */
static void
test_gemini_0_61(void **state)
{
	struct question	q = { 0 };
	char		key[8];

	(void)state;
	assert_int_equal(parse("permission", gemini_0_61, &q),
	    0);
	assert_string_equal(q.tool, "Shell");
	assert_string_equal(q.subject, "touch lisa-deny");
	assert_string_equal(q.text, "Allow execution of [Shell]?");
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "1");
	assert_int_equal(question_option_key(&q, "always", key, sizeof key), 1);
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	assert_string_equal(key, "esc");
	question_free(&q);
}

static void
test_qwen_and_copilot(void **state)
{
	struct question	q = { 0 };
	char		key[8];

	(void)state;
	assert_int_equal(parse("permission", qwen_0_15, &q), 0);
	assert_string_equal(q.tool, "Shell");
	assert_string_equal(q.subject, "touch lisa-deny");
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_int_equal(question_option_key(&q, "always", key, sizeof key), 1);
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 3);
	assert_string_equal(key, "esc");
	assert_int_equal(parse("permission", copilot_1_0, &q),
	    0);
	assert_string_equal(q.subject, "touch lisa-deny");
	assert_string_equal(q.text, "Do you want to run this command?");
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	assert_string_equal(key, "esc");	/* "(Esc to stop)" */
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "1");
	question_free(&q);
}

/*
 * OpenCode: its buttons are the options, its "△" line the question; the
 * selected one is told by its colours (capture-pane -e) alone.
 */
/* Cline 3.0.65's permission: its keys in brackets, its spinner over it. */
static const char *cline_3_0 =
    " \u276f #mock run touch lisa-deny\n"
    " * I will run the command now.\n"
    " \u2827 run_commands(touch lisa-deny)\n"
    " Cline needs permission\n"
    "\n"
    " Approve tool call?\n"
    "\n"
    " run_commands\n"
    "\n"
    "   $ touch lisa-deny\n"
    "\n"
    "  [y] Approve   [n] Deny\n"
    "\n"
    "\n"
    " mock-model (100) $0.00                 \u25cb Plan \u25cf Act (Tab)\n"
    " work\n"
    " Auto-approve all disabled (Shift+Tab)\n";

static void
test_cline_keys(void **state)
{
	struct question	q = { 0 }, q2 = { 0 };
	char		key[8], *turned;

	(void)state;
	assert_int_equal(parse("permission", cline_3_0, &q), 0);
	assert_int_equal(q.noptions, 2);
	assert_string_equal(q.options[0], "[y] Approve");
	assert_string_equal(q.options[1], "[n] Deny");
	assert_string_equal(q.text, "Approve tool call?");
	assert_string_equal(q.subject, "touch lisa-deny");
	assert_string_equal(q.tool, "shell");
	assert_true(q.top_seen);
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "y");
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 1);
	assert_string_equal(key, "n");
	assert_int_equal(question_option_key(&q, "always", key, sizeof key),
	    -1);
	/* The spinner over it turns: the same dialog, the same print. */
	turned = strdup(cline_3_0);
	memcpy(strstr(turned, "\u2827"), "\u2819", 3);
	assert_int_equal(parse("permission", turned, &q2), 0);
	assert_string_equal(q.fingerprint, q2.fingerprint);
	question_free(&q2);
	/* Another command: another print. */
	memcpy(strstr(turned, "$ touch lisa-deny") + 8, "lisa-DENY", 9);
	assert_int_equal(parse("permission", turned, &q2), 0);
	assert_string_not_equal(q.fingerprint, q2.fingerprint);
	question_free(&q2);
	free(turned);
	question_free(&q);
}

static void
test_opencode_buttons(void **state)
{
	struct question	q = { 0 };
	char		key[8];
	/* OpenCode 1.18.33's row with -e: Allow once, then Allow always. */
	const char	*sgr =
	    "\033[48;5;234m  \033[48;5;215m \033[38;5;232mAllow once"
	    "\033[38;5;15m \033[48;5;234m  \033[38;5;8mAllow always"
	    "\033[38;5;15m   \033[38;5;8mReject\033[38;5;15m      "
	    "\033[38;5;255mctrl+f \033[38;5;8mfullscreen\033[38;5;15m  "
	    "\033[38;5;255m\u21c6 \033[38;5;8mselect\033[38;5;15m  "
	    "\033[38;5;255menter \033[38;5;8mconfirm\033[38;5;15m\n";
	const char	*sgr2 =
	    "\033[48;5;234m   \033[38;5;8mAllow once\033[38;5;15m  "
	    "\033[48;5;215m \033[38;5;232mAllow always\033[38;5;15m "
	    "\033[48;5;234m  \033[38;5;8mReject\033[38;5;15m      "
	    "\033[38;5;255mctrl+f \033[38;5;8mfullscreen\033[38;5;15m  "
	    "\033[38;5;255m\u21c6 \033[38;5;8mselect\033[38;5;15m  "
	    "\033[38;5;255menter \033[38;5;8mconfirm\033[38;5;15m\n";

	(void)state;
	assert_int_equal(parse("permission", opencode_1_18, &q),
	    0);
	assert_int_equal(q.noptions, 3);
	assert_string_equal(q.options[0], "Allow once");
	assert_string_equal(q.options[2], "Reject");
	assert_string_equal(q.text, "Permission required");
	assert_string_equal(q.subject, "touch lisa-deny");
	assert_int_equal(q.selected, -1);
	/* A button: no key of its own (selected, then Enter). */
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "");
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	assert_int_equal(question_option_key(&q, "always", key, sizeof key), 1);
	assert_int_equal(question_selected_sgr(sgr, &q), 0);
	assert_int_equal(question_selected_sgr(sgr2, &q), 1);
	/* All alike, or no colours: not known. */
	assert_int_equal(question_selected_sgr(opencode_1_18, &q), -1);
	question_free(&q);
}

/*
 * Kilo Code's CLI 7.7.7 (OpenCode's fork), captured from the real CLI on
 * the conformance mock: the command shown once above the dialog too, its
 * buttons coloured its own way (capture-pane -e).
 */
static void
test_kilo_buttons(void **state)
{
	struct question	q = { 0 };
	char		key[8];
	const char	*screen =
	    "     I will run the command now.\n"
	    "     $ touch kilo-deny\n"
	    "     \u25a3  Code \u00b7 Mock\n"
	    "  \u2503\n"
	    "  \u2503  \u25b3 Permission required\n"
	    "  \u2503    # the mock command\n"
	    "  \u2503\n"
	    "  \u2503  $ touch kilo-deny\n"
	    "  \u2503\n"
	    "  \u2503\n"
	    "  \u2503   Allow once   Allow always   Reject                      "
	    "           ctrl+f fullscreen  \u21c6 select  enter confirm\n"
	    "  \u2503\n";
	const char	*sgr =
	    "  \033[38;5;178m\033[48;5;234m\u2503\033[38;5;15m\033[48;5;235m  "
	    "\033[48;5;178m \033[38;5;232mAllow once\033[38;5;15m \033[48;5;235m "
	    "\033[48;5;234m \033[38;5;247mAllow always\033[38;5;15m "
	    "\033[48;5;235m \033[48;5;234m \033[38;5;247mReject\033[38;5;15m "
	    "\033[48;5;235m                                ctrl+f \033[38;5;247m"
	    "fullscreen\033[38;5;15m  \u21c6 \033[38;5;247mselect\033[38;5;15m  "
	    "enter \033[38;5;247mconfirm\033[38;5;15m   \033[48;5;232m\n";
	const char	*sgr2 =
	    "  \033[38;5;178m\033[48;5;234m\u2503\033[38;5;15m\033[48;5;235m  "
	    "\033[48;5;234m \033[38;5;247mAllow once\033[38;5;15m \033[48;5;235m "
	    "\033[48;5;178m \033[38;5;232mAllow always\033[38;5;15m "
	    "\033[48;5;235m \033[48;5;234m \033[38;5;247mReject\033[38;5;15m "
	    "\033[48;5;235m                                ctrl+f \033[38;5;247m"
	    "fullscreen\033[38;5;15m  \u21c6 \033[38;5;247mselect\033[38;5;15m  "
	    "enter \033[38;5;247mconfirm\033[38;5;15m   \033[48;5;232m\n";

	(void)state;
	assert_int_equal(parse("permission", screen, &q), 0);
	assert_int_equal(q.noptions, 3);
	assert_string_equal(q.options[0], "Allow once");
	assert_string_equal(q.options[1], "Allow always");
	assert_string_equal(q.options[2], "Reject");
	assert_string_equal(q.text, "Permission required");
	assert_string_equal(q.subject, "touch kilo-deny");
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	assert_int_equal(question_selected_sgr(sgr, &q), 0);
	assert_int_equal(question_selected_sgr(sgr2, &q), 1);
	question_free(&q);
}

/*
 * Grok CLI 0.0.34 (npm @vibe-kit/grok-cli), captured from the real CLI on
 * the conformance mock: numbered options that no number picks (arrows
 * and Enter), the selected one known by its colour alone.
 */
static void
test_grok_list(void **state)
{
	struct question	q = { 0 };
	char		key[8];
	const char	*screen =
	    "  > go #mock run touch grok-made\n"
	    "\n"
	    "  \u23fa I will run the command now.\n"
	    "\n"
	    "  \u23fa Run bash command(touch grok-made)\n"
	    "    \u23bf Requesting user confirmation\n"
	    "    \u23bf Command: touch grok-made\n"
	    "        No changes detected.\n"
	    "\n"
	    "  Do you want to proceed with this operation?\n"
	    "\n"
	    "   1. Yes\n"
	    "   2. Yes, and don't ask again this session\n"
	    "   3. No\n"
	    "   4. No, with feedback\n"
	    "\n"
	    "  \u2191\u2193 navigate \u2022 Enter select \u2022 Esc cancel\n";
	const char	*sgr =
	    "\033[0m\033[39m\033[49m  Do you want to proceed with this "
	    "operation?\n"
	    "\n"
	    "   \033[30m\033[46m1. Yes\n"
	    "\033[39m\033[49m   \033[37m2. Yes, and don't ask again this "
	    "session\n"
	    "\033[39m   \033[37m3. No\n"
	    "\033[39m   \033[37m4. No, with feedback\n"
	    "\n"
	    "  \u2191\u2193 navigate \u2022 Enter select \u2022 Esc cancel\n";
	const char	*sgr3 =
	    "\033[0m\033[39m\033[49m  Do you want to proceed with this "
	    "operation?\n"
	    "\n"
	    "   \033[37m1. Yes\n"
	    "\033[39m   \033[37m2. Yes, and don't ask again this session\n"
	    "\033[39m   \033[30m\033[46m3. No\n"
	    "\033[39m\033[49m   \033[37m4. No, with feedback\n"
	    "\n"
	    "  \u2191\u2193 navigate \u2022 Enter select \u2022 Esc cancel\n";

	(void)state;
	assert_int_equal(parse("permission", screen, &q), 0);
	assert_int_equal(q.noptions, 4);
	assert_string_equal(q.options[0], "1. Yes");
	assert_string_equal(q.options[2], "3. No");
	assert_string_equal(q.text, "Do you want to proceed with this operation?");
	assert_string_equal(q.subject, "touch grok-made");
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	assert_int_equal(question_option_key(&q, "always", key, sizeof key), 1);
	assert_int_equal(question_selected_sgr(sgr, &q), 0);
	assert_int_equal(question_selected_sgr(sgr3, &q), 2);
	assert_int_equal(question_selected_sgr(screen, &q), -1);
	question_free(&q);
}

static void
test_claude_fake_and_fingerprints(void **state)
{
	struct question	a = { 0 }, b = { 0 }, c = { 0 };

	(void)state;
	assert_int_equal(parse("permission", claude_fake, &a), 0);
	assert_string_equal(a.tool, "Bash");
	assert_string_equal(a.subject, "touch x");
	assert_int_equal(a.noptions, 2);
	/* The same dialog: the same fingerprint; another command: another. */
	assert_int_equal(parse("permission", claude_fake, &b), 0);
	assert_string_equal(a.fingerprint, b.fingerprint);
	assert_int_equal(parse("permission",
	    "  Bash command\n    rm -rf build\n  Do you want to proceed?\n"
	    "  ❯ 1. Yes\n    2. No\n", &c), 0);
	assert_string_equal(c.subject, "rm -rf build");
	assert_string_not_equal(a.fingerprint, c.fingerprint);
	/* No options: no question. */
	assert_int_equal(parse("permission", "❯ \n", &c), -1);
	assert_int_equal(c.noptions, 0);
	question_free(&a);
	question_free(&b);
	question_free(&c);
}

static void
test_codex_approval(void **state)
{
	struct question	q = { 0 };
	char		key[8];

	(void)state;
	assert_int_equal(parse("permission", codex_approval,
	    &q), 0);
	assert_string_equal(q.tool, "shell");
	assert_string_equal(q.subject, "touch x");
	assert_string_equal(q.text,
	    "Would you like to run the following command?");
	assert_int_equal(q.noptions, 3);
	assert_int_equal(q.selected, 0);
	/* Codex's own keys, from the options' ends. */
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), 0);
	assert_string_equal(key, "y");
	assert_int_equal(question_option_key(&q, "always", key, sizeof key), 1);
	assert_string_equal(key, "p");
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), 2);
	assert_string_equal(key, "esc");
	question_free(&q);
}

static void
test_claude_question(void **state)
{
	struct question	q = { 0 };
	char		key[8];

	(void)state;
	assert_int_equal(parse("question", claude_question,
	    &q), 0);
	assert_string_equal(q.text, "Pick one");
	assert_string_equal(q.subject, "");
	assert_int_equal(q.noptions, 4);
	assert_string_equal(q.options[1], "2. Option B");
	/* Not a yes/no: allow and deny find nothing; a number does. */
	assert_int_equal(question_option_key(&q, "allow", key, sizeof key), -1);
	assert_int_equal(question_option_key(&q, "deny", key, sizeof key), -1);
	assert_int_equal(question_option_key(&q, "2", key, sizeof key), 1);
	assert_string_equal(key, "2");
	question_free(&q);
}

/* Claude Code 2.1.332's layout around COMMAND's lines. */
static char *
claude_screen(const char *command)
{
	struct buf	 b;
	const char	*s = command;
	size_t		 n;

	buf_init(&b);
	buf_adds(&b, "\u25cf Running it\n"
	    "\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\n"
	    " Bash command\n"
	    " Run a script\n"
	    "\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\n");
	while (*s != '\0') {
		n = strcspn(s, "\n");
		buf_printf(&b, " %.*s\n", (int)n, s);
		s += n + (s[n] == '\n');
	}
	buf_adds(&b, "\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\u254c\n"
	    " Do you want to proceed?\n"
	    " \u276f 1. Yes\n"
	    "   2. Yes, and always allow access to /tmp/work from this project\n"
	    "   3. No\n"
	    " Esc to cancel \u00b7 Tab to amend\n");
	return (buf_detach(&b));
}

/*
 * Two queued dialogs whose commands share their first line (a heredoc's):
 * each read whole, each its own fingerprint; the same one, the same.
 */
static void
test_same_first_line(void **state)
{
	struct question	 a = { 0 }, b = { 0 }, c = { 0 };
	char		*sa, *sb, *sc;

	(void)state;
	sa = claude_screen("python3 - <<'EOF'\nprint('hello')\nEOF");
	sb = claude_screen("python3 - <<'EOF'\nimport shutil; "
	    "shutil.rmtree('/home')\nEOF");
	sc = claude_screen("python3 - <<'EOF'\nprint('hello')\nEOF");
	assert_int_equal(parse("permission", sa, &a), 0);
	assert_int_equal(parse("permission", sb, &b), 0);
	assert_int_equal(parse("permission", sc, &c), 0);
	assert_string_equal(a.tool, "Bash");
	assert_string_equal(a.subject,
	    "python3 - <<'EOF'\nprint('hello')\nEOF");
	assert_int_equal(a.subject_lines, 3);
	assert_string_equal(b.subject, "python3 - <<'EOF'\nimport shutil; "
	    "shutil.rmtree('/home')\nEOF");
	assert_true(a.top_seen);
	assert_int_equal(a.lines, 12);	/* the rule to the last option */
	assert_string_not_equal(a.fingerprint, b.fingerprint);
	assert_string_equal(a.fingerprint, c.fingerprint);
	free(sa);
	free(sb);
	free(sc);
	question_free(&a);
	question_free(&b);
	question_free(&c);
}

/* A command of 400 lines: all 400 read, one differing line seen. */
static void
test_long_command(void **state)
{
	struct question	 a = { 0 }, b = { 0 };
	struct buf	 ca, cb;
	char		*sa, *sb;
	int		 i;

	(void)state;
	buf_init(&ca);
	buf_init(&cb);
	for (i = 0; i < 400; i++) {
		buf_printf(&ca, "%secho line %d", i > 0 ? "\n" : "", i);
		buf_printf(&cb, "%secho line %d", i > 0 ? "\n" : "",
		    i == 3 ? 333 : i);
	}
	sa = claude_screen(ca.data);
	sb = claude_screen(cb.data);
	assert_int_equal(parse("permission", sa, &a), 0);
	assert_int_equal(parse("permission", sb, &b), 0);
	assert_int_equal(a.subject_lines, 400);
	assert_string_equal(a.subject, ca.data);
	assert_string_not_equal(a.fingerprint, b.fingerprint);
	free(sa);
	free(sb);
	buf_free(&ca);
	buf_free(&cb);
	question_free(&a);
	question_free(&b);
}

/* Codex: "$ CMD" and its lines under it, longer than the question's reach. */
static void
test_codex_long(void **state)
{
	struct question	 a = { 0 }, b = { 0 };
	struct buf	 sa, sb;
	int		 i;

	(void)state;
	buf_init(&sa);
	buf_init(&sb);
	for (i = 0; i < 2; i++) {
		struct buf *s = i == 0 ? &sa : &sb;
		int	    j;

		buf_adds(s, "Would you like to run the following command?\n"
		    "Environment: local\nReason: a script\n"
		    "$ python3 - <<'EOF'\n");
		for (j = 0; j < 20; j++)
			buf_printf(s, "x = %d\n", i == 1 && j == 0 ? 99 : j);
		buf_adds(s, "EOF\n\u203a 1. Yes, proceed (y)\n"
		    "  2. Yes, and don't ask again for commands that start "
		    "with `python3` (p)\n"
		    "  3. No, and tell Codex what to do differently (esc)\n"
		    "Press enter to confirm or esc to cancel\n");
	}
	assert_int_equal(parse("permission", sa.data, &a), 0);
	assert_int_equal(parse("permission", sb.data, &b), 0);
	assert_string_equal(a.tool, "shell");
	assert_string_equal(a.text,
	    "Would you like to run the following command?");
	assert_int_equal(a.subject_lines, 22);
	assert_true(strncmp(a.subject, "python3 - <<'EOF'\nx = 0\n", 24) == 0);
	assert_true(a.top_seen);
	assert_string_not_equal(a.fingerprint, b.fingerprint);
	buf_free(&sa);
	buf_free(&sb);
	question_free(&a);
	question_free(&b);
}

/*
 * The hook's whole command: taken (and fingerprinted) when its first line
 * is the screen's; another command's hook is not.
 */
static void
test_hook(void **state)
{
	struct question	 q = { 0 };
	char		 fp[SHA256_HEX], *s;

	(void)state;
	s = claude_screen("make build");
	assert_int_equal(parse("permission", s, &q), 0);
	strlcpy(fp, q.fingerprint, sizeof fp);
	question_add_hook(&q, "Bash", "rm -rf /");
	assert_string_equal(q.fingerprint, fp);
	assert_null(q.hook_subject);
	assert_string_equal(q.source, "screen");
	question_add_hook(&q, "Bash", "make build\n&& make install");
	assert_string_equal(q.hook_subject, "make build\n&& make install");
	assert_string_equal(q.source, "hook");
	assert_string_not_equal(q.fingerprint, fp);
	/* The same hook on the same screen: the same fingerprint. */
	strlcpy(fp, q.fingerprint, sizeof fp);
	assert_int_equal(parse("permission", s, &q), 0);
	question_add_hook(&q, "Bash", "make build\n&& make install");
	assert_string_equal(q.fingerprint, fp);
	/*
	 * A hook that says what the screen shows (to its last blank): the
	 * dialog read before it came, the same fingerprint.
	 */
	assert_int_equal(parse("permission", s, &q), 0);
	strlcpy(fp, q.fingerprint, sizeof fp);
	question_add_hook(&q, "Bash", "make build  \n");
	assert_string_equal(q.source, "hook");
	assert_string_equal(q.hook_subject, "make build  \n");
	assert_string_equal(q.fingerprint, fp);
	/* Another first line: not its hook, the screen's stands. */
	assert_int_equal(parse("permission", s, &q), 0);
	question_add_hook(&q, "Bash", "make build;");
	assert_string_equal(q.source, "screen");
	assert_string_equal(q.fingerprint, fp);
	/* Its first line, and a line more than the screen shows: another. */
	assert_int_equal(parse("permission", s, &q), 0);
	question_add_hook(&q, "Bash", "make build\n;");
	assert_string_not_equal(q.fingerprint, fp);
	free(s);
	question_free(&q);
}

/* The words a person answers with; anything else is no choice. */
static void
test_choice_words(void **state)
{
	(void)state;
	assert_string_equal(question_choice("allow"), "allow");
	assert_string_equal(question_choice("yes"), "allow");
	assert_string_equal(question_choice("y"), "allow");
	assert_string_equal(question_choice("deny"), "deny");
	assert_string_equal(question_choice("no"), "deny");
	assert_string_equal(question_choice("n"), "deny");
	assert_string_equal(question_choice("always"), "always");
	assert_string_equal(question_choice("3"), "3");
	assert_null(question_choice("Allow"));
	assert_null(question_choice("yes please"));
	assert_null(question_choice("0"));
	assert_null(question_choice("123"));
	assert_null(question_choice(""));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claude_permission),
		cmocka_unit_test(test_claude_2_1_332),
		cmocka_unit_test(test_gemini_0_61),
		cmocka_unit_test(test_qwen_and_copilot),
		cmocka_unit_test(test_opencode_buttons),
		cmocka_unit_test(test_kilo_buttons),
		cmocka_unit_test(test_grok_list),
		cmocka_unit_test(test_claude_fake_and_fingerprints),
		cmocka_unit_test(test_codex_approval),
		cmocka_unit_test(test_claude_question),
		cmocka_unit_test(test_same_first_line),
		cmocka_unit_test(test_long_command),
		cmocka_unit_test(test_codex_long),
		cmocka_unit_test(test_hook),
		cmocka_unit_test(test_choice_words),
		cmocka_unit_test(test_cline_keys),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
