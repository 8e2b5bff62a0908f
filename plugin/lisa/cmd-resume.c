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

#define RESUME_MAX_FILE		(1024 * 1024)
#define RESUME_MAX_AGENTS	1024
#define RESUME_KEEP_MS		(7LL * 24 * 3600 * 1000)	/* a week */
#define RESUME_VERSION		1

/* A bad record, said (not in a menu: the pane would show it). */
#define resume_bad(l, ...) do {						\
	if (!(l)->quiet)						\
		fprintf(stderr, __VA_ARGS__);				\
	(l)->bad++;							\
} while (0)

struct resume_agent {
	char			*file;		/* its record's */
	char			*line;		/* as written: to remove it */
	char			*agent;
	char			*id;		/* NULL: none known */
	char			*cwd;
	char			*model;		/* NULL: not known */
	char			*session;
	char			*window;
	char			*cwd_format;	/* cwd, as tmux's -c takes it */
	int			 window_index;
	int			 pane_index;
	long long		 saved;
};

struct resume_list {
	struct resume_agent	 a[RESUME_MAX_AGENTS];
	int			 n;
	int			 bad;		/* records skipped */
	int			 quiet;		/* a menu's: said nowhere */
};

static void
resume_agent_free(struct resume_agent *ra)
{
	free(ra->file);
	free(ra->line);
	free(ra->agent);
	free(ra->id);
	free(ra->cwd);
	free(ra->cwd_format);
	free(ra->model);
	free(ra->session);
	free(ra->window);
}

/* One agent's line of FILE; a bad one is said and skipped. */
static void
resume_parse_agent(struct resume_list *l, const char *file, const char *line,
    size_t len, long long saved)
{
	struct resume_agent	*ra;
	struct json_doc		*d;
	struct stat		 st;
	char			*cause = NULL;
	long long		 wi = 0, pi = -1;

	if ((d = json_parse(line, len, &cause)) == NULL) {
		resume_bad(l, "lisa: %s: a record is not JSON (%s): "
		    "skipped\n", file, cause);
		free(cause);
		return;
	}
	ra = &l->a[l->n];
	memset(ra, 0, sizeof *ra);
	ra->agent = json_get_str(d, 0, "agent");
	ra->id = json_get_str(d, 0, "id");
	ra->cwd = json_get_str(d, 0, "cwd");
	ra->model = json_get_str(d, 0, "model");
	/* (printed: a name, never a terminal's escape) */
	if (ra->model != NULL && !agent_model_ok(ra->model)) {
		free(ra->model);
		ra->model = NULL;
	}
	ra->session = json_get_str(d, 0, "session");
	ra->window = json_get_str(d, 0, "window");
	json_get_int(d, 0, "window_index", &wi);
	ra->window_index = wi >= 0 && wi < 100000 ? (int)wi : -1;
	json_get_int(d, 0, "pane_index", &pi);
	ra->pane_index = pi >= 0 && pi < 100000 ? (int)pi : -1;
	json_free(d);
	ra->file = xstrdup(file);
	ra->line = xstrndup(line, len);
	ra->saved = saved;
	if (ra->agent == NULL || ra->session == NULL || ra->window == NULL ||
	    agent_by_name(ra->agent) == NULL) {
		resume_bad(l, "lisa: %s: a record of no known agent: "
		    "skipped\n", file);
	} else if (ra->cwd == NULL || stat(ra->cwd, &st) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		resume_bad(l, "lisa: %s: %s's directory %s is gone: "
		    "skipped\n", file, ra->agent, ra->cwd != NULL ? ra->cwd :
		    "(none)");
	} else if (ra->id != NULL && !agent_id_ok(ra->id)) {
		resume_bad(l, "lisa: %s: %s's id is not one: skipped\n",
		    file, ra->agent);
	} else {
		l->n++;
		return;
	}
	resume_agent_free(ra);
}

/*
 * Whether the server SERVER ("pid-start") still runs at SOCKET: another
 * tmux of this user (tmux -L work) is alive, not ended, and its agents
 * are not to resume. Never starts one (client_tmux passes -N).
 */
static int
resume_server_alive(struct lisa_ctx *ctx, const char *socket,
    const char *server)
{
	struct lisa_ctx	 other = *ctx;
	int		 alive;

	other.sid.socket = (char *)socket;
	other.instance = NULL;
	alive = strcmp(client_instance(&other), server) == 0;
	free(other.instance);
	return (alive);
}

/* A record file: its header, then its agents. */
static void
resume_parse_file(struct lisa_ctx *ctx, struct resume_list *l,
    const char *path, const char *now)
{
	struct json_doc	*d;
	const char	*line, *nl, *end;
	char		*data, *cause = NULL, *server = NULL, *socket;
	size_t		 len;
	long long	 v = 0, saved = 0;

	if (runtime_read_file(path, RESUME_MAX_FILE, &data, &len) != 0)
		return;
	end = data + len;
	nl = memchr(data, '\n', len);
	if (nl == NULL || (d = json_parse(data, (size_t)(nl - data),
	    &cause)) == NULL) {
		resume_bad(l, "lisa: %s: cut short or not lisa's: "
		    "skipped\n", path);
		free(cause);
		free(data);
		return;
	}
	json_get_int(d, 0, "v", &v);
	json_get_int(d, 0, "saved", &saved);
	server = json_get_str(d, 0, "server");
	socket = json_get_str(d, 0, "socket");
	json_free(d);
	if (v != RESUME_VERSION) {
		resume_bad(l, "lisa: %s: written by %s lisa (version %lld): "
		    "skipped\n", path, v > RESUME_VERSION ? "a newer" :
		    "another", v);
	} else if (server != NULL && strcmp(server, now) == 0)
		;	/* this server's: its agents run */
	else if (server != NULL && socket != NULL && *socket == '/' &&
	    resume_server_alive(ctx, socket, server))
		;	/* another tmux of ours, running */
	else if (saved <= 0 || time_real_ms() - saved > RESUME_KEEP_MS) {
		/* A week old: no longer offered, and gone. */
		unlink(path);
	} else {
		for (line = nl + 1; line < end && l->n < RESUME_MAX_AGENTS;
		    line = nl + 1) {
			if ((nl = memchr(line, '\n', (size_t)(end - line))) ==
			    NULL)
				nl = end;
			if (nl > line)
				resume_parse_agent(l, path, line,
				    (size_t)(nl - line), saved);
		}
	}
	free(server);
	free(socket);
	free(data);
}

static int
resume_load(struct lisa_ctx *ctx, struct resume_list *l)
{
	DIR		*dir;
	struct dirent	*de;
	char		*path, *cause = NULL, *f;
	size_t		 n;

	if (runtime_state_dir("agents", &path, &cause) != 0) {
		if (!l->quiet)
			fprintf(stderr, "lisa: %s\n", cause);
		free(cause);
		return (-1);
	}
	if ((dir = opendir(path)) == NULL) {
		free(path);
		return (0);
	}
	while ((de = readdir(dir)) != NULL) {
		n = strlen(de->d_name);
		if (n < 8 || strcmp(de->d_name + n - 7, ".agents") != 0)
			continue;
		xasprintf(&f, "%s/%s", path, de->d_name);
		resume_parse_file(ctx, l, f, client_instance(ctx));
		free(f);
	}
	closedir(dir);
	free(path);
	return (0);
}

/* The agent's command: its own resume for ID, else its plain one. */
static const char *
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
static void
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

static int	resume_one(struct lisa_ctx *, struct resume_agent *, int);

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
 * ARGV's end from A: in RA's directory, its resume command, then the
 * user's shell there (*sh, the script, is the caller's to free; the id
 * is its $1, never parsed by a shell). The new A.
 */
static int
resume_argv(const char **argv, int a, struct resume_agent *ra, char **sh,
    int *plain)
{
	xasprintf(sh, "%s; exec \"${SHELL:-/bin/sh}\"",
	    resume_command(ra, plain));
	/* (a format to tmux: the directory is text, never #(...)) */
	free(ra->cwd_format);
	ra->cwd_format = ctl_format_str(ra->cwd);
	argv[a++] = "-c";
	argv[a++] = ra->cwd_format;
	argv[a++] = "--";
	argv[a++] = "/bin/sh";
	argv[a++] = "-c";
	argv[a++] = *sh;
	argv[a++] = "sh";
	argv[a++] = ra->id != NULL ? ra->id : "";
	argv[a] = NULL;
	return (a);
}

/* --dry-run: the tmux command, as it would run. */
static void
resume_print_argv(const char *const *argv)
{
	int	a;

	printf("tmux");
	for (a = 0; argv[a] != NULL; a++)
		printf(" %s", argv[a]);
	printf("\n");
}

/* A shell, as tmux names a pane's command: a restored pane's own. */
static int
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

/*
 * lisa resume --restored (tmux-resurrect's post-restore-all hook): each
 * agent into the pane resurrect restored in its place, by respawn-pane
 * (the shell resurrect started there has nothing of the user's yet);
 * where there is no such pane, a window as lisa resume makes one.
 */
static int
resume_restored(struct lisa_ctx *ctx, struct resume_agent *ra, int dry_run)
{
	const char	*argv[16];
	char		*pane, *sh, *out = NULL;
	int		 plain, a = 0, rc;

	if ((pane = resume_restored_pane(ctx, ra)) == NULL) {
		printf("lisa: no pane restored for %s at %s:%d.%d: a new "
		    "window\n", ra->agent, ra->session, ra->window_index,
		    ra->pane_index);
		return (resume_one(ctx, ra, dry_run));
	}
	if (resume_running(ctx, ra, dry_run)) {
		free(pane);
		return (1);
	}
	argv[a++] = "respawn-pane";
	argv[a++] = "-k";
	argv[a++] = "-t";
	argv[a++] = pane;
	resume_argv(argv, a, ra, &sh, &plain);
	if (dry_run) {
		resume_print_argv(argv);
		rc = 0;
	} else if ((rc = client_tmux(ctx, &out, argv)) != 0)
		fprintf(stderr, "lisa: tmux could not start %s in %s\n",
		    ra->agent, pane);
	else {
		printf("lisa: resumed %s in its restored pane %s (%s:%d.%d)"
		    "%s%s\n", ra->agent, pane, ra->session, ra->window_index,
		    ra->pane_index, plain ? ": its plain command, a new "
		    "conversation" : ", conversation ", plain ? "" : ra->id);
		resume_forget(ra);
	}
	free(out);
	free(sh);
	free(pane);
	return (rc != 0);
}

/* Bring RA back; 0 if it is. */
static int
resume_one(struct lisa_ctx *ctx, struct resume_agent *ra, int dry_run)
{
	const char	*argv[20];
	char		*sh, *target, *out = NULL, idx[32], *wname;
	int		 plain, a = 0, have, rc;

	if (resume_running(ctx, ra, dry_run))
		return (1);
	{
		const char *has[] = { "has-session", "-t", NULL, NULL };

		xasprintf(&target, "=%s", ra->session);
		has[2] = target;
		have = client_tmux(ctx, &out, has) == 0;
		free(out);
		out = NULL;
	}
	if (have) {
		argv[a++] = "new-window";
		argv[a++] = "-d";
		argv[a++] = "-t";
		snprintf(idx, sizeof idx, "%d", ra->window_index);
		free(target);
		/* Its old index if free, else the next. */
		xasprintf(&target, "=%s:%s", ra->session, ra->window_index >= 0 ?
		    idx : "");
	} else {
		argv[a++] = "new-session";
		argv[a++] = "-d";
		argv[a++] = "-s";
		free(target);
		target = ctl_format_str(ra->session);
	}
	argv[a++] = target;
	argv[a++] = "-n";
	wname = ctl_format_str(ra->window);
	argv[a++] = wname;
	resume_argv(argv, a, ra, &sh, &plain);
	if (dry_run) {
		resume_print_argv(argv);
		free(sh);
		free(target);
		free(wname);
		return (0);
	}
	rc = client_tmux(ctx, &out, argv);
	if (rc != 0 && have && ra->window_index >= 0) {
		free(out);
		out = NULL;
		free(target);
		xasprintf(&target, "=%s:", ra->session);
		argv[3] = target;
		rc = client_tmux(ctx, &out, argv);
	}
	free(out);
	if (rc != 0) {
		fprintf(stderr, "lisa: tmux could not make a window for %s in "
		    "%s\n", ra->agent, ra->session);
		free(sh);
		free(target);
		free(wname);
		return (1);
	}
	printf("lisa: resumed %s in %s:%s (%s)%s%s\n", ra->agent, ra->session,
	    ra->window, ra->cwd, plain ? ": its plain command, a new "
	    "conversation" : ", conversation ", plain ? "" : ra->id);
	resume_forget(ra);
	free(sh);
	free(target);
	free(wname);
	return (0);
}

static void
resume_print(struct resume_list *l)
{
	struct resume_agent	*ra;
	char			 when[32];
	int			 i, plain;

	if (l->n == 0) {
		printf("nothing to resume\n");
		return;
	}
	printf("%-3s %-9s %-24s %-36s %s\n", "N", "AGENT", "WHERE",
	    "CONVERSATION", "DIRECTORY");
	for (i = 0; i < l->n; i++) {
		ra = &l->a[i];
		resume_command(ra, &plain);
		snprintf(when, sizeof when, "%s:%s", ra->session, ra->window);
		printf("%-3d %-9s %-24s %-36s %s%s%s%s\n", i + 1, ra->agent,
		    when, plain ? "(none: its plain command)" : ra->id, ra->cwd,
		    ra->model != NULL ? " (" : "", ra->model != NULL ?
		    ra->model : "", ra->model != NULL ? ")" : "");
	}
	printf("lisa resume --all, or lisa resume N ...\n");
}

/* N (as listed) or a conversation's id: its place in L from 1; else 0. */
static int
resume_pick(struct resume_list *l, const char *arg)
{
	int	i;

	if (strspn(arg, "0123456789") == strlen(arg))
		return (atoi(arg));
	for (i = 0; i < l->n; i++) {
		if (l->a[i].id != NULL && strcmp(l->a[i].id, arg) == 0)
			return (i + 1);
	}
	return (0);
}

static void
resume_list_free(struct resume_list *l)
{
	int	i;

	for (i = 0; i < l->n; i++)
		resume_agent_free(&l->a[i]);
	free(l);
}

/*
 * The agents to resume (their profiles, agents.json's if it loads), read;
 * QUIET for a menu, where nothing is said of bad records. NULL if the
 * state directory cannot be had.
 */
static struct resume_list *
resume_list_read(struct lisa_ctx *ctx, int quiet)
{
	struct resume_list	*l = xcalloc(1, sizeof *l);
	char			*path, *cause = NULL;

	path = agent_config_path();
	if (agent_load(path, &cause) != 0) {
		if (!quiet)
			fprintf(stderr, "lisa: %s (built-in profiles in use)\n",
			    cause);
		free(cause);
	}
	free(path);
	l->quiet = quiet;
	if (resume_load(ctx, l) != 0) {
		free(l);
		return (NULL);
	}
	return (l);
}

/* The agents to resume, for a menu (nothing said of bad records). */
static struct resume_list *
resume_menu_list(struct lisa_ctx *ctx)
{
	struct resume_list	*l;

	if ((l = resume_list_read(ctx, 1)) == NULL)
		l = xcalloc(1, sizeof *l);
	return (l);
}

/* prefix a: "Resume N agents of an ended tmux...", when there are some. */
void
resume_menu_items(struct lisa_ctx *ctx, const char *client,
    struct menu_args *ma)
{
	struct resume_list	*l = resume_menu_list(ctx);
	char			 name[96], *sh, *rs;

	if (l->n > 0) {
		snprintf(name, sizeof name, "Resume %d agent%s of an ended "
		    "tmux\xe2\x80\xa6", l->n, l->n == 1 ? "" : "s");
		sh = menu_self(ctx, "key resume", client);
		rs = menu_run_shell(sh);
		menu_item(ma, name, "R", rs);
		free(sh);
		free(rs);
	}
	resume_list_free(l);
}

/*
 * lisa key resume CLIENT [ID|#N|all]: without one, a menu of the agents to
 * resume (each by its conversation's id, which stays its own when others
 * are resumed first); with one, resumed, and what lisa said on the
 * client's message line.
 */
int
cmd_key_resume(struct lisa_ctx *ctx, const char *client, const char *arg)
{
	struct resume_list	*l;
	struct resume_agent	*ra;
	struct menu_args	 ma = { NULL, 0 };
	struct buf		 b, line;
	const char		*argv[4];
	char			 out[512], pick[80], *sh, *rs, key[2] = { 0, 0 };
	const char		*dir;
	int			 i, plain;

	if (arg != NULL) {
		argv[0] = "resume";
		argv[1] = strcmp(arg, "all") == 0 ? "--all" : arg[0] == '#' ?
		    arg + 1 : arg;
		argv[2] = NULL;
		menu_run_lisa(ctx, argv, out, sizeof out);
		buf_init(&b);
		menu_text(&b, *out != '\0' ? out : "lisa: done");
		return (menu_message(ctx, client, b.data));
	}
	l = resume_menu_list(ctx);
	if (l->n == 0) {
		resume_list_free(l);
		return (menu_message(ctx, client, "lisa: nothing to resume"));
	}
	menu_start(&ma, client, " lisa: resume ");
	buf_init(&b);
	buf_init(&line);
	for (i = 0; i < l->n && i < 9; i++) {
		ra = &l->a[i];
		resume_command(ra, &plain);
		/* The directory's end: what tells one project from another. */
		dir = ra->cwd;
		if (strlen(dir) > 32)
			dir += strlen(dir) - 31;
		buf_reset(&line);
		buf_printf(&line, "%s  %s:%s  %s%s%s", ra->agent, ra->session,
		    ra->window, dir != ra->cwd ? "\xe2\x80\xa6" : "", dir,
		    plain ? "  (a new conversation)" : "");
		buf_reset(&b);
		menu_text(&b, line.data);
		if (ra->id != NULL)
			strlcpy(pick, ra->id, sizeof pick);
		else
			snprintf(pick, sizeof pick, "#%d", i + 1);
		sh = menu_self2(ctx, "key resume", client, pick);
		rs = menu_run_shell(sh);
		key[0] = (char)('1' + i);
		menu_item(&ma, b.data, key, rs);
		free(sh);
		free(rs);
	}
	if (l->n > 9) {
		buf_reset(&b);
		buf_printf(&b, "-  ... %d more: lisa resume", l->n - 9);
		menu_item(&ma, b.data, "", "");
	}
	menu_add(&ma, xstrdup(""));
	sh = menu_self2(ctx, "key resume", client, "all");
	rs = menu_run_shell(sh);
	menu_item(&ma, "All of them", "a", rs);
	free(sh);
	free(rs);
	buf_free(&b);
	buf_free(&line);
	resume_list_free(l);
	return (menu_exec(ctx, ma.argv, ma.argc));
}

/* How many agents there are to resume here (the bridge tells its peer). */
int
resume_count(struct lisa_ctx *ctx)
{
	struct resume_list	*l = resume_menu_list(ctx);
	int			 n = l->n;

	resume_list_free(l);
	return (n);
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
	int			 i, j, rc = 0, pick;

	if (a->host != NULL)
		return (resume_on_host(ctx, a));
	if ((l = resume_list_read(ctx, 0)) == NULL)
		return (1);
	if (!a->all && !a->restored && a->argc < 2)
		resume_print(l);
	else if (a->restored) {
		for (i = 0; i < l->n; i++)
			rc |= resume_restored(ctx, &l->a[i], a->dry_run);
	} else if (a->all) {
		for (i = 0; i < l->n; i++)
			rc |= resume_one(ctx, &l->a[i], a->dry_run);
	} else {
		for (j = 1; j < a->argc; j++) {
			pick = resume_pick(l, a->argv[j]);
			if (pick < 1 || pick > l->n) {
				fprintf(stderr, "lisa: no agent %s to resume "
				    "(lisa resume lists them)\n", a->argv[j]);
				rc = 1;
				continue;
			}
			rc |= resume_one(ctx, &l->a[pick - 1], a->dry_run);
		}
	}
	/* (a record skipped was said; the rest are resumed: exit 0) */
	resume_list_free(l);
	return (rc);
}
