/*
 * The tmux control-mode protocol (tmux -C), parsed by hand: line framing,
 * reply blocks matched to commands, typed notifications, %output decoding and
 * the one quoting function through which untrusted text enters a command.
 */
#ifndef LISA_CONTROL_H
#define LISA_CONTROL_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "lisa-queue.h"
#include "lisa-tree.h"

enum ctl_type {
	CTL_UNKNOWN = 0,	/* a %word we do not know: logged, skipped */
	CTL_BEGIN,
	CTL_END,
	CTL_ERROR,
	CTL_OUTPUT,		/* %output and %extended-output */
	CTL_PAUSE,
	CTL_CONTINUE,
	CTL_WINDOW_ADD,
	CTL_WINDOW_CLOSE,
	CTL_WINDOW_RENAMED,
	CTL_UNLINKED_WINDOW_ADD,
	CTL_UNLINKED_WINDOW_CLOSE,
	CTL_UNLINKED_WINDOW_RENAMED,
	CTL_LAYOUT_CHANGE,
	CTL_WINDOW_PANE_CHANGED,
	CTL_SESSION_CHANGED,
	CTL_CLIENT_SESSION_CHANGED,
	CTL_SESSION_RENAMED,
	CTL_SESSIONS_CHANGED,
	CTL_SESSION_WINDOW_CHANGED,
	CTL_PANE_MODE_CHANGED,
	CTL_CLIENT_DETACHED,
	CTL_SUBSCRIPTION_CHANGED,
	CTL_CONFIG_ERROR,
	CTL_MESSAGE,
	CTL_PASTE_BUFFER_CHANGED,
	CTL_PASTE_BUFFER_DELETED,
	CTL_EXIT,
	CTL_NTYPES
};

/*
 * One parsed line. Pointers refer into the line that was parsed, which the
 * parser may modify (it NUL-terminates fields); they live as long as it does.
 * Numeric ids are -1 when the line has none.
 */
struct ctl_event {
	enum ctl_type	 type;
	const char	*word;		/* "%output", for logs */

	int		 session;	/* $N */
	int		 window;	/* @N */
	int		 pane;		/* %N */
	int		 index;		/* window index (subscriptions) */

	const char	*client;	/* client name */
	const char	*name;		/* session/window/subscription name */

	/* %output data (still escaped), layouts, values, messages. */
	const char	*text;
	size_t		 textlen;
	const char	*layout;	/* %layout-change */
	const char	*visible_layout;
	const char	*flags;

	uint64_t	 age;		/* %extended-output, ms */

	/* %begin/%end/%error: the triple. */
	long long	 time;
	unsigned long	 number;
	int		 cmdflags;
};

/* control-parse.c */
int		 ctl_parse(char *, size_t, struct ctl_event *);
const char	*ctl_type_name(enum ctl_type);

/* control-unescape.c */
size_t		 ctl_unescape(const char *, size_t, char *);
int		 ctl_unvis(const char *, int, char **);
size_t		 ctl_unpad(char *, size_t);
size_t		 ctl_escape(const void *, size_t, struct buf *);
void		 ctl_put_octal(struct buf *, unsigned char);

/* control-quote.c */
void		 ctl_quote(struct buf *, const char *, size_t);
void		 ctl_quote_str(struct buf *, const char *);
void		 ctl_quote_argv(struct buf *, char *const *, int);
void		 ctl_format_escape(struct buf *, const char *);
char		*ctl_format_str(const char *);
void		 ctl_shell_quote(struct buf *, const char *);

/* control-layout.c */
int		 ctl_layout_panes(const char *, int *, int);

/* control-client.c */
struct ctl_client;

/* A reply: ok is 1 for %end, 0 for %error; body lines joined by '\n'. */
typedef void (*ctl_reply_cb)(struct ctl_client *, int ok, const char *body,
		    size_t len, void *arg);

struct ctl_callbacks {
	void	(*event)(struct ctl_client *, struct ctl_event *, void *);
	void	(*output)(struct ctl_client *, int pane, const char *data,
		    size_t len, uint64_t age, void *);
};

struct ctl_client *ctl_client_new(int rfd, int wfd,
		    const struct ctl_callbacks *, void *);
void		 ctl_client_free(struct ctl_client *);
int		 ctl_client_read(struct ctl_client *);
int		 ctl_client_feed(struct ctl_client *, const char *, size_t);
int		 ctl_client_flush(struct ctl_client *);
int		 ctl_client_pending_write(struct ctl_client *);
#define CTL_SEND_UNPAD	0x1	/* its reply's lines: ctl_unpad */
int		 ctl_client_send_flags(struct ctl_client *, const char *, int,
		     ctl_reply_cb, void *);
int		 ctl_client_send(struct ctl_client *, const char *,
		    ctl_reply_cb, void *);
size_t		 ctl_client_inflight(struct ctl_client *);
int		 ctl_client_rfd(struct ctl_client *);
int		 ctl_client_wfd(struct ctl_client *);
void		 ctl_client_close_write(struct ctl_client *);
void		 ctl_client_cancel_arg(struct ctl_client *, void *);

/* Counters, for lisa doctor and the benchmarks. */
struct ctl_stats {
	uint64_t	lines;
	uint64_t	output_lines;
	uint64_t	output_bytes;	/* decoded */
	uint64_t	malformed;
	uint64_t	unknown;
	uint64_t	replies;
	uint64_t	stray_replies;	/* blocks nobody waited for */
	uint64_t	dropped_long;
};
const struct ctl_stats *ctl_client_stats(struct ctl_client *);

#define CTL_MAX_LINE (32 * 1024 * 1024)

#endif
