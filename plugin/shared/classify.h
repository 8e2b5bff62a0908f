/*
 * The classifier: every signal lisa has about an agent pane in, one state
 * with its reason out. Pure (no I/O, no clock of its own) so the rules can
 * be tested as tables.
 */
#ifndef LISA_CLASSIFY_H
#define LISA_CLASSIFY_H

#include <stdint.h>

enum cls_state {
	ST_NONE = 0,		/* not an agent pane */
	ST_JUST_STARTED,
	ST_IN_PROGRESS,
	ST_WAITING_INPUT,
	ST_COMPLETED,
	ST_CRASHED,
	ST_STUCK,
	ST_DEGRADED,
	ST_NOT_FOUND,
	ST_NSTATES
};

enum cls_lifecycle { LC_NONE = 0, LC_STARTING, LC_RUNNING, LC_EXITED };
enum cls_activity { AC_NONE = 0, AC_WORKING, AC_WAITING, AC_IDLE };

/* What the title says, by the agent's profile. */
enum title_class {
	TITLE_UNKNOWN = 0,	/* no title, or not shaped like this agent's */
	TITLE_BUSY,
	TITLE_IDLE,		/* idle or waiting: the screen tells */
	TITLE_WAITING,
	TITLE_CLEARED,		/* set to "" (agents do on a clean exit) */
};

/* What a screen capture matched (bits). */
#define SCREEN_PERMISSION	0x0001
#define SCREEN_QUESTION		0x0002
#define SCREEN_TRUST		0x0004
#define SCREEN_BUSY		0x0008	/* "esc to interrupt" */
#define SCREEN_RETRYING		0x0010
#define SCREEN_TOOL		0x0020
#define SCREEN_ERROR		0x0040
#define SCREEN_INTERRUPTED	0x0080
#define SCREEN_PROMPT		0x0100
#define SCREEN_EXITED		0x0200	/* the agent's own goodbye text */
#define SCREEN_KILLED		0x0400	/* a shell's "Killed" and friends */
#define SCREEN_LIMIT		0x0800	/* a usage or rate limit hit */
#define SCREEN_NHINTS		12

/* Codex's OSC 7501 state. */
enum codex_state {
	CX_NONE = 0, CX_IDLE, CX_WORKING, CX_BLOCKED, CX_DONE, CX_ERROR,
	CX_CLEAR
};

/* Claude's sessions/<pid>.json status; "shell": a turn over, a
 * background shell still running (2.1.332). */
enum session_status { SS_NONE = 0, SS_IDLE, SS_BUSY, SS_WAITING, SS_SHELL };
#define SS_LAST SS_SHELL	/* the fuzzer's bound: move it with a new status */

/* The last meaningful entry of Claude's transcript. */
enum transcript_event {
	TX_NONE = 0, TX_WORKING, TX_TURN_DONE, TX_API_ERROR, TX_INTERRUPTED,
	TX_LIMIT		/* an API error that is a rate or usage limit */
};
#define TX_LAST TX_LIMIT

/* The last agent hook pushed by `lisa notify`. */
enum hook_event {
	HK_NONE = 0, HK_SESSION_START, HK_PROMPT, HK_PRE_TOOL, HK_PERMISSION,
	HK_POST_TOOL, HK_STOP, HK_STOP_FAILURE, HK_NOTIFY_IDLE,
	HK_NOTIFY_PERMISSION, HK_SESSION_END, HK_TURN_COMPLETE,
	HK_STOP_LIMIT		/* StopFailure, rate_limit */
};

/* Who ended the agent on purpose (lisa kill, the menu, the watchdog). */
#define KILLED_NONE	0
#define KILLED_USER	1
#define KILLED_LISA	2

/* Times are monotonic milliseconds; 0 means "never". */
struct cls_input {
	uint64_t	now;

	/* tmux */
	int		pane_dead;
	int		exit_status;	/* -1 unknown */
	int		exit_signal;	/* -1 none */

	/* process tree */
	int		agent_seen;	/* an agent ran in this pane */
	int		agent_alive;
	uint64_t	agent_since;	/* when we first saw it */
	int		agent_exit_status;	/* -1 unknown */
	int		agent_exit_signal;	/* -1 unknown */
	int		agent_gone_busy;	/* shown working as it went */
	int		children;	/* live tool processes under it */
	int		background;	/* tasks it left running (transcript) */
	uint64_t	background_ended_at;	/* the last of them ended */
	int		cpu_busy;	/* CPU used since the last look */
	int		proc_failed;	/* /proc unreadable */
	int		killed_by;	/* KILLED_*: ended on purpose */

	/* output stream */
	uint64_t	last_output;
	enum title_class title;
	uint64_t	title_at;
	enum codex_state codex;
	uint64_t	codex_at;
	int		osc133_exit;	/* -1 none; the shell's D;N after */
	uint64_t	osc133_at;

	/* screen (captured on demand) */
	uint64_t	retry_at;	/* retry text seen in the output */
	uint64_t	retry_since;	/* ... first, in this streak */

	unsigned	screen;
	uint64_t	screen_at;
	int		screen_signal;	/* with SCREEN_KILLED */
	int		shell_signal;	/* -1; a shell's "Killed" after the agent */
	int		capture_failed;
	char		tool[48];	/* question vs permission hint */

	/* agent files and hooks */
	enum session_status session;
	uint64_t	session_at;
	int		session_stale;	/* file left by a dead pid */
	int		session_failed;	/* unreadable / corrupt */
	enum hook_event	hook;
	uint64_t	hook_at;
	int		hooks_partial;	/* its hooks miss some turn ends */
	int		dialog_clock;	/* a clock redrawn over its dialog */
	int		dialog_spinner;	/* a spinner turning over its dialog */
	int		error_screen;	/* its error over its prompt: an end */
	unsigned	output_rate;	/* bytes/s, the last whole second */
	int		hook_question;	/* PermissionRequest for AskUserQuestion */
	enum transcript_event transcript;
	uint64_t	transcript_at;
	int		gemini_chat;	/* the transcript is Gemini's chat log */
	int		pi_session;	/* the transcript is pi's session file */
	int		cline_session;	/* the session is Cline's file */

	/* thresholds, ms */
	uint64_t	debounce;
	uint64_t	grace;
	uint64_t	stale;
	/*
	 * A helper before us had the agent quiet since carried_quiet (mono
	 * ms, 0: none); an explicit signal this helper read between
	 * carried_from (its start) and carried_until (soon after it met the
	 * agent) is the one that helper had read, not news (live.c).
	 */
	uint64_t	carried_quiet;
	uint64_t	carried_from;
	uint64_t	carried_until;
	uint64_t	limit_wait;	/* a limit waited out this long: shown */
};

struct cls_result {
	enum cls_state		state;
	enum cls_lifecycle	lifecycle;
	enum cls_activity	activity;
	char			detail[32];
	const char		*reason;
	/* When to look again if nothing happens (0: no need). */
	uint64_t		recheck_at;
	/* The screen should be captured (quiet or ambiguous). */
	int			want_capture;
	/*
	 * Made with the pane quiet past the debounce: no timer follows the
	 * output then, so output that comes must bring a new verdict.
	 */
	int			settled;
	/* It rests on output or a title alone, nothing the agent said. */
	int			weak;
	/* Working: quiet since then (mono ms), the stuck clock's start. */
	uint64_t		quiet_at;
};

void		 classify(const struct cls_input *, struct cls_result *);
const char	*cls_state_name(enum cls_state);
const char	*cls_lifecycle_name(enum cls_lifecycle);
const char	*cls_activity_name(enum cls_activity);
enum cls_state	 cls_state_from_name(const char *);
int		 cls_state_mask(const char *, unsigned int *);
const char	*cls_state_names_help(void);

#endif
