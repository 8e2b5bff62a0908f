/*
 * Desktop notifications a terminal raises itself (OSC 9, OSC 777, OSC 99):
 * which sequence a client's terminal understands, and its bytes
 * (osc-notify.c). Pure: the helper writes them (notify-command.c).
 */
#ifndef LISA_NOTIFY_TERM_H
#define LISA_NOTIFY_TERM_H

#include "util.h"

enum nterm_kind { NTERM_OFF, NTERM_AUTO, NTERM_OSC9, NTERM_OSC777,
    NTERM_OSC99 };

/* How the sequence must be wrapped to get past a terminal in between. */
enum nterm_wrap { NTERM_DIRECT, NTERM_TMUX, NTERM_SCREEN };

#define NTERM_TEXT_MAX	200	/* bytes of each text field sent */

int		 nterm_parse(const char *);
const char	*nterm_name(int);
int		 nterm_pick(int, const char *, const char *, int *);
void		 nterm_build(struct buf *, int, int, unsigned int,
		     const char *, const char *, const char *);

#endif
