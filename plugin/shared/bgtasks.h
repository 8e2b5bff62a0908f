/*
 * Work an agent left running when its turn ended (bgtasks.c): Claude
 * Code's background shells, by its transcript.
 */
#ifndef LISA_BGTASKS_H
#define LISA_BGTASKS_H

#include <stddef.h>

#define BGTASKS_MAX	32	/* more at once are not told apart */
#define BGTASKS_ID	32

struct bgtasks {
	int	 n;
	char	 id[BGTASKS_MAX][BGTASKS_ID];
};

void	bgtasks_init(struct bgtasks *);
int	bgtasks_claude_line(struct bgtasks *, const char *, size_t);

#endif
