/*
 * OpenCode's log, read as text (opencode-file.c): the line that says a
 * session was made. A pure function, unit-tested and fuzzed.
 */
#ifndef OPENCODE_FILE_H
#define OPENCODE_FILE_H

#include <stddef.h>
#include <stdint.h>

int	opencode_created_line(const char *, char *, size_t, char *, size_t,
	    int64_t *);

#endif
