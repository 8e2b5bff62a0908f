/*
 * A resumed agent's record goes only once the agent is seen back (issue
 * 42): the helper names an agent alive in its new pane, in the same
 * conversation (one started with its plain command: any). Until then the
 * record stays. lisa says why one did not come back: the pane's script
 * ended (the agent did not start, or ended at once; the pane's last line
 * says why), or it was not seen within RESUME_START_MS. Agents started
 * together are looked at together: the wait is the slowest one's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"
#include "cmd-resume.h"

#define RESUME_START_MS	60000	/* a busy machine's Gemini CLI took 40 s */
#define RESUME_LOOK_MS	250

/* Does the helper see RS's agent alive in its pane, as the same one? */
static int
resume_seen(struct lisa_ctx *ctx, struct resume_started *rs)
{
	struct json_doc	*d;
	char		*agent, *state, *id;
	int		 obj, seen = 0;

	/* (NULL: a pane the helper has not heard of yet) */
	if ((d = act_status(ctx, rs->pane, &obj)) == NULL)
		return (0);
	if (obj >= 0) {
		agent = json_get_str(d, obj, "agent");
		state = json_get_str(d, obj, "state");
		id = json_get_str(d, obj, "agent_session");
		seen = agent != NULL && strcmp(agent, rs->ra->agent) == 0 &&
		    state != NULL && strcmp(state, "crashed") != 0 &&
		    strcmp(state, "completed") != 0 && (rs->plain ||
		    (id != NULL && strcmp(id, rs->ra->id) == 0));
		free(agent);
		free(state);
		free(id);
	}
	json_free(d);
	return (seen);
}

/*
 * Is RS's script over: its sh gone, or become the user's shell (the
 * script's last word, after the agent)? Before tmux's child runs the
 * script it is tmux, not a shell: not over.
 */
static int
resume_ended(struct resume_started *rs)
{
	char	 buf[4096], *argv[4];
	int	 argc;

	if (rs->pid <= 0)
		return (0);
	if (kill((pid_t)rs->pid, 0) != 0 && errno == ESRCH)
		return (1);
	if ((argc = proc_argv((pid_t)rs->pid, buf, sizeof buf, argv, 4)) < 1)
		return (0);
	if (!resume_is_shell(strrchr(argv[0], '/') != NULL ?
	    strrchr(argv[0], '/') + 1 : argv[0]))
		return (0);
	return (argc < 2 || strcmp(argv[1], "-c") != 0);
}

/* A string cut short: its last character whole, or left out. */
static void
resume_cut_utf8(char *s)
{
	size_t		n = strlen(s), k = n, need;
	unsigned char	lead;

	while (k > 0 && ((unsigned char)s[k - 1] & 0xc0) == 0x80)
		k--;
	if (k == 0 || (lead = (unsigned char)s[k - 1]) < 0xc0)
		return;
	need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
	if (n - (k - 1) < need)
		s[k - 1] = '\0';
}

/*
 * The pane's last line that is not blank, above its cursor (where the
 * user's shell, after the script, drew its prompt), printable, into OUT.
 */
static void
resume_last_line(struct lisa_ctx *ctx, const char *pane, char *out,
    size_t len)
{
	const char	*q[] = { "display-message", "-p", "-t", pane,
			    "#{cursor_y}", NULL };
	const char	*argv[] = { "capture-pane", "-p", "-J", "-t", pane,
			    "-E", NULL, NULL };
	char		*text = NULL, *line, *rest, *last = NULL, end[24];
	long		 y;
	size_t		 i;

	*out = '\0';
	if (client_tmux(ctx, &text, q) != 0 || text == NULL ||
	    (y = strtol(text, NULL, 10)) <= 0) {
		free(text);
		return;
	}
	free(text);
	text = NULL;
	snprintf(end, sizeof end, "%ld", y - 1);
	argv[6] = end;
	if (client_tmux_all(ctx, &text, argv) != 0 || text == NULL) {
		free(text);
		return;
	}
	for (rest = text; (line = strsep(&rest, "\n")) != NULL;) {
		if (line[strspn(line, " \t")] != '\0')
			last = line;
	}
	if (last != NULL) {
		/* (cut where a character ends, not inside one) */
		if (strlcpy(out, last + strspn(last, " \t"), len) >= len)
			resume_cut_utf8(out);
		/* (tmux before 3.3 pads a -J line to its allocated width) */
		for (i = strlen(out); i > 0 && (out[i - 1] == ' ' ||
		    out[i - 1] == '\t'); i--)
			out[i - 1] = '\0';
		for (i = 0; out[i] != '\0'; i++) {
			if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
				out[i] = '?';
		}
	}
	free(text);
}

static void
resume_failed(struct lisa_ctx *ctx, struct resume_started *rs,
    const char *why)
{
	struct resume_agent	*ra = rs->ra;
	char			 line[200];

	resume_last_line(ctx, rs->pane, line, sizeof line);
	fprintf(stderr, "lisa: %s did not come back in %s:%s (%s): %s%s%s; "
	    "its record is kept (lisa resume)\n", ra->agent, ra->session,
	    ra->window, rs->pane, why, *line != '\0' ? ", the pane says: " :
	    "", line);
}

int
resume_check(struct lisa_ctx *ctx, struct resume_started *rs, int n)
{
	struct json_doc		*d;
	struct resume_agent	*ra;
	char			*cause = NULL;
	uint64_t		 start = time_mono_ms();
	int			 i, left = n, rc = 0;

	if (client_call(ctx, "{\"cmd\":\"ping\"}\n", &d, &cause) != 0) {
		free(cause);
		for (i = 0; i < n; i++)
			fprintf(stderr, "lisa: %s started in %s:%s (%s), but "
			    "no lisa helper runs to see it back: its record "
			    "is kept\n", rs[i].ra->agent, rs[i].ra->session,
			    rs[i].ra->window, rs[i].pane);
		return (1);
	}
	json_free(d);
	for (;;) {
		for (i = 0; i < n; i++) {
			if (rs[i].done)
				continue;
			ra = rs[i].ra;
			if (resume_seen(ctx, &rs[i])) {
				if (rs[i].restored)
					printf("lisa: resumed %s in its restored "
					    "pane %s (%s:%d.%d)", ra->agent,
					    rs[i].pane, ra->session,
					    ra->window_index, ra->pane_index);
				else
					printf("lisa: resumed %s in %s:%s (%s)",
					    ra->agent, ra->session, ra->window,
					    ra->cwd);
				printf("%s%s\n", rs[i].plain ? ": its plain "
				    "command, a new conversation" :
				    ", conversation ", rs[i].plain ? "" : ra->id);
				resume_forget(ra);
			} else if (resume_ended(&rs[i])) {
				resume_failed(ctx, &rs[i], "it ended");
				rc = 1;
			} else
				continue;
			rs[i].done = 1;
			left--;
		}
		if (left == 0 || time_mono_ms() - start >= RESUME_START_MS)
			break;
		usleep(RESUME_LOOK_MS * 1000);
	}
	for (i = 0; i < n; i++) {
		if (!rs[i].done) {
			resume_failed(ctx, &rs[i], "not seen running within "
			    "60 s");
			rc = 1;
		}
	}
	fflush(stdout);
	return (rc);
}
