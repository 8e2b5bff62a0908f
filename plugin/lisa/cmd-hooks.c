/*
 * Agent hooks. `lisa notify` is what the hooks run: it reads the agent's
 * event (Claude, Qwen: JSON on stdin; Codex: JSON as the last argument;
 * Copilot: its name as the argument, JSON on stdin), pushes it to the
 * helper and exits 0, printing nothing (a hook's stdout can end up in the
 * agent's context). `lisa hooks install|uninstall claude|codex|qwen`
 * adds or removes exactly lisa's entries in the agent's settings, leaving
 * the user's own alone; files are replaced atomically. OpenCode's plugin
 * file is cmd-hooks-opencode.c's, Copilot's hooks file
 * cmd-hooks-copilot.c's.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

#define HOOKS_MARK "LISA_HOOK=1 "
#define HOOKS_MAX_FILE (4 * 1024 * 1024)

/* Claude events lisa listens to; tool events need a matcher. */
static const struct {
	const char	*event;
	int		 matcher;
} claude_events[] = {
	{ "SessionStart", 0 }, { "UserPromptSubmit", 0 },
	{ "PreToolUse", 1 }, { "PermissionRequest", 1 },
	{ "PostToolUse", 1 }, { "Stop", 0 }, { "StopFailure", 0 },
	{ "Notification", 0 }, { "SessionEnd", 0 },
};

char *
hooks_read_file(const char *path, size_t *len, int *missing)
{
	struct buf	b;
	char		tmp[65536];
	ssize_t		n;
	int		fd;

	*missing = 0;
	if ((fd = open(path, O_RDONLY|O_NOFOLLOW|O_CLOEXEC)) == -1) {
		if (errno == ENOENT) {
			*missing = 1;
			*len = 0;
			return (xstrdup(""));
		}
		return (NULL);
	}
	buf_init(&b);
	while ((n = read(fd, tmp, sizeof tmp)) > 0 && b.len < HOOKS_MAX_FILE)
		buf_add(&b, tmp, (size_t)n);
	close(fd);
	*len = b.len;
	return (buf_detach(&b));
}

/* Replace path with data: temp file, fsync, rename. Keeps the mode. */
int
hooks_write_file(const char *path, const char *data, size_t len)
{
	struct stat	 st;
	char		*tmp, *dir, *copy;
	mode_t		 mode = 0600;
	int		 fd;

	copy = xstrdup(path);
	dir = dirname(copy);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		free(copy);
		return (-1);
	}
	free(copy);
	if (stat(path, &st) == 0)
		mode = st.st_mode & 0777;
	xasprintf(&tmp, "%s.lisa-%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, mode);
	if (fd == -1) {
		free(tmp);
		return (-1);
	}
	if (write(fd, data, len) != (ssize_t)len || fsync(fd) != 0 ||
	    close(fd) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		free(tmp);
		return (-1);
	}
	free(tmp);
	return (0);
}

/*
 * Claude's settings, or Qwen Code's: Qwen (a Gemini CLI fork) took
 * Claude's hooks, their names, payloads and place in settings.json.
 */
/*
 * A file that is lisa's alone (OpenCode's plugin, Copilot's hooks file):
 * written whole with WANT (install), or removed; one there that OURS does
 * not claim is left alone. WHEN says when the agent reads it.
 */
int
hooks_own_file(const char *path, int (*ours)(const char *), const char *want,
    size_t wantlen, int install, int dry_run, const char *when)
{
	char	*text;
	size_t	 len;
	int	 missing, rc = 0;

	if ((text = hooks_read_file(path, &len, &missing)) == NULL) {
		fprintf(stderr, "lisa: %s: %s\n", path, strerror(errno));
		return (1);
	}
	if (!missing && !ours(text)) {
		fprintf(stderr, "lisa: %s is not lisa's; not touching it\n",
		    path);
		rc = 1;
	} else if (!install) {
		if (missing)
			printf("lisa: %s: nothing to remove\n", path);
		else if (dry_run)
			fprintf(stderr, "lisa: would remove %s\n", path);
		else if (unlink(path) != 0) {
			fprintf(stderr, "lisa: removing %s: %s\n", path,
			    strerror(errno));
			rc = 1;
		} else
			printf("lisa: removed %s\n", path);
	} else if (dry_run) {
		fprintf(stderr, "lisa: would write %s\n", path);
		fputs(want, stdout);
	} else if (len == wantlen && memcmp(text, want, len) == 0)
		printf("lisa: %s: nothing to add (already installed)\n", path);
	else if (hooks_write_file(path, want, wantlen) != 0) {
		fprintf(stderr, "lisa: writing %s: %s\n", path,
		    strerror(errno));
		rc = 1;
	} else
		printf("lisa: wrote %s (%s)\n", path, when);
	free(text);
	return (rc);
}

static char *
claude_settings_path(const char *agent)
{
	const char	*dir;
	char		*path;

	dir = getenv(strcmp(agent, "qwen") == 0 ? "QWEN_HOME" :
	    "CLAUDE_CONFIG_DIR");
	if (dir != NULL && *dir == '/')
		xasprintf(&path, "%s/settings.json", dir);
	else
		xasprintf(&path, "%s/.%s/settings.json",
		    getenv("HOME") != NULL ? getenv("HOME") : "", agent);
	return (path);
}

static int
is_ours(struct jv *hook, const char *agent)
{
	char	*cmd = jv_text(jv_get(hook, "command")), *mark;
	int	 ours;

	xasprintf(&mark, " notify --agent %s", agent);
	ours = cmd != NULL && strstr(cmd, HOOKS_MARK) != NULL &&
	    strstr(cmd, mark) != NULL;
	free(mark);
	free(cmd);
	return (ours);
}

/* Remove lisa's entries (and the groups and events they leave empty). */
static int
claude_remove(struct jv *root, const char *agent)
{
	struct jv	*hooks = jv_get(root, "hooks"), *ev, *evn, *g, *gn;
	struct jv	*list, *h, *hn;
	int		 removed = 0, mine;

	if (hooks == NULL || hooks->type != JV_OBJECT)
		return (0);
	for (ev = hooks->first; ev != NULL; ev = evn) {
		evn = ev->next;
		if (ev->type != JV_ARRAY)
			continue;
		for (g = ev->first; g != NULL; g = gn) {
			gn = g->next;
			if ((list = jv_get(g, "hooks")) == NULL ||
			    list->type != JV_ARRAY)
				continue;
			mine = 0;
			for (h = list->first; h != NULL; h = hn) {
				hn = h->next;
				if (is_ours(h, agent)) {
					jv_remove(list, h);
					mine = 1;
					removed++;
				}
			}
			if (mine && list->first == NULL)
				jv_remove(ev, g);
		}
		if (ev->first == NULL && removed)
			jv_remove(hooks, ev);
	}
	if (hooks->first == NULL && removed)
		jv_remove(root, hooks);
	return (removed);
}

static int
claude_add(struct jv *root, const char *command, const char *agent)
{
	struct jv	*hooks, *ev, *g, *list, *h;
	size_t		 i;
	int		 added = 0, found;

	hooks = jv_get_or_add(root, "hooks", JV_OBJECT);
	if (hooks->type != JV_OBJECT)
		return (-1);
	for (i = 0; i < sizeof claude_events / sizeof claude_events[0]; i++) {
		ev = jv_get_or_add(hooks, claude_events[i].event, JV_ARRAY);
		if (ev->type != JV_ARRAY)
			return (-1);
		found = 0;
		for (g = ev->first; g != NULL && !found; g = g->next) {
			list = jv_get(g, "hooks");
			for (h = list != NULL ? list->first : NULL; h != NULL;
			    h = h->next)
				found |= is_ours(h, agent);
		}
		if (found)
			continue;
		g = jv_container(NULL, JV_OBJECT);
		if (claude_events[i].matcher)
			jv_append(g, jv_string("matcher", "*"));
		list = jv_container("hooks", JV_ARRAY);
		h = jv_container(NULL, JV_OBJECT);
		jv_append(h, jv_string("type", "command"));
		jv_append(h, jv_string("command", command));
		jv_append(list, h);
		jv_append(g, list);
		jv_append(ev, g);
		added++;
	}
	return (added);
}

static int
hooks_claude(const char *agent, int install, int dry_run)
{
	struct jv	*root;
	struct buf	 out;
	char		*path, *text, *cause = NULL, *self, *command;
	size_t		 len;
	int		 missing, n;

	path = claude_settings_path(agent);
	if ((text = hooks_read_file(path, &len, &missing)) == NULL) {
		fprintf(stderr, "lisa: %s: %s\n", path, strerror(errno));
		return (1);
	}
	if (missing || len == 0)
		root = jv_container(NULL, JV_OBJECT);
	else if ((root = jv_parse(text, len, &cause)) == NULL ||
	    root->type != JV_OBJECT) {
		fprintf(stderr, "lisa: %s: %s; not touching it\n", path,
		    cause != NULL ? cause : "not a JSON object");
		return (1);
	}
	free(text);
	self = client_self();
	buf_init(&out);
	ctl_shell_quote(&out, self);
	xasprintf(&command, HOOKS_MARK "%s notify --agent %s", out.data, agent);
	buf_reset(&out);
	if (install)
		n = claude_add(root, command, agent);
	else
		n = claude_remove(root, agent);
	if (n < 0) {
		fprintf(stderr, "lisa: %s: \"hooks\" is not an object of "
		    "arrays; not touching it\n", path);
		return (1);
	}
	jv_dump(root, &out);
	if (dry_run) {
		fprintf(stderr, "lisa: would %s %d hook(s) %s %s\n",
		    install ? "add" : "remove", n, install ? "to" : "from",
		    path);
		fputs(out.data, stdout);
	} else if (n == 0)
		printf("lisa: %s: nothing to %s\n", path,
		    install ? "add (already installed)" : "remove");
	else if (hooks_write_file(path, out.data, out.len) != 0) {
		fprintf(stderr, "lisa: writing %s: %s\n", path,
		    strerror(errno));
		return (1);
	} else
		printf("lisa: %s %d hook(s) %s %s\n", install ? "added" :
		    "removed", n, install ? "to" : "from", path);
	jv_free(root);
	buf_free(&out);
	free(command);
	free(self);
	free(path);
	return (0);
}

static char *
codex_config_path(void)
{
	const char	*home = getenv("CODEX_HOME");
	char		*path;

	if (home != NULL && *home == '/')
		xasprintf(&path, "%s/config.toml", home);
	else
		xasprintf(&path, "%s/.codex/config.toml",
		    getenv("HOME") != NULL ? getenv("HOME") : "");
	return (path);
}

/*
 * Codex has one top-level `notify = [...]` program. Ours goes in only if
 * there is none; a user's own is never replaced.
 */
static int
hooks_codex(int install, int dry_run)
{
	struct buf	 out, line;
	char		*path, *text, *self, *p, *nl, *mine;
	size_t		 len, n;
	int		 missing, placed = 0, changed = 0;

	path = codex_config_path();
	if ((text = hooks_read_file(path, &len, &missing)) == NULL) {
		fprintf(stderr, "lisa: %s: %s\n", path, strerror(errno));
		return (1);
	}
	self = client_self();
	buf_init(&line);
	buf_adds(&line, "notify = [");
	json_cstr(&line, self);
	buf_adds(&line, ", \"notify\", \"--agent\", \"codex\"]");
	mine = line.data;
	buf_init(&out);
	for (p = text; *p != '\0'; p = nl) {
		nl = strchr(p, '\n');
		nl = nl != NULL ? nl + 1 : p + strlen(p);
		n = (size_t)(nl - p);
		if (strncmp(p, "notify", 6) == 0 &&
		    strspn(p + 6, " \t") + 6 < n && p[6 + strspn(p + 6, " \t")] ==
		    '=') {
			if (memmem(p, n, "\"--agent\", \"codex\"", 18) != NULL &&
			    memmem(p, n, "notify", 6) != NULL &&
			    memmem(p, n, "lisa", 4) != NULL) {
				if (!install) {
					changed = 1;
					continue;	/* drop ours */
				}
				placed = 1;
			} else if (install) {
				fprintf(stderr, "lisa: %s already has a notify "
				    "program (Codex allows one); keeping yours:"
				    " %.*s", path, (int)n, p);
				return (1);
			}
		}
		/* Top-level keys must come before the first table. */
		if (install && !placed && *p == '[') {
			buf_printf(&out, "%s\n", mine);
			placed = changed = 1;
		}
		buf_add(&out, p, n);
	}
	if (install && !placed) {
		if (out.len != 0 && out.data[out.len - 1] != '\n')
			buf_addc(&out, '\n');
		buf_printf(&out, "%s\n", mine);
		changed = 1;
	}
	if (dry_run) {
		fprintf(stderr, "lisa: would %s %s\n", changed ? (install ?
		    "add the notify line to" : "remove the notify line from") :
		    "leave", path);
		if (out.data != NULL)
			fputs(out.data, stdout);
	} else if (!changed)
		printf("lisa: %s: nothing to %s\n", path,
		    install ? "add (already installed)" : "remove");
	else if (hooks_write_file(path, out.data != NULL ? out.data : "",
	    out.len) != 0) {
		fprintf(stderr, "lisa: writing %s: %s\n", path,
		    strerror(errno));
		return (1);
	} else
		printf("lisa: %s the notify line %s %s\n", install ? "added" :
		    "removed", install ? "to" : "from", path);
	buf_free(&out);
	buf_free(&line);
	free(self);
	free(text);
	free(path);
	return (0);
}

int
cmd_hooks(const char *action, const char *agent, int dry_run)
{
	int	install, rc = 0;

	const struct lisa_cmd	*c = lisa_cmd_find("hooks");

	if (action == NULL || (strcmp(action, "install") != 0 &&
	    strcmp(action, "uninstall") != 0))
		args_usage_error(c, "unknown action: %s (install or uninstall)",
		    action != NULL ? action : "");
	install = strcmp(action, "install") == 0;
	if (install && agent == NULL)
		args_usage_error(c, "install: which agent's?");
	if (agent != NULL && strcmp(agent, "claude") != 0 &&
	    strcmp(agent, "codex") != 0 && strcmp(agent, "opencode") != 0 &&
	    strcmp(agent, "copilot") != 0 && strcmp(agent, "qwen") != 0 &&
	    strcmp(agent, "kilo") != 0)
		args_usage_error(c, "unknown agent: %s (claude, codex, opencode, "
		    "copilot, qwen, kilo)", agent);
	if (agent == NULL || strcmp(agent, "claude") == 0)
		rc |= hooks_claude("claude", install, dry_run);
	if (agent == NULL || strcmp(agent, "qwen") == 0)
		rc |= hooks_claude("qwen", install, dry_run);
	if (agent == NULL || strcmp(agent, "codex") == 0)
		rc |= hooks_codex(install, dry_run);
	if (agent == NULL || strcmp(agent, "opencode") == 0)
		rc |= hooks_opencode("opencode", install, dry_run);
	if (agent == NULL || strcmp(agent, "kilo") == 0)
		rc |= hooks_opencode("kilo", install, dry_run);
	if (agent == NULL || strcmp(agent, "copilot") == 0)
		rc |= hooks_copilot(install, dry_run);
	return (rc);
}

/*
 * A message's usage (lisa's OpenCode plugin sends it as "usage"), passed
 * on with only the fields lisa reads, each of its type.
 */
static void
hooks_notify_usage(struct buf *req, struct json_doc *d)
{
	static const char *const counts[] = { "input", "output", "cache_read",
	    "cache_write", "window" };
	static const char *const strs[] = { "id", "model" };
	long long	 v;
	size_t		 i;
	char		*s, sep = '{';
	int		 obj;

	if ((obj = json_get(d, 0, "usage")) == -1 ||
	    json_type(d, obj) != JSON_T_OBJECT)
		return;
	buf_adds(req, ",\"usage\":");
	for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		if (json_get_int(d, obj, counts[i], &v) == 0) {
			buf_printf(req, "%c\"%s\":%lld", sep, counts[i], v);
			sep = ',';
		}
	}
	for (i = 0; i < sizeof strs / sizeof strs[0]; i++) {
		if ((s = json_get_str(d, obj, strs[i])) != NULL) {
			buf_printf(req, "%c\"%s\":", sep, strs[i]);
			json_cstr(req, s);
			free(s);
			sep = ',';
		}
	}
	buf_adds(req, sep == '{' ? "{}" : "}");
}

/*
 * What a tool would run or touch, from the hook's tool_input (Claude
 * Code's, Qwen Code's): its command, file, URL or path.
 */
static void
hooks_notify_subject(struct buf *req, struct json_doc *d)
{
	static const char *keys[] = { "command", "file_path", "url", "path",
	    "notebook_path", NULL };
	char	*s;
	int	 in, i;

	if ((in = json_get(d, 0, "tool_input")) < 0)
		return;
	for (i = 0; keys[i] != NULL; i++) {
		if ((s = json_get_str(d, in, keys[i])) == NULL)
			continue;
		buf_adds(req, ",\"subject\":");
		json_cstr(req, s);
		free(s);
		return;
	}
}

/*
 * Called by an agent's hook. Whatever happens: no output, exit 0, quickly.
 */
int
cmd_notify(struct lisa_ctx *ctx, const char *agent, const char *arg)
{
	struct json_doc	*d;
	struct buf	 req, in;
	char		 tmp[65536], *cause = NULL, *reply = NULL, *s;
	const char	*pane = getenv("TMUX_PANE");
	ssize_t		 n;
	int		 fd, first = -1, copilot;
	const char	*event = NULL;
	pid_t		 ppid = getppid();
	struct proc_node parent;
	long		 gppid = 0;

	/* Copilot: the event is the argument, its JSON comes on stdin. */
	copilot = strcmp(agent, "copilot") == 0;
	if (copilot && (event = hooks_copilot_event(arg)) == NULL)
		return (0);
	buf_init(&in);
	if (arg != NULL && !copilot)
		buf_adds(&in, arg);
	else if (!isatty(0)) {
		while ((n = read(0, tmp, sizeof tmp)) > 0 &&
		    in.len < 1024 * 1024)
			buf_add(&in, tmp, (size_t)n);
	}
	if ((d = json_parse(in.data != NULL ? in.data : "", in.len,
	    &cause)) == NULL)
		return (0);
	/* The hook's parent is a shell; the agent is its parent. */
	if (proc_read(ppid, &parent) == 0)
		gppid = (long)parent.ppid;
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"notify\",\"agent\":");
	json_cstr(&req, agent);
	buf_adds(&req, ",\"pane\":");
	json_cstr(&req, pane);
	buf_printf(&req, ",\"pids\":[%ld,%ld]", (long)ppid, gppid);
	if (strcmp(agent, "codex") == 0) {
		s = json_get_str(d, 0, "type");
		buf_adds(&req, ",\"event\":");
		json_cstr(&req, s);
		free(s);
		/* Codex's hidden title thread is not a turn of the user's. */
		first = json_array_item(d, json_get(d, 0, "input-messages"), 0);
		if (json_tok_str(d, first, &s) == 0) {
			if (strncmp(s, "Generate a concise, single-line task "
			    "title", 40) == 0)
				buf_adds(&req, ",\"title_thread\":true");
			free(s);
		}
	} else {
		s = copilot ? xstrdup(event) :
		    json_get_str(d, 0, "hook_event_name");
		buf_adds(&req, ",\"event\":");
		json_cstr(&req, s);
		free(s);
		s = json_get_str(d, 0, copilot ? "toolName" : "tool_name");
		buf_adds(&req, ",\"tool\":");
		json_cstr(&req, s);
		free(s);
		hooks_notify_subject(&req, d);
		s = json_get_str(d, 0, "notification_type");
		/*
		 * Qwen's idle_prompt came in the middle of a tool (0.15.10):
		 * not to be believed; its Stop says when a turn ends.
		 */
		if (s != NULL && strcmp(s, "idle_prompt") == 0 &&
		    strcmp(agent, "qwen") == 0) {
			free(s);
			s = NULL;
		}
		buf_adds(&req, ",\"notification\":");
		json_cstr(&req, s);
		free(s);
		/* StopFailure: why the turn failed (rate_limit, ...). */
		if ((s = json_get_str(d, 0, "error")) != NULL) {
			buf_adds(&req, ",\"error\":");
			json_cstr(&req, s);
			free(s);
		}
		hooks_notify_usage(&req, d);
	}
	s = json_get_str(d, 0, "cwd");
	buf_adds(&req, ",\"cwd\":");
	json_cstr(&req, s);
	free(s);
	buf_adds(&req, "}\n");
	json_free(d);
	if ((fd = client_connect(ctx->sockpath, &cause)) != -1) {
		client_request(fd, req.data, &reply, &cause);
		close(fd);
	}
	free(reply);
	free(cause);
	buf_free(&req);
	buf_free(&in);
	return (0);
}
