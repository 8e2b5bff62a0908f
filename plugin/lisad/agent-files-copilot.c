/*
 * Copilot CLI's conversation id, for lisa resume (checked against
 * 1.0.102): each process logs to <copilot>/logs/process-<ms>-<pid>.log,
 * <copilot> being $COPILOT_HOME or ~/.copilot and the pid its native
 * runtime's, a child of the node wrapper lisa knows; the log says
 * "Workspace initialized: <uuid>" as a session opens. The file's name
 * says whose it is: no guess by directory or time as for the others.
 *
 * Read until the id is found, then no more (the log grows with every
 * request): a session begun later in the same process (/new) is not
 * followed, and docs/lifecycle.md says so.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"

#define COPILOT_LOG_MAX		(256 * 1024)	/* its first lines */
#define COPILOT_TREE		16

/* The agent's process and its children and theirs: who may log for it. */
static int
agentfiles_copilot_tree(struct watch *w, pid_t *out, int max)
{
	pid_t	kids[COPILOT_TREE];
	int	n = 0, i, k, j;

	out[n++] = w->agent_pid;
	for (i = 0; i < n && i < 4; i++) {
		k = proc_children(out[i], kids, COPILOT_TREE);
		for (j = 0; j < k && n < max; j++)
			out[n++] = kids[j];
	}
	return (n);
}

/*
 * The session's directory, from <copilot>/session-state/<id>/
 * workspace.yaml's "cwd:" line: where the system does not say a
 * process's directory (the generic backend), the record's.
 */
static void
agentfiles_copilot_cwd(struct watch *w)
{
	char	*path, buf[16384], cwd[PATH_MAX];
	ssize_t	 n;
	size_t	 len;
	int	 fd;

	len = strlen(w->agent_log);
	if (len < 5 || strcmp(w->agent_log + len - 5, "/logs") != 0)
		return;
	xasprintf(&path, "%.*s/session-state/%s/workspace.yaml",
	    (int)(len - 5), w->agent_log, w->chat_session);
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	free(path);
	if (fd == -1)
		return;
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n > 0 && copilot_workspace_cwd(buf, (size_t)n, cwd,
	    sizeof cwd) == 0) {
		free(w->session_cwd);
		w->session_cwd = xstrdup(cwd);
	}
}

/* The session id the log names, into w->chat_session. */
static void
agentfiles_copilot_read(struct pane *p, const char *path)
{
	struct watch	*w = p->watch;
	char		*buf;
	ssize_t		 n;
	size_t		 have = 0;
	int		 fd;

	fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	if (fd == -1)
		return;
	buf = xmalloc(COPILOT_LOG_MAX + 1);
	while (have < COPILOT_LOG_MAX &&
	    (n = read(fd, buf + have, COPILOT_LOG_MAX - have)) > 0)
		have += (size_t)n;
	close(fd);
	buf[have] = '\0';
	if (copilot_log_session(buf, w->chat_session,
	    sizeof w->chat_session) == 0) {
		log_debug("pane %%%d: copilot session %s", p->id,
		    w->chat_session);
		agentfiles_copilot_cwd(w);
	}
	free(buf);
}

/* A log of p's agent, by its name: read it. */
static void
agentfiles_copilot_log(struct pane *p, const char *dir, const char *name)
{
	pid_t	 tree[COPILOT_TREE];
	long	 pid = copilot_log_pid(name);
	char	*path;
	int	 n, i;

	if (pid <= 0 || p->watch->chat_session[0] != '\0')
		return;
	n = agentfiles_copilot_tree(p->watch, tree, COPILOT_TREE);
	for (i = 0; i < n; i++) {
		if (tree[i] == (pid_t)pid) {
			xasprintf(&path, "%s/%s", dir, name);
			agentfiles_copilot_read(p, path);
			free(path);
			return;
		}
	}
}

/* The agent was found: its logs' directory, watched, and read. */
void
agentfiles_copilot_look(struct pane *p)
{
	struct watch	*w = p->watch;
	struct dirent	*de;
	DIR		*d;
	char		*home;

	if (w->agent_log == NULL) {
		if ((home = agentfiles_env_dir(w->agent_pid, "COPILOT_HOME",
		    ".copilot")) == NULL)
			return;
		xasprintf(&w->agent_log, "%s/logs", home);
		free(home);
		agentfiles_watch(w->agent_log);
	}
	if (w->chat_session[0] != '\0' ||
	    (d = opendir(w->agent_log)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && w->chat_session[0] == '\0')
		agentfiles_copilot_log(p, w->agent_log, de->d_name);
	closedir(d);
}

/* A file changed in a watched directory: 1 if a Copilot log's. */
int
agentfiles_copilot_changed(const char *dir, const char *name)
{
	struct pane	*p;
	struct watch	*w;
	int		 ours = 0;

	if (copilot_log_pid(name) == -1)
		return (0);
	RB_FOREACH(p, panes, &panes) {
		w = p->watch;
		if (w == NULL || !w->agent_alive || w->agent_log == NULL ||
		    strcmp(w->agent_log, dir) != 0)
			continue;
		ours = 1;
		agentfiles_copilot_log(p, dir, name);
	}
	return (ours);
}
