/*
 * Gemini CLI's own files, read as text (gemini-file.c): its projects.json
 * and the records of its chat log. Pure functions, unit-tested and fuzzed.
 */
#ifndef GEMINI_FILE_H
#define GEMINI_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "classify.h"

enum transcript_event gemini_chat_event(const char *, size_t);
int	gemini_project_id(const char *, size_t, const char *, char *, size_t);
int	gemini_chat_head(const char *, size_t, char *, size_t, int64_t *);

#endif
