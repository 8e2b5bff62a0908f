/*
 * OpenCode's hooks: a plugin file in its global plugin directory
 * ($XDG_CONFIG_HOME/opencode/plugins/lisa.js), loaded when OpenCode starts.
 * It runs `lisa notify --agent opencode` with each event in the words lisa
 * takes from Claude Code's hooks, one at a time and in order. It imports
 * nothing but Node's child_process, so OpenCode fetches nothing for it.
 * `lisa hooks uninstall opencode` removes the file, only if it is ours.
 * Kilo Code's CLI, a fork, loads the same plugin from
 * $XDG_CONFIG_HOME/kilo/plugins and sends the same events (7.7.7).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

/* The first line: how a file is known as ours ("opencode" or "kilo"). */
#define OPENCODE_MARK "// lisa-hook: "

/*
 * Each assistant message of the user's session (not a subagent's), once
 * completed, sends its tokens and the window OpenCode gives its model
 * (chat.params) as "LisaUsage": OpenCode keeps them only in its SQLite
 * database. Turn ends are the moments no session is busy: a subagent's session
 * going idle is not the end of the turn. A failed turn (not the user's
 * interrupt) ends as StopFailure, a 429 as a rate limit. OpenCode retries
 * a 5xx or a 429 until the user interrupts it, and an interrupt that
 * meets an attempt's error reports that error, not the abort: an error
 * after a retry in the same turn is the user's interrupt.
 */
static const char opencode_plugin[] =
OPENCODE_MARK "%s\n"
"// Written by `lisa hooks install %s`; `lisa hooks uninstall\n"
"// %s` removes it. It tells lisa (agent states in tmux) what\n"
"// the agent does. Edits are lost on the next install.\n"
"import { spawn } from \"node:child_process\"\n"
"\n"
"const LISA = %s\n"
"\n"
"export const LisaHooks = async ({ directory }) => {\n"
"  if (!process.env.TMUX) return {}\n"
"  const busy = new Set()\n"
"  const retried = new Set()\n"
"  let failed = null\n"
"  let queue = Promise.resolve()\n"
"  const tell = (event, fields) => {\n"
"    const body = JSON.stringify({ hook_event_name: event, cwd: directory,\n"
"      ...fields })\n"
"    queue = queue.then(() => new Promise((done) => {\n"
"      try {\n"
"        const child = spawn(LISA, [\"notify\", \"--agent\", \"%s\"],\n"
"          { stdio: [\"pipe\", \"ignore\", \"ignore\"] })\n"
"        child.on(\"error\", done)\n"
"        child.on(\"exit\", done)\n"
"        child.stdin.on(\"error\", () => {})\n"
"        child.stdin.end(body)\n"
"      } catch { done() }\n"
"    }))\n"
"  }\n"
"  const tool = (input) => ({ tool_name: String(input?.tool ?? \"\") })\n"
"  const windows = new Map()\n"
"  const subagents = new Set()\n"
"  const counted = new Set()\n"
"  const num = (v) => (Number.isFinite(v) && v > 0 ? Math.floor(v) : 0)\n"
"  return {\n"
"    \"chat.params\": async (input) => {\n"
"      const w = input?.model?.limit?.context\n"
"      if (input?.sessionID && num(w) > 0) windows.set(input.sessionID, num(w))\n"
"    },\n"
"    event: async ({ event }) => {\n"
"      const p = event?.properties ?? {}\n"
"      switch (event?.type) {\n"
"      case \"session.status\": {\n"
"        const was = busy.size\n"
"        if (was === 0) retried.clear()\n"
"        if (p.status?.type === \"idle\") busy.delete(p.sessionID)\n"
"        else busy.add(p.sessionID)\n"
"        if (p.status?.type === \"retry\") retried.add(p.sessionID)\n"
"        if (was === 0 && busy.size > 0) {\n"
"          failed = null\n"
"          tell(\"UserPromptSubmit\", {})\n"
"        } else if (was > 0 && busy.size === 0)\n"
"          tell(failed ? \"StopFailure\" : \"Stop\",\n"
"            failed ? { error: failed } : {})\n"
"        break\n"
"      }\n"
"      case \"session.error\": {\n"
"        const e = p.error ?? {}\n"
"        if (e.name === \"MessageAbortedError\") break\n"
"        if (retried.has(p.sessionID) || (!p.sessionID && retried.size))\n"
"          break\n"
"        failed = e.data?.statusCode === 429 ? \"rate_limit\" :\n"
"          \"server_error\"\n"
"        if (busy.size === 0) tell(\"StopFailure\", { error: failed })\n"
"        break\n"
"      }\n"
"      case \"session.created\":\n"
"      case \"session.updated\":\n"
"        if (p.info?.parentID) subagents.add(p.info.id)\n"
"        break\n"
"      case \"message.updated\": {\n"
"        const m = p.info ?? {}, t = m.tokens ?? {}\n"
"        if (m.role !== \"assistant\" || !m.time?.completed ||\n"
"          counted.has(m.id) || subagents.has(m.sessionID)) break\n"
"        const usage = { id: String(m.id ?? \"\"),\n"
"          model: String(m.modelID ?? \"\"), input: num(t.input),\n"
"          output: num(t.output) + num(t.reasoning),\n"
"          cache_read: num(t.cache?.read), cache_write: num(t.cache?.write),\n"
"          window: windows.get(m.sessionID) ?? 0 }\n"
"        if (usage.input + usage.output + usage.cache_read === 0) break\n"
"        counted.add(m.id)\n"
"        tell(\"LisaUsage\", { usage })\n"
"        break\n"
"      }\n"
"      case \"permission.asked\":\n"
"        tell(\"PermissionRequest\", { tool_name: String(p.permission ?? \"\") })\n"
"        break\n"
"      case \"question.asked\":\n"
"        tell(\"PermissionRequest\", { tool_name: \"AskUserQuestion\" })\n"
"        break\n"
"      case \"permission.replied\":\n"
"      case \"question.replied\":\n"
"      case \"question.rejected\":\n"
"        if (busy.size > 0) tell(\"PreToolUse\", {})\n"
"        break\n"
"      }\n"
"    },\n"
"    \"tool.execute.before\": async (input) => { tell(\"PreToolUse\", tool(input)) },\n"
"    \"tool.execute.after\": async (input) => { tell(\"PostToolUse\", tool(input)) },\n"
"  }\n"
"}\n";

/* Where AGENT looks for global plugins; its directories made 0700. */
static char *
opencode_plugin_path(const char *agent, int make)
{
	const char	*xdg = getenv("XDG_CONFIG_HOME");
	const char	*home = getenv("HOME");
	char		*base, *dir, *path;

	if (xdg != NULL && *xdg == '/')
		base = xstrdup(xdg);
	else
		xasprintf(&base, "%s/.config", home != NULL ? home : "");
	xasprintf(&dir, "%s/%s", base, agent);
	xasprintf(&path, "%s/%s/plugins/lisa.js", base, agent);
	if (make) {
		if (mkdir(base, 0700) != 0 && errno != EEXIST)
			fprintf(stderr, "lisa: %s: %s\n", base, strerror(errno));
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			fprintf(stderr, "lisa: %s: %s\n", dir, strerror(errno));
	}
	free(dir);
	free(base);
	return (path);
}

static const char	*opencode_agent;	/* whose file opencode_ours reads */

static int
opencode_ours(const char *text)
{
	size_t	n = strlen(OPENCODE_MARK), a = strlen(opencode_agent);

	return (strncmp(text, OPENCODE_MARK, n) == 0 &&
	    strncmp(text + n, opencode_agent, a) == 0 && text[n + a] == '\n');
}

/* AGENT: "opencode" or "kilo". */
int
hooks_opencode(const char *agent, int install, int dry_run)
{
	struct buf	 quoted, out;
	char		*path, *self, *what;
	int		 rc;

	path = opencode_plugin_path(agent, install && !dry_run);
	self = client_self();
	buf_init(&quoted);
	json_cstr(&quoted, self);	/* a JSON string is a JS string */
	buf_init(&out);
	buf_printf(&out, opencode_plugin, agent, agent, agent, quoted.data,
	    agent);
	xasprintf(&what, "%s loads it when it starts",
	    strcmp(agent, "kilo") == 0 ? "Kilo" : "OpenCode");
	opencode_agent = agent;
	rc = hooks_own_file(path, opencode_ours, out.data, out.len, install,
	    dry_run, what);
	free(what);
	buf_free(&out);
	buf_free(&quoted);
	free(self);
	free(path);
	return (rc);
}
