/*
 * Files agents keep about themselves, watched through osdep_fwatch (on
 * Linux inotify). Claude Code rewrites ~/.claude/sessions/<pid>.json
 * (status idle|busy|waiting) within 0.1 s of each change. We watch the directory, not the file: the file is
 * created after start-up and replaced on every write. A file is believed
 * only if its procStart matches the process (pids are reused), and never
 * through a symlink. A corrupt file degrades this one signal.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"

#define AGENTFILES_MAX_FILE (64 * 1024)
#define AGENTFILES_USAGE_LINE (4 * 1024 * 1024)	/* longer: not usage */
#define AGENTFILES_USAGE_READ (256ULL * 1024 * 1024)	/* per look, at most */

struct adir {
	char			*path;
	int			 wd;
	char			*child;		/* waiting for this subdirectory */
	char			*target;	/* on the way to this directory */
	TAILQ_ENTRY(adir)	 entry;
};
static TAILQ_HEAD(, adir) adirs = TAILQ_HEAD_INITIALIZER(adirs);
static int		 agentfiles_fd = -1;
static int		 agentfiles_blind;	/* no file events here */
static struct loop_fd	*agentfiles_ev;

/*
 * An agent's own directory: its environment's VAR (an absolute path), or
 * SUB under its HOME (ours if it has none). CLAUDE_CONFIG_DIR or
 * ~/.claude; CODEX_HOME or ~/.codex.
 */
char *
agentfiles_env_dir(pid_t pid, const char *var, const char *sub)
{
	char	 buf[32768], *p, *end, *dir = NULL, *home = NULL;
	size_t	 len = strlen(var);
	ssize_t	 n;

	if ((n = proc_environ(pid, buf, sizeof buf)) > 0) {
		end = buf + n;
		for (p = buf; p < end; p += strlen(p) + 1) {
			if (strncmp(p, var, len) == 0 && p[len] == '=')
				dir = p + len + 1;
			else if (strncmp(p, "HOME=", 5) == 0)
				home = p + 5;
		}
	}
	/* (no environment to read, the generic backend: the helper's own) */
	if (n <= 0)
		dir = getenv(var);
	if (dir != NULL && *dir == '/')
		return (xstrdup(dir));
	if (home == NULL || *home != '/')
		home = getenv("HOME");
	if (home == NULL)
		return (NULL);
	xasprintf(&p, "%s/%s", home, sub);
	return (p);
}

static struct adir *
agentfiles_find_wd(int wd)
{
	struct adir	*a;

	TAILQ_FOREACH(a, &adirs, entry) {
		if (a->wd == wd && a->child == NULL)
			return (a);
	}
	return (NULL);
}

static void	agentfiles_event_cb(int, short, void *);

/*
 * Watch a directory; with child, watch path only until that subdirectory
 * appears (then watch it instead). 1 if newly watched, 0 if it was, -1.
 */
static int
agentfiles_add(const char *path, const char *child, const char *target)
{
	struct adir	*a;
	int		 wd, parent = child != NULL;

	TAILQ_FOREACH(a, &adirs, entry) {
		if (strcmp(a->path, path) != 0)
			continue;
		if (child == NULL && a->child == NULL)
			return (0);
		if (child != NULL && a->child != NULL &&
		    strcmp(a->child, child) == 0 &&
		    strcmp(a->target, target) == 0)
			return (0);
	}
	if (agentfiles_fd == -1) {
		if (agentfiles_blind)
			return (-1);
		agentfiles_fd = osdep_fwatch_open();
		if (agentfiles_fd == -1) {
			log_warn("file watch: agent files read when lisa wakes");
			agentfiles_blind = 1;
			return (-1);
		}
		agentfiles_ev = loop_add(agentfiles_fd, POLLIN,
		    agentfiles_event_cb, NULL);
	}
	if ((wd = osdep_fwatch_add(agentfiles_fd, path)) == -1)
		return (-1);
	a = xcalloc(1, sizeof *a);
	a->path = xstrdup(path);
	a->wd = wd;
	a->child = child != NULL ? xstrdup(child) : NULL;
	a->target = target != NULL ? xstrdup(target) : NULL;
	TAILQ_INSERT_TAIL(&adirs, a, entry);
	log_debug("watching %s%s%s", path, parent ? " for " : "",
	    parent ? child : "");
	return (1);
}

static void	agentfiles_transcript_dir(struct watch *, const char *);

/* A session file into the watch; -1 if it does not make sense. */
static int
agentfiles_parse(struct watch *w, const char *text, size_t len)
{
	struct claude_session	 cs;
	char			*cause;
	unsigned long long	 start = osdep_start_ticks ? w->agent_start : 0;

	/*
	 * Without a start time in Claude's terms (procStart: Linux's ticks
	 * since boot), a file older than the agent is an earlier process's.
	 */
	if (!osdep_start_ticks &&
	    w->session_stamp.mtime / 1000000 < w->agent_since_real - 1000) {
		w->session_stale = 1;
		return (0);
	}
	if (claude_session_parse(text, len, (long long)w->agent_pid,
	    start, &cs, &cause) != 0) {
		log_warnx("claude session file for pid %ld: %s",
		    (long)w->agent_pid, cause);
		free(cause);
		return (-1);
	}
	if (cs.stale) {
		log_debug("session file of an earlier pid %ld",
		    (long)w->agent_pid);
		w->session_stale = 1;
		return (0);
	}
	if (cs.id[0] != '\0')
		strlcpy(w->claude_session_id, cs.id,
		    sizeof w->claude_session_id);
	w->session = cs.status;
	w->session_at = time_mono_ms();
	/* Where no cwd comes from the system (osdep-generic), it does. */
	if (cs.cwd[0] != '\0') {
		agentfiles_transcript_dir(w, cs.cwd);
		if (w->session_cwd == NULL ||
		    strcmp(w->session_cwd, cs.cwd) != 0) {
			free(w->session_cwd);
			w->session_cwd = xstrdup(cs.cwd);
		}
	}
	return (0);
}

/*
 * Read a file an agent keeps - never through a symlink, regular files
 * only - if it changed since *stamp (file times tick coarsely, a few ms,
 * so the size counts too): all of it, or with tail its last bytes. Returns
 * the bytes read, 0 if unchanged, -1 with errno (ELOOP: a symlink; EINVAL:
 * not a small regular file).
 */
static ssize_t
agentfiles_load(const char *path, struct file_stamp *stamp, char *buf,
    size_t size, int tail)
{
	struct stat	st;
	int64_t		mtime;
	off_t		off = 0;
	ssize_t		n;
	int		fd;

	if ((fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC)) == -1)
		return (-1);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (!tail && st.st_size > (off_t)size)) {
		close(fd);
		errno = EINVAL;
		return (-1);
	}
	mtime = OSDEP_MTIME_NS(&st);
	if (mtime == stamp->mtime && st.st_size == stamp->size) {
		close(fd);
		return (0);
	}
	stamp->mtime = mtime;
	stamp->size = st.st_size;
	if (tail && st.st_size > (off_t)size)
		off = st.st_size - (off_t)size;
	n = pread(fd, buf, size, off);
	close(fd);
	return (n);
}

/*
 * Up to max bytes of fd from off, in a new buffer with a NUL after them
 * (the other agents' logs, read as they grow); their count into *len.
 */
char *
agentfiles_pread(int fd, off_t off, size_t max, size_t *len)
{
	char	*buf = xmalloc(max + 1);
	ssize_t	 n;
	size_t	 have = 0;

	while (have < max &&
	    (n = pread(fd, buf + have, max - have, off + (off_t)have)) > 0)
		have += (size_t)n;
	buf[have] = '\0';
	*len = have;
	return (buf);
}

/* Read the agent's session file now (it changed, or we just met it). */
static void
agentfiles_read(struct pane *p, const char *dir)
{
	struct watch	*w = p->watch;
	char		*path, buf[AGENTFILES_MAX_FILE];
	ssize_t		 n;

	xasprintf(&path, "%s/%ld.json", dir, (long)w->agent_pid);
	n = agentfiles_load(path, &w->session_stamp, buf, sizeof buf, 0);
	if (n == 0 || (n == -1 && errno == ENOENT)) {
		if (n == -1 && w->session != SS_NONE && w->agent_alive)
			w->session = SS_NONE;	/* deleted: a clean exit */
		free(path);
		return;
	}
	if (n == -1)
		log_warnx("%s: %s: refused", path, errno == ELOOP ?
		    "a symlink" : "not a small regular file");
	free(path);
	if (n == -1 || agentfiles_parse(w, buf, (size_t)n) != 0) {
		/* Believe nothing from it, old values included; read again. */
		w->session_failed = 1;
		w->session = SS_NONE;
		memset(&w->session_stamp, 0, sizeof w->session_stamp);
	} else
		w->session_failed = 0;
}

static void	agentfiles_transcript(struct pane *, const char *);
static void	agentfiles_read_dir(const char *);

/*
 * The session file, then the transcript's new lines: "idle" and the
 * turn's last lines come together, and a turn that left work running
 * must not be "done" for a moment (whichever look reads the file: its
 * event, a rescan, a blind look).
 */
static void
agentfiles_session(struct pane *p)
{
	struct watch	*w = p->watch;
	char		*tname;

	agentfiles_read(p, w->session_dir);
	if (w->transcript_dir != NULL && w->claude_session_id[0] != '\0') {
		xasprintf(&tname, "%s.jsonl", w->claude_session_id);
		agentfiles_transcript(p, tname);
		free(tname);
	}
}

/* A file changed in a watched directory: the pane whose agent it is. */
static void
agentfiles_dir_changed(const char *dir, const char *name)
{
	struct pane	*p;
	struct watch	*w;
	long		 pid;
	char		*end;
	size_t		 n = strlen(name);

	if (n > 6 && strcmp(name + n - 6, ".jsonl") == 0 &&
	    strncmp(name, "rollout-", 8) == 0) {
		agentfiles_codex_changed(dir, name);
		return;
	}
	if (agentfiles_gemini_changed(dir, name) ||
	    agentfiles_cline_changed(dir, name) ||
	    agentfiles_copilot_changed(dir, name) ||
	    agentfiles_opencode_changed(dir, name))
		return;
	if (n > 6 && strcmp(name + n - 6, ".jsonl") == 0) {
		RB_FOREACH(p, panes, &panes) {
			if ((w = p->watch) != NULL && w->agent_alive &&
			    w->transcript_dir != NULL &&
			    strcmp(w->transcript_dir, dir) == 0)
				agentfiles_transcript(p, name);
		}
		return;
	}
	pid = strtol(name, &end, 10);
	if (end == name || strcmp(end, ".json") != 0)
		return;
	RB_FOREACH(p, panes, &panes) {
		if ((w = p->watch) == NULL || w->session_dir == NULL ||
		    w->agent_pid != (pid_t)pid || !w->agent_alive ||
		    strcmp(w->session_dir, dir) != 0)
			continue;
		agentfiles_session(p);
		watch_poke(p);
	}
}

/*
 * Watch target, a directory that may not exist yet (agents create theirs
 * on first use): watch its deepest existing ancestor for the next path
 * component, and step down as each one appears. 1 if target itself is
 * newly watched.
 *
 * A component made between our look and our watch on its parent sends no
 * event we would see: look again once the parent is watched, and read
 * what a target made meanwhile already holds.
 */
int
agentfiles_watch(const char *target)
{
	struct stat	 st;
	char		*up, *slash, *child;
	int		 rc, tries, again;

	for (tries = 0; tries < 16; tries++) {
		rc = agentfiles_add(target, NULL, NULL);
		if (rc >= 0 || errno != ENOENT) {
			if (rc == 1 && tries > 0)
				agentfiles_read_dir(target);
			return (rc);
		}
		up = xstrdup(target);
		again = 0;
		while ((slash = strrchr(up, '/')) != NULL && slash != up) {
			*slash = '\0';
			child = slash + 1;
			if (agentfiles_add(up, child, target) >= 0) {
				*slash = '/';
				again = lstat(up, &st) == 0;
				break;
			}
			if (errno != ENOENT)
				break;
		}
		free(up);
		if (!again)
			return (-1);
	}
	return (-1);
}

/* A directory we just began to watch: what is already in it counts. */
static void
agentfiles_read_dir(const char *path)
{
	struct dirent	*de;
	DIR		*d;

	if ((d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] != '.')
			agentfiles_dir_changed(path, de->d_name);
	}
	closedir(d);
}

static void
agentfiles_event_cb(int fd, short revents, void *arg)
{
	struct adir		*a, *a1;
	const char		*name0;
	char			*target, *name;
	int			 plain, wd;

	while (osdep_fwatch_next(fd, &wd, &name0)) {
		/* Ours: the name lasts only until the next event is read. */
		name = xstrdup(name0);
		plain = 0;
		TAILQ_FOREACH_SAFE(a, &adirs, entry, a1) {
			if (a->wd != wd)
				continue;
			if (a->child == NULL) {
				plain = 1;
				continue;
			}
			if (strcmp(name, a->child) != 0)
				continue;
			target = xstrdup(a->target);
			if (agentfiles_watch(target) == 1)
				agentfiles_read_dir(target);
			free(target);
		}
		if (plain && (a = agentfiles_find_wd(wd)) != NULL)
			agentfiles_dir_changed(a->path, name);
		free(name);
	}
}

/*
 * Claude's transcript: <config>/projects/<cwd, every non-alphanumeric
 * byte a '-'>/<sessionId>.jsonl, the cwd known from the session file or
 * asked of the system. Entries are written when a message completes, so
 * its tail says whether a turn ended, failed or was cut.
 */
static void
agentfiles_transcript_dir(struct watch *w, const char *known)
{
	char		 cwd[4096], *slug, *q, *dir;

	if (w->transcript_dir != NULL || w->session_dir == NULL)
		return;
	if (known != NULL)
		strlcpy(cwd, known, sizeof cwd);
	else if (proc_cwd(w->agent_pid, cwd, sizeof cwd) != 0)
		return;
	slug = xstrdup(cwd);
	for (q = slug; *q != '\0'; q++) {
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		    (*q >= '0' && *q <= '9')))
			*q = '-';
	}
	dir = xstrdup(w->session_dir);
	if ((q = strrchr(dir, '/')) != NULL)
		*q = '\0';			/* the config dir */
	xasprintf(&w->transcript_dir, "%s/projects/%s", dir, slug);
	/* Claude makes the project's directory at the first prompt. */
	agentfiles_watch(w->transcript_dir);
	free(dir);
	free(slug);
}

/*
 * Token usage over the whole transcript, read as it grows: from where the
 * last read stopped, line by line, so a long session costs its new lines
 * only. Another file, or this one cut short, is counted again.
 */
void
agentfiles_usage(struct pane *p, const char *path,
    int (*line)(struct watch *, const char *, size_t))
{
	struct watch	*w = p->watch;
	struct stat	 st;
	char		 tmp[65536], *nl;
	uint64_t	 left = AGENTFILES_USAGE_READ;
	size_t		 at, len;
	ssize_t		 n;
	int		 fd, changed = 0, bg_before = w->bg.n;

	if ((fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC)) == -1)
		return;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	if (w->usage_ino != (uint64_t)st.st_ino ||
	    w->usage_dev != (uint64_t)st.st_dev ||
	    w->usage_off > (uint64_t)st.st_size) {
		w->usage_ino = (uint64_t)st.st_ino;
		w->usage_dev = (uint64_t)st.st_dev;
		w->usage_off = 0;
		buf_reset(&w->usage_part);
		w->usage_skip = 0;
		changed = (w->usage.known ? AGENTFILES_USAGE : 0) |
		    (w->bg.n != 0 ? AGENTFILES_BG : 0);
		usage_init(&w->usage);
		bgtasks_init(&w->bg);
		bg_before = 0;	/* another file: nothing ended */
	}
	while (left > 0 &&
	    (n = pread(fd, tmp, sizeof tmp, (off_t)w->usage_off)) > 0) {
		w->usage_off += (uint64_t)n;
		left -= (uint64_t)n < left ? (uint64_t)n : left;
		for (at = 0; (nl = memchr(tmp + at, '\n', (size_t)n - at)) != NULL;
		    at += len + 1) {
			len = (size_t)(nl - (tmp + at));
			if (w->usage_skip)
				w->usage_skip = 0;
			else if (w->usage_part.len != 0) {
				buf_add(&w->usage_part, tmp + at, len);
				changed |= line(w, w->usage_part.data,
				    w->usage_part.len);
				buf_reset(&w->usage_part);
			} else
				changed |= line(w, tmp + at, len);
		}
		if (w->usage_skip || at == (size_t)n)
			continue;
		/* A line too long to be a message's usage is let go. */
		if (w->usage_part.len + ((size_t)n - at) > AGENTFILES_USAGE_LINE) {
			buf_reset(&w->usage_part);
			w->usage_skip = 1;
		} else
			buf_add(&w->usage_part, tmp + at, (size_t)n - at);
	}
	close(fd);
	if (changed & AGENTFILES_USAGE) {
		usage_set_window(&w->usage, lisad.context_windows);
		publish_pane(p);
		log_debug("pane %%%d: context %lld of %lld, %d%%", p->id,
		    w->usage.context, w->usage.window, usage_percent(&w->usage));
	}
	if (changed & AGENTFILES_BG) {
		if (w->bg.n < bg_before)
			w->bg_ended_at = time_mono_ms();
		log_debug("pane %%%d: %d background task%s", p->id, w->bg.n,
		    w->bg.n == 1 ? "" : "s");
		watch_poke(p);
	}
}

/* A transcript line: its usage, and the background work it starts or ends. */
static int
agentfiles_claude_line(struct watch *w, const char *line, size_t len)
{
	int	rc = 0;

	if (usage_claude_line(&w->usage, line, len) == 1)
		rc |= AGENTFILES_USAGE;
	if (bgtasks_claude_line(&w->bg, line, len) == 1)
		rc |= AGENTFILES_BG;
	return (rc);
}

static void
agentfiles_transcript(struct pane *p, const char *name)
{
	struct watch		*w = p->watch;
	char			*path, buf[AGENTFILES_MAX_FILE];
	enum transcript_event	 ev;
	ssize_t			 n;

	/* With a session id, only that transcript is this agent's. */
	if (w->claude_session_id[0] != '\0' &&
	    (strncmp(name, w->claude_session_id,
	    strlen(w->claude_session_id)) != 0 ||
	    strcmp(name + strlen(w->claude_session_id), ".jsonl") != 0))
		return;
	xasprintf(&path, "%s/%s", w->transcript_dir, name);
	n = agentfiles_load(path, &w->transcript_stamp, buf, sizeof buf, 1);
	if (n == -1 && errno != ENOENT) {
		log_warnx("%s: %s: refused", path, errno == ELOOP ?
		    "a symlink" : "not a regular file");
		/* What it said before is no longer to be believed. */
		if (w->transcript != TX_NONE) {
			w->transcript = TX_NONE;
			w->transcript_at = time_mono_ms();
			watch_poke(p);
		}
	}
	/* Unchanged, or written before this agent started (not its own). */
	if (n <= 0 ||
	    w->transcript_stamp.mtime / 1000000 < w->agent_since_real - 1000) {
		free(path);
		return;
	}
	agentfiles_usage(p, path, agentfiles_claude_line);
	free(path);
	ev = claude_transcript_tail(buf, (size_t)n,
	    (size_t)n >= AGENTFILES_MAX_FILE);
	log_debug("pane %%%d: transcript %s: event %d (%zd bytes read)", p->id,
	    name, ev, n);
	if (ev == TX_NONE)
		return;
	w->transcript = ev;
	w->transcript_at = time_mono_ms();
	watch_poke(p);
}

/* A Claude-like agent was found in p (or p was scanned again). */
void
agentfiles_agent(struct pane *p)
{
	struct watch	*w = p->watch;
	char		*cdir, *sdir, ebuf[64];

	if (w->agent != NULL && w->agent->codex_files)
		agentfiles_codex_look(p);
	if (w->agent != NULL &&
	    (w->agent->gemini_files || w->agent->qwen_files ||
	    w->agent->pi_files))
		agentfiles_gemini_look(p);
	if (w->agent != NULL && w->agent->cline_files)
		agentfiles_cline_look(p);
	if (w->agent != NULL && w->agent->copilot_files)
		agentfiles_copilot_look(p);
	if (w->agent != NULL && w->agent->opencode_files)
		agentfiles_opencode_look(p, 0);
	if (w->agent == NULL || !w->agent->claude_files)
		return;
	/*
	 * Taken with no environment (in its execve, past lisa's window for
	 * a young process on a loaded machine): once it has one, its files
	 * are under its own HOME, not ours.
	 */
	if (w->session_dir != NULL && w->env_unread &&
	    proc_environ(w->agent_pid, ebuf, sizeof ebuf) > 0) {
		log_debug("pane %%%d: pid %ld has its environment now",
		    p->id, (long)w->agent_pid);
		free(w->session_dir);
		w->session_dir = NULL;
		free(w->transcript_dir);
		w->transcript_dir = NULL;
		memset(&w->session_stamp, 0, sizeof w->session_stamp);
		memset(&w->transcript_stamp, 0, sizeof w->transcript_stamp);
		w->session = SS_NONE;
	}
	if (w->session_dir == NULL) {
		w->env_unread = proc_environ(w->agent_pid, ebuf,
		    sizeof ebuf) == 0;
		if ((cdir = agentfiles_env_dir(w->agent_pid, "CLAUDE_CONFIG_DIR",
		    ".claude")) == NULL)
			return;
		xasprintf(&sdir, "%s/sessions", cdir);
		w->session_dir = sdir;
		agentfiles_watch(sdir);
		free(cdir);
	}
	agentfiles_transcript_dir(w, NULL);
	agentfiles_session(p);
}

/*
 * Without file events (osdep_fwatch): the agent's files, each time lisa
 * looks at its pane for other reasons. A stat when nothing changed.
 */
void
agentfiles_look(struct pane *p)
{
	struct watch	*w = p->watch;

	if (!agentfiles_blind || w == NULL || !w->agent_alive)
		return;
	if (w->agent != NULL && w->agent->codex_files)
		agentfiles_codex_look(p);
	if (w->agent != NULL &&
	    (w->agent->gemini_files || w->agent->qwen_files ||
	    w->agent->pi_files))
		agentfiles_gemini_look(p);
	if (w->agent != NULL && w->agent->cline_files)
		agentfiles_cline_look(p);
	if (w->agent != NULL && w->agent->copilot_files)
		agentfiles_copilot_look(p);
	if (w->agent != NULL && w->agent->opencode_files)
		agentfiles_opencode_look(p, 1);
	if (w->session_dir == NULL)
		return;
	agentfiles_session(p);
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

	agentfiles_opencode_close();
	while ((a = TAILQ_FIRST(&adirs)) != NULL) {
		TAILQ_REMOVE(&adirs, a, entry);
		free(a->path);
		free(a->child);
		free(a->target);
		free(a);
	}
	if (agentfiles_fd != -1) {
		loop_del(agentfiles_ev);
		close(agentfiles_fd);
		agentfiles_fd = -1;
	}
}
