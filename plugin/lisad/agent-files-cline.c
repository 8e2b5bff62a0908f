/*
 * Cline CLI's session files, for its state and its conversation's id
 * (cline-file.c says what they hold; checked against 3.0.65): its
 * sessions directory holds one directory a conversation, <id>/<id>.json,
 * rewritten as the state changes ("running", "pending" while a dialog
 * waits, "idle").
 *
 * The file names no process of the pane's (its pid is Cline's daemon's,
 * which serves every Cline of the user): a new session belongs to the
 * Cline pane working in its "cwd" that has none yet, begun no earlier
 * than the agent, or else to the one whose output came last (/clear and
 * /new begin another in the same process); one started to resume a
 * conversation (cline --id ID) takes that one's, however old. Two panes
 * in one directory starting conversations in the same moment can be
 * swapped; docs/classification.md says so.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"

/* A session file: its prompt and metadata, never more than this. */
#define CLINE_FILE_MAX		(256 * 1024)
/* Its started_at against the agent's start (whole seconds from ps). */
#define CLINE_START_SLACK	2000

/* Is p a live Cline pane whose sessions are in dir? */
static int
agentfiles_cline_in(struct pane *p, const char *dir)
{
	struct watch	*w = p->watch;

	return (w != NULL && w->agent_alive && w->agent != NULL &&
	    w->agent->cline_files && w->gemini_chats != NULL &&
	    strcmp(w->gemini_chats, dir) == 0);
}

static int
agentfiles_cline_dir(const char *dir)
{
	struct pane	*p;

	RB_FOREACH(p, panes, &panes) {
		if (agentfiles_cline_in(p, dir))
			return (1);
	}
	return (0);
}

/*
 * A session file, read if it changed since *stamp: 1 with *cs, 0 if
 * unchanged, -1 if it is not there or not one.
 */
static int
agentfiles_cline_load(const char *path, struct file_stamp *stamp,
    struct cline_session *cs)
{
	struct stat	 st;
	char		*buf;
	size_t		 len;
	int		 fd, rc;

	if ((fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC)) == -1)
		return (-1);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > CLINE_FILE_MAX) {
		close(fd);
		return (-1);
	}
	if (stamp != NULL && OSDEP_MTIME_NS(&st) == stamp->mtime &&
	    st.st_size == stamp->size) {
		close(fd);
		return (0);
	}
	buf = agentfiles_pread(fd, 0, CLINE_FILE_MAX, &len);
	close(fd);
	rc = cline_session_parse(buf, len, cs) == 0 ? 1 : -1;
	free(buf);
	/* Half-written (a rewrite in place): read again at its next change. */
	if (rc == 1 && stamp != NULL) {
		stamp->mtime = OSDEP_MTIME_NS(&st);
		stamp->size = st.st_size;
	}
	return (rc);
}

/* The state of p's session, read again. */
static void
agentfiles_cline_read(struct pane *p)
{
	struct watch		*w = p->watch;
	struct cline_session	 cs;
	int			 rc;

	rc = agentfiles_cline_load(w->rollout, &w->session_stamp, &cs);
	if (rc == 0)
		return;
	if (rc == -1) {
		w->session_failed = errno != ENOENT;
		return;
	}
	w->session_failed = 0;
	if (cs.status == w->session)
		return;
	log_debug("pane %%%d: cline session %s: %d", p->id, cs.id, cs.status);
	w->session = cs.status;
	w->session_at = time_mono_ms();
	watch_poke(p);
}

/* The directory p works in: the system's word, else tmux's. */
static int
agentfiles_cline_cwd(struct watch *w, char *cwd, size_t len)
{
	if (proc_cwd(w->agent_pid, cwd, len) == 0)
		return (0);
	if (w->pane_cwd == NULL)
		return (-1);
	strlcpy(cwd, w->pane_cwd, len);
	return (0);
}

/* A session of dir, <id>/<id>.json: its pane, if a Cline of ours has it. */
static void
agentfiles_cline_session(const char *dir, const char *id)
{
	struct pane		*p, *best = NULL;
	struct watch		*w;
	struct cline_session	 cs;
	char			*path, cwd[PATH_MAX];
	int			 resumed;

	xasprintf(&path, "%s/%s/%s.json", dir, id, id);
	RB_FOREACH(p, panes, &panes) {
		if ((w = p->watch) != NULL && w->rollout != NULL &&
		    strcmp(w->rollout, path) == 0) {
			if (w->agent_alive)
				agentfiles_cline_read(p);
			free(path);
			return;
		}
	}
	if (agentfiles_cline_load(path, NULL, &cs) != 1 ||
	    strcmp(cs.id, id) != 0) {
		free(path);
		return;
	}
	RB_FOREACH(p, panes, &panes) {
		if (!agentfiles_cline_in(p, dir))
			continue;
		w = p->watch;
		resumed = w->argv_session[0] != '\0' &&
		    strcmp(w->argv_session, id) == 0;
		if (!resumed && (cs.started == 0 || cs.started <
		    w->agent_since_real - CLINE_START_SLACK))
			continue;	/* another run's */
		/*
		 * The session of the agent this pane had before (killed
		 * while it worked, its file still "running"): begun within
		 * the slack of the new one's start, where ps says it in
		 * whole seconds, it is still not the new one's.
		 */
		if (!resumed && w->rollout_before != NULL &&
		    strcmp(w->rollout_before, path) == 0)
			continue;
		if (agentfiles_cline_cwd(w, cwd, sizeof cwd) != 0 ||
		    strcmp(cwd, cs.cwd) != 0)
			continue;
		/* Started to resume another conversation: not this one. */
		if (!resumed && w->rollout == NULL &&
		    w->argv_session[0] != '\0')
			continue;
		if (best == NULL || resumed ||
		    (w->rollout == NULL && best->watch->rollout != NULL) ||
		    ((w->rollout == NULL) == (best->watch->rollout == NULL) &&
		    p->out_last > best->out_last))
			best = p;
		if (resumed)
			break;
	}
	if (best == NULL) {
		free(path);
		return;
	}
	w = best->watch;
	log_debug("pane %%%d: cline session %s", best->id, path);
	free(w->rollout);
	w->rollout = path;
	strlcpy(w->chat_session, cs.id, sizeof w->chat_session);
	memset(&w->session_stamp, 0, sizeof w->session_stamp);
	w->session = SS_NONE;
	agentfiles_cline_read(best);
	watch_poke(best);
}

/*
 * Something changed in a watched directory: a new session's directory in
 * a sessions directory of ours, or a session file in one (1), or neither
 * (0).
 */
int
agentfiles_cline_changed(const char *dir, const char *name)
{
	char		*up, *sub, *slash;
	size_t		 n = strlen(name);
	int		 rc = 0;

	struct stat	 st;

	if (agentfiles_cline_dir(dir)) {
		if (!agent_id_ok(name))
			return (1);
		/* Its file comes after it: watched from now. */
		xasprintf(&sub, "%s/%s", dir, name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			agentfiles_watch(sub);
			agentfiles_cline_session(dir, name);
		}
		free(sub);
		return (1);
	}
	if (n <= 5 || strcmp(name + n - 5, ".json") != 0 ||
	    (slash = strrchr(dir, '/')) == NULL ||
	    strncmp(slash + 1, name, n - 5) != 0 || slash[n - 4] != '\0')
		return (0);
	up = xstrndup(dir, (size_t)(slash - dir));
	if (agentfiles_cline_dir(up)) {
		agentfiles_cline_session(up, slash + 1);
		rc = 1;
	}
	free(up);
	return (rc);
}

/* Cline's sessions directory, by its environment as Cline reads it. */
static char *
agentfiles_cline_sessions(pid_t pid)
{
	char	*d, *s;

	if ((d = agentfiles_env_dir(pid, "CLINE_SESSION_DATA_DIR", "")) !=
	    NULL && d[strlen(d) - 1] != '/')
		return (d);
	free(d);
	if ((d = agentfiles_env_dir(pid, "CLINE_DATA_DIR", "")) != NULL &&
	    d[strlen(d) - 1] != '/') {
		xasprintf(&s, "%s/sessions", d);
		free(d);
		return (s);
	}
	free(d);
	if ((d = agentfiles_env_dir(pid, "CLINE_DIR", ".cline")) == NULL)
		return (NULL);
	xasprintf(&s, "%s/data/sessions", d);
	free(d);
	return (s);
}

/*
 * The agent was found (or looked at again): its sessions directory
 * watched, its session read, or the sessions begun since it started
 * looked at.
 */
void
agentfiles_cline_look(struct pane *p)
{
	struct watch	*w = p->watch;
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		*sub;

	if (w->gemini_chats == NULL) {
		if ((w->gemini_chats = agentfiles_cline_sessions(
		    w->agent_pid)) == NULL)
			return;
		agentfiles_watch(w->gemini_chats);
	}
	if (w->rollout != NULL) {
		agentfiles_cline_read(p);
		return;
	}
	if ((d = opendir(w->gemini_chats)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && w->rollout == NULL) {
		if (!agent_id_ok(de->d_name))
			continue;
		/* (only those changed since the agent began, or its own) */
		xasprintf(&sub, "%s/%s", w->gemini_chats, de->d_name);
		if (strcmp(de->d_name, w->argv_session) == 0 ||
		    (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode) &&
		    (int64_t)st.st_mtime * 1000 >= w->agent_since_real -
		    CLINE_START_SLACK)) {
			agentfiles_watch(sub);
			agentfiles_cline_session(w->gemini_chats, de->d_name);
		}
		free(sub);
	}
	closedir(d);
}
