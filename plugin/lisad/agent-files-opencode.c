/*
 * OpenCode's conversation id, for lisa resume (checked against 1.18.33):
 * its sessions are in a SQLite database lisa does not read, but every
 * OpenCode process of a user appends to <data>/opencode/log/opencode.log
 * (<data>: $XDG_DATA_HOME, else ~/.local/share), and a session's first
 * line there is "message=created id=ses_... directory=DIR ...
 * parentID=undefined" (a subagent's has a parent). Whose it is: the
 * OpenCode pane working in DIR that has no session yet, else the one
 * whose output came last (it answers the prompt that made it). Two in one
 * directory starting sessions in the same moment can be swapped.
 *
 * The log is read from where it ended when lisa first looked, only its
 * new lines; and, as lisa meets each OpenCode agent, its last
 * OPENCODE_READ_MAX bytes for that agent alone: a session it made before
 * lisa met it (lisa started later, or again) is the last made in its
 * directory since it started. A session made before an agent started
 * (its line's timestamp, OPENCODE_START_SLACK) is never that agent's.
 *
 * Kilo Code's CLI, a fork, writes the same lines to the same name under
 * <data>/kilo/log (its profile's opencode_dir).
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"

#define OPENCODE_LOGS		4	/* users' data directories at once */
#define OPENCODE_READ_MAX	(1024 * 1024)
#define OPENCODE_START_SLACK	2000	/* ms: a start known to the second */
#define OPENCODE_PAST_TRIES	5	/* looks at the past, no directory */

static struct {
	char	*path;
	dev_t	 dev;
	ino_t	 ino;
	off_t	 off;		/* read up to here */
} oclog[OPENCODE_LOGS];

/*
 * How well p fits a session made in dir at AT (epoch ms, 0 unknown): 2 its
 * agent works there, 1 the system does not say where it works (the
 * generic backend), 0 not.
 */
static int
agentfiles_opencode_fit(struct pane *p, const char *log, const char *dir,
    int64_t at)
{
	struct watch	*w = p->watch;
	char		 cwd[PATH_MAX];

	if (w == NULL || !w->agent_alive || w->agent == NULL ||
	    !w->agent->opencode_files || w->agent_log == NULL ||
	    strcmp(w->agent_log, log) != 0)
		return (0);
	/* Made before it started: another run's. */
	if (at != 0 && at < w->agent_since_real - OPENCODE_START_SLACK)
		return (0);
	if (proc_cwd(w->agent_pid, cwd, sizeof cwd) != 0)
		return (1);
	return (strcmp(cwd, dir) == 0 ? 2 : 0);
}

/*
 * A session made in dir: the pane it is whose. The best fit; among
 * those, one with no session yet; then the one whose output came last.
 */
static void
agentfiles_opencode_created(const char *log, const char *id, const char *dir,
    int64_t at)
{
	struct pane	*p, *best = NULL;
	struct watch	*w;
	int		 fit, best_fit = 0;

	RB_FOREACH(p, panes, &panes) {
		if ((fit = agentfiles_opencode_fit(p, log, dir, at)) == 0)
			continue;
		w = p->watch;
		if (best == NULL || fit > best_fit || (fit == best_fit &&
		    ((w->chat_session[0] == '\0' &&
		    best->watch->chat_session[0] != '\0') ||
		    ((w->chat_session[0] == '\0') ==
		    (best->watch->chat_session[0] == '\0') &&
		    p->out_last > best->out_last)))) {
			best = p;
			best_fit = fit;
		}
	}
	if (best == NULL)
		return;
	w = best->watch;
	log_debug("pane %%%d: opencode session %s", best->id, id);
	strlcpy(w->chat_session, id, sizeof w->chat_session);
	/* Its directory, as OpenCode says it (the record's, if need be). */
	free(w->session_cwd);
	w->session_cwd = xstrdup(dir);
}

/* The log's new lines (from where lisa last read it), each looked at. */
static void
agentfiles_opencode_read(int i, int first)
{
	struct stat	 st;
	char		*buf, *line, *nl, id[64], dir[PATH_MAX];
	int64_t		 at;
	size_t		 have;
	int		 fd;

	fd = open(oclog[i].path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	if (fd == -1)
		return;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	/* A new file, or one cut: from its start; at first, from its end. */
	if (st.st_dev != oclog[i].dev || st.st_ino != oclog[i].ino ||
	    st.st_size < oclog[i].off) {
		oclog[i].dev = st.st_dev;
		oclog[i].ino = st.st_ino;
		oclog[i].off = first ? st.st_size : 0;
	}
	if (st.st_size == oclog[i].off) {
		close(fd);
		return;		/* nothing new */
	}
	if (st.st_size - oclog[i].off > OPENCODE_READ_MAX)
		oclog[i].off = st.st_size - OPENCODE_READ_MAX;
	buf = agentfiles_pread(fd, oclog[i].off, OPENCODE_READ_MAX, &have);
	close(fd);
	for (line = buf; (nl = memchr(line, '\n',
	    have - (size_t)(line - buf))) != NULL; line = nl + 1) {
		*nl = '\0';
		/* (a line cut at the read's size: its end is skipped) */
		if (opencode_created_line(line, id, sizeof id, dir,
		    sizeof dir, &at) == 0)
			agentfiles_opencode_created(oclog[i].path, id, dir, at);
	}
	/* Up to the last whole line; a half-written one is read again. */
	oclog[i].off += line - buf;
	free(buf);
}

/*
 * Where the system does not say an agent's directory: could the session
 * made in DIR at AT be only P's? Not if it is another pane's already, nor
 * if another OpenCode pane with no session yet fits it (0); not yet
 * while a pane lisa has not looked into could be one (-1).
 */
static int
agentfiles_opencode_alone(struct pane *p, const char *id, const char *dir,
    int64_t at)
{
	const char	*log = p->watch->agent_log;
	struct pane	*o;
	struct watch	*w;
	int		 unknown = 0;

	RB_FOREACH(o, panes, &panes) {
		if (o == p || (w = o->watch) == NULL)
			continue;
		if (strcmp(w->chat_session, id) == 0)
			return (0);
		if (w->chat_session[0] == '\0' &&
		    agentfiles_opencode_fit(o, log, dir, at) != 0)
			return (0);
		if (!o->dead && w->looked_at == 0)
			unknown = 1;
	}
	return (unknown ? -1 : 1);
}

/*
 * An agent just met: the last top-level session made in its directory
 * since it started, in the log's last OPENCODE_READ_MAX bytes; where the
 * system does not say its directory (the generic backend), the last made
 * since it started that can be no other pane's (lisa met it late: its
 * first prompt came before). Only lines that say when.
 */
static void
agentfiles_opencode_past(struct pane *p)
{
	struct watch	*w = p->watch;
	struct stat	 st;
	char		*buf, *line, *nl, id[64], dir[PATH_MAX], cwd[PATH_MAX];
	char		 last[sizeof id], last_dir[PATH_MAX];
	size_t		 have;
	off_t		 off;
	int64_t		 at;
	int		 fd, where, alone, tries;

	/* (a pane never looked into must not make every look read 1 MB) */
	tries = w->oc_past_wait > 0 ? w->oc_past_wait - 1 :
	    OPENCODE_PAST_TRIES;
	w->oc_past_wait = 0;
	if (w->chat_session[0] != '\0')
		return;
	where = proc_cwd(w->agent_pid, cwd, sizeof cwd) == 0;
	fd = open(w->agent_log, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	if (fd == -1)
		return;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return;
	}
	off = st.st_size > OPENCODE_READ_MAX ? st.st_size - OPENCODE_READ_MAX :
	    0;
	buf = agentfiles_pread(fd, off, OPENCODE_READ_MAX, &have);
	close(fd);
	last[0] = '\0';
	for (line = buf; (nl = memchr(line, '\n',
	    have - (size_t)(line - buf))) != NULL; line = nl + 1) {
		*nl = '\0';
		if (opencode_created_line(line, id, sizeof id, dir,
		    sizeof dir, &at) != 0 || at == 0 ||
		    at < w->agent_since_real - OPENCODE_START_SLACK)
			continue;
		if (where)
			alone = strcmp(dir, cwd) == 0;
		else {
			alone = agentfiles_opencode_alone(p, id, dir, at);
			if (alone == -1)
				w->oc_past_wait = tries; /* its next look */
		}
		if (alone == 1) {
			strlcpy(last, id, sizeof last);
			strlcpy(last_dir, dir, sizeof last_dir);
		}
	}
	free(buf);
	if (last[0] == '\0' || w->oc_past_wait)
		return;
	log_debug("pane %%%d: opencode session %s, made before lisa met it",
	    p->id, last);
	strlcpy(w->chat_session, last, sizeof w->chat_session);
	free(w->session_cwd);
	w->session_cwd = xstrdup(last_dir);
}

/*
 * The agent was found: its log, watched; read from its end. AGAIN
 * (without file events, as lisa looks at the pane): its new lines; with
 * them, the file's events read it.
 */
void
agentfiles_opencode_look(struct pane *p, int again)
{
	struct watch	*w = p->watch;
	char		*data, *dir;
	int		 i, free_i = -1;

	if (w->agent_log != NULL) {
		if (again && w->oc_past_wait)
			agentfiles_opencode_past(p);
		for (i = 0; again && i < OPENCODE_LOGS; i++) {
			if (oclog[i].path != NULL &&
			    strcmp(oclog[i].path, w->agent_log) == 0)
				agentfiles_opencode_read(i, 0);
		}
		return;
	}
	if ((data = agentfiles_env_dir(w->agent_pid, "XDG_DATA_HOME",
	    ".local/share")) == NULL)
		return;
	xasprintf(&dir, "%s/%s/log", data, w->agent->opencode_dir != NULL ?
	    w->agent->opencode_dir : "opencode");
	free(data);
	xasprintf(&w->agent_log, "%s/opencode.log", dir);
	agentfiles_watch(dir);
	free(dir);
	agentfiles_opencode_past(p);
	for (i = 0; i < OPENCODE_LOGS; i++) {
		if (oclog[i].path != NULL &&
		    strcmp(oclog[i].path, w->agent_log) == 0)
			return;
		if (oclog[i].path == NULL && free_i == -1)
			free_i = i;
	}
	if (free_i == -1)
		return;
	oclog[free_i].path = xstrdup(w->agent_log);
	agentfiles_opencode_read(free_i, 1);
}

/* A file changed in a watched directory: 1 if an OpenCode log. */
int
agentfiles_opencode_changed(const char *dir, const char *name)
{
	char	*path;
	int	 i, ours = 0;

	if (strcmp(name, "opencode.log") != 0)
		return (0);
	xasprintf(&path, "%s/%s", dir, name);
	for (i = 0; i < OPENCODE_LOGS; i++) {
		if (oclog[i].path != NULL && strcmp(oclog[i].path, path) == 0) {
			agentfiles_opencode_read(i, 0);
			ours = 1;
		}
	}
	free(path);
	return (ours);
}

void
agentfiles_opencode_close(void)
{
	int	i;

	for (i = 0; i < OPENCODE_LOGS; i++) {
		free(oclog[i].path);
		oclog[i].path = NULL;
	}
}
