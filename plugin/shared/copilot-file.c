/*
 * Copilot CLI's files (checked against 1.0.102): each process logs to
 * logs/process-<ms>-<pid>.log and says "Workspace initialized: <uuid>"
 * as a session opens; session-state/<uuid>/workspace.yaml has the
 * session's "cwd:". Untrusted text.
 */
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "copilot-file.h"

#define COPILOT_MARK	"Workspace initialized: "
#define COPILOT_UUID	36

/* The pid ending a log's name (process-<ms>-<pid>.log), or -1. */
long
copilot_log_pid(const char *name)
{
	const char	*dash;
	char		*end;
	long		 pid;
	size_t		 n = strlen(name);

	if (strncmp(name, "process-", 8) != 0 || n < 13 ||
	    strcmp(name + n - 4, ".log") != 0 ||
	    (dash = strrchr(name, '-')) == NULL || dash == name + 7 ||
	    dash[1] < '0' || dash[1] > '9' ||
	    strspn(name + 8, "0123456789") != (size_t)(dash - name - 8) ||
	    dash == name + 8)
		return (-1);
	pid = strtol(dash + 1, &end, 10);
	return (pid > 0 && strcmp(end, ".log") == 0 ? pid : -1);
}

/*
 * The session a log's text (NUL-terminated) names last, into id: 0 if
 * one. A log names another each time the process begins one (/clear).
 */
int
copilot_log_session(const char *text, char *id, size_t len)
{
	const char	*at, *last = NULL;

	if (len <= COPILOT_UUID)
		return (-1);
	for (at = text; (at = strstr(at, COPILOT_MARK)) != NULL;) {
		at += strlen(COPILOT_MARK);
		if (strspn(at, "0123456789abcdef-") == COPILOT_UUID)
			last = at;
	}
	if (last == NULL)
		return (-1);
	memcpy(id, last, COPILOT_UUID);
	id[COPILOT_UUID] = '\0';
	return (0);
}

/*
 * workspace.yaml's "cwd:" (size bytes of text): an absolute path, its
 * quotes off. A value with a quote or backslash inside (YAML's escapes)
 * is not taken: lisa does not unescape YAML. 0 if one.
 */
int
copilot_workspace_cwd(const char *text, size_t size, char *out,
    size_t outlen)
{
	const char	*line = text, *end = text + size, *nl, *v;
	size_t		 len;

	for (; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if ((size_t)(nl - line) < 5 || memcmp(line, "cwd: ", 5) != 0)
			continue;
		v = line + 5;
		len = (size_t)(nl - v);
		if (len > 0 && v[len - 1] == '\r')
			len--;
		if (len >= 2 && (*v == '\'' || *v == '"') &&
		    v[len - 1] == *v) {
			v++;
			len -= 2;
		}
		if (len == 0 || *v != '/' || len >= outlen ||
		    memchr(v, '\'', len) != NULL ||
		    memchr(v, '"', len) != NULL ||
		    memchr(v, '\\', len) != NULL ||
		    memchr(v, '\0', len) != NULL)
			return (-1);
		memcpy(out, v, len);
		out[len] = '\0';
		return (0);
	}
	return (-1);
}
