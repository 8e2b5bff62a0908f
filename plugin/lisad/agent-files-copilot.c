/*
 * Copilot CLI's conversation id, for lisa resume (checked against
 * 1.0.102): each process logs to <copilot>/logs/process-<ms>-<pid>.log,
 * <copilot> being $COPILOT_HOME or ~/.copilot and the pid its native
 * runtime's, a child of the node wrapper lisa knows; the log says
 * "Workspace initialized: <uuid>" as a session opens. The file's name
 * says whose it is: no guess by directory or time as for the others.
 *
 * A session begun later in the same process (/clear, /new: seen with
 * 1.0.102) says so in the same log with its own id: once the log is
 * known, its new lines are read as it grows (from where the last read
 * ended) and the last id in them is the conversation's.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"

#define COPILOT_LOG_MAX		(256 * 1024)	/* read at once, at most */
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

/*
 * Up to COPILOT_LOG_MAX bytes of fd from off, cut after their last
 * newline (a half-written line is read again): the last session they
 * name into id (0 if one), and where the read ended into *next.
 */
static int
agentfiles_copilot_chunk(int fd, off_t off, char *id, size_t len,
    off_t *next)
{
	char	*buf, *end;
	size_t	 have;
	int	 found = -1;

	buf = agentfiles_pread(fd, off, COPILOT_LOG_MAX, &have);
	for (end = buf + have; end > buf && end[-1] != '\n'; end--)
		/* nothing */;
	*next = off + (end - buf);
	if (end != buf) {
		*end = '\0';
		found = copilot_log_session(buf, id, len);
	}
	free(buf);
	return (found);
}

/*
 * The log's lines since the last read: the last session they name is the
 * conversation now. A log not yet known as the agent's is read from its
 * start (and its tail, if long), and is known once it names a session.
 */
static void
agentfiles_copilot_read(struct pane *p, const char *path)
{
	struct watch	*w = p->watch;
	struct stat	 st;
	char		 id[sizeof w->chat_session], tail[sizeof id];
	off_t		 off = 0, next;
	int		 fd, known, found;

	known = w->copilot_log != NULL && strcmp(w->copilot_log, path) == 0;
	if (known)
		off = w->copilot_off;
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	if (fd == -1)
		return;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size == off) {
		close(fd);
		return;
	}
	if (st.st_size < off)
		off = 0;	/* cut: from its start */
	if (known && st.st_size - off > COPILOT_LOG_MAX)
		off = st.st_size - COPILOT_LOG_MAX;
	found = agentfiles_copilot_chunk(fd, off, id, sizeof id, &next) == 0;
	if (!known && next < st.st_size) {
		off = st.st_size - next > COPILOT_LOG_MAX ?
		    st.st_size - COPILOT_LOG_MAX : next;
		if (agentfiles_copilot_chunk(fd, off, tail, sizeof tail,
		    &next) == 0) {
			memcpy(id, tail, sizeof id);
			found = 1;
		}
	}
	close(fd);
	if (!known) {
		if (!found)
			return;
		free(w->copilot_log);
		w->copilot_log = xstrdup(path);
	}
	w->copilot_off = next;
	if (found && strcmp(id, w->chat_session) != 0) {
		log_debug("pane %%%d: copilot session %s", p->id, id);
		strlcpy(w->chat_session, id, sizeof w->chat_session);
		agentfiles_copilot_cwd(w);
		live_changed();
	}
}

/* A log of p's agent, by its name: read it. */
static void
agentfiles_copilot_log(struct pane *p, const char *dir, const char *name)
{
	pid_t	 tree[COPILOT_TREE];
	long	 pid = copilot_log_pid(name);
	char	*path;
	int	 n, i;

	if (pid <= 0)
		return;
	/* Its log, known: what it added. */
	if (p->watch->copilot_log != NULL) {
		xasprintf(&path, "%s/%s", dir, name);
		if (strcmp(path, p->watch->copilot_log) == 0)
			agentfiles_copilot_read(p, path);
		free(path);
		return;
	}
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
	/* (without file events, each look reads what the log added) */
	if (w->copilot_log != NULL) {
		agentfiles_copilot_read(p, w->copilot_log);
		return;
	}
	if ((d = opendir(w->agent_log)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && w->copilot_log == NULL)
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
