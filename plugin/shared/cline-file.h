/*
 * Cline CLI's session files, read as text (cline-file.c). Pure functions,
 * unit-tested and fuzzed.
 */
#ifndef CLINE_FILE_H
#define CLINE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "classify.h"

struct cline_session {
	char			id[64];
	char			cwd[1024];
	enum session_status	status;
	int64_t			started;	/* epoch ms, 0 if not said */
};

int	cline_session_parse(const char *, size_t, struct cline_session *);

#endif
