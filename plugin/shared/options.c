/*
 * The @lisa-* options: the table, and the check of a value against its
 * kind. Pure, for the helper and a unit test; docs/ui.md's table is this.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "options.h"
#include "ui-format.h"
#include "usage.h"

/* What a seconds option can be: a year (lisa's clocks are milliseconds). */
#define OPTIONS_SECONDS_MAX	(86400.0 * 365)

static const struct option_def options_table[] = {
	/* what lisa reads and when (docs/classification.md) */
	{ "@lisa-debounce", OPTION_SECONDS, "1.5", NULL },
	{ "@lisa-grace", OPTION_SECONDS, "10", NULL },
	{ "@lisa-stale", OPTION_SECONDS_POS, "240", NULL },
	{ "@lisa-limit-wait", OPTION_SECONDS, "60", NULL },
	{ "@lisa-retry-delay", OPTION_SECONDS, "1", NULL },
	{ "@lisa-keep-failed", OPTION_FLAG, "on", NULL },
	{ "@lisa-events-max-bytes", OPTION_COUNT, "1048576", NULL },
	{ "@lisa-events-max-lines", OPTION_COUNT, "10000", NULL },
	{ "@lisa-ignore-sessions", OPTION_TEXT, "", NULL },
	{ "@lisa-context-windows", OPTION_WINDOWS, "", NULL },
	/* the status line, badges, borders and keys (docs/ui.md) */
	{ "@lisa-status-order", OPTION_ORDER,
	  "asks working waiting done crashed stuck degraded", NULL },
	{ "@lisa-icon-<group>", OPTION_ICON, "(lisa's)", NULL },
	{ "@lisa-color-<group>", OPTION_COLOUR, "(lisa's)", NULL },
	{ "@lisa-colour-<group>", OPTION_COLOUR, "(lisa's)", NULL },
	{ "@lisa-ascii", OPTION_FLAG, "off", NULL },
	{ "@lisa-status-separator", OPTION_SEPARATOR, " ", NULL },
	{ "@lisa-window-badge", OPTION_FLAG, "on", NULL },
	{ "@lisa-pane-border", OPTION_FLAG, "on", NULL },
	{ "@lisa-border-format", OPTION_TEXT, "(lisa's)", NULL },
	{ "@lisa-fields", OPTION_FLAG, "off", NULL },
	{ "@lisa-resume-resurrect", OPTION_FLAG, "off", NULL },
	{ "@lisa-menu-key", OPTION_KEY, "a", NULL },
	{ "@lisa-next-key", OPTION_KEY, "A", NULL },
	{ "@lisa-details-key", OPTION_KEY, "none", NULL },
	/* notifications */
	{ "@lisa-notify-waiting", OPTION_FLAG, "off", NULL },
	{ "@lisa-notify-asks", OPTION_FLAG, "(as -waiting)", NULL },
	{ "@lisa-notify-crashed", OPTION_FLAG, "off", NULL },
	{ "@lisa-notify-stuck", OPTION_FLAG, "off", NULL },
	{ "@lisa-notify-message", OPTION_FLAG, "on", NULL },
	{ "@lisa-notify-bell", OPTION_FLAG, "on", NULL },
	{ "@lisa-notify-desktop", OPTION_FLAG, "on", NULL },
	{ "@lisa-notify-terminal", OPTION_CHOICE, "auto",
	  "auto osc9 osc777 osc99 off" },
	{ "@lisa-notify-sound", OPTION_TEXT, "", NULL },
	{ "@lisa-notify-cooldown", OPTION_SECONDS, "10", NULL },
	{ "@lisa-notify-url", OPTION_URL, "", NULL },
	{ "@lisa-notify-url-format", OPTION_CHOICE, "ntfy", "ntfy json" },
	{ "@lisa-notify-buttons", OPTION_FLAG, "on", NULL },
	{ "@lisa-notify-always", OPTION_FLAG, "off", NULL },
	{ "@lisa-notify-button-expiry", OPTION_SECONDS_POS, "900", NULL },
	{ "@lisa-notify-reply-url", OPTION_URL, "(-url's topic, -reply)", NULL },
	{ "@lisa-telegram-token", OPTION_TEXT, "", NULL },
	{ "@lisa-telegram-chat", OPTION_TEXT, "", NULL },
	{ "@lisa-telegram-api", OPTION_URL, "https://api.telegram.org", NULL },
	{ "@lisa-on-transition", OPTION_TEXT, "", NULL },
	/* the watchdog (docs/lifecycle.md) */
	{ "@lisa-watchdog", OPTION_FLAG, "off", NULL },
	{ "@lisa-watchdog-stale", OPTION_SECONDS_POS, "300", NULL },
	{ "@lisa-watchdog-step", OPTION_SECONDS_POS, "60", NULL },
	{ "@lisa-watchdog-nudge", OPTION_TEXT, "continue", NULL },
	{ "@lisa-triage-command", OPTION_TEXT, "", NULL },
	{ "@lisa-triage-timeout", OPTION_SECONDS_POS, "60", NULL },
	{ "@lisa-persistent", OPTION_FLAG, "off", NULL },
	/* the fleet (docs/fleet.md) */
	{ "@lisa-hosts", OPTION_HOSTS, "", NULL },
	{ "@lisa-ssh-command", OPTION_TEXT, "ssh", NULL },
	{ "@lisa-remote-lisa", OPTION_TEXT, "lisa", NULL },
	{ "@lisa-remote-tmux", OPTION_TEXT, "tmux", NULL },
};
#define OPTIONS_N (sizeof options_table / sizeof options_table[0])

static const char *options_kinds[] = {
	"a number of seconds", "a number of seconds above 0", "on or off",
	"a whole number above 0", "one of", "group names",
	"an http(s) URL", "a colour (a name, colourN or #rrggbb)",
	"text of at most 32 bytes", "text of at most 16 bytes",
	"a tmux key, or none", "ssh destinations", "PREFIX=TOKENS words",
	"any text"
};

size_t
options_count(void)
{
	return (OPTIONS_N);
}

const struct option_def *
options_get(size_t i)
{
	return (i < OPTIONS_N ? &options_table[i] : NULL);
}

const char *
options_kind_name(enum option_kind k)
{
	return (options_kinds[k]);
}

/* A name, or a per-group name ("@lisa-icon-asks"): its row, or NULL. */
const struct option_def *
options_find(const char *name)
{
	const struct option_def	*o;
	const char		*lt;
	size_t			 i, n;

	for (i = 0; i < OPTIONS_N; i++) {
		o = &options_table[i];
		if ((lt = strchr(o->name, '<')) == NULL) {
			if (strcmp(name, o->name) == 0)
				return (o);
			continue;
		}
		n = (size_t)(lt - o->name);
		if (strncmp(name, o->name, n) == 0 &&
		    ui_group_find(name + n) != -1)
			return (o);
	}
	return (NULL);
}

/* 1 on, 0 off, -1 neither (the words tmux takes for its own flags). */
int
options_flag(const char *v)
{
	if (strcmp(v, "on") == 0 || strcmp(v, "yes") == 0 ||
	    strcmp(v, "1") == 0)
		return (1);
	if (strcmp(v, "off") == 0 || strcmp(v, "no") == 0 ||
	    strcmp(v, "0") == 0)
		return (0);
	return (-1);
}

/* Seconds as milliseconds: 0, or -1 for what is not 0 to a year. */
int
options_seconds(const char *v, uint64_t *ms)
{
	char	*end;
	double	 d;
	size_t	 n;

	while (isspace((unsigned char)*v))
		v++;
	/* Digits and one point: not strtod's sign, inf, nan, hex, e. */
	n = strspn(v, "0123456789.");
	if (n == 0 || strspn(v, ".") == n || strchr(v, '.') !=
	    strrchr(v, '.'))
		return (-1);
	d = strtod(v, &end);
	if (end != v + n)
		return (-1);
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0' || !isfinite(d) || d > OPTIONS_SECONDS_MAX)
		return (-1);
	*ms = (uint64_t)(d * 1000 + 0.5);
	return (0);
}

int
options_url_valid(const char *url)
{
	const char	*p;

	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return (0);
	if (strlen(url) > OPTIONS_URL_MAX)
		return (0);
	p = url + (url[4] == 's' ? 8 : 7);
	if (*p == '\0' || *p == '/')
		return (0);	/* no host */
	for (p = url; *p != '\0'; p++) {
		if ((unsigned char)*p <= 0x20 || *p == 0x7f)
			return (0);
	}
	return (1);
}

static int
options_count_valid(const char *v)
{
	char		*end;
	unsigned long	 n;

	if (!isdigit((unsigned char)*v))
		return (0);
	n = strtoul(v, &end, 10);
	return (*end == '\0' && n > 0 && n < 1UL << 31);
}

static int
options_choice(const char *values, const char *v)
{
	size_t	n = strlen(v);
	const char *p;

	if (n == 0 || strchr(v, ' ') != NULL)
		return (0);
	for (p = values; (p = strstr(p, v)) != NULL; p += n) {
		if ((p == values || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' '))
			return (1);
	}
	return (0);
}

/* A tmux key: one word (C-a, M-x, F5, a, BSpace...), or none. */
static int
options_key_valid(const char *v)
{
	size_t	n = strlen(v);

	return (n > 0 && n <= 32 && strcspn(v, " \t\n\"'#;") == n);
}

/*
 * Why an @lisa-hosts entry is not one the fleet takes, or NULL: the rule
 * fleet_apply keeps (an entry starting with '-' would be an ssh option).
 */
const char *
options_host_invalid(const char *word)
{
	if (*word == '-')
		return ("it would be an ssh option");
	if (*word == '/')
		return ("a path");
	if (strlen(word) >= OPTIONS_HOST_LEN)
		return ("too long");
	return (NULL);
}

/* The fleet skips an entry it cannot take; say which. */
static enum option_check
options_hosts(const char *v, char *why, size_t len)
{
	char		*copy, *rest, *word;
	const char	*bad;
	int		 n = 0;
	enum option_check rc = OPTION_OK;

	copy = rest = xstrdup(v);
	while ((word = strsep(&rest, OPTIONS_HOSTS_SEP)) != NULL) {
		if (*word == '\0')
			continue;
		if ((bad = options_host_invalid(word)) != NULL) {
			snprintf(why, len, "\"%.64s\" is not a host (%s), "
			    "left out", word, bad);
			rc = OPTION_PARTLY;
			break;
		}
		if (++n > OPTIONS_HOSTS_MAX) {
			snprintf(why, len, "more than %d hosts: \"%.64s\" and "
			    "the rest are left out", OPTIONS_HOSTS_MAX, word);
			rc = OPTION_PARTLY;
			break;
		}
	}
	free(copy);
	return (rc);
}

/* PREFIX=TOKENS words: one that is not is ignored (usage_window_word). */
static enum option_check
options_windows(const char *v, char *why, size_t len)
{
	const char	*p, *end;
	size_t		 n;
	long long	 tokens;

	for (p = v; *p != '\0'; p = end) {
		p += strspn(p, " ");
		end = p + strcspn(p, " ");
		if (p == end || usage_window_word(p, end, &n, &tokens) == 0)
			continue;
		snprintf(why, len, "\"%.*s\" is not PREFIX=TOKENS, left out",
		    (int)(end - p > 64 ? 64 : end - p), p);
		return (OPTION_PARTLY);
	}
	return (OPTION_OK);
}

/* What the status line's own code makes of it (ui-format.c). */
static int
options_ui_valid(const char *name, const char *v)
{
	struct ui_config	cfg;
	int			rc;

	ui_config_defaults(&cfg);
	rc = ui_config_set(&cfg, name, v);
	ui_config_free(&cfg);
	return (rc == 0);
}

/*
 * Can lisa use VALUE for option NAME? OPTION_BAD and OPTION_PARTLY say why
 * in WHY ("not a number of seconds").
 */
enum option_check
options_check(const char *name, const char *v, char *why, size_t len)
{
	const struct option_def	*o;
	uint64_t		 ms;
	char			*p;
	int			 ok = 1;

	*why = '\0';
	if ((o = options_find(name)) == NULL) {
		snprintf(why, len, "not an option of lisa's");
		return (OPTION_UNKNOWN);
	}
	switch (o->kind) {
	case OPTION_SECONDS:
		ok = options_seconds(v, &ms) == 0;
		break;
	case OPTION_SECONDS_POS:
		ok = options_seconds(v, &ms) == 0 && ms > 0;
		break;
	case OPTION_FLAG:
		ok = options_flag(v) != -1;
		break;
	case OPTION_COUNT:
		ok = options_count_valid(v);
		break;
	case OPTION_CHOICE:
		ok = options_choice(o->values, v);
		break;
	case OPTION_URL:
		ok = *v == '\0' || options_url_valid(v);
		break;
	case OPTION_KEY:
		ok = options_key_valid(v);
		break;
	case OPTION_ORDER:
	case OPTION_COLOUR:
	case OPTION_ICON:
	case OPTION_SEPARATOR:
		ok = options_ui_valid(name, v);
		break;
	case OPTION_HOSTS:
		return (options_hosts(v, why, len));
	case OPTION_WINDOWS:
		return (options_windows(v, why, len));
	case OPTION_TEXT:
		break;
	}
	if (ok)
		return (OPTION_OK);
	if (o->kind == OPTION_CHOICE) {
		snprintf(why, len, "not one of %s", o->values);
		for (p = why; (p = strchr(p, ' ')) != NULL; p++) {
			if (p > why + 10)
				*p = ',';	/* "not one of a,b,c" */
		}
	}
	else
		snprintf(why, len, "not %s", options_kind_name(o->kind));
	return (OPTION_BAD);
}
