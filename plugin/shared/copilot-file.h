/*
 * Copilot CLI's files, read as text (copilot-file.c): a process log's
 * name and the session it names, and the session's workspace.yaml. Pure
 * functions, unit-tested and fuzzed.
 */
#ifndef COPILOT_FILE_H
#define COPILOT_FILE_H

#include <stddef.h>

long	copilot_log_pid(const char *);
int	copilot_log_session(const char *, char *, size_t);
int	copilot_workspace_cwd(const char *, size_t, char *, size_t);

#endif
