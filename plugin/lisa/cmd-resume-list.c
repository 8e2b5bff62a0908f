/*
 * lisa resume's list: the record files of the helpers of ended tmux
 * servers (plugin/lisad/resume-record.c writes them), read and checked,
 * printed, and offered in lisa's menu.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisa.h"
#include "cmd-resume.h"

void
resume_agent_free(struct resume_agent *ra)
{
	free(ra->file);
	free(ra->line);
	free(ra->agent);
	free(ra->id);
	free(ra->cwd);
	free(ra->cwd_format);
	free(ra->model);
	free(ra->exe);
	free(ra->session);
	free(ra->window);
}

static int
resume_unprintable(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return (1);
	}
	return (0);
}

/* "default", or the -L name of SOCKET; "?" if it cannot be told. */
static void
resume_server_name(const char *socket, char *out, size_t len)
{
	const char	*base;

	if (socket == NULL || resume_unprintable(socket)) {
		strlcpy(out, "?", len);
		return;
	}
	base = strrchr(socket, '/');
	strlcpy(out, base != NULL ? base + 1 : socket, len);
}

/* When RA's server ended (its file was last written), local time. */
void
resume_ended_at(struct resume_agent *ra, const char *fmt, char *out,
    size_t len)
{
	time_t		 t = (time_t)(ra->saved / 1000);
	struct tm	 tm;

	if (localtime_r(&t, &tm) == NULL || strftime(out, len, fmt, &tm) == 0)
		strlcpy(out, "?", len);
}

/* One agent's line of FILE; a bad one is said and skipped. */
static void
resume_parse_agent(struct resume_list *l, const char *file, const char *line,
    size_t len, long long saved, const char *socket)
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
	/* The program it ran: a path, of printable bytes, or none. */
	ra->exe = json_get_str(d, 0, "exe");
	if (ra->exe != NULL && (*ra->exe != '/' || strlen(ra->exe) > 4000 ||
	    resume_unprintable(ra->exe))) {
		free(ra->exe);
		ra->exe = NULL;
	}
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
	/* Its server: the socket's name (tmux -L NAME), printable. */
	resume_server_name(socket, ra->server, sizeof ra->server);
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
 * Does the process of INSTANCE ("PID-START": a tmux server's #{pid} and
 * #{start_time}) still run, as the process that started then (not
 * another given its pid since)? -1 if the system cannot tell.
 */
static int
resume_instance_runs(const char *instance)
{
	struct proc_node	 n;
	char			*end;
	long long		 pid, start, age;

	/*
	 * Linux's /proc only: the generic backend's ps gives no zombie's
	 * state and whole seconds (a server ended a moment before was taken
	 * for running, and its agents not offered).
	 */
	if (strcmp(osdep_name, "linux") != 0)
		return (-1);
	pid = strtoll(instance, &end, 10);
	if (pid <= 1 || pid > INT_MAX || *end != '-')
		return (-1);
	start = strtoll(end + 1, &end, 10);
	if (start <= 0 || *end != '\0')
		return (-1);
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return (0);
	if (proc_read((pid_t)pid, &n) != 0)
		return (-1);
	if (n.state == 'Z')
		return (0);	/* (its parent, often pid 1, has not reaped it) */
	age = (long long)proc_boot_ms() - (long long)proc_start_ms(&n);
	if (age < 0)
		return (-1);
	/* (#{start_time} is whole seconds; clocks set since may move it) */
	return (llabs((time_real_ms() - age) / 1000 - start) <= 2);
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

	/* From the system first: a tmux client per server made prefix a slow. */
	if ((alive = resume_instance_runs(server)) != -1)
		return (alive);
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
				    (size_t)(nl - line), saved, socket);
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

void
resume_print(struct resume_list *l)
{
	struct resume_agent	*ra;
	char			 when[32], ended[32];
	int			 i, j, plain;

	if (l->n == 0) {
		printf("nothing to resume\n");
		return;
	}
	printf("%-3s %-9s %-24s %-36s %s\n", "N", "AGENT", "WHERE",
	    "CONVERSATION", "DIRECTORY");
	for (i = 0; i < l->n; i++) {
		ra = &l->a[i];
		/* Each server's agents together, under what it was. */
		if (i == 0 || strcmp(ra->file, l->a[i - 1].file) != 0) {
			for (j = i; j < l->n && strcmp(l->a[j].file,
			    ra->file) == 0; j++)
				;
			resume_ended_at(ra, "%Y-%m-%d %H:%M", ended,
			    sizeof ended);
			printf("# tmux %s%s, ended %s: %d agent%s\n",
			    strcmp(ra->server, "default") == 0 ? "" : "-L ",
			    strcmp(ra->server, "default") == 0 ? "(default)" :
			    ra->server, ended, j - i, j - i == 1 ? "" : "s");
		}
		resume_command(ra, &plain);
		snprintf(when, sizeof when, "%s:%s", ra->session, ra->window);
		printf("%-3d ", i + 1);
		utf8_column(stdout, ra->agent, 9);
		putchar(' ');
		utf8_column(stdout, when, 24);
		putchar(' ');
		utf8_column(stdout, plain ? "(none: its plain command)" :
		    ra->id, 36);
		printf(" %s%s%s%s\n", ra->cwd,
		    ra->model != NULL ? " (" : "", ra->model != NULL ?
		    ra->model : "", ra->model != NULL ? ")" : "");
	}
	printf("lisa resume --all, or lisa resume N ...\n");
}

/* N (as listed) or a conversation's id: its place in L from 1; else 0. */
int
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

void
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
struct resume_list *
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
	char			 ended[16];
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
		resume_ended_at(ra, "%H:%M", ended, sizeof ended);
		buf_printf(&line, "%s  %s:%s  %s%s%s  [%s %s]", ra->agent,
		    ra->session, ra->window, dir != ra->cwd ? "\xe2\x80\xa6" :
		    "", dir, plain ? "  (a new conversation)" : "", ra->server,
		    ended);
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
