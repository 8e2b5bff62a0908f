/*
 * Gemini CLI's chat log, for its token counts and for the quota error
 * that leaves it at its prompt (checked against 0.61.0):
 *
 *  - its directory is $GEMINI_CLI_HOME/.gemini, else ~/.gemini;
 *  - projects.json there gives each working directory a short id, and
 *    tmp/<id>/chats/session-<time>-<id8>.jsonl is a session's log, made
 *    at its first prompt (and again at /clear), appended to as it goes.
 *
 * Qwen Code, its fork (0.15.10), keeps one the same way, for tokens only:
 * $QWEN_RUNTIME_DIR, $QWEN_HOME or ~/.qwen, then projects/<cwd, every
 * non-alphanumeric byte a '-'>/chats/<session>.jsonl.
 *
 * pi (1.6.0) too, for its tokens and how each turn ended (pi-file.c):
 * $PI_CODING_AGENT_SESSION_DIR, else $PI_CODING_AGENT_DIR or ~/.pi/agent
 * then sessions/--<cwd>--, holds <time>_<id>.jsonl; a session it resumes
 * goes on in its old file.
 *
 * No process says whose a log is: a new one belongs to the pane working
 * in that project that has no log yet, or else to the one that turned
 * busy last (the log is made as the prompt is sent). Two panes in one
 * directory sending their first prompts in the same moment can be
 * swapped; docs/classification.md says so.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"

#define GEMINI_PROJECTS_MAX	(1024 * 1024)
/* A log's startTime against a start time from ps (whole seconds). */
#define GEMINI_START_SLACK	2000
/* pi's models.json: a user's own, small. */
#define PI_MODELS_MAX		(256 * 1024)

/* A log line: its usage, and whether the turn ended on a limit. */
static int
agentfiles_gemini_line(struct watch *w, const char *line, size_t len)
{
	enum transcript_event	ev;
	int			rc = 0;

	if (w->agent != NULL && w->agent->qwen_files)
		return (usage_qwen_line(&w->usage, line, len) == 1 ?
		    AGENTFILES_USAGE : 0);
	if (w->agent != NULL && w->agent->pi_files) {
		if (usage_pi_line(&w->usage, line, len) == 1)
			rc |= AGENTFILES_USAGE;
		ev = pi_session_event(line, len);
	} else {
		if (usage_gemini_line(&w->usage, line, len) == 1)
			rc |= AGENTFILES_USAGE;
		ev = gemini_chat_event(line, len);
	}
	if (ev != TX_NONE) {
		w->transcript = ev;
		w->transcript_at = time_mono_ms();
	}
	return (rc);
}

/* The window pi's models.json gives the model in use, if it names it. */
static void
agentfiles_pi_window(struct watch *w)
{
	char		*path, *buf;
	size_t		 have;
	long long	 win = 0;
	int		 fd;

	if (w->gemini_home == NULL || w->usage.model[0] == '\0')
		return;
	xasprintf(&path, "%s/models.json", w->gemini_home);
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	free(path);
	if (fd == -1)
		return;
	buf = agentfiles_pread(fd, 0, PI_MODELS_MAX, &have);
	close(fd);
	if (have < PI_MODELS_MAX)
		win = pi_models_window(buf, have, w->usage.model);
	free(buf);
	if (win > 0) {
		w->usage.window = win;
		w->usage.window_given = 1;
	}
}

static void
agentfiles_gemini_read(struct pane *p)
{
	struct watch		*w = p->watch;
	enum transcript_event	 before = w->transcript;
	char			 model[sizeof w->usage.model];

	strlcpy(model, w->usage.model, sizeof model);
	agentfiles_usage(p, w->rollout, agentfiles_gemini_line);
	if (w->agent->pi_files && strcmp(model, w->usage.model) != 0)
		agentfiles_pi_window(w);
	if (w->transcript != before) {
		log_debug("pane %%%d: %s chat: event %d", p->id,
		    w->agent->name, w->transcript);
		watch_poke(p);
	}
}

/*
 * The log's conversation id (lisa resume): Qwen names the log by it;
 * Gemini's first line, its metadata, has it as "sessionId", and when the
 * log was begun (into start; 0 when unknown).
 */
static void
agentfiles_gemini_file_id(const struct agent_profile *a, const char *path,
    const char *name, char *out, size_t len, int64_t *start)
{
	char		 buf[4096], *nl;
	ssize_t		 n;
	int		 fd;

	*out = '\0';
	*start = 0;
	if (a->qwen_files) {
		strlcpy(out, name, len);
		if ((nl = strstr(out, ".jsonl")) != NULL)
			*nl = '\0';
		return;
	}
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	if (fd == -1)
		return;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0 || (nl = memchr(buf, '\n', (size_t)n)) == NULL)
		return;
	if (a->pi_files)
		pi_session_head(buf, (size_t)(nl - buf), out, len, start);
	else
		gemini_chat_head(buf, (size_t)(nl - buf), out, len, start);
}

static void
agentfiles_gemini_session(struct watch *w, const char *path,
    const char *name)
{
	int64_t	start;

	agentfiles_gemini_file_id(w->agent, path, name, w->chat_session,
	    sizeof w->chat_session, &start);
}

/* Is p a live Gemini pane whose project's logs are in dir? */
static int
agentfiles_gemini_in(struct pane *p, const char *dir)
{
	struct watch	*w = p->watch;

	return (w != NULL && w->agent_alive && w->agent != NULL &&
	    (w->agent->gemini_files || w->agent->qwen_files ||
	    w->agent->pi_files) &&
	    w->gemini_chats != NULL && strcmp(w->gemini_chats, dir) == 0);
}

/*
 * When p last turned busy: its title (Gemini), else its last output
 * (Qwen's title never changes).
 */
static uint64_t
agentfiles_gemini_busy(struct pane *p)
{
	struct watch	*w = p->watch;

	if (w->agent != NULL && (w->agent->qwen_files || w->agent->pi_files))
		return (p->out_last);
	if (w->title == NULL || w->agent == NULL ||
	    agent_title(w->agent, w->title) != TITLE_BUSY)
		return (0);
	return (w->title_at);
}

/* Is dir some live pane's log directory? (Qwen's logs have no prefix.) */
static int
agentfiles_gemini_dir(const char *dir)
{
	struct pane	*p;

	RB_FOREACH(p, panes, &panes) {
		if (agentfiles_gemini_in(p, dir))
			return (1);
	}
	return (0);
}

/*
 * Something changed in a watched directory: a Gemini log (1), or its
 * projects.json (1), or neither (0).
 */
int
agentfiles_gemini_changed(const char *dir, const char *name)
{
	struct pane	*p, *best = NULL;
	struct watch	*w;
	struct stat	 st;
	char		*path, fid[64];
	int64_t		 start;
	size_t		 n = strlen(name);

	if (strcmp(name, "projects.json") == 0) {
		RB_FOREACH(p, panes, &panes) {
			w = p->watch;
			if (w != NULL && w->agent_alive && w->agent != NULL &&
			    w->agent->gemini_files && w->gemini_chats == NULL &&
			    w->gemini_home != NULL &&
			    strcmp(w->gemini_home, dir) == 0)
				agentfiles_gemini_look(p);
		}
		return (1);
	}
	if (n < 6 || strcmp(name + n - 6, ".jsonl") != 0 ||
	    (strncmp(name, "session-", 8) != 0 && !agentfiles_gemini_dir(dir)))
		return (0);

	xasprintf(&path, "%s/%s", dir, name);
	RB_FOREACH(p, panes, &panes) {
		if ((w = p->watch) != NULL && w->rollout != NULL &&
		    strcmp(w->rollout, path) == 0) {
			/* (its first line may come after the file) */
			if (w->chat_session[0] == '\0' && w->agent != NULL)
				agentfiles_gemini_session(w, path, name);
			if (w->agent_alive)
				agentfiles_gemini_read(p);
			free(path);
			return (1);
		}
	}
	/* Whose: a log begun after the agent, in its project. */
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		free(path);
		return (1);
	}
	RB_FOREACH(p, panes, &panes) {
		w = p->watch;
		if (!agentfiles_gemini_in(p, dir) ||
		    (int64_t)st.st_mtime * 1000 < w->agent_since_real - 1000)
			continue;
		agentfiles_gemini_file_id(w->agent, path, name, fid,
		    sizeof fid, &start);
		/*
		 * Begun before the agent: another run's log, touched (Gemini
		 * writes to an old log as another run ends; it begins a new
		 * one even for the conversation it resumes, pi does not).
		 */
		if (start != 0 && start < w->agent_since_real -
		    GEMINI_START_SLACK && !(w->agent->pi_files &&
		    w->argv_session[0] != '\0' &&
		    strcmp(fid, w->argv_session) == 0))
			continue;
		/*
		 * Started to resume a conversation (gemini --resume ID): its
		 * first log is that one's, not another that changed.
		 */
		if (w->rollout == NULL && w->argv_session[0] != '\0' &&
		    strcmp(fid, w->argv_session) != 0)
			continue;
		if (best == NULL ||
		    (w->rollout == NULL && best->watch->rollout != NULL) ||
		    ((w->rollout == NULL) == (best->watch->rollout == NULL) &&
		    agentfiles_gemini_busy(p) > agentfiles_gemini_busy(best)))
			best = p;
	}
	if (best == NULL) {
		free(path);
		return (1);
	}
	w = best->watch;
	log_debug("pane %%%d: gemini chat %s", best->id, path);
	free(w->rollout);
	w->rollout = path;
	usage_init(&w->usage);
	w->usage_ino = w->usage_dev = w->usage_off = 0;
	w->transcript = TX_NONE;
	agentfiles_gemini_session(w, path, name);
	agentfiles_gemini_read(best);
	return (1);
}

/* The project's id from projects.json, into id. */
static int
agentfiles_gemini_project(struct watch *w, char *id, size_t len)
{
	char		*path, *buf, cwd[PATH_MAX];
	ssize_t		 n;
	size_t		 have = 0;
	int		 fd, rc = -1;

	if (proc_cwd(w->agent_pid, cwd, sizeof cwd) != 0)
		return (-1);
	xasprintf(&path, "%s/projects.json", w->gemini_home);
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC);
	free(path);
	if (fd == -1)
		return (-1);
	buf = xmalloc(GEMINI_PROJECTS_MAX);
	while (have < GEMINI_PROJECTS_MAX &&
	    (n = read(fd, buf + have, GEMINI_PROJECTS_MAX - have)) > 0)
		have += (size_t)n;
	close(fd);
	if (have < GEMINI_PROJECTS_MAX)
		rc = gemini_project_id(buf, have, cwd, id, len);
	free(buf);
	return (rc);
}

/* Qwen's project directory: projects/<cwd slug>/chats. */
static void
agentfiles_qwen_chats(struct watch *w)
{
	char	*base = NULL, cwd[PATH_MAX], *q;

	if (proc_cwd(w->agent_pid, cwd, sizeof cwd) != 0)
		return;
	for (q = cwd; *q != '\0'; q++) {
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		    (*q >= '0' && *q <= '9')))
			*q = '-';
	}
	if ((base = agentfiles_env_dir(w->agent_pid, "QWEN_RUNTIME_DIR",
	    "")) != NULL && strcmp(base + strlen(base) - 1, "/") != 0) {
		xasprintf(&w->gemini_chats, "%s/projects/%s/chats", base, cwd);
		free(base);
		return;
	}
	free(base);
	if ((base = agentfiles_env_dir(w->agent_pid, "QWEN_HOME",
	    ".qwen")) == NULL)
		return;
	xasprintf(&w->gemini_chats, "%s/projects/%s/chats", base, cwd);
	free(base);
}

/* pi's sessions of the agent's directory, and its own (models.json). */
static void
agentfiles_pi_chats(struct watch *w)
{
	char	*base, cwd[PATH_MAX], name[PATH_MAX];

	if (w->gemini_home == NULL) {
		if ((base = agentfiles_env_dir(w->agent_pid,
		    "PI_CODING_AGENT_DIR", ".pi/agent")) == NULL)
			return;
		w->gemini_home = base;
	}
	if ((base = agentfiles_env_dir(w->agent_pid,
	    "PI_CODING_AGENT_SESSION_DIR", "")) != NULL &&
	    base[strlen(base) - 1] != '/') {
		w->gemini_chats = base;
		return;
	}
	free(base);
	if (proc_cwd(w->agent_pid, cwd, sizeof cwd) != 0)
		return;
	pi_session_dir_name(cwd, name, sizeof name);
	if (*name != '\0')
		xasprintf(&w->gemini_chats, "%s/sessions/%s", w->gemini_home,
		    name);
}

/* The agent was found (or looked at again): its project's logs. */
void
agentfiles_gemini_look(struct pane *p)
{
	struct watch	*w = p->watch;
	struct dirent	*de;
	DIR		*d;
	char		*base, id[256];
	size_t		 n;

	if ((w->agent->qwen_files || w->agent->pi_files) &&
	    w->gemini_chats == NULL) {
		if (w->agent->pi_files)
			agentfiles_pi_chats(w);
		else
			agentfiles_qwen_chats(w);
		if (w->gemini_chats == NULL)
			return;
		agentfiles_watch(w->gemini_chats);
	}
	if (w->gemini_home == NULL && w->agent->gemini_files) {
		/* GEMINI_CLI_HOME stands for the home, not for .gemini. */
		if ((base = agentfiles_env_dir(w->agent_pid, "GEMINI_CLI_HOME",
		    "")) == NULL)
			return;
		n = strlen(base);
		while (n > 1 && base[n - 1] == '/')
			base[--n] = '\0';
		xasprintf(&w->gemini_home, "%s/.gemini", base);
		free(base);
		agentfiles_watch(w->gemini_home);
	}
	if (w->gemini_chats == NULL) {
		if (agentfiles_gemini_project(w, id, sizeof id) != 0)
			return;	/* projects.json says it later */
		xasprintf(&w->gemini_chats, "%s/tmp/%s/chats", w->gemini_home,
		    id);
		agentfiles_watch(w->gemini_chats);
	}
	if (w->rollout != NULL) {
		agentfiles_gemini_read(p);
		return;
	}
	if ((d = opendir(w->gemini_chats)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && w->rollout == NULL)
		agentfiles_gemini_changed(w->gemini_chats, de->d_name);
	closedir(d);
}
