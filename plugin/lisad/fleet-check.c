/*
 * Is a host's word still current? (issue 46) A connection is checked only
 * while it is suspected: its ssh was stopped, or this helper was (a
 * laptop's sleep, kill -STOP). The check is a ping through the bridge
 * (cmd-bridge.c), answered there at once after whatever came before it;
 * no answer in FLEET_CHECK_MS and the host is down: its ssh ended and a
 * new one started. At rest nothing runs here: ssh's own keepalives
 * (fleet.c) end a link that died while nothing was asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet.h"
#include "tell.h"

#define FLEET_CHECK_MS	4000

static void
fleet_check_cb(void *arg)
{
	struct fleet_host	*h = arg;
	char			 why[FLEET_MAX_STR + 64];

	h->checking = 0;
	snprintf(why, sizeof why, "no answer in %d s to a check (%s)",
	    FLEET_CHECK_MS / 1000, h->check_why);
	fleet_down(h, why);
}

/* Ask the host whether its connection still carries; why, for the log. */
void
fleet_check(struct fleet_host *h, const char *why)
{
	char	line[64];
	size_t	len;

	if ((h->state != FLEET_CONNECTED && h->state != FLEET_STALLED) ||
	    h->wfd == -1 || h->checking)
		return;
	h->check_id++;
	len = (size_t)snprintf(line, sizeof line,
	    "{\"t\":\"ping\",\"id\":%lld}\n", h->check_id);
	strlcpy(h->check_why, why, sizeof h->check_why);
	/* (a pipe its ssh does not read is full: that is the answer) */
	if (write(h->wfd, line, len) != (ssize_t)len) {
		fleet_down(h, errno == EAGAIN ? "its ssh takes nothing in" :
		    "its ssh's input closed");
		return;
	}
	h->checking = 1;
	loop_timer_init(&h->check, fleet_check_cb, h);
	loop_timer_add(&h->check, FLEET_CHECK_MS);
	log_debug("fleet %s: checked (%s)", h->name, why);
}

/* The bridge answered a check: its word is current again. */
int
fleet_check_answered(struct fleet_host *h, long long id)
{
	if (!h->checking || id != h->check_id)
		return (0);
	h->checking = 0;
	loop_timer_del(&h->check);
	log_debug("fleet %s: answered the check (%s)", h->name,
	    h->check_why);
	if (h->state == FLEET_STALLED)
		fleet_set_state(h, FLEET_CONNECTED, "");
	return (0);
}

/*
 * A host's ssh was stopped or continued (lisad.c's SIGCHLD): stopped, its
 * agents are not current; continued, checked.
 */
void
fleet_stopped(pid_t pid, int stopped)
{
	struct fleet_host	*h;

	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		if (h->pid != pid)
			continue;
		if (stopped && h->state == FLEET_CONNECTED) {
			log_warnx("fleet %s: its ssh is stopped", h->name);
			fleet_set_state(h, FLEET_STALLED, "its ssh is stopped");
		} else if (!stopped)
			fleet_check(h, "its ssh was stopped");
	}
}

/*
 * This helper was stopped, or the machine slept: check every host, and
 * try a down one again now (its backoff may have grown to a minute while
 * the network was gone with the lid closed).
 */
void
fleet_wake(const char *why)
{
	struct fleet_host	*h;

	TAILQ_FOREACH(h, &fleet_hosts, entry) {
		if (h->state == FLEET_DOWN)
			fleet_retry_now(h);
		else
			fleet_check(h, why);
	}
}

void
fleet_check_free(struct fleet_host *h)
{
	if (h->checking)
		loop_timer_del(&h->check);
	h->checking = 0;
}
