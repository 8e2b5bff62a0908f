/*
 * lisad: the helper. One per tmux server; attaches a control client to every
 * session, keeps the pane table, answers the CLI. Everything happens in one
 * poll() loop; with nothing going on it sleeps.
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "fleet.h"
#include "watch.h"
#include "tell.h"
#include "tap.h"

struct lisad lisad;
static int	lisad_sigfd = -1;

static __attribute__((noreturn)) void
usage(void)
{
	fprintf(stderr, "usage: lisad [-Fv] [-L socket-name | -S socket-path] "
	    "[-b lisa-binary]\n");
	exit(2);
}

/*
 * Is our tmux server still running? Not once it has been seen to exit, nor
 * as a zombie, which kill() still finds.
 */
int
lisad_server_alive(void)
{
	static uint64_t		 looked;
	struct proc_node	 n;
	uint64_t		 now = time_mono_ms();

	if (lisad.server_gone || lisad.server_pid <= 0)
		return (0);
	if (kill(lisad.server_pid, 0) != 0) {
		lisad.server_gone = 1;
		return (0);
	}
	/*
	 * A zombie (its parent has not reaped it) takes a look at the process
	 * table: ps on the generic backend, ~0.1 s, and every tmux command
	 * asks. Once a second at most; a dead server is also heard of from
	 * its clients.
	 */
	if (looked != 0 && now - looked < 1000)
		return (1);
	looked = now;
	if (proc_read(lisad.server_pid, &n) == 0 && n.state == 'Z') {
		lisad.server_gone = 1;
		return (0);
	}
	return (1);
}

/* Stop: take our hooks out of tmux, let the control clients go. */
void
lisad_stop(int code)
{
	if (lisad.stopping)
		return;
	lisad.stopping = 1;
	log_debug("stopping (%d)", code);
	/*
	 * A server that is gone has nothing to restore, and anything sent to
	 * its socket now could reach a new server (tmux -N keeps us from
	 * starting one).
	 */
	if (lisad_server_alive()) {
		ended_save_now();
		live_save_now();
		ui_restore();
		if (lisad.hooks_installed)
			hooks_remove();
	}
	notify_spawn_stop();
	fleet_close();
	session_close_all();
	proxy_close();
	listener_close();
	ui_remove_key_files();
	loop_exit(code);
}

static void
lisad_signal_cb(int fd, short revents, void *arg)
{
	int	sig, status;
	pid_t	pid;

	while ((sig = osdep_signal_next(fd)) != 0) {
		switch (sig) {
		case SIGCHLD:
			/* (a host's ssh stopped or continued: fleet-check.c) */
			while ((pid = waitpid(-1, &status, WNOHANG | WUNTRACED |
			    WCONTINUED)) > 0) {
				if (WIFSTOPPED(status) || WIFCONTINUED(status)) {
					fleet_stopped(pid, WIFSTOPPED(status));
					continue;
				}
				session_reaped(pid);
				fleet_reaped(pid, status);
				notify_url_reaped(pid, status);
				tap_ntfy_reaped(pid, status);
				tap_telegram_reaped(pid, status);
			}
			break;
		case SIGTERM:
		case SIGINT:
		case SIGHUP:
			lisad_stop(0);
			break;
		case SIGCONT:
			/* We were stopped: tmux may have parked our queues. */
			session_kick_all();
			fleet_wake("the helper was stopped");
			break;
		}
	}
}

/* The wall clock stepped, or the machine slept (osdep_clock_watch). */
static void
lisad_clock_cb(int fd, short revents, void *arg)
{
	if (!osdep_clock_changed(fd))
		return;
	log_debug("the wall clock stepped (a sleep, or set)");
	session_kick_all();
	fleet_wake("the clock jumped: a sleep, or set");
}

static void
lisad_server_gone_cb(int fd, short revents, void *arg)
{
	log_debug("tmux server %ld exited", (long)lisad.server_pid);
	lisad.server_gone = 1;
	lisad_stop(0);
}

/* Ask the server who it is; also proves it is there. */
static int
lisad_probe(void)
{
	char	*out = NULL, *sp;

	if (tmux_run(&out, "display-message", "-p",
	    "#{version} #{pid}-#{start_time}", (char *)NULL) != 0 ||
	    out == NULL || *out == '\0') {
		free(out);
		return (-1);
	}
	out[strcspn(out, "\n")] = '\0';
	if ((sp = strchr(out, ' ')) != NULL) {
		*sp = '\0';
		lisad.server_pid = (pid_t)strtol(sp + 1, NULL, 10);
		strlcpy(lisad.instance, sp + 1, sizeof lisad.instance);
	}
	strlcpy(lisad.version, out, sizeof lisad.version);
	free(out);
	if (tmux_version_parse(lisad.version, &lisad.tv) != 0)
		log_warnx("tmux version %s not understood", lisad.version);
	tmux_caps_get(&lisad.tv, &lisad.caps);
	return (0);
}

static char *
lisad_default_lisa(void)
{
	char	 self[4096], *dir, *path;

	if (osdep_self_exe(self, sizeof self) != 0)
		return (xstrdup("lisa"));
	dir = dirname(self);
	xasprintf(&path, "%s/lisa", dir);
	return (path);
}

/*
 * Four descriptors per session (a control client's two pipes, and before
 * tmux 3.7 its two relay sockets): a soft limit of 1024 would stop at 250
 * sessions. As many as the hard limit lets us.
 */
static struct rlimit	lisad_nofile;
static int		lisad_nofile_raised;

static void
lisad_raise_nofile(void)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
		return;
	lisad_nofile = rl;
	lisad_nofile_raised = 1;
	rl.rlim_cur = rl.rlim_max;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 65536)
		rl.rlim_cur = 65536;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		log_warn("setrlimit");
}

/* In a child that runs the user's commands: the limit they would have. */
void
lisad_child_limits(void)
{
	if (lisad_nofile_raised)
		setrlimit(RLIMIT_NOFILE, &lisad_nofile);
}

static void
lisad_daemonize(int lockfd)
{
	char	pid[32];
	int	null, n;

	switch (fork()) {
	case -1:
		fatal("fork");
	case 0:
		break;
	default:
		_exit(0);
	}
	setsid();
	if (chdir("/") != 0)
		fatal("chdir");
	if ((null = open("/dev/null", O_RDWR)) != -1) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	/* The flock came with us through fork; record the new pid. */
	n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(lockfd, 0) != 0 || pwrite(lockfd, pid, (size_t)n, 0) != n)
		log_warn("lock pid");
}

int
main(int argc, char **argv)
{
	const char	*label = NULL, *path = NULL;
	char		*cause = NULL, *logpath = NULL;
	const char	*env;
	int		 ch, foreground = 0, verbose = 0, lockfd, code, fd;
	pid_t		 holder;
	sigset_t	 set;

	osdep_set_argv0(argv[0]);
	while ((ch = getopt(argc, argv, "b:FL:S:v")) != -1) {
		switch (ch) {
		case 'b':
			lisad.lisa_bin = xstrdup(optarg);
			break;
		case 'F':
			foreground = 1;
			break;
		case 'L':
			label = optarg;
			break;
		case 'S':
			path = optarg;
			break;
		case 'v':
			verbose++;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	if (server_find(&lisad.sid, label, path, &cause) != 0)
		fatalx("%s", cause);
	/* Our control clients are not nested sessions. */
	unsetenv("TMUX");
	if (lisad.lisa_bin == NULL)
		lisad.lisa_bin = lisad_default_lisa();
	if (runtime_dir(&lisad.rundir, &cause) != 0) {
		fprintf(stderr, "lisad: runtime directory: %s\n", cause);
		free(cause);
		return (1);
	}
	lisad.sockpath = runtime_path(lisad.rundir, lisad.sid.key, ".sock");
	lisad.lockpath = runtime_path(lisad.rundir, lisad.sid.key, ".lock");
	lockfd = runtime_lock(lisad.lockpath, &holder, &cause);
	if (lockfd == -1) {
		fprintf(stderr, "lisad: %s: %s\n", lisad.sid.socket, cause);
		free(cause);
		return (1);
	}
	if (lisad_probe() != 0) {
		fprintf(stderr, "lisad: no tmux server at %s\n",
		    lisad.sid.socket);
		return (1);
	}
	if (!lisad.caps.supported) {
		fprintf(stderr, "lisad: tmux %s is too old (3.2 or later "
		    "needed)\n", lisad.version);
		return (1);
	}
	/* What differs by version: tmux-version.c. */
	lisad.dead_hook = lisad.caps.dead_hook;
	lisad.pause_after = 1;
	/*
	 * Our list formats separate fields with \037. 3.4 and 3.5 pass
	 * replies through utf8_stravisx(VIS_OCTAL|VIS_CSTYLE), so there it
	 * arrives as the four characters "\037"; 3.6 sends it raw again.
	 */
	lisad.reply_sep = lisad.caps.reply_escaped ? "\\037" : "\037";
	/* Off only to test the other routes (hook, subscription) alone. */
	lisad.use_pidfd = getenv("LISAD_NO_PIDFD") == NULL;
	lisad.use_subscriptions = getenv("LISAD_NO_SUBSCRIPTIONS") == NULL;
	/* Stream sampling (pane-mute.c); LISAD_STREAM_MUTE=0 turns it off. */
	env = getenv("LISAD_STREAM_MUTE");
	if (env != NULL && strcmp(env, "0") == 0)
		lisad.stream_mute = 0;
	else if (env != NULL && strcmp(env, "sample") == 0)
		lisad.stream_mute = 2;	/* samples only, not the kernel's count */
	else
		lisad.stream_mute = 1;

	if (!foreground)
		lisad_daemonize(lockfd);
	if (verbose)
		logpath = runtime_path(lisad.rundir, lisad.sid.key, ".log");
	log_open(logpath, verbose);
	free(logpath);
	lisad.started = time_real_ms();
	log_debug("lisad %s for %s (tmux %s, pid %ld)", LISA_VERSION,
	    lisad.sid.socket, lisad.version, (long)lisad.server_pid);

	/* Before any control client, and before our signal handling. */
	lisad_raise_nofile();
	osdep_guard_children(SIGTERM);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCONT);
	lisad_sigfd = osdep_signal_fd(&set, NULL);
	if (lisad_sigfd == -1)
		fatal("signals");
	loop_add(lisad_sigfd, POLLIN, lisad_signal_cb, NULL);
	if ((fd = osdep_clock_watch()) != -1)
		loop_add(fd, POLLIN, lisad_clock_cb, NULL);
	else
		log_debug("no clock watch: a sleep is seen by SIGCONT only");

	lisad.pidfd = proc_pidfd(lisad.server_pid);
	if (lisad.pidfd != -1)
		loop_add(lisad.pidfd, POLLIN, lisad_server_gone_cb, NULL);
	else if (!lisad.use_pidfd)
		log_debug("pidfd off: server exit noticed through clients");
	else
		log_warn("exit watch: server exit noticed through clients only");

	config_reload();
	ended_load();
	live_load();
	events_open();
	if (listener_open(lisad.sockpath, &cause) != 0)
		fatalx("%s", cause);
	proxy_open();
	hooks_install();	/* (and a death notice before us is over) */
	resume_record_dir_check();
	ui_apply();
	session_start();

	code = loop_run();
	act_close();
	answer_close();
	tap_close();
	tap_ntfy_close();
	tap_telegram_close();
	notify_url_close();
	live_close();
	resume_record_close();
	agentfiles_close();
	agenthook_close();
	events_close();
	pane_drain_close();
	key_tmux_close();
	pane_early_close();
	free(lisad.context_windows);
	log_debug("exit %d", code);
	log_close();
	close(lockfd);
	return (code);
}
