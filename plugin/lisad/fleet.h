/* The fleet: agents on other machines, over OpenSSH (docs/fleet.md). */
#ifndef FLEET_H
#define FLEET_H

#include "lisad.h"

#define FLEET_MAX_HOSTS		OPTIONS_HOSTS_MAX /* (options.h: said as it is checked) */
#define FLEET_MAX_PANES		1024	/* a host's, beyond: ignored */
#define FLEET_MAX_LINE		(256 * 1024)
#define FLEET_MAX_STR		256	/* a remote string, cut there */

/* (STALLED: connected, its word not current: fleet-check.c) */
enum fleet_state { FLEET_DOWN, FLEET_CONNECTING, FLEET_CONNECTED,
    FLEET_STALLED };

/* A remote pane, as its host's helper last described it. */
struct fleet_pane {
	int			 id;		/* remote %N */
	char			*session;
	int			 window;
	char			*window_name;
	int			 pane_index;
	char			*command;
	char			*title;
	int			 dead;
	int			 exit_status;	/* -1: none */
	int			 exit_signal;
	char			*agent;		/* NULL: no agent */
	enum cls_state		 state;
	int			 has_state;
	char			*detail;
	char			*reason;
	char			*since;
	int			 exit_code;	/* -1: none */
	char			*extra;		/* its other keys, cleaned */
	int			 seen;		/* in the last sync */
	uint64_t		 confirmed;	/* real ms: last known current */
	uint64_t		 notified_at;
	int			 notified_group;
	RB_ENTRY(fleet_pane)	 entry;
};
RB_HEAD(fleet_panes, fleet_pane);
RB_PROTOTYPE(fleet_panes, fleet_pane, entry, fleet_pane_cmp);

struct fleet_req;
/* A command on a remote pane, its answer awaited (fleet-req.c). */
typedef void	(*fleet_done_cb)(void *, int, const char *);
struct fleet_req {
	long long		 id;
	struct listener_conn	*lc;		/* NULL: its asker left */
	fleet_done_cb		 done;		/* or a caller in the helper */
	void			*done_arg;
	TAILQ_ENTRY(fleet_req)	 entry;
};

struct fleet_host {
	char			*name;		/* as in @lisa-hosts */
	char			*dest;		/* for ssh */
	char			*socket;	/* remote -L, or NULL */
	enum fleet_state	 state;
	uint64_t		 since;		/* real ms */
	char			 reason[FLEET_MAX_STR * 2];
	/* (its panes are kept while it is not connected: "last seen") */
	char			 err[FLEET_MAX_STR];	/* ssh's last word */
	int			 started;	/* we started its helper */
	int			 resumable;	/* agents it has to resume */
	int			 synced;
	uint64_t		 connects;

	pid_t			 pid;
	int			 rfd;		/* its stdout */
	int			 wfd;		/* its stdin */
	int			 efd;		/* its stderr */
	struct loop_fd		*rev;
	struct loop_fd		*eev;
	struct buf		 in;
	struct buf		 errbuf;
	struct loop_timer	 retry;
	struct loop_timer	 hello;		/* its bridge's hello, due */
	struct loop_timer	 check;		/* a check's answer, due */
	int			 checking;
	long long		 check_id;
	char			 check_why[FLEET_MAX_STR];
	uint64_t		 backoff;
	int			 listed;	/* still in @lisa-hosts */

	struct fleet_panes	 panes;
	TAILQ_HEAD(, fleet_req)	 reqs;
	TAILQ_ENTRY(fleet_host)	 entry;
};
TAILQ_HEAD(fleet_hosts, fleet_host);
extern struct fleet_hosts fleet_hosts;

/* fleet.c */
void		 fleet_option(const char *, const char *);
void		 fleet_reset_config(void);
void		 fleet_apply(void);
void		 fleet_close(void);
void		 fleet_restore(struct buf *);
enum cls_state	 fleet_jump_state(int, const char **);
void		 fleet_jump_set(int, const char *);
void		 fleet_reaped(pid_t, int);
void		 fleet_down(struct fleet_host *, const char *);
void		 fleet_retry_now(struct fleet_host *);
void		 fleet_set_state(struct fleet_host *, enum fleet_state,
		    const char *);
/* fleet-check.c */
void		 fleet_check(struct fleet_host *, const char *);
int		 fleet_check_answered(struct fleet_host *, long long);
void		 fleet_stopped(pid_t, int);
void		 fleet_wake(const char *);
void		 fleet_check_free(struct fleet_host *);
struct fleet_host *fleet_find(const char *);
int		 fleet_parse_target(const char *, struct fleet_host **,
		     int *);
void		 fleet_hosts_json(struct buf *);
int		 fleet_reply(struct fleet_host *, struct json_doc *);
void		 fleet_conn_gone(struct listener_conn *);
int		 fleet_listener(struct listener_conn *, const char *,
		     struct json_doc *);
int		 fleet_send(struct fleet_host *, char **, int,
		     struct listener_conn *, char **);
int		 fleet_send_cb(struct fleet_host *, char **, int,
		     fleet_done_cb, void *, char **);

/* listener.c */
void		 listener_fleet_changed(struct fleet_host *, struct fleet_pane *,
		     int);

/* fleet-pane.c */
void		 fleet_pane_line(struct fleet_host *, const char *, size_t);
void		 fleet_pane_clear(struct fleet_host *);
int		 fleet_pane_current(struct fleet_host *, struct fleet_pane *);
void		 fleet_pane_unconfirm(struct fleet_host *);
struct fleet_pane *fleet_pane_find(struct fleet_host *, int);
int		 fleet_pane_count(struct fleet_host *);
char		*fleet_clean(const char *, size_t);
char		*fleet_clean_text(const char *, size_t);

/* fleet-show.c */
const char	*fleet_state_name(enum fleet_state);
void		 fleet_pane_json(struct buf *, struct fleet_host *,
		     struct fleet_pane *);
void		 fleet_list_json(struct buf *, int, int);
struct publish_places;
void		 fleet_counts(int *, int *, struct publish_places *);
char		*fleet_hosts_summary(void);

#endif
