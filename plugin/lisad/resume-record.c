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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"
#include "tell.h"

static char	*resume_path;
static int	 resume_failed;	/* said once */
static int	*resume_saved;	/* the panes the file holds */
static u_int	 resume_nsaved;
static u_int	 resume_size;

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
 * --resume=ID, opencode -s ID): the id alone, nothing else of them.
 */
void
resume_argv_id(char **argv, int argc, char *out, size_t len)
{
	static const char *const opts[] = { "--resume", "-r", "resume",
	    "--session", "-s", NULL };
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

	/* (the system's word, else the agent's own: osdep-generic) */
	if (proc_cwd(w->agent_pid, cwd, sizeof cwd) != 0)
		strlcpy(cwd, w->session_cwd != NULL ? w->session_cwd : "",
		    sizeof cwd);
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

/* Every live agent of this server, now (live.c's timer calls it). */
void
resume_record_save(void)
{
	struct buf	 b;
	struct pane	*p;
	char		*dir, *cause = NULL;
	int		 n = 0;

	if (resume_path == NULL) {
		if (runtime_state_dir("agents", &dir, &cause) != 0) {
			if (!resume_failed)
				log_warnx("lisa resume: %s", cause);
			resume_failed = 1;
			free(cause);
			return;
		}
		resume_path = runtime_path(dir, lisad.instance, ".agents");
		free(dir);
	}
	buf_init(&b);
	buf_adds(&b, "{\"v\":1,\"server\":");
	json_cstr(&b, lisad.instance);
	json_key(&b, "socket");
	json_cstr(&b, lisad.sid.socket);
	buf_printf(&b, ",\"saved\":%lld}\n", (long long)time_real_ms());
	RB_FOREACH(p, panes, &panes) {
		if (!resume_kept(p))
			continue;
		resume_entry(&b, p);
		if ((u_int)n == resume_size) {
			resume_size = resume_size != 0 ? resume_size * 2 : 64;
			resume_saved = xreallocarray(resume_saved, resume_size,
			    sizeof *resume_saved);
		}
		resume_saved[n++] = p->id;
	}
	resume_nsaved = n;
	/* No agent: no file (a server's that had none is nothing to resume). */
	if (runtime_write_file(resume_path, n != 0 ? b.data : "",
	    n != 0 ? b.len : 0) != 0)
		log_warn("%s", resume_path);
	buf_free(&b);
}

static void
resume_record_answered(struct ctl_client *c, int ok, const char *body,
    size_t len, void *arg)
{
	if (!ok) {
		log_debug("lisa resume: the server said %.*s: record kept",
		    (int)len, body);
		return;
	}
	resume_record_save();
}

/*
 * Saved once the server has answered a question about one of its
 * sessions. An agent that ended is dropped from the file; but kill-server
 * ends every agent before its control clients close, and on a busy machine
 * the helper has seen them end a second before it hears the server went:
 * a server that is going answers no more (its sessions are gone, or the
 * connection closes first), and the file keeps every agent it had.
 */
void
resume_record_save_checked(void)
{
	struct session	*s;
	struct pane	*p;
	char		 cmd[64];
	u_int		 i;

	/*
	 * Only when an agent the file holds has ended: the question is a
	 * line in the user's message log (show-messages), every command is.
	 */
	for (i = 0; i < resume_nsaved; i++) {
		if ((p = pane_find(resume_saved[i])) == NULL || !resume_kept(p))
			break;
	}
	if (i == resume_nsaved) {
		resume_record_save();
		return;
	}
	log_debug("lisa resume: an agent of the file ended: asking the server");
	RB_FOREACH(s, sessions, &sessions) {
		if (s->ctl != NULL && s->attached && !s->closing)
			break;
	}
	if (s == NULL)
		return;
	snprintf(cmd, sizeof cmd, "display-message -p -t '$%d' ok", s->id);
	session_send(s, cmd, resume_record_answered, NULL);
}

void
resume_record_close(void)
{
	free(resume_path);
	resume_path = NULL;
	free(resume_saved);
	resume_saved = NULL;
	resume_nsaved = resume_size = 0;
}
