/*
 * lisa resume [--all] [--dry-run] [N...]: the agents that were running
 * when their tmux server ended (the helper's records, resume-record.c),
 * listed, and brought back: each in a window of the session it was in
 * (made if missing), in its directory, with the agent's own resume
 * command for its conversation (its profile's "resume", the id as $1,
 * never parsed by a shell); an agent without one gets its plain command,
 * and the list says so. Never an agent whose conversation runs now in a
 * pane of this server. A record resumed is removed from its file.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"
#include "cmd-resume.h"

/* The agent's command: its own resume for ID, else its plain one. */
const char *
resume_command(struct resume_agent *ra, int *plain)
{
	const struct agent_profile	*p = agent_by_name(ra->agent);

	*plain = ra->id == NULL || p == NULL || p->resume == NULL;
	return (*plain ? ra->agent : p->resume);
}

/* Is a conversation of this id alive in a pane of this server? */
static int
resume_alive(struct lisa_ctx *ctx, const char *id)
{
	struct json_doc	*d;
	char		*cause = NULL, *s;
	int		 panes, i, n, found = 0;

	if (client_call(ctx, "{\"cmd\":\"list\"}\n", &d, &cause) != 0) {
		free(cause);
		return (0);
	}
	panes = json_get(d, 0, "panes");
	n = json_array_size(d, panes);
	for (i = 0; i < n && !found; i++) {
		s = json_get_str(d, json_array_item(d, panes, i),
		    "agent_session");
		found = s != NULL && strcmp(s, id) == 0;
		free(s);
	}
	json_free(d);
	return (found);
}

/* Its record's line gone from its file (the file, when none is left). */
void
resume_forget(struct resume_agent *ra)
{
	char	*data, *at;
	size_t	 len, n = strlen(ra->line);

	if (runtime_read_file(ra->file, RESUME_MAX_FILE, &data, &len) != 0)
		return;
	if ((at = strstr(data, ra->line)) != NULL && at[n] == '\n') {
		memmove(at, at + n + 1, len - (size_t)(at - data) - n);
		len -= n + 1;
	}
	/* (the header alone is no record) */
	if (memchr(data, '\n', len) == data + len - 1)
		len = 0;
	runtime_write_file(ra->file, data, len);
	free(data);
}

/* Is RA's conversation running in a pane of this server? Said if so. */
static int
resume_running(struct lisa_ctx *ctx, struct resume_agent *ra, int dry_run)
{
	if (ra->id == NULL || dry_run || !resume_alive(ctx, ra->id))
		return (0);
	fprintf(stderr, "lisa: %s %s runs in a pane of this server already: "
	    "not resumed\n", ra->agent, ra->id);
	return (1);
}

/*
 * The script the pane runs: the agent's command, then the user's shell.
 * The program is the one the agent ran (its record's exe, as $2) where
 * the command starts with the agent's name and that file is still there;
 * the id is $1. Neither is ever parsed by a shell.
 */
static char *
resume_script(struct resume_agent *ra, int *plain)
{
	const char	*cmd = resume_command(ra, plain);
	size_t		 n = strlen(ra->agent);
	char		*sh;

	ra->use_exe = ra->exe != NULL && access(ra->exe, X_OK) == 0 &&
	    strncmp(cmd, ra->agent, n) == 0 &&
	    (cmd[n] == ' ' || cmd[n] == '\0');
	if (ra->use_exe)
		xasprintf(&sh, "\"$2\"%s; exec \"${SHELL:-/bin/sh}\"",
		    cmd + n);
	else
		xasprintf(&sh, "%s; exec \"${SHELL:-/bin/sh}\"", cmd);
	return (sh);
}

/*
 * ARGV's end from A: in RA's directory, its script (SH), the id its $1
 * and the program its $2. The new A.
 */
static int
resume_argv(const char **argv, int a, struct resume_agent *ra, const char *sh)
{
	/* (a format to tmux: the directory is text, never #(...)) */
	free(ra->cwd_format);
	ra->cwd_format = ctl_format_str(ra->cwd);
	argv[a++] = "-c";
	argv[a++] = ra->cwd_format;
	argv[a++] = "--";
	argv[a++] = "/bin/sh";
	argv[a++] = "-c";
	argv[a++] = sh;
	argv[a++] = "sh";
	argv[a++] = ra->id != NULL ? ra->id : "";
	if (ra->use_exe)
		argv[a++] = ra->exe;
	argv[a] = NULL;
	return (a);
}

/* --dry-run: the tmux command as a person can paste it (shell-quoted). */
static void
resume_print_argv(struct lisa_ctx *ctx, const char *const *argv)
{
	struct buf	b;
	int		a;

	buf_init(&b);
	buf_adds(&b, "tmux -S ");
	ctl_shell_quote(&b, ctx->sid.socket);
	for (a = 0; argv[a] != NULL; a++) {
		buf_addc(&b, ' ');
		/* (words of letters and '-' alone are as they are) */
		if (*argv[a] != '\0' && strspn(argv[a], "abcdefghijklmnopqrstu"
		    "vwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/.%#{}@:") ==
		    strlen(argv[a]) && *argv[a] != '#')
			buf_adds(&b, argv[a]);
		else
			ctl_shell_quote(&b, argv[a]);
	}
	printf("%s\n", b.data);
	buf_free(&b);
}

/*
 * Run ARGV (new-window, new-session or respawn-pane, with -P and
 * RESUME_PANE_FORMAT): RS gets the pane, its window and the pane's
 * process. 0 if tmux made it.
 */
static int
resume_tmux(struct lisa_ctx *ctx, const char **argv, struct resume_started *rs,
    char *window, size_t wlen, int *windex)
{
	char	*out = NULL, *f[4], *p, *end;
	int	 n = 0, rc;

	if ((rc = client_tmux(ctx, &out, argv)) != 0 || out == NULL) {
		free(out);
		return (-1);
	}
	for (p = out; n < 4 && p != NULL; n++)
		f[n] = strsep(&p, " ");
	rc = -1;
	if (n == 4 && *f[2] == '%' && strlen(f[2]) < sizeof rs->pane) {
		strlcpy(window, f[0], wlen);
		*windex = (int)strtol(f[1], &end, 10);
		strlcpy(rs->pane, f[2], sizeof rs->pane);
		rs->pid = strtol(f[3], &end, 10);
		rc = 0;
	}
	free(out);
	return (rc);
}

/* A shell, as tmux names a pane's command: a restored pane's own. */
int
resume_is_shell(const char *cmd)
{
	static const char *const shells[] = { "sh", "bash", "zsh", "fish",
	    "dash", "ksh", "mksh", "oksh", "yash", "tcsh", "csh", "nu",
	    "elvish", "xonsh", NULL };
	const char	*shell = getenv("SHELL"), *base;
	int		 i;

	if (*cmd == '-')
		cmd++;		/* a login shell */
	for (i = 0; shells[i] != NULL; i++) {
		if (strcmp(cmd, shells[i]) == 0)
			return (1);
	}
	if (shell != NULL && *shell != '\0') {
		base = strrchr(shell, '/');
		return (strcmp(cmd, base != NULL ? base + 1 : shell) == 0);
	}
	return (0);
}

/*
 * The pane tmux-resurrect restored where RA was (its session, window and
 * pane index, its directory), if it runs a shell and nothing else, that
 * shell with no child: "%N", or NULL. A pane resurrect restored a program
 * into is not touched. Fields are space-separated, the directory last:
 * tmux 3.4 and 3.5 print a control byte as four characters.
 */
static char *
resume_restored_pane(struct lisa_ctx *ctx, struct resume_agent *ra)
{
	const char	*argv[] = { "display-message", "-p", "-t", NULL,
			    "#{pane_id} #{pane_dead} #{pane_pid} "
			    "#{pane_current_command} #{pane_current_path}",
			    NULL };
	char		*target, *out = NULL, *f[5], *p, *end;
	pid_t		 kid;
	long		 pid;
	int		 n = 0;

	if (ra->window_index < 0 || ra->pane_index < 0)
		return (NULL);
	xasprintf(&target, "=%s:%d.%d", ra->session, ra->window_index,
	    ra->pane_index);
	argv[3] = target;
	if (client_tmux(ctx, &out, argv) != 0 || out == NULL) {
		free(target);
		free(out);
		return (NULL);
	}
	free(target);
	/* (the directory, last, may have spaces) */
	for (p = out; n < 4 && p != NULL; n++)
		f[n] = strsep(&p, " ");
	f[n++] = p;
	pid = n == 5 && f[4] != NULL ? strtol(f[2], &end, 10) : 0;
	if (pid > 0 && *end == '\0' && f[0][0] == '%' &&
	    strcmp(f[1], "0") == 0 && resume_is_shell(f[3]) &&
	    strcmp(f[4], ra->cwd) == 0 &&
	    proc_children((pid_t)pid, &kid, 1) == 0) {
		p = xstrdup(f[0]);
		free(out);
		return (p);
	}
	free(out);
	return (NULL);
}

/* Was SESSION made by this run (or, --dry-run, would it have been)? */
static int
resume_made(struct resume_run *run, const char *session)
{
	int	i;

	for (i = 0; i < run->nmade; i++) {
		if (strcmp(run->made[i], session) == 0)
			return (1);
	}
	return (0);
}

/* The agent started, in RS (a new window or session); 0 if it is. */
static int
resume_window(struct lisa_ctx *ctx, struct resume_run *run,
    struct resume_agent *ra, const char *sh, struct resume_started *rs)
{
	const char	*argv[24], *mv[6];
	char		*target, *out = NULL, *wname, *src, idx[32], window[32];
	int		 a = 0, have, rc, windex = -1;

	have = resume_made(run, ra->session);
	if (!have) {
		const char *has[] = { "has-session", "-t", NULL, NULL };

		xasprintf(&target, "=%s", ra->session);
		has[2] = target;
		have = client_tmux(ctx, &out, has) == 0;
		free(out);
		out = NULL;
		free(target);
	}
	snprintf(idx, sizeof idx, "%d", ra->window_index);
	if (have) {
		argv[a++] = "new-window";
		argv[a++] = "-d";
		argv[a++] = "-t";
		/* Its old index if free, else the next. */
		xasprintf(&target, "=%s:%s", ra->session,
		    ra->window_index >= 0 ? idx : "");
	} else {
		argv[a++] = "new-session";
		argv[a++] = "-d";
		argv[a++] = "-s";
		target = ctl_format_str(ra->session);
		run->made = xreallocarray(run->made, run->nmade + 1,
		    sizeof *run->made);
		run->made[run->nmade++] = xstrdup(ra->session);
	}
	argv[a++] = target;
	if (!run->dry_run) {
		argv[a++] = "-P";
		argv[a++] = "-F";
		argv[a++] = "#{window_id} #{window_index} #{pane_id} "
		    "#{pane_pid}";
	}
	argv[a++] = "-n";
	wname = ctl_format_str(ra->window);
	argv[a++] = wname;
	resume_argv(argv, a, ra, sh);
	rc = 0;
	if (run->dry_run)
		resume_print_argv(ctx, argv);
	else if ((rc = resume_tmux(ctx, argv, rs, window, sizeof window,
	    &windex)) != 0 && have && ra->window_index >= 0) {
		free(target);
		xasprintf(&target, "=%s:", ra->session);
		argv[3] = target;
		rc = resume_tmux(ctx, argv, rs, window, sizeof window, &windex);
	}
	/*
	 * A session made anew: its window to the index it had, if free
	 * (--dry-run: the session's one window, "^").
	 */
	if (rc == 0 && !have && ra->window_index >= 0 &&
	    windex != ra->window_index) {
		free(target);
		xasprintf(&target, "=%s:%s", ra->session, idx);
		if (run->dry_run)
			xasprintf(&src, "=%s:^", ra->session);
		else
			src = xstrdup(window);
		mv[0] = "move-window";
		mv[1] = "-s";
		mv[2] = src;
		mv[3] = "-t";
		mv[4] = target;
		mv[5] = NULL;
		if (run->dry_run)
			resume_print_argv(ctx, mv);
		else
			client_tmux(ctx, &out, mv);	/* (taken: as it is) */
		free(out);
		free(src);
	}
	free(target);
	free(wname);
	if (rc != 0)
		fprintf(stderr, "lisa: tmux could not make a window for %s in "
		    "%s\n", ra->agent, ra->session);
	return (rc != 0);
}

/*
 * RA into the pane tmux-resurrect restored in its place (resume
 * --restored), by respawn-pane; else a window as lisa resume makes one.
 */
static int
resume_restored(struct lisa_ctx *ctx, struct resume_run *run,
    struct resume_agent *ra, const char *sh, struct resume_started *rs)
{
	const char	*argv[20], *q[6];
	char		*pane, *out = NULL, *end;
	int		 a = 0, rc;

	if ((pane = resume_restored_pane(ctx, ra)) == NULL) {
		printf("lisa: no pane restored for %s at %s:%d.%d: a new "
		    "window\n", ra->agent, ra->session, ra->window_index,
		    ra->pane_index);
		return (resume_window(ctx, run, ra, sh, rs));
	}
	argv[a++] = "respawn-pane";
	argv[a++] = "-k";
	argv[a++] = "-t";
	argv[a++] = pane;
	resume_argv(argv, a, ra, sh);
	rc = 0;
	if (run->dry_run)
		resume_print_argv(ctx, argv);
	else if ((rc = client_tmux(ctx, &out, argv)) != 0)
		fprintf(stderr, "lisa: tmux could not start %s in %s\n",
		    ra->agent, pane);
	else {
		free(out);
		out = NULL;
		q[0] = "display-message";
		q[1] = "-p";
		q[2] = "-t";
		q[3] = pane;
		q[4] = "#{pane_pid}";
		q[5] = NULL;
		strlcpy(rs->pane, pane, sizeof rs->pane);
		rs->restored = 1;
		if (client_tmux(ctx, &out, q) == 0 && out != NULL)
			rs->pid = strtol(out, &end, 10);
	}
	free(out);
	free(pane);
	return (rc != 0);
}

/* Start RA (--restored: into its restored pane); 0 if it is started. */
static int
resume_start(struct lisa_ctx *ctx, struct resume_run *run,
    struct resume_agent *ra, int restored)
{
	struct resume_started	*rs;
	char			*sh;
	int			 rc;

	if (resume_running(ctx, ra, run->dry_run))
		return (1);
	run->s = xreallocarray(run->s, run->n + 1, sizeof *run->s);
	rs = &run->s[run->n];
	memset(rs, 0, sizeof *rs);
	rs->ra = ra;
	sh = resume_script(ra, &rs->plain);
	if (restored)
		rc = resume_restored(ctx, run, ra, sh, rs);
	else
		rc = resume_window(ctx, run, ra, sh, rs);
	free(sh);
	if (rc == 0 && !run->dry_run)
		run->n++;
	return (rc);
}

/* lisa resume --host HOST ...: the same, run there by its bridge. */
static int
resume_on_host(struct lisa_ctx *ctx, struct args *a)
{
	char	*target, *args[8];
	int	 n = 0, j, rc;

	if (a->all)
		args[n++] = (char *)"--all";
	if (a->restored)
		args[n++] = (char *)"--restored";
	if (a->dry_run)
		args[n++] = (char *)"--dry-run";
	for (j = 1; j < a->argc && n < 6; j++)
		args[n++] = a->argv[j];
	if (j < a->argc) {
		fprintf(stderr, "lisa: at most %d agents at a time on a host\n",
		    n);
		return (1);
	}
	xasprintf(&target, "@%s", a->host);
	rc = cmd_remote(ctx, "resume", target, args, n);
	free(target);
	return (rc);
}

int
cmd_resume(struct lisa_ctx *ctx, struct args *a)
{
	struct resume_list	*l;
	struct resume_run	 run;
	int			 i, j, rc = 0, pick;

	if (a->host != NULL)
		return (resume_on_host(ctx, a));
	if ((l = resume_list_read(ctx, 0)) == NULL)
		return (1);
	memset(&run, 0, sizeof run);
	run.dry_run = a->dry_run;
	if (!a->all && !a->restored && a->argc < 2)
		resume_print(l);
	else if (a->all || a->restored) {
		for (i = 0; i < l->n; i++)
			rc |= resume_start(ctx, &run, &l->a[i], a->restored);
	} else {
		for (j = 1; j < a->argc; j++) {
			pick = resume_pick(l, a->argv[j]);
			if (pick < 1 || pick > l->n) {
				fprintf(stderr, "lisa: no agent %s to resume "
				    "(lisa resume lists them)\n", a->argv[j]);
				rc = 1;
				continue;
			}
			rc |= resume_start(ctx, &run, &l->a[pick - 1], 0);
		}
	}
	/* Each record goes once its agent is seen back (cmd-resume-check.c). */
	if (run.n > 0)
		rc |= resume_check(ctx, run.s, run.n);
	free(run.s);
	for (i = 0; i < run.nmade; i++)
		free(run.made[i]);
	free(run.made);
	/* (a record skipped was said; the rest are resumed: exit 0) */
	resume_list_free(l);
	return (rc);
}
