/*
 * Codex's rollout, for its token counts and context window: each thread
 * is one $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl,
 * made at the thread's first turn in the directory of that day (local
 * time) and appended to as it goes.
 *
 * Codex's app-server daemon writes every TUI's rollouts (of that
 * CODEX_HOME), so no process says whose a thread is. A new rollout's
 * first line, session_meta, names the thread's directory: it is the
 * Codex pane's working in that directory that has no thread yet, or
 * else the one that began a turn last (/new starts a thread in the same
 * pane). Two Codex panes in one directory starting threads in the same
 * moment can be swapped; docs/classification.md says so.
 *
 * The day's directory is watched from when the agent is found and again
 * at each turn's start, which is when a new day's first thread appears.
 * A thread resumed by its id (codex resume ID) is found by that id.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"

#define CODEX_META_MAX	(1024 * 1024)	/* its base instructions are in it */

/* The thread's directory, from the rollout's first line. */
static int
agentfiles_codex_cwd(const char *path, char *cwd, size_t len)
{
	char	*buf, *nl;
	ssize_t	 n;
	size_t	 have = 0;
	int	 fd, rc = -1;

	if ((fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC)) == -1)
		return (-1);
	buf = xmalloc(CODEX_META_MAX);
	while (have < CODEX_META_MAX &&
	    (n = read(fd, buf + have, CODEX_META_MAX - have)) > 0) {
		have += (size_t)n;
		if ((nl = memchr(buf, '\n', have)) != NULL) {
			rc = usage_codex_meta(buf, (size_t)(nl - buf), cwd,
			    len);
			break;
		}
	}
	close(fd);
	free(buf);
	return (rc);
}

static int
agentfiles_codex_line(struct watch *w, const char *line, size_t len)
{
	return (usage_codex_line(&w->usage, line, len) == 1 ?
	    AGENTFILES_USAGE : 0);
}

/* Is p a live Codex pane of this CODEX_HOME working in cwd? */
static int
agentfiles_codex_in(struct pane *p, const char *dir, const char *cwd)
{
	struct watch	*w = p->watch;
	char		 here[PATH_MAX];
	size_t		 n;

	if (w == NULL || !w->agent_alive || w->agent == NULL ||
	    !w->agent->codex_files || w->codex_home == NULL)
		return (0);
	n = strlen(w->codex_home);
	if (strncmp(dir, w->codex_home, n) != 0 || dir[n] != '/')
		return (0);
	if (proc_cwd(w->agent_pid, here, sizeof here) != 0)
		return (0);
	return (strcmp(here, cwd) == 0);
}

/*
 * When the thread began (real ms), from its id: Codex's are UUIDv7, whose
 * first 48 bits are the time they were made. -1 for any other id (the
 * file's mtime is then all there is).
 */
static int64_t
agentfiles_codex_born(const char *name)
{
	const char	*dot, *id;
	int64_t		 ms = 0;
	int		 i, c;

	if ((dot = strstr(name, ".jsonl")) == NULL || dot - name < 36)
		return (-1);
	id = dot - 36;
	if (id[8] != '-' || id[13] != '-' || id[14] != '7')
		return (-1);
	for (i = 0; i < 13; i++) {
		if (i == 8)
			continue;
		c = (unsigned char)id[i];
		if (c >= '0' && c <= '9')
			ms = ms * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			ms = ms * 16 + (c - 'a' + 10);
		else
			return (-1);
	}
	return (ms);
}

/* A rollout appeared or grew in a watched day's directory. */
void
agentfiles_codex_changed(const char *dir, const char *name)
{
	struct pane	*p, *best = NULL;
	struct watch	*w;
	struct stat	 st;
	char		*path, cwd[PATH_MAX];
	int64_t		 born, written;

	xasprintf(&path, "%s/%s", dir, name);
	RB_FOREACH(p, panes, &panes) {
		if ((w = p->watch) != NULL && w->rollout != NULL &&
		    strcmp(w->rollout, path) == 0) {
			if (w->agent_alive)
				agentfiles_usage(p, path, agentfiles_codex_line);
			free(path);
			return;
		}
	}
	/*
	 * Whose: a thread begun after the agent, in its directory; or one
	 * begun before and written since, but only to an agent with no thread
	 * yet (codex resume --last, its picker). Codex's daemon appends to
	 * the threads of TUIs gone before (a restarted tmux's): those are not
	 * an agent's that has its own.
	 */
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    agentfiles_codex_cwd(path, cwd, sizeof cwd) != 0) {
		free(path);
		return;
	}
	written = (int64_t)st.st_mtime * 1000;
	if ((born = agentfiles_codex_born(name)) == -1)
		born = written;
	RB_FOREACH(p, panes, &panes) {
		w = p->watch;
		if (!agentfiles_codex_in(p, dir, cwd) ||
		    written < w->agent_since_real - 1000 ||
		    (born < w->agent_since_real - 1000 && w->rollout != NULL))
			continue;
		if (best == NULL ||
		    (w->rollout == NULL && best->watch->rollout != NULL) ||
		    ((w->rollout == NULL) == (best->watch->rollout == NULL) &&
		    w->codex_turn_at > best->watch->codex_turn_at))
			best = p;
	}
	if (best == NULL) {
		free(path);
		return;
	}
	w = best->watch;
	log_debug("pane %%%d: codex thread %s", best->id, path);
	free(w->rollout);
	w->rollout = path;
	usage_init(&w->usage);
	w->usage_ino = w->usage_dev = w->usage_off = 0;
	agentfiles_usage(best, path, agentfiles_codex_line);
}

/* Under DIR, DEPTH levels down (year, month, day), the file ending in END. */
static char *
agentfiles_codex_find(const char *dir, int depth, const char *end)
{
	struct dirent	*de;
	DIR		*d;
	char		*path, *found = NULL;
	size_t		 n, e = strlen(end);

	if ((d = opendir(dir)) == NULL)
		return (NULL);
	while (found == NULL && (de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (de->d_name[0] == '.')
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		if (depth > 0)
			found = agentfiles_codex_find(path, depth - 1, end);
		else if (n > e && strcmp(de->d_name + n - e, end) == 0 &&
		    strncmp(de->d_name, "rollout-", 8) == 0) {
			found = path;
			path = NULL;
		}
		free(path);
	}
	closedir(d);
	return (found);
}

/*
 * `codex resume ID` (lisa resume runs it so): the thread's rollout, in
 * the directory of the day it began, which may be long ago. The id is the
 * one its arguments gave (w->argv_session, watch-proc.c).
 */
static void
agentfiles_codex_resumed(struct pane *p)
{
	struct watch	*w = p->watch;
	/* Sized from the id's own buffer: -O1 cannot see the length check. */
	char		 end[sizeof w->argv_session + 8], *top, *path, *slash;
	const char	*id = w->argv_session;

	if (strlen(id) != 36 || strspn(id, "0123456789abcdef-") != 36)
		return;
	snprintf(end, sizeof end, "-%s.jsonl", id);
	xasprintf(&top, "%s/sessions", w->codex_home);
	if ((path = agentfiles_codex_find(top, 3, end)) != NULL) {
		log_debug("pane %%%d: codex resumed thread %s", p->id, path);
		w->rollout = path;
		usage_init(&w->usage);
		w->usage_ino = w->usage_dev = w->usage_off = 0;
		/* Its day's directory, watched: the thread grows there. */
		if ((slash = strrchr(path, '/')) != NULL) {
			*slash = '\0';
			agentfiles_watch(path);
			*slash = '/';
		}
	}
	free(top);
}

/* The agent was found, or began a turn: its day's rollouts. */
void
agentfiles_codex_look(struct pane *p)
{
	struct watch	*w = p->watch;
	struct dirent	*de;
	struct tm	 tm;
	time_t		 now = time(NULL);
	DIR		*d;
	char		*dir;

	if (w->codex_home == NULL &&
	    (w->codex_home = agentfiles_env_dir(w->agent_pid,
	    "CODEX_HOME", ".codex")) == NULL)
		return;
	if (w->rollout == NULL && !w->codex_resume_read) {
		w->codex_resume_read = 1;
		agentfiles_codex_resumed(p);
	}
	if (localtime_r(&now, &tm) == NULL)
		return;
	xasprintf(&dir, "%s/sessions/%04d/%02d/%02d", w->codex_home,
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
	agentfiles_watch(dir);
	if (w->rollout != NULL)
		agentfiles_usage(p, w->rollout, agentfiles_codex_line);
	else if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL && w->rollout == NULL) {
			if (strncmp(de->d_name, "rollout-", 8) == 0)
				agentfiles_codex_changed(dir, de->d_name);
		}
		closedir(d);
	}
	free(dir);
}
