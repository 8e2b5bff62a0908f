/*
 * Claude Code's files as lisa reads them: sessions/<pid>.json and the
 * tail of a transcript (whole, or cut at any byte as the tail read cuts
 * it), and its lines as the usage reader takes them; the same lines as
 * Codex's rollout and Gemini CLI's chat log, and the text as Gemini's
 * projects.json, OpenCode's log, Copilot CLI's log and workspace.yaml, pi's
 * session file and models.json, Cline's session file. The first input byte picks the cut.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "claude-file.h"
#include "usage.h"
#include "bgtasks.h"
#include "gemini-file.h"
#include "opencode-file.h"
#include "copilot-file.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct claude_session	 cs;
	char			 cwd[256], id[64], dir[256], *text;
	int64_t			 start;
	struct bgtasks		 bg;
	struct usage		 u;
	enum transcript_event	 ev;
	const char		*line, *end, *nl;
	char			*cause;
	size_t			 skip;
	int			 i;

	if (claude_session_parse((const char *)data, size, 4242, 12345, &cs,
	    &cause) == 0) {
		if (cause != NULL || strnlen(cs.id, sizeof cs.id) ==
		    sizeof cs.id || cs.status > SS_LAST)
			abort();
	} else if (cause == NULL)
		abort();	/* every refusal says why */
	free(cause);

	ev = claude_transcript_tail((const char *)data, size, 0);
	if (ev > TX_LAST)
		abort();
	skip = size > 0 ? data[0] % (size + 1) : 0;
	ev = claude_transcript_tail((const char *)data + skip, size - skip, 1);
	if (ev > TX_LAST)
		abort();

	/* Counts stay sane whatever the lines: never below zero. */
	usage_init(&u);
	end = (const char *)data + size;
	for (line = (const char *)data; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if (usage_claude_line(&u, line, (size_t)(nl - line)) < -1)
			abort();
	}
	for (i = 0; i < USAGE_NPARTS; i++) {
		if (u.total[i] < 0)
			abort();
	}
	usage_set_window(&u, "claude-=1000 x=abc");
	if (u.known && (u.context < 0 || usage_percent(&u) < 0))
		abort();

	/* Background tasks: bounded, never negative. */
	bgtasks_init(&bg);
	for (line = (const char *)data; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if (bgtasks_claude_line(&bg, line, (size_t)(nl - line)) < -1)
			abort();
	}
	if (bg.n < 0 || bg.n > BGTASKS_MAX)
		abort();

	/* And as Codex's rollout. */
	usage_init(&u);
	for (line = (const char *)data; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if (usage_codex_line(&u, line, (size_t)(nl - line)) < -1 ||
		    usage_codex_meta(line, (size_t)(nl - line), cwd,
		    sizeof cwd) < -1)
			abort();
	}
	for (i = 0; i < USAGE_NPARTS; i++) {
		if (u.total[i] < 0)
			abort();
	}
	if (u.known && (u.context < 0 || u.window < 0))
		abort();

	/* And as Gemini CLI's chat log and projects.json. */
	usage_init(&u);
	for (line = (const char *)data; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if (usage_gemini_line(&u, line, (size_t)(nl - line)) < -1 ||
		    usage_qwen_line(&u, line, (size_t)(nl - line)) < -1 ||
		    gemini_chat_event(line, (size_t)(nl - line)) > TX_LAST)
			abort();
	}
	for (i = 0; i < USAGE_NPARTS; i++) {
		if (u.total[i] < 0)
			abort();
	}
	if (u.known && u.context < 0)
		abort();
	/* And as a pi session file, its header and models.json. */
	usage_init(&u);
	for (line = (const char *)data; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if (usage_pi_line(&u, line, (size_t)(nl - line)) < -1 ||
		    pi_session_event(line, (size_t)(nl - line)) > TX_LAST)
			abort();
	}
	for (i = 0; i < USAGE_NPARTS; i++) {
		if (u.total[i] < 0)
			abort();
	}
	if (pi_session_head((const char *)data, size, id, sizeof id,
	    &start) == 0 && (*id == '\0' || !agent_id_ok(id)))
		abort();
	if (pi_models_window((const char *)data, size, "m") < 0)
		abort();
	/* And as Cline's session file. */
	{
		struct cline_session	ccs;

		if (cline_session_parse((const char *)data, size, &ccs) == 0 &&
		    (!agent_id_ok(ccs.id) || ccs.status > SS_LAST ||
		    (ccs.cwd[0] != '\0' && ccs.cwd[0] != '/')))
			abort();
	}
	/* And as a hook's usage (lisa's OpenCode plugin), line by line. */
	usage_init(&u);
	for (line = (const char *)data; line < end; line = nl + 1) {
		struct json_doc	*d;

		cause = NULL;
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if ((d = json_parse(line, (size_t)(nl - line), &cause)) == NULL) {
			free(cause);
			continue;
		}
		if (usage_hook(&u, d, json_get(d, 0, "usage")) < -1)
			abort();
		json_free(d);
		usage_set_window(&u, NULL);
		if (u.context < 0 || u.window < 0 || usage_percent(&u) < -1)
			abort();
	}
	if (gemini_project_id((const char *)data, size, "/w", id,
	    sizeof id) == 0 && (strchr(id, '/') != NULL || *id == '\0'))
		abort();
	if (gemini_chat_head((const char *)data, size, id, sizeof id,
	    &start) == 0 && (*id == '\0' || strlen(id) >= sizeof id))
		abort();

	/* OpenCode's log, Copilot's: as NUL-terminated text, line by line. */
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	for (line = text; line < text + size; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(text + size - line))) ==
		    NULL)
			nl = text + size;
		*(char *)nl = '\0';
		if (opencode_created_line(line, id, sizeof id, dir,
		    sizeof dir, &start) == 0 && (strncmp(id, "ses_", 4) != 0 ||
		    *dir != '/' || strlen(dir) >= sizeof dir || start < 0))
			abort();
		if (copilot_log_pid(line) == 0 || copilot_log_pid(line) < -1)
			abort();
	}
	memcpy(text, data, size);
	if (copilot_log_session(text, id, sizeof id) == 0 && strlen(id) != 36)
		abort();
	if (copilot_workspace_cwd((const char *)data, size, dir,
	    sizeof dir) == 0 && (*dir != '/' || strchr(dir, '\\') != NULL ||
	    strlen(dir) >= sizeof dir))
		abort();
	free(text);
	return (0);
}
