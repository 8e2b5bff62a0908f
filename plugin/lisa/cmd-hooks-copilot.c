/*
 * GitHub Copilot CLI's hooks: a file of its own in the user's hooks
 * directory ($COPILOT_HOME/hooks/lisa.json, else ~/.copilot/hooks/),
 * read when Copilot starts. Each event runs `lisa notify --agent copilot
 * EVENT` with Copilot's JSON on stdin. Not every event lisa could use is
 * taken: permissionRequest comes before Copilot's own policy (also for
 * commands it then runs unasked), errorOccurred also for errors it
 * retries; the permission_prompt notification is the dialog itself.
 * `lisa hooks uninstall copilot` removes the file, only if it is ours.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

#define COPILOT_MARK " notify --agent copilot "

static const char *copilot_events[] = {
	"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse",
	"notification", "agentStop", "sessionEnd",
};

static char *
copilot_hooks_path(int make)
{
	const char	*home = getenv("COPILOT_HOME");
	char		*dir, *path;

	if (home != NULL && *home == '/')
		dir = xstrdup(home);
	else
		xasprintf(&dir, "%s/.copilot", getenv("HOME") != NULL ?
		    getenv("HOME") : "");
	if (make && mkdir(dir, 0700) != 0 && errno != EEXIST)
		fprintf(stderr, "lisa: %s: %s\n", dir, strerror(errno));
	xasprintf(&path, "%s/hooks/lisa.json", dir);
	free(dir);
	return (path);
}

/* The file, as lisa writes it. */
static void
copilot_hooks_file(struct buf *out, const char *self)
{
	struct buf	 quoted, cmd;
	size_t		 i;

	buf_init(&quoted);
	ctl_shell_quote(&quoted, self);
	buf_init(&cmd);
	buf_adds(out, "{\n  \"version\": 1,\n  \"hooks\": {\n");
	for (i = 0; i < sizeof copilot_events / sizeof copilot_events[0];
	    i++) {
		buf_reset(&cmd);
		buf_printf(&cmd, "LISA_HOOK=1 %s" COPILOT_MARK "%s",
		    quoted.data, copilot_events[i]);
		buf_printf(out, "    \"%s\": [{\"type\": \"command\", "
		    "\"bash\": ", copilot_events[i]);
		json_cstr(out, cmd.data);
		buf_printf(out, ", \"timeoutSec\": 10}]%s\n", i + 1 <
		    sizeof copilot_events / sizeof copilot_events[0] ? "," : "");
	}
	buf_adds(out, "  }\n}\n");
	buf_free(&cmd);
	buf_free(&quoted);
}

static int
copilot_ours(const char *text)
{
	return (strstr(text, "LISA_HOOK=1 ") != NULL &&
	    strstr(text, COPILOT_MARK) != NULL);
}

int
hooks_copilot(int install, int dry_run)
{
	struct buf	 out;
	char		*path, *self;
	int		 rc;

	path = copilot_hooks_path(install && !dry_run);
	self = client_self();
	buf_init(&out);
	copilot_hooks_file(&out, self);
	rc = hooks_own_file(path, copilot_ours, out.data, out.len, install,
	    dry_run, "Copilot reads it when it starts");
	buf_free(&out);
	free(self);
	free(path);
	return (rc);
}

/* Copilot's event names, as lisa takes them from Claude Code's hooks. */
const char *
hooks_copilot_event(const char *event)
{
	static const char	*map[][2] = {
		{ "sessionStart", "SessionStart" },
		{ "userPromptSubmitted", "UserPromptSubmit" },
		{ "preToolUse", "PreToolUse" },
		{ "postToolUse", "PostToolUse" },
		{ "notification", "Notification" },
		{ "agentStop", "Stop" },
		{ "sessionEnd", "SessionEnd" },
	};
	size_t			 i;

	for (i = 0; event != NULL && i < sizeof map / sizeof map[0]; i++) {
		if (strcmp(event, map[i][0]) == 0)
			return (map[i][1]);
	}
	return (NULL);
}
