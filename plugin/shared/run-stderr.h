/*
 * What an agent wrote to stderr, kept for its termination record: the
 * first RUN_HEAD_LINES and the last RUN_TAIL_LINES lines, each cut at
 * RUN_LINE_MAX bytes on a UTF-8 boundary, and how many there were. With
 * RUN_HEAD_LINES + RUN_TAIL_LINES lines or fewer, all are in the head.
 * Pure: fed bytes, gives JSON.
 */
#ifndef LISA_RUN_STDERR_H
#define LISA_RUN_STDERR_H

#include <stdint.h>

#include "util.h"

#define RUN_HEAD_LINES	20
#define RUN_TAIL_LINES	50
#define RUN_LINE_MAX	500

struct run_stderr {
	char		*first[RUN_HEAD_LINES + RUN_TAIL_LINES];
	size_t		 nfirst;
	char		*last[RUN_TAIL_LINES];	/* a ring */
	size_t		 lastpos;
	uint64_t	 total;
	struct buf	 line;			/* the line being read */
	int		 line_full;		/* cut: skip to the newline */
};

void	 run_stderr_init(struct run_stderr *);
void	 run_stderr_feed(struct run_stderr *, const char *, size_t);
void	 run_stderr_finish(struct run_stderr *);
void	 run_stderr_json(struct buf *, const struct run_stderr *);
void	 run_stderr_free(struct run_stderr *);
size_t	 utf8_cut(const char *, size_t, size_t);

#endif
