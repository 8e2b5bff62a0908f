/*
 * pi's session files, read as text (pi-file.c): a session's header line
 * and what each of its records says of the turn. Pure functions,
 * unit-tested and fuzzed.
 */
#ifndef PI_FILE_H
#define PI_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "classify.h"

enum transcript_event pi_session_event(const char *, size_t);
int	pi_session_head(const char *, size_t, char *, size_t, int64_t *);
void	pi_session_dir_name(const char *, char *, size_t);
long long pi_models_window(const char *, size_t, const char *);

#endif
