/*
 * Claude Code's session and transcript files. Both are written by another
 * program and may be anything: a half-written file, garbage, a line cut
 * by our own tail read. Everything not understood is "no signal".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "claude-file.h"

/*
 * A session file for the process pid started at start (clock ticks, as in
 * /proc/PID/stat). Returns 0 with *cs filled (cs->stale if the file is an
 * earlier process's with the same pid), -1 with *cause if it makes no
 * sense.
 */
int
claude_session_parse(const char *text, size_t len, long long pid,
    unsigned long long start, struct claude_session *cs, char **cause)
{
	struct json_doc	*d;
	char		*status, *s;
	long long	 file_pid;
	int		 rc = 0;

	memset(cs, 0, sizeof *cs);
	*cause = NULL;
	if ((d = json_parse(text, len, cause)) == NULL)
		return (-1);
	if (json_type(d, 0) != JSON_T_OBJECT ||
	    json_get_int(d, 0, "pid", &file_pid) != 0 || file_pid != pid) {
		json_free(d);
		*cause = xstrdup("not this process's session file");
		return (-1);
	}
	/* procStart is a string of clock ticks; pids are reused (start 0:
	 * not known in those terms, the caller checks otherwise). */
	s = json_get_str(d, 0, "procStart");
	if (s != NULL && start != 0 && strtoull(s, NULL, 10) != start) {
		cs->stale = 1;
		free(s);
		json_free(d);
		return (0);
	}
	free(s);
	if ((s = json_get_str(d, 0, "sessionId")) != NULL) {
		snprintf(cs->id, sizeof cs->id, "%s", s);
		free(s);
	}
	/* (an absolute path that fits, or none) */
	if ((s = json_get_str(d, 0, "cwd")) != NULL) {
		if (*s == '/' && strlen(s) < sizeof cs->cwd)
			strlcpy(cs->cwd, s, sizeof cs->cwd);
		free(s);
	}
	status = json_get_str(d, 0, "status");
	if (status == NULL)
		cs->status = SS_NONE;	/* first write, or print mode */
	else if (strcmp(status, "idle") == 0)
		cs->status = SS_IDLE;
	else if (strcmp(status, "busy") == 0)
		cs->status = SS_BUSY;
	else if (strcmp(status, "waiting") == 0)
		cs->status = SS_WAITING;
	else if (strcmp(status, "shell") == 0)
		cs->status = SS_SHELL;
	else {
		/* (its name, cut short and printable: it goes to the log) */
		xasprintf(cause, "unknown status \"%.24s\"",
		    strspn(status, "abcdefghijklmnopqrstuvwxyz_-") ==
		    strlen(status) ? status : "?");
		rc = -1;
	}
	free(status);
	json_free(d);
	return (rc);
}

/* An API error entry that says the request hit a limit. */
static int
claude_transcript_limit(struct json_doc *d)
{
	char		*kind;
	long long	 status;
	int		 limit;

	kind = json_get_str(d, 0, "error");
	limit = kind != NULL && strcmp(kind, "rate_limit") == 0;
	free(kind);
	if (json_get_int(d, 0, "apiErrorStatus", &status) == 0 &&
	    status == 429)
		limit = 1;
	return (limit);
}

/*
 * The last meaningful entry in a transcript's tail (last lines first); if
 * cut, the first line is a fragment and is not read. A turn's end
 * (turn_duration) follows its last message, which tells how it ended: an
 * API error, an interrupt, or done.
 */
enum transcript_event
claude_transcript_tail(const char *text, size_t len, int cut)
{
	struct json_doc		*d;
	enum transcript_event	 ev = TX_NONE;
	const char		*end = text + len, *line;
	char			*type, *sub, *cause;
	int			 err, msg, content, item, ended = 0;

	while (end > text &&
	    (ev == TX_NONE || (ended && ev == TX_TURN_DONE))) {
		if (end[-1] == '\n')
			end--;
		for (line = end; line > text && line[-1] != '\n'; line--)
			;
		cause = NULL;
		if (line > text || !cut)
			d = json_parse(line, (size_t)(end - line), &cause);
		else
			d = NULL;
		free(cause);
		end = line;
		if (d == NULL)
			continue;
		type = json_get_str(d, 0, "type");
		sub = json_get_str(d, 0, "subtype");
		err = 0;
		json_get_bool(d, 0, "isApiErrorMessage", &err);
		if (type == NULL)
			;
		else if (strcmp(type, "system") == 0 && sub != NULL &&
		    (strcmp(sub, "turn_duration") == 0 ||
		    strcmp(sub, "stop_hook_summary") == 0)) {
			if (!ended)
				ev = TX_TURN_DONE;
			ended = 1;
		} else if (strcmp(type, "assistant") == 0) {
			ev = err ? TX_API_ERROR : ended ? TX_TURN_DONE :
			    TX_WORKING;
			/* The API's 429: a rate or usage limit. */
			if (err && claude_transcript_limit(d))
				ev = TX_LIMIT;
			ended = 0;
		} else if (strcmp(type, "user") == 0) {
			ev = ended ? TX_TURN_DONE : TX_WORKING;
			ended = 0;
			msg = json_get(d, 0, "message");
			content = json_get(d, msg, "content");
			item = json_array_item(d, content, 0);
			free(sub);
			sub = json_get_str(d, item, "text");
			if (sub != NULL &&
			    strstr(sub, "[Request interrupted by user") != NULL)
				ev = TX_INTERRUPTED;
		}
		free(type);
		free(sub);
		json_free(d);
	}
	return (ev);
}
