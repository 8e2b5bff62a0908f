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
int64_t		 loop_next_timer_ms(void);

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
	char		*state_dir;	/* where resume records are kept */
	char		*state_error;	/* ... and why they cannot be */
};
extern struct lisad lisad;
void		 lisad_stop(int);
int		 lisad_server_alive(void);

/* config.c: the @lisa-* options, checked. */
void		 config_reload(void);
u_int		 config_warnings(const char ***);
void		 config_client(void);

/* tmux-cmd.c: run tmux outside the control connections. */
int		 tmux_run(char **, const char *, ...) __attribute__((sentinel));
int		 tmux_source(const char *);
int		 tmux_read_each(const char **, size_t, char **);
int		 tmux_spawn_control(int, pid_t *, int *, int *);
int		 tmux_spawn_wait(const char *, pid_t *, int *);

/* lisad.c */
void		 lisad_child_limits(void);

/* key-tmux.c */
struct json_doc;
struct listener_conn;
int		 key_tmux_request(struct listener_conn *, struct json_doc *,
		    const char **);
void		 key_tmux_conn_gone(struct listener_conn *);
void		 key_tmux_close(void);

/* tmux-proxy.c */
int		 proxy_open(void);
void		 proxy_close(void);
const char	*proxy_path(void);

/* session.c: one control client per tmux session. */
struct session {
	int			 id;
	char			*name;
	pid_t			 pid;
	struct ctl_client	*ctl;
	struct loop_fd		*rev;
	struct loop_fd		*wev;
	int			 attached;	/* saw %session-changed */
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
struct session	*session_hearing(void);
void		 session_start(void);
void		 session_refresh(void);
void		 session_changed(void);
void		 session_hooked(int);
extern uint64_t	 tmux_forks;
int		 session_send_screen(struct session *, const char *,
		     ctl_reply_cb, void *);
int		 session_send(struct session *, const char *, ctl_reply_cb,
		    void *);
void		 session_close_all(void);
void		 session_kick_all(void);
void		 session_reaped(pid_t);
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
	int			 hup_held;	/* pane-hup.c: tmux asked */
	int			 hup_agent;	/* (for the agent's death) */
	pid_t			 hup_pid;
	int			 hup_status;
	int			 hup_sig;
	int			 hup_agent_status;
	int			 hup_agent_sig;
	int			 hup_words;	/* asked once its shell spoke */
	char			*hup_screen;	/* its screen at the agent's end */
	size_t			 hup_screen_len;
	struct loop_timer	 hup_timer;
	int			 hup_timer_ready;
	pid_t			 replaced_pid;	/* "replaced" told for it */
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
void		 pane_session_renamed(int);
void		 pane_session_gone(int, int);
void		 pane_output(struct session *, int, const char *, size_t,
		    uint64_t);
void		 pane_pause(struct session *, int);
void		 pane_died(int, int, int, int);
void		 pane_set_dead(struct pane *, int, int, int, const char *);
int		 pane_hup(struct pane *, int, int, int);
void		 pane_hup_free(struct pane *, int);
void		 pane_hup_closed(struct pane *);
void		 pane_replaced(struct pane *, pid_t, pid_t);
void		 pane_exit_look(struct pane *);
void		 pane_respawned(int);
void		 pane_subscription(struct session *, struct ctl_event *);
void		 pane_json(struct buf *, struct pane *);
void		 pane_tap_closed(struct listener_conn *);
void		 pane_resync(struct pane *);
/*
 * -A flags in one refresh-client, at most: tmux prints every command it
 * parses (args_print, three times: parse, queue, hooks), growing the
 * string with a strlcat per word, so a command's cost grows with its
 * length squared (500 panes in one were 10 % of tmux's time at B6).
 */
#define PANE_MUTE_PER_CMD	32
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
void		 pane_early_hold(struct session *, int, const char *, size_t,
		    uint64_t);
void		 pane_early_listed(struct session *);
void		 pane_early_session_gone(int);
void		 pane_early_close(void);
extern const char *pane_subscription_format;

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
void		 listener_send_error(struct listener_conn *, const char *);
void		 listener_event(const char *, size_t);
void		 listener_pane_changed(struct pane *);
void		 listener_pane_gone(int);
int		 listener_pane_arg(const char *);

/* info.c: what the helper says of itself. */
void		 info_json(struct buf *);
void		 info_option_warnings(struct buf *);

#endif
