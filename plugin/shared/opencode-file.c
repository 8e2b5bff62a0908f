/*
 * OpenCode's log lines (checked against 1.18.33): "name=value" fields,
 * values unquoted (a directory's spaces too). A session's first line is
 * "... message=created id=ses_... directory=DIR ... parentID=undefined";
 * a subagent's names its parent. Untrusted text: the log is any
 * OpenCode process's of the user, and the directory anyone's name.
 */
#include <stdint.h>
#include <string.h>

#include "shared.h"
#include "opencode-file.h"

#define OPENCODE_LINE_MAX	8192

/*
 * Where a value that began at p ends: at the space before the next
 * "name=".
 */
static size_t
opencode_value_end(const char *p)
{
	const char	*q;
	size_t		 v = 0;

	for (;;) {
		v += strcspn(p + v, " ");
		if (p[v] == '\0')
			return (v);
		q = p + v + 1;
		q += strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_.");
		if (q > p + v + 1 && *q == '=')
			return (v);
		v++;
	}
}

/* Field NAME=value of a line, into out (len bytes with its NUL). */
static int
opencode_field(const char *line, const char *name, char *out, size_t len)
{
	const char	*p = line;
	size_t		 n = strlen(name), v;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == line || p[-1] == ' ') && p[n] == '=') {
			p += n + 1;
			v = opencode_value_end(p);
			if (v == 0 || v >= len)
				return (-1);
			memcpy(out, p, v);
			out[v] = '\0';
			return (0);
		}
		p += n;
	}
	return (-1);
}

/*
 * A line (NUL-terminated, without its newline) that says a top-level
 * session was made: its id (ses_...), directory (absolute) and when, in
 * epoch ms (0 if the line does not say). 0 if so.
 */
int
opencode_created_line(const char *line, char *id, size_t idlen, char *dir,
    size_t dirlen, int64_t *at)
{
	char	parent[32], stamp[64];

	*at = 0;
	if (strlen(line) > OPENCODE_LINE_MAX ||
	    strstr(line, " message=created ") == NULL)
		return (-1);
	if (opencode_field(line, "id", id, idlen) != 0 ||
	    strncmp(id, "ses_", 4) != 0 ||
	    opencode_field(line, "directory", dir, dirlen) != 0 ||
	    dir[0] != '/' ||
	    opencode_field(line, "parentID", parent, sizeof parent) != 0 ||
	    strcmp(parent, "undefined") != 0)
		return (-1);
	/* "timestamp=2026-11-27T09:14:02.112Z" */
	if (opencode_field(line, "timestamp", stamp, sizeof stamp) == 0)
		*at = rfc3339_ms(stamp);
	return (0);
}
