/*
 * lisa doctor: is everything lisa needs in place, and if not, what to do.
 * Each check prints one line; the exit code is 1 if any failed.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisa.h"

static int	doctor_failed;

static void check(int, const char *, const char *, ...) printflike(3, 4);

/* What the helper would raise desktop notifications with (notify.c). */
static void
doctor_desktop(void)
{
	static const char	*tools[] = { "notify-send", "terminal-notifier",
				    "osascript" };
	char			*full;
	size_t			 i;

	for (i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		if ((full = path_which(tools[i])) == NULL)
			continue;
		check(1, "desktop", "%s%s", full, i == 0 ? " (its Show takes "
		    "you to the pane where it offers actions)" : "");
		free(full);
		return;
	}
	check(-1, "desktop", "no notify-send, terminal-notifier or osascript "
	    "on PATH: no desktop notifications (tmux's own, bells and the "
	    "terminal's still work)");
}

static void
check(int ok, const char *what, const char *fmt, ...)
{
	va_list	ap;

	printf("%-5s %-14s ", ok == 1 ? "ok" : ok == 0 ? "FAIL" : "warn",
	    what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok == 0)
		doctor_failed = 1;
}

/* The phone's buttons (docs/phone.md): where, and what came of taps. */
static void
doctor_buttons(struct json_doc *d)
{
	int		 n = json_get(d, 0, "phone"), on = 0, ntfy = 0, tg = 0;
	long long	 taken = 0, refused = 0, open = 0, at = 0;
	char		*why, when[32] = "";
	time_t		 t;
	struct tm	 tm;

	if (n == -1 || json_get_bool(d, n, "buttons", &on) != 0 || !on)
		return;
	json_get_bool(d, n, "ntfy", &ntfy);
	json_get_bool(d, n, "telegram", &tg);
	if (!ntfy && !tg)
		return;
	json_get_int(d, n, "taps_taken", &taken);
	json_get_int(d, n, "taps_refused", &refused);
	json_get_int(d, n, "asks_open", &open);
	if ((why = json_get_str(d, n, "error")) != NULL) {
		if (json_get_int(d, n, "error_at", &at) == 0 && at > 0) {
			t = (time_t)(at / 1000);
			localtime_r(&t, &tm);
			strftime(when, sizeof when, " (%H:%M:%S)", &tm);
		}
		check(-1, "buttons", "%s%s", why, when);
		free(why);
		return;
	}
	check(1, "buttons", "Allow and Deny on %s%s%s; %lld open, %lld tap%s "
	    "taken, %lld refused", ntfy ? "ntfy" : "", ntfy && tg ? " and " :
	    "", tg ? "Telegram" : "", open, taken, taken == 1 ? "" : "s",
	    refused);
}

/* Pushes to @lisa-notify-url: how they went (never the URL). */
static void
doctor_phone(struct json_doc *d)
{
	int		 n = json_get(d, 0, "notify");
	long long	 ok = 0, failed = 0, at = 0;
	char		*why, when[32] = "";
	time_t		 t;
	struct tm	 tm;

	if (n == -1)
		return;
	json_get_int(d, n, "posts", &ok);
	json_get_int(d, n, "posts_failed", &failed);
	if ((why = json_get_str(d, n, "post_error")) != NULL) {
		if (json_get_int(d, n, "post_error_at", &at) == 0 && at > 0) {
			t = (time_t)(at / 1000);
			localtime_r(&t, &tm);
			strftime(when, sizeof when, " at %H:%M:%S", &tm);
		}
		check(-1, "phone", "%lld push%s not delivered, the last%s: "
		    "%s (%lld delivered)", failed, failed == 1 ? "" : "es",
		    when, why, ok);
		free(why);
	} else if (ok > 0)
		check(1, "phone", "%lld push%s delivered", ok,
		    ok == 1 ? "" : "es");
	doctor_buttons(d);
}

/* Each @lisa-* setting the helper could not use as set, a line each. */
static void
doctor_options(struct json_doc *d)
{
	int	 arr = json_get(d, 0, "option_warnings"), i, n;
	char	*w;

	n = arr == -1 ? 0 : json_array_size(d, arr);
	for (i = 0; i < n; i++) {
		if (json_tok_str(d, json_array_item(d, arr, i), &w) != 0)
			continue;
		check(-1, "option", "%s", w);
		free(w);
	}
	if (n == 0)
		check(1, "options", "every @lisa-* option set is used as set");
}

/* tmux -V (a1 NULL), or tmux -S SOCKET a1 a2 a3: first line of stdout. */
static int
doctor_tmux(struct lisa_ctx *ctx, char **out, const char *a1, const char *a2,
    const char *a3)
{
	const char	*argv[] = { a1, a2, a3, NULL };

	return (client_tmux(a1 == NULL ? NULL : ctx, out, argv));
}

/*
 * The tmux version: supported or not, what lisa does differently on it,
 * and the tmux bugs in it that matter to lisa, with what to do.
 */
static void
doctor_version(const char *out)
{
	struct tmux_version	 v;
	struct tmux_caps	 c;
	const struct tmux_bug	*bugs[8];
	size_t			 n, i;

	if (tmux_version_parse(out, &v) != 0) {
		check(-1, "tmux", "%s: a version lisa does not know; it "
		    "assumes a recent tmux", out);
		return;
	}
	tmux_caps_get(&v, &c);
	if (!c.supported) {
		check(0, "tmux", "%s: lisa needs tmux 3.2 or later", out);
		return;
	}
	check(1, "tmux", "%s", out);
	if (c.reply_escaped)
		check(1, "tmux", "%s escapes command output (\\037, \\177%s); "
		    "lisa reads it back unescaped", v.text,
		    c.dollar_escaped ? ", \\$" : "");
	if (c.list_keys_quiet)
		check(1, "tmux", "%s: list-keys -T prefix KEY prints nothing; "
		    "lisa reads the whole prefix table to leave your keys "
		    "alone", v.text);
	if (!c.display_client)
		check(-1, "tmux", "%s: display-message -c takes no client; "
		    "lisa's key feedback shows on the most recently active "
		    "client, and notifications ring the bell and show in the "
		    "status line, without a message", v.text);
	n = tmux_bugs(&v, bugs, sizeof bugs / sizeof bugs[0]);
	for (i = 0; i < n; i++)
		check(-1, "tmux bug", "%s: %s. %s.", v.text, bugs[i]->what,
		    bugs[i]->todo);
}

/*
 * Blindness is never silent: sessions tmux has (less those ignored, which
 * the helper does not count) but none attached is a failure.
 */
static void
doctor_sessions(struct lisa_ctx *ctx, long long pid, long long sessions,
    long long attached)
{
	const char	*argv[] = { "list-sessions", "-F", "#{session_id}",
			    NULL };
	char		*out = NULL, *p;
	long long	 n = 0;

	if (client_tmux_all(ctx, &out, argv) == 0 && out != NULL) {
		for (p = out; *p != '\0'; p++)
			n += *p == '\n';
	}
	free(out);
	if (n > 0 && attached == 0)
		check(0, "helper", "pid %lld attached to none of tmux's %lld "
		    "session(s): lisa sees nothing (its log: lisa start -v)",
		    pid, n);
	else
		check(1, "helper", "pid %lld, %lld of %lld session(s) "
		    "attached", pid, attached, sessions);
}


int
cmd_doctor(struct lisa_ctx *ctx, int json)
{
	struct json_doc	*d = NULL;
	struct stat	 st;
	char		*out = NULL, *cause = NULL, *hooks = NULL, *ver = NULL;
	struct tmux_version tv;
	char		*warning;
	char		 hookname[64];
	const char	*hooks_argv[] = { "show-hooks", "-gw", NULL };
	long long	 pid = 0, sessions = 0, malformed = 0, attached = 0;
	long long	 unparsed = 0;
	int		 major = 0, minor = 0, installed = 0, rc;

	printf("lisa %s\n", LISA_VERSION);
	if (strcmp(osdep_name, "linux") == 0)
		check(1, "system", "linux backend: exits by pidfd, file events "
		    "by inotify, writes counted in /proc");
	else
		check(-1, "system", "%s backend (POSIX%s): deaths come from "
		    "tmux alone, agent files are read when lisa looks, streams "
		    "are sampled (README: %s)", osdep_name,
#ifdef __APPLE__
		    ", on macOS", "macOS"
#else
		    "", "Other systems"
#endif
		    );
	doctor_desktop();
	/* The running server's version; the tmux in PATH if none runs. */
	rc = doctor_tmux(ctx, &out, NULL, NULL, NULL);
	if (rc != 0)
		check(0, "tmux", "tmux not found: apt-get install tmux");
	else if (doctor_tmux(ctx, &ver, "display-message", "-p",
	    "#{version}") == 0 && ver != NULL && *ver != '\0') {
		if (strcmp(out + (strncmp(out, "tmux ", 5) == 0 ? 5 : 0),
		    ver) != 0)
			check(-1, "tmux", "the server runs tmux %s, the tmux in "
			    "PATH is %s: lisa talks to the server as %s", ver,
			    out, ver);
		free(out);
		xasprintf(&out, "tmux %s", ver);
	}
	free(ver);
	if (rc == 0) {
		doctor_version(out);
		if (tmux_version_parse(out, &tv) == 0) {
			major = tv.major;
			minor = tv.minor;
		}
	}
	free(out);
	out = NULL;

	if (doctor_tmux(ctx, &out, "display-message", "-p", "#{pid}") != 0) {
		if (client_server_up(ctx))
			check(0, "server", "%s does not answer the tmux in "
			    "PATH: a server started by another tmux version? "
			    "Run lisa with that tmux first in PATH",
			    ctx->sid.socket);
		else
			check(0, "server", "no tmux server at %s",
			    ctx->sid.socket);
	} else
		check(1, "server", "%s (pid %s)", ctx->sid.socket, out);
	free(out);
	out = NULL;

	if (lstat(ctx->rundir, &st) == 0 && (st.st_mode & 077) == 0 &&
	    st.st_uid == getuid())
		check(1, "runtime dir", "%s (0700)", ctx->rundir);
	else
		check(0, "runtime dir", "%s is not a private directory",
		    ctx->rundir);

	if (client_call(ctx, "{\"cmd\":\"info\"}\n", &d, &cause) != 0) {
		check(0, "helper", "%s: run `lisa start`", cause);
		free(cause);
	} else {
		json_get_int(d, 0, "pid", &pid);
		json_get_int(d, 0, "sessions", &sessions);
		json_get_int(d, 0, "malformed_lines", &malformed);
		json_get_int(d, 0, "attached", &attached);
		json_get_int(d, 0, "unparsed_replies", &unparsed);
		doctor_sessions(ctx, pid, sessions, attached);
		if (unparsed != 0)
			check(0, "replies", "%lld reply line(s) from tmux not "
			    "understood: lisa may see nothing (a tmux version "
			    "lisa does not know?)", unparsed);
		check(1, "socket", "%s", ctx->sockpath);
		check(malformed == 0 ? 1 : -1, "protocol",
		    "%lld malformed control line(s) skipped", malformed);
		if ((warning = json_get_str(d, 0, "ui_warning")) != NULL)
			check(-1, "tmux ui", "%s", warning);
		else
			check(1, "tmux ui", "status line, badges, borders and "
			    "keys applied");
		free(warning);
		doctor_options(d);
		doctor_phone(d);
		/* Where lisa resume's records go, as the helper found it. */
		if ((warning = json_get_str(d, 0, "state_error")) != NULL)
			check(0, "resume records", "cannot be kept: %s (lisa "
			    "resume would find no agent after a restart)",
			    warning);
		else if ((out = json_get_str(d, 0, "state_dir")) != NULL)
			check(1, "resume records", "%s", out);
		free(warning);
		free(out);
		out = NULL;
	}

	/* The user's agent profiles: a broken file is ignored, not fatal. */
	out = agent_config_path();
	if (agent_load(out, &cause) != 0) {
		check(0, "agents.json", "%s: ignored, built-in profiles in use",
		    cause);
		free(cause);
		cause = NULL;
	} else
		check(1, "agents.json", "%d agent profiles (%s%s)",
		    agent_count(), out, access(out, R_OK) == 0 ? "" :
		    ": none, built-in only");
	free(out);
	out = NULL;

	/* All of it: where lisa's hook comes in the list differs (master). */
	if (client_tmux_all(ctx, &hooks, hooks_argv) == 0 || hooks != NULL) {
		snprintf(hookname, sizeof hookname, "pane-died[%d]",
		    LISA_HOOK_INDEX);
		installed = hooks != NULL && strstr(hooks, hookname) != NULL;
		if (d == NULL)
			check(installed ? -1 : 1, "hooks", installed ?
			    "lisa's hooks are set but no helper runs" :
			    "none installed (helper not running)");
		else if (installed || (major == 3 && minor == 2))
			check(1, "hooks", "%s installed", installed ?
			    hookname : "session-created only");
		else
			check(0, "hooks", "%s missing: restart the helper",
			    hookname);
	}
	free(hooks);
	json_free(d);
	return (doctor_failed);
}
