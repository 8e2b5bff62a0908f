/*
 * Cline CLI's session files (npm cline, checked against 3.0.65), read as
 * text: <sessions>/<id>/<id>.json, one a conversation, rewritten whole as
 * it goes ($CLINE_SESSION_DATA_DIR, else $CLINE_DATA_DIR/sessions, else
 * $CLINE_DIR or ~/.cline, then data/sessions). Its "session_id", "cwd",
 * "started_at" (RFC 3339) and "status": "running" while it works,
 * "pending" while a dialog waits for the user (a permission, a question),
 * "idle" at its prompt, after a failed turn too; the ends of a run
 * ("completed", "failed", "cancelled", "aborted", "stopped", "error") are
 * its prompt again. Its "pid" is Cline's daemon's, shared by every
 * session: not the agent's. Pure functions over untrusted text,
 * unit-tested and fuzzed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "agent.h"
#include "cline-file.h"

static const char *cline_ended[] = {
	"idle", "completed", "failed", "cancelled", "aborted", "stopped",
	"error",
};

/* A session file into *cs: 0, or -1 if it is none (or not one we read). */
int
cline_session_parse(const char *text, size_t len, struct cline_session *cs)
{
	struct json_doc	*d;
	char		*id = NULL, *cwd = NULL, *status = NULL, *at = NULL;
	char		*cause = NULL;
	size_t		 i;
	int		 rc = -1;

	memset(cs, 0, sizeof *cs);
	if ((d = json_parse(text, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	if (json_type(d, 0) != JSON_T_OBJECT ||
	    (id = json_get_str(d, 0, "session_id")) == NULL ||
	    strlen(id) >= sizeof cs->id || !agent_id_ok(id))
		goto out;
	strlcpy(cs->id, id, sizeof cs->id);
	/* (an absolute path that fits, or none) */
	if ((cwd = json_get_str(d, 0, "cwd")) != NULL && *cwd == '/' &&
	    strlen(cwd) < sizeof cs->cwd)
		strlcpy(cs->cwd, cwd, sizeof cs->cwd);
	if ((at = json_get_str(d, 0, "started_at")) != NULL)
		cs->started = rfc3339_ms(at);
	cs->status = SS_NONE;
	if ((status = json_get_str(d, 0, "status")) != NULL) {
		if (strcmp(status, "running") == 0)
			cs->status = SS_BUSY;
		else if (strcmp(status, "pending") == 0)
			cs->status = SS_WAITING;
		for (i = 0; i < sizeof cline_ended / sizeof cline_ended[0];
		    i++) {
			if (strcmp(status, cline_ended[i]) == 0)
				cs->status = SS_IDLE;
		}
	}
	rc = 0;
out:
	free(id);
	free(cwd);
	free(status);
	free(at);
	json_free(d);
	return (rc);
}
