/*
 * lisa: the command line. Talks to the helper of a tmux server over its
 * socket; like tmux, -L/-S pick the server, else $TMUX, else the default.
 */
#include <sys/wait.h>

#include <errno.h>
#include <libgen.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisa.h"

static __attribute__((noreturn)) void
usage(int code)
{
	lisa_cmd_usage_all(code == 0 ? stdout : stderr);
	exit(code);
}

/* "lisa: " and the message, on stderr. */
static void
say(const char *fmt, va_list ap)
{
	fprintf(stderr, "lisa: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
}

static void
die(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	exit(1);
}

static char *
sibling(const char *name)
{
	char	 self[4096], *path;

	if (osdep_self_exe(self, sizeof self) != 0)
		return (xstrdup(name));
	xasprintf(&path, "%s/%s", dirname(self), name);
	return (path);
}

static int
helper_pid(struct lisa_ctx *ctx, long long *pid)
{
	struct json_doc	*d;
	char		*cause = NULL;

	if (client_call(ctx, "{\"cmd\":\"ping\"}\n", &d, &cause) != 0) {
		free(cause);
		return (-1);
	}
	json_get_int(d, 0, "pid", pid);
	json_free(d);
	return (0);
}

static int
cmd_start(struct lisa_ctx *ctx, struct args *a)
{
	char		*lisad = sibling("lisad"), *cause = NULL;
	struct json_doc	*d;
	long long	 pid = 0;
	pid_t		 child;
	int		 status, i;

	if (helper_pid(ctx, &pid) == 0) {
		/*
		 * Loaded again (prefix + I, a config reload): the user's
		 * formats may be back to their placeholders; apply again.
		 */
		if (client_call(ctx, "{\"cmd\":\"reload\"}\n", &d,
		    &cause) == 0)
			json_free(d);
		free(cause);
		printf("lisa: helper already running (pid %lld), "
		    "reloaded\n", pid);
		return (0);
	}
	if ((child = fork()) == -1)
		die("fork: %s", strerror(errno));
	if (child == 0) {
		/*
		 * Its path as argv[0]: where the system cannot say which
		 * file a process runs (osdep-generic), the helper finds
		 * itself, and the lisa its hooks run, from it.
		 */
		execl(lisad, lisad, "-S", ctx->sid.socket,
		    a->verbose ? "-v" : (char *)NULL, (char *)NULL);
		fprintf(stderr, "lisa: cannot run %s: %s\n", lisad,
		    strerror(errno));
		_exit(127);
	}
	if (waitpid(child, &status, 0) == -1 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return (1);	/* lisad said why */
	for (i = 0; i < 500; i++) {
		if (helper_pid(ctx, &pid) == 0) {
			printf("lisa: helper started (pid %lld)\n", pid);
			return (0);
		}
		usleep(10000);
	}
	die("helper did not come up");
	return (1);
}

static int
cmd_stop(struct lisa_ctx *ctx)
{
	struct json_doc	*d;
	char		*cause = NULL;
	long long	 pid = 0;
	int		 i;

	if (helper_pid(ctx, &pid) != 0) {
		stop_leftovers(ctx);
		printf("lisa: helper not running\n");
		return (0);
	}
	if (client_call(ctx, "{\"cmd\":\"stop\"}\n", &d, &cause) != 0)
		die("%s", cause);
	json_free(d);
	for (i = 0; i < 500 && kill((pid_t)pid, 0) == 0; i++)
		usleep(10000);
	printf("lisa: helper stopped\n");
	return (0);
}

static const char *
jstr(struct json_doc *d, int obj, const char *key, char **store)
{
	free(*store);
	*store = json_get_str(d, obj, key);
	return (*store != NULL ? *store : "");
}

/*
 * A command on a remote pane (%N@HOST): the same words, run there. Only
 * what the bridge allows (cmd-bridge.c); the flags go along.
 */
static int
cmd_remote_args(struct lisa_ctx *ctx, const char *cmd, struct args *a)
{
	char	*args[8];
	int	 n = 0;

	if (strcmp(cmd, "status") != 0 && strcmp(cmd, "explain") != 0 &&
	    strcmp(cmd, "nudge") != 0 && strcmp(cmd, "kill") != 0 &&
	    strcmp(cmd, "retry") != 0 && strcmp(cmd, "dismiss") != 0 &&
	    strcmp(cmd, "answer") != 0)
		die("%s: not for a remote pane (status, explain, nudge, "
		    "answer, kill, retry and dismiss are)", cmd);
	if (a->argc > 2)
		args[n++] = a->argv[2];		/* nudge's TEXT, answer's */
	if (a->reply != NULL) {
		args[n++] = (char *)"--reply";
		args[n++] = (char *)a->reply;
	}
	/* Checked on the host, against what it shows. */
	if (a->expect != NULL) {
		args[n++] = (char *)"--expect";
		args[n++] = (char *)a->expect;
	}
	if (a->json)
		args[n++] = (char *)"--json";
	if (a->force)
		args[n++] = (char *)"--force";
	if (a->fallback)
		args[n++] = (char *)"--fallback";
	return (cmd_remote(ctx, cmd, a->argv[1], args, n));
}

/* A table's column and the gap after it (utf8_column). */
static void
list_column(const char *s, size_t width)
{
	utf8_column(stdout, s, width);
	putchar(' ');
}

static int
cmd_list(struct lisa_ctx *ctx, struct args *a)
{
	struct json_doc	*d;
	char		*cause = NULL, *s1 = NULL, *s2 = NULL, *s3 = NULL;
	char		*s4 = NULL, *s5 = NULL, age[16];
	const char	*seen;
	int		 panes, i, n, item, dead, cur;
	long long	 pid, st, sig;

	if (client_call(ctx, "{\"cmd\":\"list\"}\n", &d, &cause) != 0)
		die("%s", cause);
	panes = json_get(d, 0, "panes");
	if (a->json) {
		/* Re-emit the array exactly as the helper wrote it. */
		json_dump(d, panes, stdout);
		printf("\n");
		json_free(d);
		return (0);
	}
	n = json_array_size(d, panes);
	printf("%-16s %-6s %-8s %-12s %-8s %-30s %s\n", "TARGET", "PANE", "PID",
	    "COMMAND", "AGENT", "STATE", "TITLE");
	for (i = 0; i < n; i++) {
		char		state[64], *ag = NULL, *as = NULL, *ad = NULL;
		char		pidtext[24];
		enum cls_state	cs;

		item = json_array_item(d, panes, i);
		pid = st = sig = -1;
		dead = 0;
		json_get_int(d, item, "pane_pid", &pid);
		json_get_bool(d, item, "dead", &dead);
		ag = json_get_str(d, item, "agent");
		as = json_get_str(d, item, "state");
		ad = json_get_str(d, item, "detail");
		/* In the words the status line and borders use. */
		if (as != NULL && (cs = cls_state_from_name(as)) !=
		    ST_NSTATES && *ui_state_word(cs) != '\0') {
			free(as);
			as = xstrdup(ui_verdict_word(cs, ad));
		}
		/* A host not connected now: what we last saw of it. */
		if (as != NULL && json_get_bool(d, item, "current", &cur) ==
		    0 && !cur) {
			seen = jstr(d, item, "last_seen", &s5);
			menu_age(rfc3339_ms(seen) > 0 ? time_real_ms() -
			    rfc3339_ms(seen) : -1, age, sizeof age);
			snprintf(state, sizeof state, "last seen %s ago: %s",
			    *age != '\0' ? age : "?", as);
		} else if (as != NULL)
			snprintf(state, sizeof state, "%s%s%s%s", as,
			    ad != NULL && *ad != '\0' ? " (" : "",
			    ad != NULL ? ad : "", ad != NULL && *ad != '\0' ?
			    ")" : "");
		else if (!dead)
			snprintf(state, sizeof state, "alive");
		else if (json_get_int(d, item, "exit_signal", &sig) == 0)
			snprintf(state, sizeof state, "signal %lld", sig);
		else if (json_get_int(d, item, "exit_status", &st) == 0)
			snprintf(state, sizeof state, "exit %lld", st);
		else
			snprintf(state, sizeof state, "dead");
		/* (a remote pane's pid is its host's business: "-") */
		snprintf(pidtext, sizeof pidtext, "%lld", pid);
		/* (names by the columns they take: 日本 is four) */
		list_column(jstr(d, item, "target", &s1), 16);
		list_column(jstr(d, item, "pane_id", &s2), 6);
		list_column(pid > 0 ? pidtext : "-", 8);
		list_column(jstr(d, item, "command", &s3), 12);
		list_column(ag != NULL ? ag : "-", 8);
		list_column(state, 30);
		printf("%s\n", jstr(d, item, "title", &s4));
		free(ag);
		free(as);
		free(ad);
	}
	free(s1);
	free(s2);
	free(s3);
	free(s4);
	free(s5);
	json_free(d);
	return (0);
}

/*
 * lisa shell-init SHELL: semantic prompt marks (OSC 133) for a shell's rc
 * file. With them lisa knows the exit code of an agent that ran under the
 * shell (D;N after it returns), which the shell otherwise keeps to itself.
 */
static int
cmd_shell_init(const char *shell)
{
	if (shell == NULL)
		die("usage: lisa shell-init bash|zsh|fish");
	if (strcmp(shell, "bash") == 0) {
		printf("# lisa: OSC 133 prompt marks (eval \"$(lisa shell-init "
		    "bash)\" in ~/.bashrc)\n"
		    "__lisa_osc133_precmd() { local s=$?; printf "
		    "'\\033]133;D;%%s\\007\\033]133;A\\007' \"$s\"; "
		    "return $s; }\n"
		    "case \";$PROMPT_COMMAND;\" in *\";__lisa_osc133_precmd;\"*) "
		    ";; *) PROMPT_COMMAND=\"__lisa_osc133_precmd${PROMPT_COMMAND:+;"
		    "$PROMPT_COMMAND}\" ;; esac\n"
		    "PS0=$'\\e]133;C\\a'\"${PS0#$'\\e]133;C\\a'}\"\n");
	} else if (strcmp(shell, "zsh") == 0) {
		printf("# lisa: OSC 133 prompt marks (eval \"$(lisa shell-init "
		    "zsh)\" in ~/.zshrc)\n"
		    "__lisa_osc133_precmd() { print -n \"\\e]133;D;$?\\a"
		    "\\e]133;A\\a\" }\n"
		    "__lisa_osc133_preexec() { print -n \"\\e]133;C\\a\" }\n"
		    "autoload -Uz add-zsh-hook\n"
		    "add-zsh-hook precmd __lisa_osc133_precmd\n"
		    "add-zsh-hook preexec __lisa_osc133_preexec\n");
	} else if (strcmp(shell, "fish") == 0) {
		printf("# lisa: OSC 133 prompt marks (lisa shell-init fish | "
		    "source, in config.fish)\n"
		    "function __lisa_osc133_prompt --on-event fish_prompt\n"
		    "    set -l s $status\n"
		    "    printf '\\e]133;D;%%s\\a\\e]133;A\\a' $s\n"
		    "end\n"
		    "function __lisa_osc133_preexec --on-event fish_preexec\n"
		    "    printf '\\e]133;C\\a'\n"
		    "end\n");
	} else
		args_usage_error(lisa_cmd_find("shell-init"),
		    "unknown shell: %s (bash, zsh or fish)", shell);
	return (0);
}

static int
cmd_reload(struct lisa_ctx *ctx)
{
	struct json_doc	*d;
	char		*cause = NULL, *err;
	int		 rc = 0, arr, i, n;

	if (client_call(ctx, "{\"cmd\":\"reload\"}\n", &d, &cause) != 0)
		die("%s", cause);
	if ((err = json_get_str(d, 0, "agents_error")) != NULL) {
		fprintf(stderr, "lisa: %s (built-in profiles in use)\n", err);
		free(err);
		rc = 1;
	}
	/* Reloaded all the same: what was not used as set, and exit 1. */
	arr = json_get(d, 0, "option_warnings");
	n = arr == -1 ? 0 : json_array_size(d, arr);
	for (i = 0; i < n; i++) {
		if (json_tok_str(d, json_array_item(d, arr, i), &err) != 0)
			continue;
		fprintf(stderr, "lisa: %s\n", err);
		free(err);
		rc = 1;
	}
	json_free(d);
	if (rc == 0)
		printf("lisa: reloaded\n");
	else if (n != 0)
		printf("lisa: reloaded; %d setting%s not used as set\n", n,
		    n == 1 ? "" : "s");
	return (rc);
}

static int
cmd_tap(struct lisa_ctx *ctx, struct args *a)
{
	struct buf	 req;
	char		 tmp[65536], *nl;
	ssize_t		 n;
	size_t		 off;
	int		 fd, header = 1;
	char		*cause = NULL;
	struct buf	 in;

	if (a->argc < 2)
		usage(2);
	if ((fd = client_connect(ctx->sockpath, &cause)) == -1)
		die("%s", cause);
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"tap\",\"pane\":");
	json_cstr(&req, a->argv[1]);
	buf_printf(&req, ",\"bytes\":%lld}\n", a->bytes);
	if (write(fd, req.data, req.len) != (ssize_t)req.len)
		die("write: %s", strerror(errno));
	buf_init(&in);
	while ((n = read(fd, tmp, sizeof tmp)) > 0) {
		off = 0;
		if (header) {
			buf_add(&in, tmp, (size_t)n);
			if ((nl = memchr(in.data, '\n', in.len)) == NULL)
				continue;
			*nl = '\0';
			if (strstr(in.data, "\"ok\":true") == NULL)
				die("%s", in.data);
			header = 0;
			off = (size_t)(nl - in.data) + 1;
			if (fwrite(in.data + off, 1, in.len - off, stdout) !=
			    in.len - off)
				return (1);
			continue;
		}
		if (fwrite(tmp + off, 1, (size_t)n - off, stdout) !=
		    (size_t)n - off)
			return (1);
	}
	fflush(stdout);
	buf_free(&in);
	buf_free(&req);
	return (0);
}

/* Called by tmux hooks: never print (run-shell output would show). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define LISA_NO_LEAK_CHECK() __lsan_disable()
/*
 * Nor does LeakSanitizer's check run at its exit unless asked for by
 * name: it stops the process and scans its memory for a report that
 * __lsan_disable leaves empty, 55 of the 85 ms of CPU a run took under
 * ASan, and the suites run the CLI thousands of times (make check-asan
 * sets no detect_leaks: the helper keeps ASan's default, on).
 */
const char	*__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return ("detect_leaks=0");
}
#endif
#endif
#ifndef LISA_NO_LEAK_CHECK
#define LISA_NO_LEAK_CHECK()
#endif

int
main(int argc, char **argv)
{
	struct lisa_ctx	 ctx;
	struct args	 a;
	char		*cause = NULL;
	const char	*cmd;
	const struct lisa_cmd *c = NULL;

	osdep_set_argv0(argv[0]);
	utf8_locale();	/* (wcwidth's: columns of names as drawn) */
	/*
	 * The CLI lives for one command and leaves its memory to exit; the
	 * leak check (make check-asan) is for the helper, which lives all day.
	 */
	LISA_NO_LEAK_CHECK();

	signal(SIGPIPE, SIG_IGN);
	args_parse(argc, argv, &a);
	if (a.version) {
		printf("lisa %s (system: %s)\n", LISA_VERSION, osdep_name);
		return (0);
	}
	if (a.argc == 0) {
		if (a.nopts > 0)
			args_usage_error(NULL, "unknown option: %s", a.opts[0]);
		usage(a.help ? 0 : 2);
	}
	cmd = a.argv[0];
	if (strcmp(cmd, "_hook") == 0)
		return (cmd_hook(a.argc, a.argv));
	if (strcmp(cmd, "_run") != 0) {
		if ((c = lisa_cmd_find(cmd)) == NULL)
			args_usage_error(NULL, "unknown command: %s", cmd);
		if (a.help) {
			lisa_cmd_usage(stdout, c);
			printf("  %s\n", c->what);
			return (0);
		}
		lisa_cmd_check(c, a.argc - 1);
		args_check(c, &a);
		if (strcmp(c->name, "run") == 0)
			cmd_run_check(a.argc - 1, a.argv + 1);
		if (strcmp(c->name, "answer") == 0)
			cmd_answer_check(c, a.argc > 2 ? a.argv[2] : NULL,
			    a.reply);
		cmd = c->name;	/* an alias, as its command */
	}
	if (strcmp(cmd, "help") == 0) {
		if (a.argc < 2)
			usage(0);
		if ((c = lisa_cmd_find(a.argv[1])) == NULL)
			args_usage_error(NULL, "unknown command: %s", a.argv[1]);
		lisa_cmd_usage(stdout, c);
		printf("  %s\n", c->what);
		return (0);
	}
	if (strcmp(cmd, "version") == 0) {
		printf("lisa %s (system: %s)\n", LISA_VERSION, osdep_name);
		return (0);
	}
	if (strcmp(cmd, "shell-init") == 0)
		return (cmd_shell_init(a.argc > 1 ? a.argv[1] : NULL));
	if (strcmp(cmd, "hooks") == 0)
		return (cmd_hooks(a.argc > 1 ? a.argv[1] : NULL,
		    a.argc > 2 ? a.argv[2] : NULL, a.dry_run));
	if (strcmp(cmd, "notify") == 0) {
		/* A hook: silent, exit 0, whatever happens. */
		if (client_setup(&ctx, a.label, a.path, &cause) != 0)
			return (0);
		return (cmd_notify(&ctx, a.agent != NULL ? a.agent : "claude",
		    a.argc > 1 ? a.argv[a.argc - 1] : NULL));
	}
	if (client_setup(&ctx, a.label, a.path, &cause) != 0)
		die("%s", cause);
	if (strcmp(cmd, "bridge") == 0)
		return (cmd_bridge(&ctx));
	if (c != NULL && c->server && !client_server_up(&ctx))
		die("no tmux server at %s", ctx.sid.socket);
	if (a.argc > 1 && fleet_is_target(a.argv[1]) &&
	    strcmp(cmd, "wait") != 0 && strcmp(cmd, "events") != 0)
		return (cmd_remote_args(&ctx, cmd, &a));
	if (strcmp(cmd, "hosts") == 0)
		return (cmd_hosts(&ctx, a.json));
	if (strcmp(cmd, "start") == 0)
		return (cmd_start(&ctx, &a));
	if (strcmp(cmd, "stop") == 0)
		return (cmd_stop(&ctx));
	if (strcmp(cmd, "list") == 0 || strcmp(cmd, "ls") == 0)
		return (cmd_list(&ctx, &a));
	if (strcmp(cmd, "events") == 0)
		return (cmd_events(&ctx, &a));
	if (strcmp(cmd, "info") == 0)
		return (cmd_info(&ctx, a.json));
	if (strcmp(cmd, "doctor") == 0)
		return (cmd_doctor(&ctx, a.json));
	if (strcmp(cmd, "tap") == 0)
		return (cmd_tap(&ctx, &a));
	if (strcmp(cmd, "status") == 0)
		return (cmd_status(&ctx, a.argc > 1 ? a.argv[1] : NULL,
		    a.json));
	if (strcmp(cmd, "explain") == 0)
		return (cmd_explain(&ctx, a.argc > 1 ? a.argv[1] : NULL));
	if (strcmp(cmd, "wait") == 0)
		return (cmd_wait(&ctx, a.argc > 1 ? a.argv[1] : NULL, a.until,
		    a.timeout));
	if (strcmp(cmd, "reload") == 0)
		return (cmd_reload(&ctx));
	if (strcmp(cmd, "run") == 0)
		return (cmd_run(&ctx, a.argc - 1, a.argv + 1));
	if (strcmp(cmd, "_run") == 0)
		return (cmd_run_wrapper(&ctx, a.argc > 1 ? a.argv[1] : NULL));
	if (strcmp(cmd, "resume") == 0)
		return (cmd_resume(&ctx, &a));
	if (strcmp(cmd, "runs") == 0)
		return (cmd_runs(&ctx, a.json));
	if (strcmp(cmd, "nudge") == 0)
		return (cmd_nudge(&ctx, a.argc > 1 ? a.argv[1] : NULL,
		    a.argc > 2 ? a.argv[2] : NULL, a.force, a.expect));
	if (strcmp(cmd, "answer") == 0)
		return (cmd_answer(&ctx, a.argv[1], a.argc > 2 ? a.argv[2] :
		    NULL, a.reply, a.expect));
	if (strcmp(cmd, "kill") == 0)
		return (cmd_kill(&ctx, a.argc > 1 ? a.argv[1] : NULL,
		    a.force, a.expect));
	if (strcmp(cmd, "dismiss") == 0)
		return (cmd_dismiss(&ctx, a.argc > 1 ? a.argv[1] : NULL));
	if (strcmp(cmd, "retry") == 0)
		return (cmd_retry(&ctx, a.argc > 1 ? a.argv[1] : NULL,
		    a.fallback, a.force));
	if (strcmp(cmd, "details") == 0)
		return (cmd_details(&ctx, a.argc > 1 ? a.argv[1] : NULL,
		    a.wait));
	if (strcmp(cmd, "key") == 0) {
		if (a.to != NULL && key_to_setup(&ctx, a.to, a.at) != 0)
			return (2);
		return (key_to_done(&ctx, a.argc > 2 ? a.argv[2] : "",
		    cmd_key(&ctx, a.argc > 1 ? a.argv[1] : NULL,
		    a.argc > 2 ? a.argv[2] : NULL,
		    a.argc > 3 ? a.argv[3] : NULL)));
	}
	args_usage_error(NULL, "unknown command: %s", cmd);
}
