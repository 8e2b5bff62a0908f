/*
 * What brings agents back once their tmux server is gone (lisa resume):
 * for each agent pane, the agent, its working directory, the agent's own
 * session id (Claude Code's sessionId, Codex's thread, Gemini's and
 * Qwen's chat session, else the one it was started to resume) and where
 * it was (tmux session, window name and index, pane index). One file per
 * server instance, <instance>.agents in the state directory (which a reboot
 * keeps; the runtime directory is gone then), written atomically by the
 * live file's timer (live.c), a second after a change.
 *
 * Never a prompt or a transcript's text: not even the agent's command
 * line, which may hold a prompt ("claude 'fix the bug'"); the resume
 * command comes from the agent's profile.
 *
 * Never written as the helper stops: a server killed (or a machine going
 * down) takes its agents with it, and the helper may see them end first;
 * the file keeps what the last change left, every agent alive then. An
 * agent that ends while its server runs on is dropped a second later.
 *
 * Only that: a record goes when its agent is seen to end, or tmux says its
 * pane is gone while the server still answers. A pane the helper no longer
 * sees (its session's client went, the session is ignored, a new helper
 * has not looked yet) keeps its line as the file had it; a new helper
 * starts from the file it finds.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"

static char	*resume_path;
static int	 resume_failed;	/* said once */

#define RESUME_CHECK_BYTES	(64 * 1024)	/* 100 agents' lines */

/*
 * Whether resume records can be kept, said where the user looks (the
 * status line's @lisa_error, lisa info and doctor) while the server
 * lives: a read-only or full state directory found after the server is
 * gone would have lost every agent. why NULL: they can (again).
 */
static void
resume_record_tell(const char *why)
{
	if (why == NULL && lisad.state_error == NULL)
		return;
	if (why != NULL && lisad.state_error != NULL &&
	    strcmp(why, lisad.state_error) == 0)
		return;
	free(lisad.state_error);
	lisad.state_error = why != NULL ? xstrdup(why) : NULL;
	if (why != NULL)
		log_warnx("lisa resume: records cannot be kept: %s", why);
	else
		log_debug("lisa resume: records can be kept again");
	/* (a helper that reads nothing of tmux says that instead) */
	if (lisad.reply_unparsed != 0)
		return;
	if (why != NULL)
		tmux_run(NULL, "set-option", "-gq", "@lisa_error",
		    "lisa: resume records cannot be kept (lisa doctor)",
		    (char *)NULL);
	else
		tmux_run(NULL, "set-option", "-gqu", "@lisa_error",
		    (char *)NULL);
}

/* At start: can the state directory take the records? */
void
resume_record_dir_check(void)
{
	char	*dir, *cause = NULL;

	free(lisad.state_dir);
	lisad.state_dir = NULL;
	if (runtime_state_dir("agents", &dir, &cause) == 0) {
		lisad.state_dir = dir;
		if (runtime_dir_writable(dir, RESUME_CHECK_BYTES,
		    &cause) == 0) {
			resume_record_tell(NULL);
			return;
		}
	}
	resume_record_tell(cause);
	free(cause);
}

/* What the file holds, a line a pane. */
struct resume_line {
	int		 pane;
	char		*text;		/* with its newline */
	int		 gone;		/* tmux lists no such pane */
};
static struct resume_line *resume_lines;
static u_int	 resume_nlines;
static int	 resume_loaded;
static uint64_t	 resume_asking;	/* the question in flight, or 0 */
static uint64_t	 resume_gen;

/* An agent the file holds. */
static int
resume_kept(struct pane *p)
{
	struct watch	*w = p->watch;

	return (w != NULL && w->agent_alive && w->agent != NULL && !p->dead &&
	    strcmp(w->agent->name, "run") != 0);
}

/*
 * The conversation an agent was started to resume, from its arguments
 * (claude --resume ID, codex resume ID, gemini -r ID, copilot
 * --resume=ID, opencode -s ID, pi --session ID, cline --id ID): the id
 * alone, nothing else of them.
 */
void
resume_argv_id(char **argv, int argc, char *out, size_t len)
{
	static const char *const opts[] = { "--resume", "-r", "resume",
	    "--session", "-s", "--id", NULL };
	const char	*v;
	size_t		 n;
	int		 i, j;

	*out = '\0';
	for (i = 1; i < argc; i++) {
		for (j = 0; opts[j] != NULL; j++) {
			n = strlen(opts[j]);
			if (strcmp(argv[i], opts[j]) == 0 && i + 1 < argc)
				v = argv[i + 1];
			else if (strncmp(argv[i], opts[j], n) == 0 &&
			    argv[i][n] == '=' && opts[j][0] == '-')
				v = argv[i] + n + 1;
			else
				continue;
			if (agent_id_ok(v)) {
				strlcpy(out, v, len);
				return;
			}
		}
	}
}

/*
 * The agent's own id for its conversation, or "": Claude Code's
 * sessionId; Codex's thread, the UUID ending its rollout's name
 * (rollout-<time>-<uuid>.jsonl); Gemini's and Qwen's, from their chat
 * logs; else the one it was started to resume.
 */
const char *
resume_agent_id(struct watch *w, char *out, size_t len)
{
	const char	*name, *dot;
	size_t		 n;

	*out = '\0';
	if (*w->claude_session_id != '\0')
		strlcpy(out, w->claude_session_id, len);
	else if (w->agent != NULL && w->agent->codex_files &&
	    w->rollout != NULL) {
		name = strrchr(w->rollout, '/');
		name = name != NULL ? name + 1 : w->rollout;
		if ((dot = strstr(name, ".jsonl")) != NULL &&
		    dot - name > 36 && dot[6] == '\0') {
			n = 36;
			if (n < len) {
				memcpy(out, dot - n, n);
				out[n] = '\0';
			}
		}
	}
	if (*out == '\0' && *w->chat_session != '\0')
		strlcpy(out, w->chat_session, len);
	if (*out == '\0' && *w->argv_session != '\0')
		strlcpy(out, w->argv_session, len);
	/* (ids are UUIDs or such: anything else is not passed on) */
	if (*out != '\0' && !agent_id_ok(out))
		*out = '\0';
	return (out);
}

static void
resume_entry(struct buf *b, struct pane *p)
{
	struct watch	*w = p->watch;
	struct session	*s = pane_session(p);
	char		 id[64], cwd[4096];

	/* (the system's word, else the agent's own, else tmux's) */
	if (proc_cwd(w->agent_pid, cwd, sizeof cwd) != 0) {
		if (w->session_cwd != NULL)
			strlcpy(cwd, w->session_cwd, sizeof cwd);
		else if (w->pane_cwd != NULL)
			strlcpy(cwd, w->pane_cwd, sizeof cwd);
		else
			*cwd = '\0';
	}
	buf_adds(b, "{\"agent\":");
	json_cstr(b, w->agent->name);
	json_key(b, "id");
	json_cstr(b, *resume_agent_id(w, id, sizeof id) != '\0' ? id : NULL);
	/* Its program, as it ran (watch-proc.c): what lisa resume runs. */
	json_key(b, "exe");
	json_cstr(b, w->agent_exe);
	json_key(b, "cwd");
	json_cstr(b, *cwd != '\0' ? cwd : NULL);
	/* The model its transcript last named, when it is one's name. */
	json_key(b, "model");
	json_cstr(b, agent_model_ok(w->usage.model) ? w->usage.model : NULL);
	json_key(b, "session");
	json_cstr(b, s != NULL && s->name != NULL ? s->name : "");
	json_key(b, "window");
	json_cstr(b, p->window_name != NULL ? p->window_name : "");
	buf_printf(b, ",\"window_index\":%d,\"pane_index\":%d,\"pane\":%d}\n",
	    p->window_index, p->pane_index, p->id);
}

static uint64_t
resume_sum_add(uint64_t h, const void *data, size_t len)
{
	const unsigned char	*c = data;

	/* FNV-1a, the bytes and an end */
	while (len-- != 0)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return ((h ^ 0xff) * 0x100000001b3ULL);
}

static uint64_t
resume_sum_str(uint64_t h, const char *s)
{
	return (resume_sum_add(h, s, s != NULL ? strlen(s) : 0));
}

/*
 * Anything of a pane's record changed (an id learned late, as on the
 * generic backend where the session file is read when lisa next looks; a
 * window renamed or moved; the model): the file is rewritten a second
 * later, as after a verdict. Not the process's directory: it is read
 * from the system only when saving (an agent that changes directory without
 * saying so is caught up by its next verdict).
 */
void
resume_record_check(struct pane *p)
{
	struct watch	*w = p->watch;
	struct session	*s;
	uint64_t	 h = 0xcbf29ce484222325ULL;
	char		 id[64];

	if (!resume_kept(p))
		return;
	s = pane_session(p);
	h = resume_sum_str(h, w->agent->name);
	h = resume_sum_str(h, resume_agent_id(w, id, sizeof id));
	h = resume_sum_str(h, w->agent_exe);
	h = resume_sum_str(h, w->session_cwd);
	h = resume_sum_str(h, w->pane_cwd);
	h = resume_sum_str(h, agent_model_ok(w->usage.model) ?
	    w->usage.model : NULL);
	h = resume_sum_str(h, s != NULL ? s->name : NULL);
	h = resume_sum_str(h, p->window_name);
	h = resume_sum_add(h, &p->window_index, sizeof p->window_index);
	h = resume_sum_add(h, &p->pane_index, sizeof p->pane_index);
	if (h == w->resume_sum)
		return;
	if (w->resume_sum != 0)
		log_debug("pane %%%d: its resume record changed", p->id);
	w->resume_sum = h;
	live_changed();
}

static void
resume_cwd_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct pane	*p;
	struct watch	*w;

	(void)c;
	if ((p = pane_find((int)(intptr_t)arg)) == NULL ||
	    (w = p->watch) == NULL || !w->agent_alive ||
	    w->pane_cwd_pid != w->agent_pid)
		return;
	if (len > 0 && body[len - 1] == '\n')
		len--;
	/* (one absolute path, or nothing: a name with a newline is not one) */
	if (!ok || len == 0 || *body != '/' || memchr(body, '\n', len) != NULL ||
	    memchr(body, '\0', len) != NULL || len >= 4096) {
		log_debug("pane %%%d: tmux knows no directory for it", p->id);
		return;
	}
	free(w->pane_cwd);
	w->pane_cwd = xstrndup(body, len);
	log_debug("pane %%%d: its directory from tmux", p->id);
	resume_record_check(p);
}

/*
 * An agent just met, where the system does not say a process's directory
 * (osdep-cwd-none: a BSD): tmux does (#{pane_current_path}, the
 * foreground process's, which is the agent's now), asked once. Without
 * it an agent whose files never say one (Codex, Gemini, Aider) had a
 * record lisa resume skips, and one whose files say it late (Claude
 * resumed by its id) had one for a moment.
 */
void
resume_ask_cwd(struct pane *p)
{
	struct watch	*w = p->watch;
	struct session	*s;
	char		 cmd[80], cwd[4096];

	if (proc_cwd(w->agent_pid, cwd, sizeof cwd) == 0 ||
	    (s = pane_session(p)) == NULL)
		return;
	snprintf(cmd, sizeof cmd,
	    "display-message -p -t '%%%d' '#{pane_current_path}'", p->id);
	if (session_send(s, cmd, resume_cwd_cb, (void *)(intptr_t)p->id) == 0)
		w->pane_cwd_pid = w->agent_pid;
}

static void
resume_lines_free(struct resume_line *l, u_int n)
{
	u_int	i;

	for (i = 0; i < n; i++)
		free(l[i].text);
	free(l);
}

static void
resume_line_add(struct resume_line **l, u_int *n, int pane, const char *text,
    size_t len)
{
	struct resume_line	*rl;

	*l = xreallocarray(*l, *n + 1, sizeof **l);
	rl = &(*l)[(*n)++];
	memset(rl, 0, sizeof *rl);
	rl->pane = pane;
	rl->text = xstrndup(text, len);
}

/* A line of the file a helper before us left: kept with its newline. */
static void
resume_load_line(const char *line, size_t len)
{
	struct json_doc	*d;
	char		*cause = NULL, *text;
	long long	 pane;

	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return;
	}
	if (json_get_int(d, 0, "pane", &pane) == 0 && pane >= 0 &&
	    pane < INT32_MAX) {
		xasprintf(&text, "%.*s\n", (int)len, line);
		resume_line_add(&resume_lines, &resume_nlines, (int)pane, text,
		    len + 1);
		free(text);
	}
	json_free(d);
}

/* The file a helper before us left for this server: its lines carry on. */
static void
resume_load(void)
{
	char	*data;
	size_t	 len;

	resume_loaded = 1;
	if (runtime_read_file(resume_path, 1024 * 1024, &data, &len) != 0)
		return;
	runtime_lines(data, len, INT32_MAX, resume_load_line);
	free(data);
	if (resume_nlines != 0)
		log_debug("lisa resume: %u agents from the file", resume_nlines);
}

static int
resume_path_ready(void)
{
	char	*dir, *cause = NULL;

	if (resume_path != NULL)
		return (0);
	if (runtime_state_dir("agents", &dir, &cause) != 0) {
		if (!resume_failed)
			log_warnx("lisa resume: %s", cause);
		resume_failed = 1;
		free(cause);
		return (-1);
	}
	resume_path = runtime_path(dir, lisad.instance, ".agents");
	free(dir);
	if (!resume_loaded)
		resume_load();
	return (0);
}

/* Seen to have ended: its agent's end, or a dead pane (not just unseen). */
static int
resume_ended(struct pane *p)
{
	struct watch	*w = p->watch;

	return (p->dead || (w != NULL && w->agent != NULL && !w->agent_alive));
}

/* Every live agent of this server, now (live.c's timer calls it). */
void
resume_record_save(void)
{
	struct resume_line	*nl = NULL;
	struct buf		 b, e;
	struct pane		*p;
	u_int			 n = 0, i, k;

	if (resume_path_ready() != 0)
		return;
	buf_init(&e);
	RB_FOREACH(p, panes, &panes) {
		if (!resume_kept(p))
			continue;
		buf_reset(&e);
		resume_entry(&e, p);
		resume_line_add(&nl, &n, p->id, e.data, e.len);
	}
	buf_free(&e);
	/* The file's other lines: kept unless seen to end. */
	for (i = 0; i < resume_nlines; i++) {
		for (k = 0; k < n; k++) {
			if (nl[k].pane == resume_lines[i].pane)
				break;
		}
		if (k != n)
			continue;
		p = pane_find(resume_lines[i].pane);
		if (resume_lines[i].gone == 1 || (p != NULL && resume_ended(p)))
			continue;
		log_debug("lisa resume: pane %%%d not seen now: kept",
		    resume_lines[i].pane);
		resume_line_add(&nl, &n, resume_lines[i].pane,
		    resume_lines[i].text, strlen(resume_lines[i].text));
		nl[n - 1].gone = resume_lines[i].gone;
	}
	resume_lines_free(resume_lines, resume_nlines);
	resume_lines = nl;
	resume_nlines = n;

	buf_init(&b);
	buf_adds(&b, "{\"v\":1,\"server\":");
	json_cstr(&b, lisad.instance);
	json_key(&b, "socket");
	json_cstr(&b, lisad.sid.socket);
	buf_printf(&b, ",\"saved\":%lld}\n", (long long)time_real_ms());
	for (i = 0; i < n; i++)
		buf_adds(&b, nl[i].text);
	/* No agent: no file (a server's that had none is nothing to resume). */
	if (runtime_write_file(resume_path, n != 0 ? b.data : "",
	    n != 0 ? b.len : 0) != 0) {
		char	*why;

		xasprintf(&why, "%s: %s", resume_path, strerror(errno));
		resume_record_tell(why);
		free(why);
	} else if (n != 0)
		resume_record_tell(NULL);	/* (a file removed proves none) */
	buf_free(&b);
}

/*
 * tmux's list of its panes: a line of the file the helper does not see and
 * tmux does not list is gone (if the server lives: see below).
 */
static void
resume_record_panes_answered(struct ctl_client *c, int ok, const char *body,
    size_t len, void *arg)
{
	const char	*p = body, *end = body + len;
	char		*copy, *line, *q;
	u_int		 i;
	int		 id;

	if (!ok || (uint64_t)(uintptr_t)arg != resume_asking)
		return;
	for (i = 0; i < resume_nlines; i++) {
		if (pane_find(resume_lines[i].pane) == NULL)
			resume_lines[i].gone = -1;
	}
	copy = q = xstrndup(p, (size_t)(end - p));
	while ((line = strsep(&q, "\n")) != NULL) {
		if (*line != '%')
			continue;
		id = (int)strtol(line + 1, NULL, 10);
		for (i = 0; i < resume_nlines; i++) {
			if (resume_lines[i].pane == id)
				resume_lines[i].gone = 0;
		}
	}
	free(copy);
}

/*
 * tmux said a pane of the file closed: gone, once a question about one of
 * the server's sessions is answered after (kill-server closes them all).
 */
void
resume_record_gone(int pane)
{
	u_int	i;

	for (i = 0; i < resume_nlines; i++) {
		if (resume_lines[i].pane == pane && resume_lines[i].gone == 0) {
			resume_lines[i].gone = -1;
			live_changed();
		}
	}
}

/* The last answer: the server lived after its panes were listed. */
static void
resume_record_answered(struct ctl_client *c, int ok, const char *body,
    size_t len, void *arg)
{
	u_int	i;

	if ((uint64_t)(uintptr_t)arg != resume_asking)
		return;
	resume_asking = 0;
	for (i = 0; i < resume_nlines; i++) {
		if (resume_lines[i].gone == -1)
			resume_lines[i].gone = ok;
	}
	if (!ok) {
		log_debug("lisa resume: the server said %.*s: record kept",
		    (int)len, body);
		return;
	}
	resume_record_save();
}

/*
 * Saved once the server has answered. An agent that ended is dropped from
 * the file; but kill-server ends every agent before its control clients
 * close, and on a busy machine the helper has seen them end a second
 * before it hears the server went: a server that is going answers no
 * more (its sessions are gone, or the connection closes first), and the
 * file keeps every agent it had. Lines of panes the helper does not see
 * are checked against tmux's list of its panes (at most every
 * RESUME_ASK_MS: each question is a line in the user's message log),
 * which counts only if a question about one of its sessions, after it,
 * is answered.
 */
#define RESUME_ASK_MS 10000
void
resume_record_save_checked(void)
{
	static uint64_t	 last;
	struct session	*s;
	struct pane	*p;
	char		 cmd[96];
	uint64_t	 now = time_mono_ms();
	u_int		 i;
	int		 ask = 0, unseen = 0;

	if (resume_path_ready() != 0 || resume_asking != 0)
		return;
	for (i = 0; i < resume_nlines; i++) {
		p = pane_find(resume_lines[i].pane);
		if (resume_lines[i].gone == -1)
			ask = 1;
		else if (p == NULL)
			unseen = 1;
		else if (!resume_kept(p) && resume_ended(p))
			ask = 1;
	}
	if (unseen && (last == 0 || now - last >= RESUME_ASK_MS))
		ask = 1;
	if (!ask) {
		resume_record_save();
		return;
	}
	RB_FOREACH(s, sessions, &sessions) {
		if (s->ctl != NULL && s->attached && !s->closing)
			break;
	}
	if (s == NULL)
		return;
	log_debug("lisa resume: asking the server about the file's agents");
	resume_asking = ++resume_gen;
	if (unseen) {
		last = now;
		session_send(s, "list-panes -a -F '#{pane_id}'",
		    resume_record_panes_answered,
		    (void *)(uintptr_t)resume_asking);
	}
	snprintf(cmd, sizeof cmd, "display-message -p -t '$%d' ok", s->id);
	session_send(s, cmd, resume_record_answered,
	    (void *)(uintptr_t)resume_asking);
}

void
resume_record_close(void)
{
	free(lisad.state_dir);
	free(lisad.state_error);
	lisad.state_dir = lisad.state_error = NULL;
	free(resume_path);
	resume_path = NULL;
	resume_lines_free(resume_lines, resume_nlines);
	resume_lines = NULL;
	resume_nlines = 0;
}
