/*
 * Live agents across a restart of the helper (lisa stop; lisa start, or a
 * helper that died): what it had judged of each agent still running is
 * kept in <key>.live in the runtime directory, so the next helper meeting
 * the same agent (same pane, pane process, agent pid and start time, same
 * server) goes on from there: no grace period as if it were new, the same
 * "since", its output and stale clocks where they were.
 *
 * Written a second after a verdict changes (a deadline, at most once a
 * second in a burst) and at stop; read once at start.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "watch.h"

#define LIVE_SAVE_MS		1000
#define LIVE_MAX_RECORDS	4096
#define LIVE_MAX_FILE		(4 * 1024 * 1024)
/* A signal read this soon after meeting a carried agent is the old one. */
#define LIVE_MET_MS		2000

struct live_record {
	int				 pane;
	pid_t				 pid;
	pid_t				 agent_pid;
	uint64_t			 agent_start;
	char				 agent[32];
	enum cls_state			 state;
	int64_t				 since;		/* real ms */
	int64_t				 seen;		/* real ms: first seen */
	int64_t				 output;	/* real ms: last output */
	int64_t				 quiet;		/* real ms: stuck clock */
	TAILQ_ENTRY(live_record)	 entry;
};
static TAILQ_HEAD(, live_record) live_records =
    TAILQ_HEAD_INITIALIZER(live_records);
static char			*live_path;
static uint64_t			 live_loaded;	/* mono ms: this helper's start */
static struct loop_timer	 live_timer;
static int			 live_timer_ready;

/* A monotonic time as real time, and back (both ms). */
static int64_t
live_real(uint64_t mono)
{
	if (mono == 0)
		return (0);
	return (time_real_ms() - (int64_t)(time_mono_ms() - mono));
}

static uint64_t
live_mono(int64_t real)
{
	int64_t	 ago = time_real_ms() - real;
	uint64_t now = time_mono_ms();

	if (real <= 0 || ago < 0)
		return (now);
	return ((uint64_t)ago < now ? now - (uint64_t)ago : 1);
}

static void
live_save(void *arg)
{
	struct buf	 b;
	struct pane	*p;
	struct watch	*w;

	if (live_path == NULL || (lisad.stopping && arg != NULL))
		return;
	buf_init(&b);
	RB_FOREACH(p, panes, &panes) {
		w = p->watch;
		if (w == NULL || !w->agent_alive || !w->classified ||
		    w->agent == NULL || p->dead)
			continue;
		buf_printf(&b, "{\"server\":%ld,\"pane\":%d,\"pid\":%ld,"
		    "\"agent_pid\":%ld,\"agent_start\":%llu",
		    (long)lisad.server_pid, p->id, (long)p->pid,
		    (long)w->agent_pid, (unsigned long long)w->agent_start);
		json_key(&b, "agent");
		json_cstr(&b, w->agent->name);
		json_key(&b, "state");
		json_cstr(&b, cls_state_name(w->res.state));
		buf_printf(&b, ",\"since\":%lld,\"seen\":%lld,\"output\":%lld,"
		    "\"quiet\":%lld}\n", (long long)w->since,
		    (long long)live_real(w->agent_since),
		    (long long)live_real(p->out_last),
		    (long long)live_real(w->res.quiet_at));
	}
	if (runtime_write_file(live_path, b.data, b.len) != 0)
		log_warn("%s", live_path);
	buf_free(&b);
	/* (never as the helper stops: resume-record.c says why) */
	if (arg != NULL)
		resume_record_save_checked();
}

/* A verdict changed: saved within a second (not on every transition). */
void
live_changed(void)
{
	if (!live_timer_ready) {
		loop_timer_init(&live_timer, live_save, &live_timer);
		live_timer_ready = 1;
	}
	if (!live_timer.armed)
		loop_timer_add(&live_timer, LIVE_SAVE_MS);
}

/* Now, before the panes go (lisa stop). */
void
live_save_now(void)
{
	if (live_timer_ready)
		loop_timer_del(&live_timer);
	live_save(NULL);
}

/* One line of the file; a bad one is logged and skipped. */
static void
live_parse(const char *line, size_t len)
{
	struct live_record	*lr;
	struct json_doc		*d;
	char			*cause = NULL, *agent, *state;
	long long		 server, pane, pid, apid, since, seen, out;
	long long		 start, quiet;
	enum cls_state		 st;

	if ((d = json_parse(line, len, &cause)) == NULL) {
		log_warnx("%s: %s", live_path, cause);
		free(cause);
		return;
	}
	agent = json_get_str(d, 0, "agent");
	state = json_get_str(d, 0, "state");
	st = state != NULL ? cls_state_from_name(state) : ST_NSTATES;
	/* (a helper before this field wrote none) */
	if (json_get_int(d, 0, "quiet", &quiet) != 0 || quiet < 0)
		quiet = 0;
	if (json_get_int(d, 0, "server", &server) != 0 ||
	    json_get_int(d, 0, "pane", &pane) != 0 ||
	    json_get_int(d, 0, "pid", &pid) != 0 ||
	    json_get_int(d, 0, "agent_pid", &apid) != 0 ||
	    json_get_int(d, 0, "agent_start", &start) != 0 ||
	    json_get_int(d, 0, "since", &since) != 0 ||
	    json_get_int(d, 0, "seen", &seen) != 0 ||
	    json_get_int(d, 0, "output", &out) != 0 || agent == NULL ||
	    st == ST_NSTATES || st == ST_NONE || pane < 0 ||
	    pane > 0x7fffffff || pid <= 0 || pid > 0x7fffffff ||
	    apid <= 0 || apid > 0x7fffffff || start < 0)
		log_warnx("%s: a record is not understood", live_path);
	else if (server != (long long)lisad.server_pid)
		log_debug("%s: a record of another server", live_path);
	else {
		lr = xcalloc(1, sizeof *lr);
		lr->pane = (int)pane;
		lr->pid = (pid_t)pid;
		lr->agent_pid = (pid_t)apid;
		lr->agent_start = (uint64_t)start;
		strlcpy(lr->agent, agent, sizeof lr->agent);
		lr->state = st;
		lr->since = since;
		lr->seen = seen;
		lr->output = out;
		lr->quiet = quiet;
		TAILQ_INSERT_TAIL(&live_records, lr, entry);
	}
	free(agent);
	free(state);
	json_free(d);
}

/* At start: what a helper before us knew of agents still running. */
void
live_load(void)
{
	char	*data;
	size_t	 len;
	int	 n;

	free(live_path);
	live_path = runtime_path(lisad.rundir, lisad.sid.key, ".live");
	live_loaded = time_mono_ms();
	if (runtime_read_file(live_path, LIVE_MAX_FILE, &data, &len) != 0) {
		if (errno != ENOENT)
			log_warn("%s", live_path);
		return;
	}
	n = runtime_lines(data, len, LIVE_MAX_RECORDS, live_parse);
	free(data);
	log_debug("%s: %d records", live_path, n);
}

/*
 * An agent met for the first time: if a helper before us judged this very
 * agent, its clocks go on from there (first seen, last output) and the
 * verdict it had, if still the verdict, keeps its "since" (watch.c).
 */
void
live_agent_met(struct pane *p)
{
	struct live_record	*lr, *lr1;
	struct watch		*w = p->watch;
	uint64_t		 out;

	TAILQ_FOREACH_SAFE(lr, &live_records, entry, lr1) {
		if (lr->pane != p->id)
			continue;
		TAILQ_REMOVE(&live_records, lr, entry);
		if (lr->pid == p->pid && lr->agent_pid == w->agent_pid &&
		    proc_start_same(lr->agent_start, w->agent_start) &&
		    w->agent != NULL &&
		    strcmp(lr->agent, w->agent->name) == 0) {
			log_debug("pane %%%d: %s was %s before us", p->id,
			    lr->agent, cls_state_name(lr->state));
			w->agent_since = live_mono(lr->seen);
			if ((out = live_mono(lr->output)) > p->out_last &&
			    lr->output > 0)
				p->out_last = out;
			w->starting = 0;
			w->carry_state = lr->state;
			w->carry_since = lr->since;
			if (lr->quiet > 0) {
				w->carry_quiet = live_mono(lr->quiet);
				w->carry_from = live_loaded;
				w->carry_until = time_mono_ms() + LIVE_MET_MS;
			}
		}
		free(lr);
	}
}

void
live_close(void)
{
	struct live_record	*lr;

	while ((lr = TAILQ_FIRST(&live_records)) != NULL) {
		TAILQ_REMOVE(&live_records, lr, entry);
		free(lr);
	}
	free(live_path);
	live_path = NULL;
}
