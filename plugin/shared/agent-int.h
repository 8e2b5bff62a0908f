/*
 * The built-in agent profiles as written (agent-builtin.c), before
 * agent.c compiles their patterns.
 */
#ifndef AGENT_INT_H
#define AGENT_INT_H

#include <stddef.h>

#include "agent.h"

struct builtin {
	const char	*name;
	const char	*comm[AGENT_MAX_NAMES];
	const char	*argv[AGENT_MAX_NAMES];
	const char	*title_busy;
	const char	*title_idle;
	const char	*title_waiting;
	const char	*screen[SCREEN_NHINTS];
	const char	*retry_marks[3];
	int		 osc7501;
	int		 claude_files;
	int		 codex_files;
	int		 gemini_files;
	int		 qwen_files;
	int		 pi_files;
	int		 cline_files;
	int		 copilot_files;
	int		 opencode_files;
	const char	*opencode_dir;
	int		 retry_screen;
	int		 hooks_partial;
	int		 answer_enter;
	int		 dialog_buttons;
	int		 dialog_clock;
	int		 dialog_spinner;
	int		 dialog_list;
	int		 error_screen;
	const char	*resume;
	const char	*reject_form;
};

extern const struct builtin	agent_builtins[];
extern const size_t		agent_nbuiltins;

#endif
