/*
 * Agent profiles: how to recognise each agent's process, read its title
 * and its screen. Data, not code: built-in entries plus the user's
 * ~/.config/lisa/agents.json, which may add agents or override ours.
 */
#ifndef LISA_AGENT_H
#define LISA_AGENT_H

#include <regex.h>

#include "classify.h"

#define AGENT_MAX_NAMES 6

#define AGENT_MAX_PATTERN 256

struct agent_profile {
	char		*name;
	char		*comm[AGENT_MAX_NAMES];	/* process names */
	char		*argv[AGENT_MAX_NAMES];	/* basenames in argv (node) */
	regex_t		*title_busy;
	regex_t		*title_idle;
	regex_t		*title_waiting;
	regex_t		*screen[SCREEN_NHINTS];
	char		*retry_marks[3];	/* literal text in the output */
	int		 osc7501;	/* speaks Codex's state protocol */
	int		 claude_files;	/* keeps ~/.claude/sessions/PID.json */
	int		 codex_files;	/* writes $CODEX_HOME/sessions rollouts */
	int		 gemini_files;	/* writes ~/.gemini/tmp/<id>/chats logs */
	int		 qwen_files;	/* writes ~/.qwen/projects/<cwd>/chats logs */
	int		 pi_files;	/* writes ~/.pi/agent/sessions/--<cwd>-- */
	int		 cline_files;	/* keeps ~/.cline/data/sessions/<id> */
	int		 copilot_files;	/* logs to ~/.copilot/logs/process-*-PID */
	int		 opencode_files; /* logs to ~/.local/share/opencode/log */
	char		*opencode_dir;	/* that "opencode" in a fork (Kilo) */
	int		 retry_screen;	/* its retry text on screen is live */
	int		 hooks_partial;	/* its hooks miss some turn ends */
	int		 answer_enter;	/* a dialog's number then Enter */
	int		 dialog_buttons; /* buttons: arrows, Enter (OpenCode) */
	int		 dialog_clock;	/* redraws a clock over its dialog */
	int		 dialog_spinner; /* its spinner turns over its dialog */
	int		 dialog_list;	/* options by arrows, chosen in colour */
	int		 error_screen;	/* its error over its prompt ends a turn */
	char		*resume;	/* sh: its resume, the id as "$1" */
	char		*reject_form;	/* its Reject asks why: that text */
	int		 user;		/* from agents.json */
};

int	 agent_load(const char *, char **);
const char *agent_pattern_check(const char *);
int	 agent_parse_user(const char *, size_t, const char *, char **);
void	 agent_free_all(void);
int	 agent_count(void);
const struct agent_profile *agent_by_name(const char *);
const struct agent_profile *agent_match(const char *, char **, int);
int	 agent_argv_word(const struct agent_profile *, char **, int);
int		 agent_id_ok(const char *);
int		 agent_model_ok(const char *);
enum title_class agent_title(const struct agent_profile *, const char *);
unsigned agent_screen(const struct agent_profile *, const char *, int *);
int	 agent_shell_death(const char *);
int	 agent_shell_death_stream(const char *, size_t);
const char *agent_hint_name(unsigned);
char	*agent_config_path(void);

#endif
