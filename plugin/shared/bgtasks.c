/*
 * Background work Claude Code started and has not seen end, from its
 * transcript (2.1.332, checked against the real CLI):
 *
 *  - a Bash call with run_in_background answers at once with a
 *    tool_result "Command running in background with ID: <id>. ...";
 *  - when that command ends, Claude adds a user message of its own,
 *    "<task-notification> <task-id><id></task-id> ... <status>completed
 *    </status> ...", and starts a turn to read it.
 *
 * So a task is running from the first line to the second. The Stop hook's
 * background_tasks says the same; the transcript is there with hooks or
 * without. Pure functions over untrusted text, unit-tested and fuzzed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "bgtasks.h"

#define BG_STARTED	"Command running in background with ID: "
#define BG_ENDED	"<task-notification>"

void
bgtasks_init(struct bgtasks *b)
{
	memset(b, 0, sizeof *b);
}

static int
bgtasks_find(struct bgtasks *b, const char *id)
{
	int	i;

	for (i = 0; i < b->n; i++) {
		if (strcmp(b->id[i], id) == 0)
			return (i);
	}
	return (-1);
}

/* An id is a short word: letters, digits, '-' and '_'. */
static int
bgtasks_word(const char *s, char *id)
{
	size_t	n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_");

	if (n == 0 || n >= BGTASKS_ID)
		return (-1);
	memcpy(id, s, n);
	id[n] = '\0';
	return (0);
}

static int
bgtasks_add(struct bgtasks *b, const char *text)
{
	char	id[BGTASKS_ID];

	if (strncmp(text, BG_STARTED, strlen(BG_STARTED)) != 0 ||
	    bgtasks_word(text + strlen(BG_STARTED), id) != 0 ||
	    bgtasks_find(b, id) != -1 || b->n == BGTASKS_MAX)
		return (0);
	strlcpy(b->id[b->n++], id, BGTASKS_ID);
	return (1);
}

/* The text between <tag> and </tag>, at most len bytes. */
static int
bgtasks_tag(const char *text, const char *tag, char *out, size_t len)
{
	const char	*p, *end;
	char		 open[32], close[32];

	snprintf(open, sizeof open, "<%s>", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	if ((p = strstr(text, open)) == NULL)
		return (-1);
	p += strlen(open);
	if ((end = strstr(p, close)) == NULL || (size_t)(end - p) >= len)
		return (-1);
	memcpy(out, p, (size_t)(end - p));
	out[end - p] = '\0';
	return (0);
}

static int
bgtasks_end(struct bgtasks *b, const char *text)
{
	char	id[BGTASKS_ID], status[32];
	int	i;

	if (strncmp(text, BG_ENDED, strlen(BG_ENDED)) != 0 ||
	    bgtasks_tag(text, "task-id", id, sizeof id) != 0 ||
	    bgtasks_tag(text, "status", status, sizeof status) != 0 ||
	    strcmp(status, "running") == 0 || (i = bgtasks_find(b, id)) == -1)
		return (0);
	memmove(b->id[i], b->id[i + 1], (size_t)(b->n - i - 1) * BGTASKS_ID);
	b->n--;
	return (1);
}

/*
 * One transcript line. 1 if it started or ended a task we count, 0 if
 * not, -1 if it looked like one and made no sense.
 */
int
bgtasks_claude_line(struct bgtasks *b, const char *line, size_t len)
{
	struct json_doc	*d;
	char		*type = NULL, *text = NULL, *cause = NULL;
	int		 msg, content, item, i, n, side = 0, rc = 0;

	if (memmem(line, len, BG_STARTED, strlen(BG_STARTED)) == NULL &&
	    memmem(line, len, BG_ENDED, strlen(BG_ENDED)) == NULL)
		return (0);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	type = json_get_str(d, 0, "type");
	json_get_bool(d, 0, "isSidechain", &side);
	if (type == NULL || strcmp(type, "user") != 0 || side ||
	    (msg = json_get(d, 0, "message")) == -1 ||
	    (content = json_get(d, msg, "content")) == -1)
		goto out;
	/* Claude's own message: the content is the notification. */
	if (json_type(d, content) == JSON_T_STRING) {
		if (json_tok_str(d, content, &text) == 0)
			rc = bgtasks_end(b, text);
		goto out;
	}
	if (json_type(d, content) != JSON_T_ARRAY)
		goto out;
	n = json_array_size(d, content);
	for (i = 0; i < n; i++) {
		item = json_array_item(d, content, i);
		free(type);
		type = json_get_str(d, item, "type");
		if (type == NULL || strcmp(type, "tool_result") != 0)
			continue;
		free(text);
		text = json_get_str(d, item, "content");
		if (text != NULL)
			rc |= bgtasks_add(b, text);
	}
out:
	free(type);
	free(text);
	json_free(d);
	return (rc);
}
