/*
 * Window layouts, as in %layout-change: "csum,WxH,X,Y,ID" for a single pane
 * or "csum,WxH,X,Y{cell,cell}" / "[...]" for splits, cells nested the same
 * way. The pane ids tell us at once which panes a window still has, without a
 * round trip to tmux.
 */
#include <stdlib.h>

#include "control.h"

/* Parse one cell at *pp; store pane ids; return -1 if malformed. */
static int
layout_cell(const char **pp, int *ids, int max, int *n, int depth)
{
	const char	*p = *pp;
	char		*end;
	long		 v;
	int		 i;

	if (depth > 64)
		return (-1);
	/* WxH */
	v = strtol(p, &end, 10);
	if (end == p || *end != 'x' || v < 0)
		return (-1);
	p = end + 1;
	v = strtol(p, &end, 10);
	if (end == p || *end != ',' || v < 0)
		return (-1);
	p = end + 1;
	/* X,Y */
	for (i = 0; i < 2; i++) {
		v = strtol(p, &end, 10);
		if (end == p || v < 0)
			return (-1);
		p = end;
		if (i == 0) {
			if (*p != ',')
				return (-1);
			p++;
		}
	}
	if (*p == ',') {
		p++;
		v = strtol(p, &end, 10);
		if (end == p || v < 0 || v > 0x7fffffff)
			return (-1);
		if (*n < max)
			ids[*n] = (int)v;
		(*n)++;
		*pp = end;
		return (0);
	}
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';

		p++;
		for (;;) {
			if (layout_cell(&p, ids, max, n, depth + 1) != 0)
				return (-1);
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p == close) {
				p++;
				break;
			}
			return (-1);
		}
		*pp = p;
		return (0);
	}
	return (-1);
}

/*
 * Fill ids with up to max pane ids from a layout; return how many the layout
 * holds (possibly more than max) or -1 when it does not parse.
 */
int
ctl_layout_panes(const char *layout, int *ids, int max)
{
	const char	*p = layout;
	int		 n = 0;

	/* Checksum: four hex digits and a comma. */
	while (*p != '\0' && *p != ',')
		p++;
	if (*p != ',' || p - layout != 4)
		return (-1);
	p++;
	if (layout_cell(&p, ids, max, &n, 0) != 0)
		return (-1);
	if (*p != '\0' && *p != ' ')
		return (-1);
	return (n);
}
