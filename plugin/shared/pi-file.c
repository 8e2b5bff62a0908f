/*
 * pi's session files (@earendil-works/pi-coding-agent, checked against
 * 1.6.0), read as text:
 *
 *  - <agent dir>/sessions/--<cwd>--/<time>_<id>.jsonl, the cwd without its
 *    leading '/' and with every '/', '\' and ':' a '-' (pi_session_dir_name);
 *    $PI_CODING_AGENT_SESSION_DIR holds the files itself instead;
 *  - its first line {"type":"session","id":...,"timestamp":...,"cwd":...};
 *    then one record per entry, appended as the session goes: "message"
 *    records with the user's and the model's messages (an assistant's
 *    "stopReason": stop, toolUse, error, aborted; "errorMessage" with the
 *    HTTP status first), "context_edit" records, model changes.
 *
 * pi retries a failed request by itself (three times): each failed try is
 * written as an assistant message with stopReason "error", and a
 * "context_edit" at once takes it out of the context when pi retries.
 * So an error is the turn's end only while nothing follows it.
 * pi writes the file once its first answer comes (not at its start); a
 * session it resumes (pi --session ID) goes on in the same file.
 * Pure functions over untrusted text, unit-tested and fuzzed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "agent.h"
#include "pi-file.h"

/* An error message that is a rate or usage limit: its status, or words. */
static int
pi_limit(const char *text)
{
	return (strncmp(text, "429", 3) == 0 ||
	    strstr(text, "rate_limit") != NULL ||
	    strstr(text, "Rate limit") != NULL ||
	    strstr(text, "usage limit") != NULL ||
	    strstr(text, "quota") != NULL);
}

/*
 * One session line: TX_TURN_DONE for an answer that ended the turn,
 * TX_API_ERROR or TX_LIMIT for one that failed, TX_INTERRUPTED for one the
 * user stopped, TX_WORKING for anything else of the conversation (the
 * user's message, a tool's call or result, an error withdrawn for a
 * retry), TX_NONE for what says nothing of the turn (the header, model
 * and label changes, bad lines).
 */
enum transcript_event
pi_session_event(const char *line, size_t len)
{
	struct json_doc		*d;
	char			*type = NULL, *role = NULL, *stop = NULL;
	char			*err = NULL, *cause = NULL;
	enum transcript_event	 ev = TX_NONE;
	int			 m;

	if (memmem(line, len, "\"type\"", 6) == NULL)
		return (TX_NONE);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (TX_NONE);
	}
	if ((type = json_get_str(d, 0, "type")) == NULL)
		goto out;
	if (strcmp(type, "context_edit") == 0) {
		ev = TX_WORKING;
		goto out;
	}
	if (strcmp(type, "message") != 0 ||
	    (m = json_get(d, 0, "message")) == -1 ||
	    json_type(d, m) != JSON_T_OBJECT ||
	    (role = json_get_str(d, m, "role")) == NULL)
		goto out;
	ev = TX_WORKING;
	if (strcmp(role, "assistant") != 0 ||
	    (stop = json_get_str(d, m, "stopReason")) == NULL)
		goto out;
	if (strcmp(stop, "stop") == 0 || strcmp(stop, "length") == 0)
		ev = TX_TURN_DONE;
	else if (strcmp(stop, "aborted") == 0)
		ev = TX_INTERRUPTED;
	else if (strcmp(stop, "error") == 0) {
		err = json_get_str(d, m, "errorMessage");
		ev = err != NULL && pi_limit(err) ? TX_LIMIT : TX_API_ERROR;
	}
out:
	free(type);
	free(role);
	free(stop);
	free(err);
	json_free(d);
	return (ev);
}

/*
 * A session file's first line: the session's id into out and when it was
 * begun ("timestamp", RFC 3339) into start, 0 when it does not say.
 * 0 with an id, -1 without (not a header).
 */
int
pi_session_head(const char *line, size_t len, char *out, size_t outlen,
    int64_t *start)
{
	struct json_doc	*d;
	char		*type = NULL, *id = NULL, *at = NULL, *cause = NULL;
	int		 rc = -1;

	*out = '\0';
	*start = 0;
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	if ((type = json_get_str(d, 0, "type")) != NULL &&
	    strcmp(type, "session") == 0 &&
	    (id = json_get_str(d, 0, "id")) != NULL && *id != '\0' &&
	    strlen(id) < outlen && agent_id_ok(id)) {
		strlcpy(out, id, outlen);
		rc = 0;
		if ((at = json_get_str(d, 0, "timestamp")) != NULL)
			*start = rfc3339_ms(at);
	}
	free(type);
	free(at);
	free(id);
	json_free(d);
	return (rc);
}

/*
 * The directory name pi gives a working directory's sessions, into out
 * ("" if it does not fit): "--" and the path without its first '/', each
 * '/', '\' and ':' a '-', then "--".
 */
void
pi_session_dir_name(const char *cwd, char *out, size_t outlen)
{
	size_t	n = 0;

	*out = '\0';
	if (*cwd == '/' || *cwd == '\\')
		cwd++;
	if (outlen < 5 || strlen(cwd) > outlen - 5)
		return;
	out[n++] = '-';
	out[n++] = '-';
	for (; *cwd != '\0'; cwd++)
		out[n++] = (*cwd == '/' || *cwd == '\\' || *cwd == ':') ? '-' :
		    *cwd;
	out[n++] = '-';
	out[n++] = '-';
	out[n] = '\0';
}

/*
 * The window pi's models.json gives a model of one's own provider
 * ({"providers": {NAME: {"models": [{"id", "contextWindow"}]}}}), the
 * first with that id; 0 if it names none.
 */
long long
pi_models_window(const char *text, size_t len, const char *model)
{
	struct json_doc	*d;
	char		*id, *cause = NULL;
	long long	 w, found = 0;
	int		 prov, t, end;

	if (*model == '\0' || (d = json_parse(text, len, &cause)) == NULL) {
		free(cause);
		return (0);
	}
	if ((prov = json_get(d, 0, "providers")) == -1 ||
	    json_type(d, prov) != JSON_T_OBJECT)
		goto out;
	end = json_skip(d, prov);
	for (t = prov + 1; t < end && found == 0; t++) {
		if (json_type(d, t) != JSON_T_OBJECT ||
		    (id = json_get_str(d, t, "id")) == NULL)
			continue;
		if (strcmp(id, model) == 0 &&
		    json_get_int(d, t, "contextWindow", &w) == 0 && w > 0 &&
		    w < 1000000000LL)
			found = w;
		free(id);
	}
out:
	json_free(d);
	return (found);
}
