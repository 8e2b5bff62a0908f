/*
 * Agent hooks (`lisa notify`, run by Claude Code's and Codex's hooks): which
 * pane the event came from, and what it means to the classifier.
 */
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "agent.h"

/* The agent event a hook pushed, as the classifier knows it. */
static enum hook_event
agenthook_event(const char *agent, const char *event,
    const char *notification)
{
	static const struct {
		const char		*name;
		enum hook_event		 ev;
	} map[] = {
		{ "SessionStart", HK_SESSION_START },
		{ "UserPromptSubmit", HK_PROMPT },
		{ "PreToolUse", HK_PRE_TOOL },
		{ "PermissionRequest", HK_PERMISSION },
		{ "PostToolUse", HK_POST_TOOL },
		{ "Stop", HK_STOP },
		{ "StopFailure", HK_STOP_FAILURE },
		{ "SessionEnd", HK_SESSION_END },
		{ "agent-turn-complete", HK_TURN_COMPLETE },
	};
	size_t	i;

	if (event == NULL)
		return (HK_NONE);
	if (strcmp(event, "Notification") == 0) {
		if (notification != NULL &&
		    strcmp(notification, "idle_prompt") == 0)
			return (HK_NOTIFY_IDLE);
		if (notification != NULL &&
		    strcmp(notification, "permission_prompt") == 0)
			return (HK_NOTIFY_PERMISSION);
		return (HK_NONE);
	}
	for (i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (strcmp(event, map[i].name) == 0)
			return (map[i].ev);
	}
	return (HK_NONE);
}

/* Which pane a hook came from: its $TMUX_PANE, its agent's pid, its cwd. */
static struct pane *
agenthook_pane(struct json_doc *d, const char *agent, const char *cwd)
{
	struct pane	*p;
	char		*arg, link[4096];
	long long	 pid;
	int		 arr, i;

	arg = json_get_str(d, 0, "pane");
	p = pane_find(listener_pane_arg(arg));
	free(arg);
	/* Codex's daemon runs hooks with the TMUX_PANE of the first TUI. */
	if (p != NULL && strcmp(agent, "codex") != 0)
		return (p);
	arr = json_get(d, 0, "pids");
	RB_FOREACH(p, panes, &panes) {
		if (p->watch == NULL || !p->watch->agent_alive)
			continue;
		for (i = 0; i < json_array_size(d, arr); i++) {
			if (json_tok_int(d, json_array_item(d, arr, i),
			    &pid) == 0 && pid > 0 && pid == p->watch->agent_pid)
				return (p);
		}
	}
	if (cwd == NULL)
		return (NULL);
	RB_FOREACH(p, panes, &panes) {
		if (p->watch == NULL || !p->watch->agent_alive ||
		    p->watch->agent == NULL ||
		    strcmp(p->watch->agent->name, agent) != 0)
			continue;
		if (proc_cwd(p->watch->agent_pid, link, sizeof link) == 0 &&
		    strcmp(link, cwd) == 0)
			return (p);
	}
	return (NULL);
}

/* One hook event, as `lisa notify` forwards it. */
void
agenthook_notify(struct json_doc *d)
{
	struct pane	*p;
	char		*agent, *event, *tool, *note, *cwd;
	enum hook_event	 ev;
	int		 title_thread = 0;

	agent = json_get_str(d, 0, "agent");
	event = json_get_str(d, 0, "event");
	tool = json_get_str(d, 0, "tool");
	note = json_get_str(d, 0, "notification");
	cwd = json_get_str(d, 0, "cwd");
	json_get_bool(d, 0, "title_thread", &title_thread);
	ev = agenthook_event(agent, event, note);
	p = agent != NULL ? agenthook_pane(d, agent, cwd) : NULL;
	log_debug("hook %s %s from %s: pane %s", agent != NULL ? agent : "?",
	    event != NULL ? event : "?", cwd != NULL ? cwd : "?",
	    p != NULL ? "found" : "unknown");
	if (p != NULL && ev != HK_NONE && !title_thread)
		watch_hook(p, ev, tool != NULL &&
		    strcmp(tool, "AskUserQuestion") == 0);
	free(agent);
	free(event);
	free(tool);
	free(note);
	free(cwd);
}

