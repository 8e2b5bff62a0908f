/*
 * What the helper says of itself (`lisa info`, the socket's "info"): its
 * pid, versions, sessions, protocol counters, memory, what it wrote into
 * tmux, hooks and notifications.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "tell.h"
#include "tap.h"

/* ,"option_warnings":[...]: the settings lisa could not use as set. */
void
info_option_warnings(struct buf *b)
{
	const char	**list;
	u_int		  i, n = config_warnings(&list);

	json_key(b, "option_warnings");
	buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		if (i != 0)
			buf_addc(b, ',');
		json_cstr(b, list[i]);
	}
	buf_addc(b, ']');
}

void
info_json(struct buf *b)
{
	struct session		*s;
	const struct ctl_stats	*st;
	unsigned long long	 lines = 0, malformed = 0, unknown = 0;
	unsigned long long	 bytes = 0, stray = 0;
	int			 attached = 0;
	long			 rss = -1;
	int64_t			 next;

	RB_FOREACH(s, sessions, &sessions) {
		if (s->ctl == NULL)
			continue;
		attached += s->attached && !s->closing;
		st = ctl_client_stats(s->ctl);
		lines += st->lines;
		malformed += st->malformed;
		unknown += st->unknown;
		bytes += st->output_bytes;
		stray += st->stray_replies;
	}
	rss = osdep_self_rss_kb();
	json_key(b, "pid");
	buf_printf(b, "%ld", (long)getpid());
	json_key(b, "version");
	json_cstr(b, LISA_VERSION);
	json_key(b, "system");
	json_cstr(b, osdep_name);
	json_key(b, "tmux_version");
	json_cstr(b, lisad.version);
	json_key(b, "tmux_socket");
	json_cstr(b, lisad.sid.socket);
	json_key(b, "state_dir");
	json_cstr(b, lisad.state_dir);
	json_key(b, "state_error");
	json_cstr(b, lisad.state_error);
	json_key(b, "socket");
	json_cstr(b, lisad.sockpath);
	json_key(b, "sessions");
	buf_printf(b, "%d", session_count());
	json_key(b, "attached");
	buf_printf(b, "%d", attached);
	json_key(b, "unparsed_replies");
	buf_printf(b, "%llu", (unsigned long long)lisad.reply_unparsed);
	json_key(b, "publish");
	buf_printf(b, "{\"commands\":%llu,\"batches\":%llu}",
	    (unsigned long long)publish_stats.commands,
	    (unsigned long long)publish_stats.batches);
	json_key(b, "notify");
	buf_printf(b, "{\"messages\":%llu,\"bells\":%llu,\"desktop\":%llu,"
	    "\"commands\":%llu,\"terminal\":%llu,\"sounds\":%llu,"
	    "\"posts\":%llu,\"posts_failed\":%llu,\"focused\":%llu",
	    (unsigned long long)notify_stats.messages,
	    (unsigned long long)notify_stats.bells,
	    (unsigned long long)notify_stats.desktop,
	    (unsigned long long)notify_stats.commands,
	    (unsigned long long)notify_stats.terminal,
	    (unsigned long long)notify_stats.sounds,
	    (unsigned long long)notify_stats.posts,
	    (unsigned long long)notify_stats.posts_failed,
	    (unsigned long long)notify_stats.focused);
	json_key(b, "post_error");
	json_cstr(b, *notify_url_error != '\0' ? notify_url_error : NULL);
	json_key(b, "post_error_at");
	json_int_or_null(b, notify_url_error_at != 0,
	    (long long)notify_url_error_at);
	buf_addc(b, '}');
	json_key(b, "phone");
	tap_json(b);
	json_key(b, "ui_warning");
	json_cstr(b, ui_warning());
	info_option_warnings(b);
	json_key(b, "hooks_installed");
	buf_adds(b, lisad.hooks_installed ? "true" : "false");
	json_key(b, "pane_died_hook");
	buf_adds(b, lisad.dead_hook ? "true" : "false");
	json_key(b, "control_lines");
	buf_printf(b, "%llu", lines);
	json_key(b, "output_bytes");
	buf_printf(b, "%llu", bytes);
	json_key(b, "malformed_lines");
	buf_printf(b, "%llu", malformed);
	json_key(b, "unknown_lines");
	buf_printf(b, "%llu", unknown);
	json_key(b, "stray_replies");
	buf_printf(b, "%llu", stray);
	json_key(b, "tmux_forks");
	buf_printf(b, "%llu", (unsigned long long)tmux_forks);
	json_key(b, "pauses");
	buf_printf(b, "%llu", (unsigned long long)pane_mute_pauses);
	json_key(b, "wakeups");
	buf_printf(b, "%llu", (unsigned long long)loop_wakeups());
	/* (when it will wake next of itself: null, an idle helper never) */
	json_key(b, "next_timer_ms");
	if ((next = loop_next_timer_ms()) < 0)
		buf_adds(b, "null");
	else
		buf_printf(b, "%lld", (long long)next);
	/* Bytes malloc has handed out and not had back: a leak shows here. */
	json_key(b, "heap_bytes");
	buf_printf(b, "%lld", osdep_heap_bytes());
	json_key(b, "rss_kb");
	buf_printf(b, "%ld", rss);
	json_key(b, "uptime_ms");
	buf_printf(b, "%lld", (long long)(time_real_ms() - lisad.started));
}
