/*
 * What lisa's tmux hooks run (`lisa _hook SOCKET EVENT ARGS`: the event
 * into the helper's socket), and what a helper that died leaves: its
 * client-detached hook tells of its death in the status line, and `lisa
 * stop` takes out what is left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lisa.h"

/*
 * The helper is gone while its hooks are still in tmux (a clean stop takes
 * them out first): it died. The status line says so where its counts were
 * (#{lisa_status} shows @lisa_error), and the counts, stale now, go.
 */
static void
hook_helper_gone(const char *tmux_socket, const char *sockpath)
{
	const char	*show[] = { "tmux", "-N", "-S", tmux_socket,
			    "show-hooks", "-g", "client-detached", NULL };
	const char	*src[] = { "tmux", "-N", "-S", tmux_socket,
			    "source-file", "-", NULL };
	char		*out = NULL, mark[32], *lock;
	struct buf	 script;
	struct timespec	 ts = { 0, 50 * 1000000L };
	size_t		 len;
	int		 i, held;

	/*
	 * Dead for sure: its lock is free (the kernel drops it with the
	 * process). A helper that only answered late still holds it; one
	 * being torn down lets go within a moment.
	 */
	len = strlen(sockpath);
	if (len < 5 || strcmp(sockpath + len - 5, ".sock") != 0)
		return;
	xasprintf(&lock, "%.*s.lock", (int)(len - 5), sockpath);
	for (i = 0; i < 40 && runtime_lock_held(lock); i++)
		nanosleep(&ts, NULL);
	held = runtime_lock_held(lock);
	free(lock);
	if (held)
		return;
	snprintf(mark, sizeof mark, "[%d]", LISA_HOOK_INDEX);
	if (client_capture("tmux", show, &out) != 0 || out == NULL ||
	    strstr(out, mark) == NULL) {
		free(out);
		return;		/* stopped on purpose, or no server */
	}
	free(out);
	buf_init(&script);
	buf_adds(&script, "set-option -gq @lisa_error \"lisa is not running: "
	    "lisa start\"\n");
	/* Borders and badges stop their clocks and say so (ui-format.c). */
	buf_adds(&script, "set-option -gq @lisa_down 1\n");
	for (i = 0; i < UI_NGROUPS; i++)
		buf_printf(&script, "set-option -gqu @lisa_count_%s\n",
		    ui_group_name(i));
	buf_adds(&script, "set-option -gqu @lisa_agents\n"
	    "set-option -gqu @lisa_waiting\n");
	client_feed("tmux", src, script.data);
	buf_free(&script);
}

int
cmd_hook(int argc, char **argv)
{
	struct buf	 req;
	char		*reply = NULL, *cause = NULL;
	int		 fd, i, rc, detached;

	if (argc < 3)
		return (2);
	detached = strcmp(argv[2], "client-detached") == 0;
	if ((fd = client_connect(argv[1], &cause)) == -1) {
		free(cause);
		/* A client went and no helper answers: it died. */
		if (detached && argc > 3)
			hook_helper_gone(argv[3], argv[1]);
		return (0);
	}
	buf_init(&req);
	buf_adds(&req, "{\"cmd\":\"hook\",\"event\":");
	json_cstr(&req, argv[2]);
	buf_adds(&req, ",\"args\":[");
	for (i = 3; i < argc; i++) {
		if (i != 3)
			buf_addc(&req, ',');
		json_cstr(&req, argv[i]);
	}
	buf_adds(&req, "]}\n");
	/* (in the background: tmux waits for none of them) */
	rc = client_request_ms(fd, req.data, &reply, &cause, 5000);
	close(fd);
	/*
	 * Connected, but no answer: a dying helper's socket can still take
	 * a connection while the kernel tears it down (its clients' pipes
	 * may close first, and fire this hook). Its hook still in place says
	 * it was not a stop.
	 */
	if (rc != 0 && detached && argc > 3)
		hook_helper_gone(argv[3], argv[1]);
	free(reply);
	free(cause);
	buf_free(&req);
	/*
	 * 0 whatever happened: tmux shows a hook's failure in a pane, in
	 * view mode (run-shell -b), over what the human was looking at.
	 */
	return (0);
}

/*
 * No helper, but one that died may have left its hooks (they tell of its
 * death) and that notice: take them out, as its own stop would have.
 */
void
stop_leftovers(struct lisa_ctx *ctx)
{
	static const char	*hooks[] = { "pane-died", "session-created",
				    "client-detached" };
	const char		*argv[] = { "tmux", "-N", "-S", ctx->sid.socket,
				    "source-file", "-", NULL };
	struct buf		 b;
	size_t			 i;

	buf_init(&b);
	for (i = 0; i < sizeof hooks / sizeof hooks[0]; i++)
		buf_printf(&b, "set-hook -gu %s[%d]\n", hooks[i],
		    LISA_HOOK_INDEX);
	buf_adds(&b, "set-option -gqu @lisa_error\n"
	    "set-option -gqu @lisa_down\n"
	    "set-option -gqu @lisa_ears\n");
	client_feed("tmux", argv, b.data);
	buf_free(&b);
}
