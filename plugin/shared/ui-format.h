/*
 * The formats lisa puts into tmux's status line, window list and pane
 * borders. Pure: they read only @lisa_* options that the helper writes, so
 * nothing runs on redraw. Built from the user's @lisa-* choices.
 */
#ifndef LISA_UI_FORMAT_H
#define LISA_UI_FORMAT_H

#include "util.h"
#include "classify.h"

/*
 * What the status line counts; worst first. A waiting agent either asks
 * (a dialog, a question, a limit: it stopped in the middle of its work)
 * or waits at its prompt after a turn (UI_WAITING, "your turn").
 */
enum ui_group {
	UI_ASKS,
	UI_CRASHED,
	UI_STUCK,
	UI_WAITING,
	UI_DEGRADED,
	UI_WORKING,
	UI_DONE,
	UI_NGROUPS
};

struct ui_config {
	char	*icon[UI_NGROUPS];
	char	*color[UI_NGROUPS];
	int	 order[UI_NGROUPS];	/* groups shown, in order */
	int	 norder;
	int	 ascii;
	char	*separator;		/* between status items */
	char	*border;		/* agent panes' border, or NULL */
	int	 window_badge;
	int	 pane_border;
	int	 light;			/* the status bar is light (green...) */
	int	 resume_resurrect;	/* resume into tmux-resurrect's panes */
	int	 fields;		/* @lisa_state ... too (@lisa-fields) */
	int	 literal_unescapes;	/* tmux's #{l:} halves "##" (3.4+) */
};

const char	*ui_group_name(int);
int		 ui_group_find(const char *);
const char	*ui_group_title(int);
int		 ui_group_of(enum cls_state);
int		 ui_group_of_verdict(enum cls_state, const char *);
int		 ui_detail_asks(const char *);
int		 ui_state_rank(enum cls_state, const char *);
int		 ui_group_rank(int);
const char	*ui_state_rank_name(int);
int		 ui_group_needs_you(int);
const char	*ui_state_word(enum cls_state);
const char	*ui_verdict_word(enum cls_state, const char *);
int		 ui_natcmp(const char *, const char *);

void		 ui_config_defaults(struct ui_config *);
int		 ui_config_set(struct ui_config *, const char *, const char *);
void		 ui_config_free(struct ui_config *);
int		 uiformat_style_light(const char *);

/* The watchdog's mark on a border (the terminal's background). */
#define UI_WATCHDOG_STYLE "fg=colour214"
/* Panes a redraw loops over, at most; past it @lisa_summary (publish.c). */
#define UI_LOOP_MAX 100

/* What a pane's @lisa says (ui-compose.c). */
struct ui_pane {
	int		 rank;		/* ui_state_rank */
	int		 group;
	const char	*agent;		/* NULL: a remote agent shown here */
	const char	*state;		/* cls_state_name */
	const char	*word;		/* ui_state_word */
	const char	*detail;
	const char	*asks;
	const char	*watchdog;
	long long	 since;		/* Unix seconds */
	int		 context;	/* percent, -1 */
};

void		 uiformat_escape(struct buf *, const char *);
void		 uiformat_chip(struct buf *, const struct ui_config *, int,
		    const char *, const char *);
void		 uiformat_status(struct buf *, const struct ui_config *);
void		 uiformat_item(struct buf *, const struct ui_config *, int,
		    int);
void		 uiformat_items(struct buf *, const char *, const int *, int);
void		 uiformat_waiting(struct buf *, const struct ui_config *);
void		 uiformat_asks(struct buf *);
void		 uiformat_badge_icon(struct buf *, const struct ui_config *,
		    int);
int		 uiformat_badge(struct buf *, const char *);
char		 uiformat_rank_letter(int);
void		 uiformat_pane(struct buf *, const struct ui_config *,
		    const struct ui_pane *, int);
void		 uiformat_window_rank(struct buf *);
void		 uiformat_count(struct buf *, int);
void		 uiformat_places(struct buf *, const struct ui_config *);
void		 uiformat_border(struct buf *, const struct ui_config *,
		    const char *);
int		 ui_word_in(const char *, size_t, const char *);
char		*uiformat_replace(const char *, const char *, const char *);

#endif
