/*
 * Agent hooks (`lisa notify`, run by Claude Code's and Codex's hooks): which
 * pane the event came from, and what it means to the classifier.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"

/*
 * A hook known by its cwd alone, where the system does not tell an agent's
 * cwd (osdep-generic): tmux does (#{pane_current_path}, on every system it
 * runs on). Each candidate pane is asked; the first whose path is the cwd
 * gets the event. Replies from one client come in order, so the oldest
 * wait that asked a pane is the one a reply answers.
 */
#define AGENTHOOK_ASK_MAX	16
#define AGENTHOOK_WAITS_MAX	64
struct agenthook_wait {
	char			*cwd;
	enum hook_event		 ev;
	int			 ask;
	int			 panes[AGENTHOOK_ASK_MAX];
	int			 left;		/* replies still to come */
	TAILQ_ENTRY(agenthook_wait) entry;
};
static TAILQ_HEAD(, agenthook_wait) agenthook_waits =
    TAILQ_HEAD_INITIALIZER(agenthook_waits);
static int	agenthook_nwaits;

/* The agent event a hook pushed, as the classifier knows it. */
static enum hook_event
agenthook_event(const char *agent, const char *event,
    const char *notification, const char *error)
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
	if (strcmp(event, "StopFailure") == 0 && error != NULL &&
	    strcmp(error, "rate_limit") == 0)
		return (HK_STOP_LIMIT);
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

/* A pane running this agent, alive. */
static int
agenthook_candidate(struct pane *p, const char *agent)
{
	return (p->watch != NULL && p->watch->agent_alive &&
	    p->watch->agent != NULL &&
	    strcmp(p->watch->agent->name, agent) == 0);
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
		if (!agenthook_candidate(p, agent))
			continue;
		if (proc_cwd(p->watch->agent_pid, link, sizeof link) == 0 &&
		    strcmp(link, cwd) == 0)
			return (p);
	}
	return (NULL);
}

static void
agenthook_wait_free(struct agenthook_wait *aw)
{
	TAILQ_REMOVE(&agenthook_waits, aw, entry);
	agenthook_nwaits--;
	free(aw->cwd);
	free(aw);
}

static void
agenthook_path_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct agenthook_wait	*aw;
	struct pane		*p;
	int			 id = (int)(intptr_t)arg, i;

	TAILQ_FOREACH(aw, &agenthook_waits, entry) {
		for (i = 0; i < AGENTHOOK_ASK_MAX; i++) {
			if (aw->panes[i] == id)
				break;
		}
		if (i < AGENTHOOK_ASK_MAX)
			break;
	}
	if (aw == NULL)
		return;
	aw->panes[i] = -1;
	aw->left--;
	if (len > 0 && body[len - 1] == '\n')
		len--;
	if (ok && len == strlen(aw->cwd) && memcmp(body, aw->cwd, len) == 0 &&
	    (p = pane_find(id)) != NULL && p->watch != NULL &&
	    p->watch->agent_alive) {
		log_debug("hook from %s: pane %%%d by its path", aw->cwd, id);
		watch_hook(p, aw->ev, aw->ask);
		aw->left = 0;
	}
	if (aw->left == 0)
		agenthook_wait_free(aw);
}

/* Ask tmux each candidate pane's path (see above); 0 if none was asked. */
static int
agenthook_ask_paths(const char *agent, const char *cwd, enum hook_event ev,
    int ask)
{
	struct agenthook_wait	*aw;
	struct pane		*p;
	struct session		*s;
	char			 cmd[64], link[4096];
	int			 i;

	if (agenthook_nwaits >= AGENTHOOK_WAITS_MAX)
		return (0);
	aw = xcalloc(1, sizeof *aw);
	aw->ev = ev;
	aw->ask = ask;
	RB_FOREACH(p, panes, &panes) {
		if (aw->left == AGENTHOOK_ASK_MAX)
			break;
		/* (the system told this one's cwd, and it was not it) */
		if (!agenthook_candidate(p, agent) ||
		    proc_cwd(p->watch->agent_pid, link, sizeof link) == 0 ||
		    (s = pane_session(p)) == NULL)
			continue;
		snprintf(cmd, sizeof cmd,
		    "display-message -p -t '%%%d' '#{pane_current_path}'", p->id);
		if (session_send(s, cmd, agenthook_path_cb,
		    (void *)(intptr_t)p->id) == 0)
			aw->panes[aw->left++] = p->id;
	}
	if (aw->left == 0) {
		free(aw);
		return (0);
	}
	for (i = aw->left; i < AGENTHOOK_ASK_MAX; i++)
		aw->panes[i] = -1;
	aw->cwd = xstrdup(cwd);
	TAILQ_INSERT_TAIL(&agenthook_waits, aw, entry);
	agenthook_nwaits++;
	return (1);
}

/* At exit: waits whose replies will never come. */
void
agenthook_close(void)
{
	while (!TAILQ_EMPTY(&agenthook_waits))
		agenthook_wait_free(TAILQ_FIRST(&agenthook_waits));
}

/* A message's usage (lisa's OpenCode plugin): the pane's context. */
static void
agenthook_usage(struct pane *p, struct json_doc *d)
{
	struct usage	*u = &p->watch->usage;

	if (usage_hook(u, d, json_get(d, 0, "usage")) != 1) {
		log_debug("pane %%%d: hook usage not understood", p->id);
		return;
	}
	usage_set_window(u, lisad.context_windows);
	publish_pane(p);
	log_debug("pane %%%d: context %lld of %lld, %d%% (hook)", p->id,
	    u->context, u->window, usage_percent(u));
}

/*
 * What a permission hook says the agent would run (Claude Code's and Qwen
 * Code's tool_input: the exact command, file or URL), kept until the next
 * hook event but the reminder that the same dialog still waits (Claude's
 * Notification permission_prompt, 6 s on: a token read before it must
 * still name the dialog): the dialog read off the screen takes it when
 * they agree (watch-screen.c), and its fingerprint covers both.
 */
static void
agenthook_subject(struct pane *p, enum hook_event ev, const char *tool,
    const char *subject)
{
	struct watch	*w = p->watch;

	if (w == NULL || ev == HK_NOTIFY_PERMISSION)
		return;
	*w->hook_tool = '\0';
	free(w->hook_subject);
	w->hook_subject = NULL;
	if (ev != HK_PERMISSION || subject == NULL || tool == NULL)
		return;
	strlcpy(w->hook_tool, tool, sizeof w->hook_tool);
	w->hook_subject = xstrdup(subject);
}

/* One hook event, as `lisa notify` forwards it. */
void
agenthook_notify(struct json_doc *d)
{
	struct pane	*p;
	char		*agent, *event, *tool, *note, *cwd, *error, *subject;
	enum hook_event	 ev;
	int		 title_thread = 0, ask;

	agent = json_get_str(d, 0, "agent");
	event = json_get_str(d, 0, "event");
	tool = json_get_str(d, 0, "tool");
	note = json_get_str(d, 0, "notification");
	cwd = json_get_str(d, 0, "cwd");
	error = json_get_str(d, 0, "error");
	subject = json_get_str(d, 0, "subject");
	json_get_bool(d, 0, "title_thread", &title_thread);
	ev = agenthook_event(agent, event, note, error);
	p = agent != NULL ? agenthook_pane(d, agent, cwd) : NULL;
	log_debug("hook %s %s from %s: pane %s", agent != NULL ? agent : "?",
	    event != NULL ? event : "?", cwd != NULL ? cwd : "?",
	    p != NULL ? "found" : "unknown");
	ask = tool != NULL && strcmp(tool, "AskUserQuestion") == 0;
	if (p != NULL && event != NULL && strcmp(event, "LisaUsage") == 0)
		agenthook_usage(p, d);
	else if (p != NULL && ev != HK_NONE && !title_thread) {
		agenthook_subject(p, ev, tool, subject);
		watch_hook(p, ev, ask);
	}
	else if (p == NULL && agent != NULL && cwd != NULL &&
	    ev != HK_NONE && !title_thread &&
	    agenthook_ask_paths(agent, cwd, ev, ask))
		log_debug("hook from %s: asking tmux the panes' paths", cwd);
	free(agent);
	free(event);
	free(tool);
	free(note);
	free(cwd);
	free(error);
	free(subject);
}

