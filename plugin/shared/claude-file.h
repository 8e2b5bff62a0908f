/*
 * Claude Code's own files, read as text: sessions/<pid>.json (status) and
 * the tail of projects/<dir>/<session>.jsonl (how the last turn ended).
 * Pure functions, so they can be unit-tested and fuzzed.
 */
#ifndef CLAUDE_FILE_H
#define CLAUDE_FILE_H

#include <stddef.h>

#include "classify.h"

struct claude_session {
	enum session_status	 status;
	int			 stale;		/* an earlier process's file */
	char			 id[64];	/* sessionId, "" if none */
	char			 cwd[4096];	/* its cwd, "" if none */
};

int	claude_session_parse(const char *, size_t, long long,
	    unsigned long long, struct claude_session *, char **);
enum transcript_event claude_transcript_tail(const char *, size_t, int);

#endif
