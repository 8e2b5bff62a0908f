/*
 * The output-stream scanner: finds the sequences an agent uses to say what
 * it is doing - OSC 0/2 titles, Codex's OSC 7501 state, OSC 133 prompt
 * marks, OSC 9/777/99 notifications, BEL - in a pane's byte stream, across
 * chunk boundaries, including inside tmux's DCS passthrough
 * (ESC P tmux; ... ESC \ with every ESC doubled).
 */
#ifndef LISA_OSC_H
#define LISA_OSC_H

#include <stddef.h>

#define OSC_MAX 4096		/* longer payloads are dropped */

enum osc_kind {
	OSC_EV_OSC,		/* number and payload after "N;" */
	OSC_EV_BEL,		/* a BEL that ends no sequence */
};

struct osc_event {
	enum osc_kind	 kind;
	int		 number;	/* OSC number, -1 if not numeric */
	const char	*payload;	/* NUL-terminated, after "N;" */
	size_t		 len;
	int		 passthrough;	/* came wrapped in DCS tmux; */
};

typedef void (*osc_cb)(const struct osc_event *, void *);

struct osc_scanner {
	int		 state;
	int		 overflow;
	size_t		 len;
	char		 seq[OSC_MAX + 1];
};

void	osc_init(struct osc_scanner *);
void	osc_scan(struct osc_scanner *, const char *, size_t, osc_cb, void *);

#endif
