/* The helper, lisad: one per tmux server. What plugin/lisad/ shares. */
#ifndef LISAD_H
#define LISAD_H

#include "shared.h"

/* loop.c: one poll() loop; fds and timers, nothing else wakes us. */
typedef void (*loop_fd_cb)(int, short, void *);
struct loop_fd;
struct loop_timer {
	uint64_t		 when;
	uint64_t		 seq;
	void			(*cb)(void *);
	void			*arg;
	int			 armed;
	RB_ENTRY(loop_timer)	 entry;
};
struct loop_fd	*loop_add(int, short, loop_fd_cb, void *);
void		 loop_events(struct loop_fd *, short);
void		 loop_del(struct loop_fd *);
void		 loop_timer_init(struct loop_timer *, void (*)(void *), void *);
void		 loop_timer_add(struct loop_timer *, uint64_t);
void		 loop_timer_del(struct loop_timer *);
int		 loop_run(void);
void		 loop_exit(int);
uint64_t	 loop_wakeups(void);

/* Global helper state. */
struct lisad {
	struct server_id sid;
	char		*rundir;
	char		*sockpath;
	char		*lockpath;
	char		*lisa_bin;
	char		 version[32];
	struct tmux_version tv;
	struct tmux_caps caps;
	pid_t		 server_pid;
	char		 instance[48];	/* "PID-START": this server, not another
					   started later at the same socket */
	int		 pidfd;
	char		*ignore;	/* @lisa-ignore-sessions */
	int		 pause_after;	/* seconds, for attach -f pause-after */
	int		 dead_hook;	/* pane-died hook usable on this tmux */
	int		 use_pidfd;	/* watch pane processes (LISAD_NO_PIDFD) */
	int		 use_subscriptions; /* %* backstop (LISAD_NO_SUBSCRIPTIONS) */
	int		 stream_mute;	/* pane-mute.c: 0 off, 1 on, 2 samples only */
	const char	*reply_sep;	/* \037 as it comes back in replies */
	int		 hooks_installed;
	int64_t		 started;
	int		 stopping;
	int		 server_gone;	/* seen to exit: send it nothing */
	uint64_t	 reply_unparsed;	/* reply lines not understood */

	/* @lisa-* options, read at start and on `lisa reload`. */
	uint64_t	 debounce_ms;
	uint64_t	 grace_ms;
	uint64_t	 limit_wait_ms;	/* @lisa-limit-wait */
	uint64_t	 stale_ms;
	int		 keep_failed;
	uint64_t	 events_max_bytes;
	uint64_t	 events_max_lines;
	uint64_t	 retry_delay_ms;	/* times the attempt */
	char		*context_windows; /* @lisa-context-windows */
	char		*agents_error;	/* agents.json problem, for doctor */
};
extern struct lisad lisad;
void		 lisad_stop(int);
int		 lisad_server_alive(void);
void		 lisad_reload(void);

/* tmux-cmd.c: run tmux outside the control connections. */
int		 tmux_run(char **, const char *, ...) __attribute__((sentinel));
int		 tmux_source(const char *);
int		 tmux_spawn_control(int, pid_t *, int *, int *);

/* session.c: one control client per tmux session. */
struct session {
	int			 id;
	char			*name;
	pid_t			 pid;
	struct ctl_client	*ctl;
	struct loop_fd		*rev;
	struct loop_fd		*wev;
	int			 attached;	/* saw %session-changed */
	int			 identified;	/* tmux has written to it */
	int			 closing;
	int			 broken;	/* a write failed: close next turn */
	int			 behind;	/* saw old output: kick when drained */
	int			 listing;	/* list-panes in flight */
	int			 list_again;	/* and wanted again */
	RB_ENTRY(session)	 entry;
};
RB_HEAD(sessions, session);
RB_PROTOTYPE(sessions, session, entry, session_cmp);
extern struct sessions sessions;
int		 session_cmp(struct session *, struct session *);
struct session	*session_find(int);
void		 session_start(void);
void		 session_refresh(void);
void		 session_changed(void);
void		 session_hooked(int);
extern uint64_t	 tmux_forks;
int		 session_send(struct session *, const char *, ctl_reply_cb,
		    void *);
void		 session_close_all(void);
void		 session_kick_all(void);
int		 session_count(void);
int		 session_ignored(const char *);
int		 session_reply_fields(char *, char **, int);
void		 session_unparsed(const char *);

/* pane.c: what we know of every pane. */
struct listener_conn;
struct pane {
	int			 id;
	int			 window;
	int			*sessions;	/* sessions showing it */
	int			 nsessions;
	int			 window_index;	/* in sessions[0] */
	int			 pane_index;
	char			*window_name;
	pid_t			 pid;
	char			*command;
	char			*title;
	int			 dead;
	int			 dead_status;	/* -1 if none */
	int			 dead_signal;	/* -1 if none */
	int64_t			 dead_time;	/* ms, real */

	int			 out_session;	/* whose %output we count */
	uint64_t		 out_bytes;
	uint64_t		 out_last;	/* mono ms */
	uint64_t		 rate_start;	/* mono ms, this rate window */
	uint64_t		 rate_bytes;	/* bytes in it */
	double			 rate;		/* bytes/s, last full window */
	uint64_t		 resyncs;

	int			 pidfd;		/* on pid, until it exits */
	struct loop_fd		*pidfd_ev;
	pid_t			 pidfd_pid;

	struct listener_conn	*tap;
	uint64_t		 tap_left;

	int			 muted;		/* MUTE_*: paused for us */
#define MUTE_NONE	0
#define MUTE_FLOOD	1
#define MUTE_STREAM	2
	uint64_t		 mutes;
	uint64_t		 stream_mutes;
	int			 stream_probe;	/* continued for a sample */
	uint64_t		 stream_start;	/* mono ms, this stream window */
	uint64_t		 stream_bytes;	/* bytes in it */
	uint64_t		 stream_slowed;	/* samples that came up short */
	uint64_t		 stream_kept;	/* pauses the kernel prolonged */
	int			 stream_keeps;	/* ... in a row, since a sample */
	uint64_t		 stream_wchar;	/* the agent's writes, then */
	int			 mute_title;	/* ask for its title after continue */
	uint64_t		 mute_start;	/* mono ms, this rate window */
	uint64_t		 mute_bytes;
	int			 mute_probe;	/* a short window: flood again? */
	struct loop_timer	 mute_timer;
	int			 mute_timer_ready;
	int			 drain_paused;	/* pane-mute.c: tmux 3.2's #2828 */
	pid_t			 drain_pid;	/* the pane's pid then */

	struct watch		*watch;		/* classification state */

	RB_ENTRY(pane)		 entry;
};
RB_HEAD(panes, pane);
RB_PROTOTYPE(panes, pane, entry, pane_cmp);
extern struct panes panes;
int		 pane_cmp(struct pane *, struct pane *);
struct pane	*pane_find(int);
int		 pane_has_session(struct pane *, int);
void		 pane_list_session(struct session *);
void		 pane_layout(struct session *, int, const char *);
void		 pane_window_unlinked(struct session *, int);
void		 pane_window_renamed(int, const char *);
void		 pane_session_gone(int);
void		 pane_output(struct session *, int, const char *, size_t,
		    uint64_t);
void		 pane_pause(struct session *, int);
void		 pane_died(int, int, int);
void		 pane_exit_look(struct pane *);
void		 pane_respawned(int);
void		 pane_subscription(struct session *, struct ctl_event *);
void		 pane_json(struct buf *, struct pane *);
void		 pane_tap_closed(struct listener_conn *);
void		 pane_resync(struct pane *);
void		 pane_mute_check(struct pane *, size_t);
void		 pane_unmute(struct pane *, const char *);
void		 pane_mute_stream(struct pane *, size_t);
void		 pane_mute_verdict(struct pane *);
extern uint64_t	 pane_mute_pauses;
void		 pane_mute_free(struct pane *);
void		 pane_drain(int, struct listener_conn *);
void		 pane_drain_check(struct pane *, int);
void		 pane_drain_respawned(struct pane *);
void		 pane_drain_conn_gone(struct listener_conn *);
void		 pane_drain_close(void);
extern const char *pane_subscription_format;

/* watch.c: per-pane signals, classification, transitions. */
#define PUBLISH_NFIELDS 7
struct agent_profile;
struct file_stamp {		/* a file as we last read it */
	int64_t			 mtime;	/* ns */
	int64_t			 size;
};
struct watch {
	struct osc_scanner	 osc;
	const struct agent_profile *agent;
	char			 agent_name[32];	/* to find it after a reload */
	pid_t			 agent_pid;
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
	uint64_t		 watch_since;	/* lisa began to watch the pane */
	uint64_t		 young_at;	/* a new child may be a tool */
	uint64_t		 rescan_at;	/* a new pane: look again then */
	uint64_t		 zombie_at;	/* its process seen a zombie */
	pid_t			 relisted_pid;	/* gone: the session listed */
	int			 young_rescanned;
	pid_t			 looked_pids[8]; /* the last look's non-agents */
	int			 nlooked;
	uint64_t		 looked_at;
	int			 capturing;
	uint64_t		 capture_asked;	/* mono ms: when it was asked */
	uint64_t		 resync_asked;	/* the same, pane_resync's */
	int			 capture_failed;

	char			*session_dir;	/* Claude's sessions/ */
	int			 env_unread;	/* found with no environment */
	char			*transcript_dir; /* projects/<cwd slug>/ */
	char			 claude_session_id[64];
	int64_t			 agent_since_real;	/* real ms: it began */
	enum transcript_event	 transcript;
	uint64_t		 transcript_at;
	struct file_stamp	 transcript_stamp;
	struct file_stamp	 session_stamp;
	char			*codex_home;	/* its CODEX_HOME */
	char			*rollout;	/* its rollout, or Gemini's chat log */
	char			*gemini_home;	/* its ~/.gemini */
	char			*gemini_chats;	/* tmp/<project>/chats there */
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

	struct cls_result	 res;
	int			 classified;
	int64_t			 since;		/* real ms, state entered */
	struct loop_timer	 timer;
	int			 scan;		/* re-read /proc next run */
	int			 touched;	/* this run is for an event */
	int			 kept;		/* remain-on-exit decided */
	int			 kept_set;	/* and set by us: undo at stop */
	char			*pub[PUBLISH_NFIELDS];	/* what tmux has */
	int			 pub_dirty;	/* to be written */
	int			 pub_known;	/* pub[] is tmux's truth */
	uint64_t		 notified_at;	/* mono ms */
	int			 notified_group;
	/*
	 * Met young, and not yet at a prompt or working by its own word:
	 * its first prompt is its start, not the end of a turn.
	 */
	int			 starting;

	enum cls_state		 carry_state;	/* a live agent's verdict from a */
	int64_t			 carry_since;	/* helper before us (live.c) */
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
void		 watch_title(struct pane *, const char *);
void		 watch_changed(struct pane *);
void		 watch_screen(struct pane *, const char *, size_t, uint64_t);
void		 watch_json(struct buf *, struct pane *);
int		 watch_title_ours(struct watch *);
int		 watch_matches(struct pane *, unsigned);
void		 watch_reload(void);
void		 watch_hook(struct pane *, enum hook_event, int);
void		 watch_poke(struct pane *);
void		 watch_rescan_in(struct pane *, uint64_t);
void		 watch_rescan(struct pane *);
void		 watch_adopt(struct pane *, const char *);
void		 watch_run_ended(struct pane *, int, int);
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

/* publish.c: @lisa_* options into tmux, coalesced. */
struct publish_stats {
	uint64_t	 commands;	/* set-option commands sent */
	uint64_t	 batches;	/* writes they went out in */
};
extern struct publish_stats publish_stats;
void		 publish_schedule(void);
void		 publish_pane(struct pane *);
void		 publish_restore(struct buf *);
void		 publish_forget(struct pane *);
void		 publish_keep_failed(struct pane *);
struct session	*pane_session(struct pane *);
void		 rfc3339(int64_t, char *, size_t);

/* proc.c: the kernel's view of a pane's process. */
int		 proc_tree(pid_t, struct proc_node *, int);
int		 proc_pidfd(pid_t);
int		 proc_exit_status(pid_t, int *, int *);
int		 proc_reaped(pid_t, uint64_t *);

/* events.c: pane events, in memory, in a JSONL file, to followers. */
void		 events_add(const char *, int, const char *, ...)
		    printflike(3, 4);
void		 events_json_add(const char *, int, const char *);
void		 events_transition(struct pane *, enum cls_state,
		    const struct cls_result *, const char *);
void		 events_json(struct buf *, int64_t);
void		 events_open(void);
void		 events_close(void);

/* ui-install.c: status line, window badges, borders, keys. */
void		 ui_reset(void);
void		 ui_option(const char *, const char *);
void		 ui_apply(void);
void		 ui_restore(void);
int		 ui_border_auto(void);
const char	*ui_warning(void);

/* notify.c: messages, bells, desktop, @lisa-on-transition. */
struct notify_stats {
	uint64_t	 messages;
	uint64_t	 bells;
	uint64_t	 desktop;
	uint64_t	 commands;
	uint64_t	 terminal;
	uint64_t	 sounds;
	uint64_t	 focused;
};
extern struct notify_stats notify_stats;
void		 notify_focus(int, const char *);
void		 notify_reset(void);
void		 notify_option(const char *, const char *);
void		 notify_transition(struct pane *, enum cls_state,
		    const struct cls_result *, const char *);
void		 notify_escalate(struct pane *, const char *);
void		 notify_remote(const char *, const char *, const char *,
		     const char *, enum cls_state, enum cls_state, uint64_t *,
		     int *);

/* notify-command.c: notify-send, sound, a terminal's own notification. */
char		*notify_which(const char *);
void		 notify_child(int, int);
void		 notify_spawn_desktop(const char *, int, const char *,
		     const char *, int, const char *);
void		 notify_spawn_sound(const char *, const char *, const char *,
		     const char *);
void		 notify_spawn_tty(const char *, const char *, size_t);
void		 notify_spawn_stop(void);

/* run-watch.c: lisa run's runs, as the wrapper reports them. */
int		 runs_update(const char *, char **);
void		 runs_pane_json(struct buf *, int);
int		 runs_is_run_pane(int);
int		 runs_pane_exit(int, int *, int *);
void		 runs_mark_killed(int, const char *);
int		 runs_retry_pane(struct pane *);

/* live.c: live agents' verdicts across a restart of the helper. */
void		 live_load(void);
void		 live_changed(void);
void		 live_save_now(void);
void		 live_agent_met(struct pane *);
void		 live_close(void);

/* act.c: typing into a pane, checked at that moment. */
typedef void	(*act_done_cb)(int, const char *);
void		 act_nudge(struct pane *, const char *, int, const char *,
		    const char *, struct listener_conn *, act_done_cb);
void		 act_incarnation(struct pane *, char *, size_t);
const char	*act_expected(struct pane *, const char *);
void		 act_conn_gone(struct listener_conn *);
void		 act_close(void);

/* kill.c: SIGTERM to a pane's tree, SIGKILL after 2 s. */
int		 terminate_pane(struct pane *, const char *, char **);

/* termination.c: how a pane lisa did not start ended. */
void		 termination_report(struct pane *, const char *, size_t);
void		 termination_json(struct buf *, struct pane *);

/* tmux-hooks.c */
int		 hooks_install(void);
void		 hooks_remove(void);

/* listener.c: the CLI's socket. */
int		 listener_open(const char *, char **);
void		 listener_close(void);
int		 listener_tap_write(struct listener_conn *, const char *,
		    size_t);
void		 listener_tap_end(struct listener_conn *);
void		 listener_send(struct listener_conn *, struct buf *);
/* info.c */
void		 info_json(struct buf *);
void		 listener_send_error(struct listener_conn *, const char *);
void		 listener_event(const char *, size_t);
void		 listener_pane_changed(struct pane *);
void		 listener_pane_gone(int);
int		 listener_pane_arg(const char *);

/* agent-hooks.c: agent hook events (lisa notify) to their panes. */
struct json_doc;
void		 agenthook_notify(struct json_doc *);
void		 agenthook_close(void);
void		 listener_hooks_ready(void);
int64_t		 listener_hold_age(void);

#endif
