/*
 * Gemini CLI's own files, read as text (checked against 0.61.0):
 *
 *  - <gemini>/projects.json, {"projects": {"<cwd>": "<short id>"}}: the
 *    project's directory under <gemini>/tmp;
 *  - tmp/<short id>/chats/session-<time>-<id8>.jsonl, its chat log: a
 *    metadata line, then one record per message ("user", "gemini",
 *    "error", "info", ...), and {"$set": ...} updates between them.
 *
 * A turn that ends on the API's quota (HTTP 429 RESOURCE_EXHAUSTED, which
 * Gemini turns into "Usage limit reached" and, once the person stops
 * trying, an "error" record "You have exhausted your daily quota") leaves
 * the agent at its prompt, unable to work until the quota resets. That
 * record is the only one that says so after the screen has moved on.
 * Pure functions over untrusted text, unit-tested and fuzzed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "gemini-file.h"

/* What Gemini writes for a quota or rate limit (its googleQuotaErrors). */
static const char *gemini_limit_text[] = {
	"exhausted your daily quota",
	"Usage limit reached",
	"exceeded your current quota",
	"RESOURCE_EXHAUSTED",
	"Quota exceeded",
};

/*
 * One chat log line: TX_LIMIT for an error record that is a limit,
 * TX_WORKING for any other message (a new turn, an answer, another
 * error: the limit is no longer the last word), TX_NONE for what says
 * nothing of the turn (metadata, $set updates, info notes, bad lines).
 */
enum transcript_event
gemini_chat_event(const char *line, size_t len)
{
	struct json_doc		*d;
	char			*type, *text = NULL, *cause = NULL;
	enum transcript_event	 ev = TX_NONE;
	size_t			 i;
	int			 c;

	if (memmem(line, len, "\"type\"", 6) == NULL)
		return (TX_NONE);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (TX_NONE);
	}
	if ((type = json_get_str(d, 0, "type")) == NULL ||
	    json_get(d, 0, "id") == -1 || strcmp(type, "info") == 0)
		goto out;
	ev = TX_WORKING;
	if (strcmp(type, "error") != 0)
		goto out;
	/* Its content is a string; anything else is not one we know. */
	if ((c = json_get(d, 0, "content")) == -1 ||
	    json_tok_str(d, c, &text) != 0)
		goto out;
	for (i = 0; i < sizeof gemini_limit_text /
	    sizeof gemini_limit_text[0]; i++) {
		if (strstr(text, gemini_limit_text[i]) != NULL) {
			ev = TX_LIMIT;
			break;
		}
	}
out:
	free(type);
	free(text);
	json_free(d);
	return (ev);
}

/*
 * The short id projects.json gives cwd, into out. 0 if found and usable
 * as one path component.
 */
int
gemini_project_id(const char *text, size_t len, const char *cwd, char *out,
    size_t outlen)
{
	struct json_doc	*d;
	char		*id = NULL, *cause = NULL;
	int		 projects, rc = -1;

	if ((d = json_parse(text, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	if ((projects = json_get(d, 0, "projects")) != -1 &&
	    (id = json_get_str(d, projects, cwd)) != NULL && *id != '\0' &&
	    strchr(id, '/') == NULL && strcmp(id, ".") != 0 &&
	    strcmp(id, "..") != 0 && strlen(id) < outlen) {
		strlcpy(out, id, outlen);
		rc = 0;
	}
	free(id);
	json_free(d);
	return (rc);
}

/*
 * A chat log's first line, its metadata: the conversation's id into out
 * and when the log was begun ("startTime", epoch ms) into start, 0 when
 * it does not say. Gemini begins a new log even for a conversation it
 * resumes, so a log begun before an agent started is never that run's.
 * 0 with an id, -1 without.
 */
int
gemini_chat_head(const char *line, size_t len, char *out, size_t outlen,
    int64_t *start)
{
	struct json_doc	*d;
	char		*id = NULL, *at = NULL, *cause = NULL;
	int		 rc = -1;

	*out = '\0';
	*start = 0;
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	if ((id = json_get_str(d, 0, "sessionId")) != NULL && *id != '\0' &&
	    strlen(id) < outlen) {
		strlcpy(out, id, outlen);
		rc = 0;
	}
	if ((at = json_get_str(d, 0, "startTime")) != NULL)
		*start = rfc3339_ms(at);
	free(at);
	free(id);
	json_free(d);
	return (rc);
}
