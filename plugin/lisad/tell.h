/*
 * What the helper shows and tells: @lisa_* options written into tmux,
 * lisa's part of the user's tmux (status line, badges, borders, keys),
 * notifications.
 */
#ifndef LISAD_TELL_H
#define LISAD_TELL_H

#include "lisad.h"

/* publish.c: @lisa_* options into tmux, coalesced. */
#define PUBLISH_WAITING_MAX	8	/* places in @lisa_waiting, then +N */
#define PUBLISH_HOSTS_MAX	8	/* hosts in @lisa_hosts one by one */
struct publish_stats {
	uint64_t	 commands;	/* set-option commands sent */
	uint64_t	 batches;	/* writes they went out in */
};
extern struct publish_stats publish_stats;
/* A place that needs the human, for @lisa_waiting's order. */
struct publish_place {
	int		 group;		/* UI_ASKS, _CRASHED, _STUCK, _WAITING */
	int64_t		 since;		/* ms; oldest first within a group */
	char		 where[160];	/* session:window, %N@HOST */
};
struct publish_places {
	struct publish_place	*list;
	size_t			 n;
};
void		 publish_place_add(struct publish_places *, int, int64_t,
		    const char *);
void		 publish_schedule(void);
void		 publish_all(void);
void		 publish_needs_json(struct buf *);
void		 publish_pane(struct pane *);
void		 publish_restore(struct buf *);
void		 publish_forget(struct pane *);
void		 publish_keep_failed(struct pane *);
struct session	*pane_session(struct pane *);

/* ui-install.c: status line, window badges, borders, keys. */
void		 ui_reset(void);
void		 ui_option(const char *, const char *);
void		 ui_apply(void);
void		 ui_restore(void);
void		 ui_remove_key_files(void);
int		 ui_border_auto(void);
const struct ui_config *ui_config(void);
const char	*ui_warning(void);

/* notify.c: messages, bells, desktop, @lisa-on-transition. */
struct notify_stats {
	uint64_t	 messages;
	uint64_t	 bells;
	uint64_t	 desktop;
	uint64_t	 commands;
	uint64_t	 terminal;
	uint64_t	 sounds;
	uint64_t	 posts;		/* to @lisa-notify-url, delivered */
	uint64_t	 posts_failed;	/* ... not: notify_url_error says why */
	uint64_t	 focused;
};
extern struct notify_stats notify_stats;
void		 notify_focus(int, const char *);
void		 notify_reset(void);
void		 notify_option(const char *, const char *);
void		 notify_transition(struct pane *, enum cls_state,
		    const struct cls_result *, const char *);
void		 notify_escalate(struct pane *, const char *);
void		 notify_question(struct pane *);
void		 notify_attached(struct session *);
struct question;
void		 notify_remote(const char *, int, const char *,
		     const struct question *, const char *, const char *,
		     const char *, const char *, enum cls_state,
		     enum cls_state, uint64_t *, int *);

/* notify-url.c: a notification POSTed to @lisa-notify-url (a phone). */
struct notify_post {
	const char	*title;		/* "claude waits" */
	const char	*text;		/* the message, whole */
	const char	*group;		/* waiting, crashed, stuck */
	const char	*state;
	const char	*agent;
	const char	*pane;		/* %N, or "" for a remote one */
	const char	*tag;		/* ntfy's tag (an emoji's name) */
	const char	*actions;	/* ntfy's Actions: the phone's buttons */
	int		 urgent;
};
void		 notify_url_post(const char *, const char *, int,
		     const struct notify_post *);
void		 notify_url_send(const char *, const char *, const char *,
		     const char *);
pid_t		 notify_url_reader(const char *, char *const [],
		     const struct buf *, int *);
void		 notify_url_reaped(pid_t, int);
void		 notify_url_http_text(char *, size_t, const char *, int);
const char	*notify_url_exit_text(int);
void		 notify_url_close(void);
extern char	 notify_url_error[128];
extern int64_t	 notify_url_error_at;

/* notify-command.c: notify-send, sound, a terminal's own notification. */
void		 notify_child(int, int);
void		 notify_child_from(int, int, int);
#define NOTIFY_DESKTOP_SEND		0	/* notify-send */
#define NOTIFY_DESKTOP_TERMINAL_NOTIFIER 1	/* a Mac's, from Homebrew */
#define NOTIFY_DESKTOP_OSASCRIPT	2	/* a Mac's own */
void		 notify_spawn_desktop(int, const char *, int, const char *,
		     const char *, int, const char *);
void		 notify_spawn_sound(const char *, const char *, const char *,
		     const char *);
void		 notify_spawn_tty(const char *, const char *, size_t);
void		 notify_spawn_stop(void);

#endif
