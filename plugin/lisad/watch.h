/*
 * The watch: each agent pane's signals, its verdict and what follows from
 * it (its end, the watchdog, lisa's actions on it, its run). What
 * plugin/lisad's files share about an agent pane, beyond lisad.h's pane.
 */
#ifndef LISAD_WATCH_H
#define LISAD_WATCH_H

#include "lisad.h"

/* watch.c: per-pane signals, classification, transitions. */
#define PUBLISH_NFIELDS 7
struct agent_profile;
struct file_stamp {		/* a file as we last read it */
	int64_t			 mtime;	/* ns */
	int64_t			 size;
};
struct watch {
	struct osc_scanner	 osc;
	struct question		 question;	/* its dialog, last read */
	int			 question_ok;
	uint64_t		 question_seq;	/* dialogs seen, keys sent */
	uint64_t		 resume_sum;	/* what its resume record holds */
	int			 question_tries; /* reads for it, this wait */
	uint64_t		 question_at;	/* the next */
	const struct agent_profile *agent;
	char			 agent_name[32];	/* to find it after a reload */
	pid_t			 agent_pid;
	pid_t			 agent_pane_pid; /* the pane's, then */
	uint64_t		 agent_start;	/* /proc starttime: pid reuse */
	int			 agent_pidfd;
	struct loop_fd		*agent_ev;
	int			 agent_seen;
	int			 agent_alive;
	uint64_t		 agent_since;	/* mono ms: lisa first saw it */
	uint64_t		 agent_began;	/* mono ms: it began, at most */
	uint64_t		 agent_began_slack; /* ms: ... this much later */
	int			 agent_exit_status;
	int			 agent_exit_signal;
	uint64_t		 agent_gone_at;
	int			 agent_gone_busy; /* shown working as it went */
	int			 killed_by;	/* KILLED_*, for ... */
	pid_t			 killed_pid;	/* ... this pane process */
	pid_t			 killed_agent;	/* ... and this agent */
	int			 children;
	uint64_t		 cpu_ticks;
	uint64_t		 cpu_at;
	int			 cpu_busy;
	int			 proc_failed;

	char			*title;
	uint64_t		 title_at;
	uint64_t		 title_told_at;	/* from tmux, unread */
	int			 title_cleared;
	enum codex_state	 codex;
	uint64_t		 codex_at;
	int			 osc133_exit;
	uint64_t		 osc133_at;
	uint64_t		 bell_at;
	uint64_t		 bell_ours_at;	/* notify.c rang it */
	uint64_t		 notify_at;
	uint64_t		 retry_at;
	uint64_t		 retry_since;	/* this streak's first */

	unsigned		 screen;
	uint64_t		 screen_at;
	int			 screen_signal;
	char			 tail[64];	/* last output bytes */
	size_t			 tail_len;
	int			 shell_signal;	/* reported after the agent */
	size_t			 shell_words_left; /* bytes to look at for it */
	int			 output_scanned;
	uint64_t		 output_scan_at;	/* mono ms */
	int			 output_unscanned; /* bytes since: a look due */
	uint64_t		 watch_since;	/* lisa began to watch the pane */
	uint64_t		 young_at;	/* a new child may be a tool */
	uint64_t		 rescan_at;	/* a new pane: look again then */
	uint64_t		 zombie_at;	/* its process seen a zombie */
	pid_t			 relisted_pid;	/* gone: the session listed */
	int			 young_rescanned;
	pid_t			 young_pid;	/* whose looks those are */
	pid_t			 looked_pids[8]; /* the last look's non-agents */
	int			 nlooked;
	uint64_t		 looked_at;
	int			 capturing;	/* (or put off: capture_timer) */
	struct loop_timer	 capture_timer;
	uint64_t		 capture_wanted; /* mono ms: first put off */
	uint64_t		 capture_asked;	/* mono ms: when it was asked */
	uint64_t		 resync_asked;	/* the same, pane_resync's */
	int			 capture_failed;

	char			*session_dir;	/* Claude's sessions/ */
	int			 env_unread;	/* found with no environment */
	char			*transcript_dir; /* projects/<cwd slug>/ */
	char			 claude_session_id[64];
	char			 argv_session[64];  /* --resume ID it began with */
	char			*agent_exe;	/* its program's path (resume) */
	int			 agent_exe_tries; /* looks that found none */
	char			 chat_session[64];  /* its chat log's (Gemini, Qwen) */
	int			 oc_past_wait;	/* OpenCode: tries left at the log's past */
	char			*session_cwd;	/* its directory, as its files say */
	char			*pane_cwd;	/* tmux's word for it (no proc_cwd) */
	pid_t			 pane_cwd_pid;	/* the agent that was asked for */
	int64_t			 agent_since_real;	/* real ms: it began */
	enum transcript_event	 transcript;
	uint64_t		 transcript_at;
	struct file_stamp	 transcript_stamp;
	struct file_stamp	 session_stamp;
	char			*codex_home;	/* its CODEX_HOME */
	int			 codex_resume_read; /* its arguments, read */
	char			*rollout;	/* its rollout, or Gemini's chat log */
	char			*rollout_before; /* the last run's in this pane */
	char			*gemini_home;	/* its ~/.gemini */
	char			*gemini_chats;	/* tmp/<project>/chats there */
	char			*agent_log;	/* Copilot's logs, OpenCode's log */
	char			*copilot_log;	/* the log its session came from */
	off_t			 copilot_off;	/* read up to here */
	uint64_t		 codex_turn_at;	/* OSC 7501 working began */
	struct usage		 usage;		/* tokens, from its transcript */
	struct bgtasks		 bg;		/* its work left running */
	uint64_t		 bg_ended_at;	/* a task of it ended */
	uint64_t		 usage_ino;	/* the file counted (0: none) */
	uint64_t		 usage_dev;
	uint64_t		 usage_off;	/* read up to here */
	struct buf		 usage_part;	/* a line not yet whole */
	int			 usage_skip;	/* in a line too long to keep */
	enum session_status	 session;
	uint64_t		 session_at;
	int			 session_stale;
	int			 session_failed;
	enum hook_event		 hook;
	uint64_t		 hook_at;
	int			 hook_question;
	char			 hook_tool[32];	/* PermissionRequest's */
	char			*hook_subject;	/* its whole command, or NULL */

	struct cls_result	 res;
	int			 classified;
	int64_t			 since;		/* real ms, state entered */
	struct loop_timer	 timer;
	int			 scan;		/* re-read /proc next run */
	int			 touched;	/* this run is for an event */
	int			 closing;	/* its last run: the pane went */
	int			 exec_looks;	/* its pid ran another program */
	int			 kept;		/* remain-on-exit decided */
	int			 kept_set;	/* and set by us: undo at stop */
	char			*pub[PUBLISH_NFIELDS];	/* what tmux has */
	int			 pub_dirty;	/* to be written */
	int			 pub_known;	/* pub[] is tmux's truth */
	char			*pub_lisa;	/* @lisa, as tmux has it */
	int			 pub_jump;	/* a remote agent's rank, -1 */
	uint64_t		 notified_at;	/* mono ms */
	int			 notified_group;
	int			 shown_waits;	/* its verdict: at its prompt */
	/*
	 * Met young, and not yet at a prompt or working by its own word:
	 * its first prompt is its start, not the end of a turn.
	 */
	int			 starting;

	enum cls_state		 carry_state;	/* a live agent's verdict from a */
	int64_t			 carry_since;	/* helper before us (live.c) */
	uint64_t		 carry_quiet;	/* its stuck clock (mono ms) */
	uint64_t		 carry_from;	/* signals read from then */
	uint64_t		 carry_until;	/* until then: its */
	int			 held;		/* a verdict from a helper before */
	int			 held_new;	/* not shown yet */
	struct cls_result	 held_res;
	char			 held_reason[32];
	int64_t			 held_since;	/* real ms */
	int			 held_exit;
	uint64_t		 ended_base;	/* the shell's reaped count */
	int			 ended_base_set;
	int			 ended_look;	/* output since the last look */
	uint64_t		 ended_looked;	/* mono ms */

	int			 wd_level;	/* watchdog: -1, 0..3 */
	int			 wd_pending;	/* level waiting to act */
	int			 wd_working;
	int			 wd_exempt;
	uint64_t		 wd_alive;	/* last sign of life but output */
	uint64_t		 wd_last;	/* last sign of life */
	uint64_t		 wd_out_at;	/* last output that counts */
	uint64_t		 wd_quiet_until;	/* our nudge's echo */
	char			*wd_label;	/* @lisa_watchdog */
	int			 term_reported;	/* this death's record made */
	int			 term_asked;	/* its screen asked for */
	char			*termination;	/* its JSON */
	struct loop_timer	 wd_timer;
};
void		 watch_new(struct pane *);
void		 watch_free(struct pane *);
void		 watch_output(struct pane *, const char *, size_t);
void		 watch_output_dropped(struct pane *);
void		 watch_title(struct pane *, const char *);
void		 watch_changed(struct pane *);
void		 watch_screen(struct pane *, const char *, size_t, uint64_t);
int		 watch_question(struct watch *, const char *, size_t,
		    struct question *);
int		 watch_question_kinded(struct watch *, const char *,
		    const char *, size_t, struct question *);
/*
 * A dialog taller than the pane: its first line is in the pane's history,
 * read this far back (the watch when it cannot see the top, an answer
 * always: the same text, the same fingerprint).
 */
#define WATCH_DIALOG_HISTORY	2000
/*
 * A screen is read once the pane has been still this long, waiting at
 * most the other: a redraw can reach tmux in two reads (watch-screen.c).
 */
#define WATCH_STILL_MS		40
#define WATCH_STILL_MAX_MS	300
uint64_t	 watch_still_wait(struct pane *, uint64_t *);
void		 watch_json(struct buf *, struct pane *);
void		 watch_list_json(struct buf *, int);
int		 watch_title_ours(struct watch *);
int		 watch_matches(struct pane *, unsigned);
void		 watch_reload(void);
void		 watch_hook(struct pane *, enum hook_event, int);
void		 watch_poke(struct pane *);
void		 watch_rescan_in(struct pane *, uint64_t);
void		 watch_rescan(struct pane *);
void		 watch_adopt(struct pane *, const char *);
void		 watch_run_ended(struct pane *, int, int);
void		 watch_agent_exit(struct pane *, int, int);
int		 watch_exit_code(struct pane *);

/* ended.c: ended agents' verdicts, remembered and dismissed. */
int		 ended_is(struct pane *);
void		 ended_changed(void);
void		 ended_save_now(void);
void		 ended_load(void);
void		 ended_pane_new(struct pane *);
int		 ended_held(struct pane *, struct cls_result *);
int		 ended_dismiss(struct pane *, const char *);
void		 ended_command(struct pane *);
void		 ended_output(struct pane *);
uint64_t	 ended_check(struct pane *, uint64_t);

/* watchdog.c: stalled agents, warn -> nudge -> triage -> terminate. */
void		 watchdog_reset_config(void);
void		 watchdog_option(const char *, const char *);
void		 watchdog_check(struct pane *);
void		 watchdog_output(struct pane *);
void		 watchdog_free(struct pane *);
void		 wd_timer_cb(void *);

/* agent-files.c: files agents keep about themselves, via inotify. */
void		 agentfiles_agent(struct pane *);
void		 agentfiles_agent_gone(struct pane *);
void		 agentfiles_look(struct pane *);
void		 agentfiles_close(void);
int		 agentfiles_watch(const char *);
char		*agentfiles_env_dir(pid_t, const char *, const char *);
char		*agentfiles_pread(int, off_t, size_t, size_t *);
#define AGENTFILES_USAGE	0x1	/* a line changed the usage */
#define AGENTFILES_BG		0x2	/* ... the background tasks */
void		 agentfiles_usage(struct pane *, const char *,
		     int (*)(struct watch *, const char *, size_t));

/* agent-files-codex.c: Codex's rollout, for its tokens and window. */
void		 agentfiles_codex_look(struct pane *);
void		 agentfiles_codex_changed(const char *, const char *);

/* agent-files-gemini.c: Gemini CLI's chat log, for its tokens and limits. */
void		 agentfiles_gemini_look(struct pane *);
int		 agentfiles_gemini_changed(const char *, const char *);
void		 agentfiles_cline_look(struct pane *);
int		 agentfiles_cline_changed(const char *, const char *);
void		 agentfiles_copilot_look(struct pane *);
int		 agentfiles_copilot_changed(const char *, const char *);
void		 agentfiles_opencode_look(struct pane *, int);
int		 agentfiles_opencode_changed(const char *, const char *);
void		 agentfiles_opencode_close(void);

/* run-watch.c: lisa run's runs, as the wrapper reports them. */
int		 runs_update(const char *, char **);
void		 runs_pane_json(struct buf *, int);
int		 runs_is_run_pane(int);
int		 runs_pane_exit(int, int *, int *);
uint64_t	 runs_leave_look(int);
void		 runs_mark_killed(int, const char *);
int		 runs_retry_pane(struct pane *);

/* live.c: live agents' verdicts across a restart of the helper. */
void		 live_load(void);
void		 live_changed(void);
void		 live_save_now(void);
void		 live_agent_met(struct pane *);
void		 live_close(void);

/* resume-record.c: the agents lisa resume brings back. */
void		 resume_record_save(void);
void		 resume_record_save_checked(void);
void		 resume_record_check(struct pane *);
void		 resume_ask_cwd(struct pane *);
void		 watch_final(struct pane *);
void		 resume_record_gone(int);
const char	*resume_agent_id(struct watch *, char *, size_t);
void		 resume_argv_id(char **, int, char *, size_t);
void		 resume_record_close(void);
void		 resume_record_dir_check(void);

/* act.c: typing into a pane, checked at that moment. */
struct act_who {
	int		 pane;
	pid_t		 pane_pid;
	pid_t		 agent_pid;	/* 0: none */
	uint64_t	 agent_start;
};
typedef void	(*act_done_cb)(int, const char *);
void		 act_nudge(struct pane *, const char *, int, const char *,
		    const char *, struct listener_conn *, act_done_cb);
void		 act_incarnation(struct pane *, char *, size_t);
const char	*act_expected(struct pane *, const char *);
void		 act_who_set(struct act_who *, struct pane *);
const char	*act_who_same(const struct act_who *, struct pane **);
void		 act_conn_gone(struct listener_conn *);
void		 act_close(void);

/* answer.c: answering a dialog on purpose, checked at that moment. */
/* An answer's end for a caller in the helper: refused (why), or what was chosen. */
typedef void	(*answer_done_cb)(void *, const char *, const char *);
void		 answer_start_by(struct pane *, const char *, const char *,
		     const char *, answer_done_cb, void *);
void		 answer_start(struct pane *, const char *, const char *,
		    const char *, struct listener_conn *);
void		 answer_conn_gone(struct listener_conn *);

/* answer-token.c: the token an answer names its dialog by. */
#define ANSWER_TOKEN_LEN	256
void		 answer_token(struct pane *, const char *, char *, size_t);
const char	*answer_token_check(struct pane *, const char *);
void		 answer_close(void);

/* kill.c: SIGTERM to a pane's tree, SIGKILL after 2 s. */
int		 terminate_pane(struct pane *, const char *, char **);

/* termination.c: how a pane lisa did not start ended. */
void		 termination_report(struct pane *, const char *, size_t);
void		 termination_json(struct buf *, struct pane *);

/* agent-hooks.c: agent hook events (lisa notify) to their panes. */
struct json_doc;
void		 agenthook_notify(struct json_doc *);
void		 agenthook_close(void);

#endif
