/*
 * Files agents keep about themselves, watched with inotify. Claude Code
 * rewrites ~/.claude/sessions/<pid>.json (status idle|busy|waiting) within
 * 0.1 s of each change. We watch the directory, not the file: the file is
 * created after start-up and replaced on every write. A file is believed
 * only if its procStart matches the process (pids are reused), and never
 * through a symlink. A corrupt file degrades this one signal.
 */
#include <sys/inotify.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "agent.h"

#define AGENTFILES_MAX_FILE (64 * 1024)

struct adir {
	char			*path;
	int			 wd;
	int			 parent;	/* waiting for "sessions" to appear */
	TAILQ_ENTRY(adir)	 entry;
};
static TAILQ_HEAD(, adir) adirs = TAILQ_HEAD_INITIALIZER(adirs);
static int		 agentfiles_fd = -1;
static struct loop_fd	*agentfiles_ev;

/* The agent's Claude config directory: its CLAUDE_CONFIG_DIR or HOME. */
static char *
agentfiles_config_dir(pid_t pid)
{
	char	 path[64], buf[32768], *p, *end, *dir = NULL, *home = NULL;
	ssize_t	 n;
	int	 fd;

	snprintf(path, sizeof path, "/proc/%ld/environ", (long)pid);
	if ((fd = open(path, O_RDONLY|O_CLOEXEC)) != -1) {
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			end = buf + n;
			for (p = buf; p < end; p += strlen(p) + 1) {
				if (strncmp(p, "CLAUDE_CONFIG_DIR=", 18) == 0)
					dir = p + 18;
				else if (strncmp(p, "HOME=", 5) == 0)
					home = p + 5;
			}
		}
	}
	if (dir != NULL && *dir == '/')
		return (xstrdup(dir));
	if (home == NULL || *home != '/')
		home = getenv("HOME");
	if (home == NULL)
		return (NULL);
	xasprintf(&p, "%s/.claude", home);
	return (p);
}

static struct adir *
agentfiles_find_wd(int wd)
{
	struct adir	*a;

	TAILQ_FOREACH(a, &adirs, entry) {
		if (a->wd == wd)
			return (a);
	}
	return (NULL);
}

static void	agentfiles_event_cb(int, short, void *);

static int
agentfiles_add(const char *path, int parent)
{
	struct adir	*a;
	uint32_t	 mask;
	int		 wd;

	TAILQ_FOREACH(a, &adirs, entry) {
		if (strcmp(a->path, path) == 0)
			return (0);
	}
	if (agentfiles_fd == -1) {
		agentfiles_fd = inotify_init1(IN_NONBLOCK|IN_CLOEXEC);
		if (agentfiles_fd == -1) {
			log_warn("inotify_init1");
			return (-1);
		}
		agentfiles_ev = loop_add(agentfiles_fd, POLLIN,
		    agentfiles_event_cb, NULL);
	}
	mask = parent ? IN_CREATE|IN_MOVED_TO|IN_ONLYDIR :
	    IN_CLOSE_WRITE|IN_MOVED_TO|IN_CREATE|IN_DELETE|IN_MOVED_FROM|
	    IN_ONLYDIR;
	if ((wd = inotify_add_watch(agentfiles_fd, path, mask)) == -1)
		return (-1);
	a = xcalloc(1, sizeof *a);
	a->path = xstrdup(path);
	a->wd = wd;
	a->parent = parent;
	TAILQ_INSERT_TAIL(&adirs, a, entry);
	log_debug("watching %s%s", path, parent ? " (for sessions/)" : "");
	return (0);
}

/* Parse a session file into the watch; -1 if it does not make sense. */
static int
agentfiles_parse(struct watch *w, const char *text, size_t len)
{
	struct json_doc	*d;
	char		*cause = NULL, *status, *start, *waiting;
	long long	 pid;
	int		 rc = 0;

	if ((d = json_parse(text, len, &cause)) == NULL) {
		log_warnx("claude session file for pid %ld: %s",
		    (long)w->agent_pid, cause);
		free(cause);
		return (-1);
	}
	if (json_type(d, 0) != JSON_T_OBJECT ||
	    json_get_int(d, 0, "pid", &pid) != 0 || pid != w->agent_pid) {
		json_free(d);
		return (-1);
	}
	/* procStart is a string of clock ticks, as in /proc/PID/stat. */
	start = json_get_str(d, 0, "procStart");
	if (start != NULL && strtoull(start, NULL, 10) != w->agent_start) {
		log_debug("session file of an earlier pid %lld", pid);
		w->session_stale = 1;
		free(start);
		json_free(d);
		return (0);
	}
	free(start);
	status = json_get_str(d, 0, "status");
	waiting = json_get_str(d, 0, "waitingFor");
	if (status == NULL)
		w->session = SS_NONE;	/* first write, or print mode */
	else if (strcmp(status, "idle") == 0)
		w->session = SS_IDLE;
	else if (strcmp(status, "busy") == 0)
		w->session = SS_BUSY;
	else if (strcmp(status, "waiting") == 0)
		w->session = SS_WAITING;
	else
		rc = -1;
	snprintf(w->session_waiting_for, sizeof w->session_waiting_for, "%s",
	    waiting != NULL ? waiting : "");
	w->session_at = time_mono_ms();
	free(status);
	free(waiting);
	json_free(d);
	return (rc);
}

/* Read the agent's session file now (it changed, or we just met it). */
static void
agentfiles_read(struct pane *p, const char *dir)
{
	struct watch	*w = p->watch;
	char		*path, buf[AGENTFILES_MAX_FILE];
	struct stat	 st;
	ssize_t		 n;
	int64_t		 mtime;
	int		 fd;

	xasprintf(&path, "%s/%ld.json", dir, (long)w->agent_pid);
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	if (fd == -1) {
		if (errno == ELOOP) {
			log_warnx("%s is a symlink: refused", path);
			w->session_failed = 1;
			w->session = SS_NONE;
		} else if (errno == ENOENT && w->session != SS_NONE &&
		    w->agent_alive)
			w->session = SS_NONE;	/* deleted: a clean exit */
		free(path);
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > AGENTFILES_MAX_FILE) {
		log_warnx("%s: not a small regular file: refused", path);
		w->session_failed = 1;
		w->session = SS_NONE;
		close(fd);
		free(path);
		return;
	}
	/* Unchanged since we read it: nothing new (and not "fresh"). */
	mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	if (mtime == w->session_mtime && !w->session_failed) {
		close(fd);
		free(path);
		return;
	}
	w->session_mtime = mtime;
	n = read(fd, buf, sizeof buf);
	close(fd);
	free(path);
	if (n < 0 || agentfiles_parse(w, buf, (size_t)n) != 0) {
		/* Believe nothing from it, old values included. */
		w->session_failed = 1;
		w->session = SS_NONE;
	} else
		w->session_failed = 0;
}

/* A file changed in a sessions directory: the pane whose agent it is. */
static void
agentfiles_dir_changed(const char *dir, const char *name)
{
	struct pane	*p;
	struct watch	*w;
	long		 pid;
	char		*end;

	pid = strtol(name, &end, 10);
	if (end == name || strcmp(end, ".json") != 0)
		return;
	RB_FOREACH(p, panes, &panes) {
		if ((w = p->watch) == NULL || w->session_dir == NULL ||
		    w->agent_pid != (pid_t)pid || !w->agent_alive ||
		    strcmp(w->session_dir, dir) != 0)
			continue;
		agentfiles_read(p, dir);
		watch_poke(p);
	}
}

static void
agentfiles_event_cb(int fd, short revents, void *arg)
{
	char			 buf[16384]
				     __attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event *ev;
	struct adir		*a;
	ssize_t			 n;
	char			*sub;
	size_t			 off;

	while ((n = read(fd, buf, sizeof buf)) > 0) {
		for (off = 0; off < (size_t)n; off += sizeof *ev + ev->len) {
			ev = (const struct inotify_event *)(buf + off);
			if ((a = agentfiles_find_wd(ev->wd)) == NULL ||
			    ev->len == 0)
				continue;
			if (a->parent) {
				if (strcmp(ev->name, "sessions") == 0) {
					xasprintf(&sub, "%s/sessions", a->path);
					agentfiles_add(sub, 0);
					free(sub);
				}
				continue;
			}
			agentfiles_dir_changed(a->path, ev->name);
		}
	}
}

/* A Claude-like agent was found in p (or p was scanned again). */
void
agentfiles_agent(struct pane *p)
{
	struct watch	*w = p->watch;
	char		*cdir, *sdir;

	if (w->agent == NULL || !w->agent->claude_files)
		return;
	if (w->session_dir == NULL) {
		if ((cdir = agentfiles_config_dir(w->agent_pid)) == NULL)
			return;
		xasprintf(&sdir, "%s/sessions", cdir);
		w->session_dir = sdir;
		if (agentfiles_add(sdir, 0) != 0 && errno == ENOENT)
			agentfiles_add(cdir, 1);
		free(cdir);
	} else
		agentfiles_add(w->session_dir, 0);	/* it may exist now */
	agentfiles_read(p, w->session_dir);
}

/*
 * The agent is gone: a session file still there is stale (SIGKILL leaves
 * it, with the last status); a clean exit deletes it.
 */
void
agentfiles_agent_gone(struct pane *p)
{
	struct watch	*w = p->watch;
	char		*path;
	struct stat	 st;

	if (w->session_dir == NULL)
		return;
	xasprintf(&path, "%s/%ld.json", w->session_dir, (long)w->agent_pid);
	if (lstat(path, &st) == 0 && w->session != SS_NONE) {
		w->session_stale = 1;
		log_debug("pane %%%d: session file left behind (%s)", p->id,
		    path);
	}
	free(path);
}

void
agentfiles_close(void)
{
	struct adir	*a;

	while ((a = TAILQ_FIRST(&adirs)) != NULL) {
		TAILQ_REMOVE(&adirs, a, entry);
		free(a->path);
		free(a);
	}
	if (agentfiles_fd != -1) {
		loop_del(agentfiles_ev);
		close(agentfiles_fd);
		agentfiles_fd = -1;
	}
}
