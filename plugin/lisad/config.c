/*
 * The user's @lisa-* options, read at start and on `lisa reload`: each
 * value checked against its kind (plugin/shared/options.c) before the
 * subsystem that reads it sees it. A value lisa cannot use keeps the
 * default and is said: once on the clients a human uses, in `lisa
 * doctor`, `lisa info` and `lisa reload`. Never taken silently as
 * something else ("maybe" as off, "-5" as a huge number).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"
#include "fleet.h"
#include "watch.h"
#include "tell.h"
#include "tap.h"

#define CONFIG_WARN_MAX		64	/* said; the rest counted */
#define CONFIG_SAY_MS		"10000"	/* on the clients, ms */

static char	*config_warns[CONFIG_WARN_MAX];
static u_int	 config_nwarns;
static u_int	 config_dropped;
static int	 config_unsaid;	/* warnings no client has been shown yet */

/*
 * show-options double-quotes a value with a space or a special character
 * in it, escaping '"', '\\' and '$' with a backslash (every version):
 * a @lisa-on-transition of 'echo "$X"' must run as the user wrote it.
 */
static void
config_unquote(char *s)
{
	char	*o = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && (s[1] == '"' || s[1] == '\\' ||
		    s[1] == '$'))
			s++;
		*o++ = *s;
	}
	*o = '\0';
}

/* The warnings of the last reload, for info, doctor and reload. */
u_int
config_warnings(const char ***list)
{
	*list = (const char **)config_warns;
	return (config_nwarns);
}

/* A value for a message: its start, no control byte. */
static void
config_value(struct buf *b, const char *v)
{
	size_t	i;

	buf_addc(b, '"');
	/* (48 bytes, and the rest of a character cut there) */
	for (i = 0; v[i] != '\0' && (i < 48 ||
	    ((unsigned char)v[i] & 0xc0) == 0x80); i++)
		buf_addc(b, (unsigned char)v[i] < 0x20 || v[i] == 0x7f ?
		    '?' : v[i]);
	if (v[i] != '\0')
		buf_adds(b, "...");
	buf_addc(b, '"');
}

static void
config_warn(const char *name, const char *value, enum option_check rc,
    const char *why)
{
	const struct option_def	*o = options_find(name);
	struct buf		 b;

	buf_init(&b);
	buf_adds(&b, name);
	/* (a URL may hold its token: never said back) */
	if (rc != OPTION_UNKNOWN && (o == NULL || (o->kind != OPTION_URL &&
	    strstr(name, "-token") == NULL))) {
		buf_addc(&b, ' ');
		config_value(&b, value);
	}
	buf_printf(&b, ": %s", why);
	if (rc == OPTION_UNKNOWN)
		buf_adds(&b, " (a typo?); ignored");
	else if (rc == OPTION_BAD && o != NULL && *o->dflt == '(')
		buf_adds(&b, "; lisa's default is used");
	else if (rc == OPTION_BAD && o != NULL && *o->dflt == ' ')
		buf_printf(&b, "; \"%s\" is used", o->dflt);
	else if (rc == OPTION_BAD && o != NULL && *o->dflt != '\0')
		buf_printf(&b, "; %s is used", o->dflt);
	else if (rc == OPTION_BAD)
		buf_adds(&b, "; off");
	log_warnx("%s", b.data);
	if (config_nwarns < CONFIG_WARN_MAX)
		config_warns[config_nwarns++] = xstrdup(b.data);
	else
		config_dropped++;
	buf_free(&b);
}

static void
config_warn_reset(void)
{
	u_int	i;

	for (i = 0; i < config_nwarns; i++)
		free(config_warns[i]);
	config_nwarns = 0;
	config_dropped = 0;
	config_unsaid = 0;
}

/* The clients a human uses, each told once (control clients are ours). */
static void
config_say_cb(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct session	*s;
	struct buf	 text, esc, cmd;
	char		*copy, *rest, *line, *f[2];
	u_int		 i, said = 0;

	if (!config_unsaid || !ok || (s = session_hearing()) == NULL)
		return;
	buf_init(&text);
	if (config_nwarns == 1)
		buf_printf(&text, "lisa: %s (lisa doctor)", config_warns[0]);
	else {
		buf_printf(&text, "lisa: %u settings not used as set:",
		    config_nwarns + config_dropped);
		for (i = 0; i < config_nwarns && i < 4; i++) {
			buf_printf(&text, " %.*s", (int)strcspn(config_warns[i],
			    " :"), config_warns[i]);
		}
		buf_adds(&text, " (lisa doctor says more)");
	}
	/* (a value's # would start a format there) */
	buf_init(&esc);
	ctl_format_escape(&esc, text.data);
	buf_init(&cmd);
	copy = rest = xstrndup(body, len);
	while ((line = strsep(&rest, "\n")) != NULL) {
		if (session_reply_fields(line, f, 2) != 0 ||
		    strcmp(f[1], "1") == 0)
			continue;
		buf_reset(&cmd);
		buf_adds(&cmd, "display-message -d " CONFIG_SAY_MS " -c ");
		ctl_quote_str(&cmd, f[0]);
		buf_addc(&cmd, ' ');
		ctl_quote_str(&cmd, esc.data);
		if (session_send(s, cmd.data, NULL, NULL) == 0)
			said++;
	}
	if (said != 0)
		config_unsaid = 0;
	free(copy);
	buf_free(&cmd);
	buf_free(&esc);
	buf_free(&text);
}

/* Say the warnings now, or when a human's client comes (config_client). */
static void
config_say(void)
{
	struct session	*s;
	struct buf	 b;

	/* 3.2a cannot address a client: doctor, info and reload say it. */
	if (!config_unsaid || !lisad.caps.display_client ||
	    (s = session_hearing()) == NULL)
		return;
	buf_init(&b);
	buf_adds(&b, "list-clients -F ");
	ctl_quote_str(&b, "#{client_name}\037#{client_control_mode}");
	session_send(s, b.data, config_say_cb, NULL);
	buf_free(&b);
}

/* A client attached somewhere (%client-session-changed). */
void
config_client(void)
{
	config_say();
}

/*
 * Read the @lisa-* options (one show-options for all) and the agent
 * profiles. At start, and on `lisa reload`.
 */
void
config_reload(void)
{
	char	*out = NULL, *line, *rest, *value, *cause = NULL;
	char	*plain = NULL, why[160];
	size_t	 n;
	int	 quoted;
	enum option_check rc;

	lisad.debounce_ms = 1500;
	lisad.grace_ms = 10000;
	lisad.limit_wait_ms = 60000;
	lisad.stale_ms = 240000;
	lisad.keep_failed = 1;
	lisad.events_max_bytes = 1024 * 1024;
	lisad.events_max_lines = 10000;
	lisad.retry_delay_ms = 1000;
	free(lisad.context_windows);
	lisad.context_windows = NULL;
	config_warn_reset();
	ui_reset();
	notify_reset();
	watchdog_reset_config();
	fleet_reset_config();
	if (tmux_run(&out, "show-options", "-g", (char *)NULL) == 0) {
		rest = out;
		while ((line = strsep(&rest, "\n")) != NULL) {
			if (strncmp(line, "@lisa-", 6) != 0 ||
			    (value = strchr(line, ' ')) == NULL)
				continue;
			*value++ = '\0';
			n = strlen(value);
			quoted = n >= 2 && value[0] == '"' &&
			    value[n - 1] == '"';
			if (quoted) {
				value[n - 1] = '\0';
				value++;
			}
			/* 3.4/3.5 print it escaped (best effort). */
			free(plain);
			plain = NULL;
			if (lisad.caps.reply_escaped) {
				ctl_unvis(value, lisad.caps.dollar_escaped,
				    &plain);
				value = plain;
			}
			if (quoted)
				config_unquote(value);
			rc = options_check(line, value, why, sizeof why);
			if (rc != OPTION_OK)
				config_warn(line, value, rc, why);
			if (rc == OPTION_BAD || rc == OPTION_UNKNOWN)
				continue;	/* its default stays */
			ui_option(line, value);
			notify_option(line, value);
			watchdog_option(line, value);
			fleet_option(line, value);
			if (strcmp(line, "@lisa-debounce") == 0)
				options_seconds(value, &lisad.debounce_ms);
			else if (strcmp(line, "@lisa-grace") == 0)
				options_seconds(value, &lisad.grace_ms);
			else if (strcmp(line, "@lisa-limit-wait") == 0)
				options_seconds(value, &lisad.limit_wait_ms);
			else if (strcmp(line, "@lisa-stale") == 0)
				options_seconds(value, &lisad.stale_ms);
			else if (strcmp(line, "@lisa-retry-delay") == 0)
				options_seconds(value, &lisad.retry_delay_ms);
			else if (strcmp(line, "@lisa-context-windows") == 0) {
				free(lisad.context_windows);
				lisad.context_windows = xstrdup(value);
			} else if (strcmp(line, "@lisa-keep-failed") == 0)
				lisad.keep_failed = options_flag(value) != 0;
			else if (strcmp(line, "@lisa-events-max-bytes") == 0)
				lisad.events_max_bytes = strtoull(value, NULL,
				    10);
			else if (strcmp(line, "@lisa-events-max-lines") == 0)
				lisad.events_max_lines = strtoull(value, NULL,
				    10);
		}
	}
	free(plain);
	free(out);
	if (lisad.events_max_bytes < 4096)
		lisad.events_max_bytes = 4096;
	if (lisad.events_max_lines < 10)
		lisad.events_max_lines = 10;
	free(lisad.agents_error);
	lisad.agents_error = NULL;
	/* Frees every profile: watch_reload below finds them again. */
	if (agent_load(NULL, &cause) != 0) {
		log_warnx("%s (built-in profiles only)", cause);
		lisad.agents_error = cause;
	}
	log_debug("debounce %llu ms, grace %llu ms, stale %llu ms, %d agents",
	    (unsigned long long)lisad.debounce_ms,
	    (unsigned long long)lisad.grace_ms,
	    (unsigned long long)lisad.stale_ms, agent_count());
	watch_reload();
	fleet_apply();
	tap_apply();
	if (config_nwarns != 0) {
		config_unsaid = 1;
		config_say();
	}
}

