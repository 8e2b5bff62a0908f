/*
 * One control-mode line to one typed event. The line is modified in place
 * (fields are NUL-terminated). Returns 0 when the line parsed, -1 when it is
 * malformed; the caller logs and skips it. A %word we do not know parses as
 * CTL_UNKNOWN so that newer tmux versions never break us.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"

static const char *ctl_type_names[CTL_NTYPES] = {
	[CTL_UNKNOWN] = "unknown",
	[CTL_BEGIN] = "begin",
	[CTL_END] = "end",
	[CTL_ERROR] = "error",
	[CTL_OUTPUT] = "output",
	[CTL_PAUSE] = "pause",
	[CTL_CONTINUE] = "continue",
	[CTL_WINDOW_ADD] = "window-add",
	[CTL_WINDOW_CLOSE] = "window-close",
	[CTL_WINDOW_RENAMED] = "window-renamed",
	[CTL_UNLINKED_WINDOW_ADD] = "unlinked-window-add",
	[CTL_UNLINKED_WINDOW_CLOSE] = "unlinked-window-close",
	[CTL_UNLINKED_WINDOW_RENAMED] = "unlinked-window-renamed",
	[CTL_LAYOUT_CHANGE] = "layout-change",
	[CTL_WINDOW_PANE_CHANGED] = "window-pane-changed",
	[CTL_SESSION_CHANGED] = "session-changed",
	[CTL_CLIENT_SESSION_CHANGED] = "client-session-changed",
	[CTL_SESSION_RENAMED] = "session-renamed",
	[CTL_SESSIONS_CHANGED] = "sessions-changed",
	[CTL_SESSION_WINDOW_CHANGED] = "session-window-changed",
	[CTL_PANE_MODE_CHANGED] = "pane-mode-changed",
	[CTL_CLIENT_DETACHED] = "client-detached",
	[CTL_SUBSCRIPTION_CHANGED] = "subscription-changed",
	[CTL_CONFIG_ERROR] = "config-error",
	[CTL_MESSAGE] = "message",
	[CTL_PASTE_BUFFER_CHANGED] = "paste-buffer-changed",
	[CTL_PASTE_BUFFER_DELETED] = "paste-buffer-deleted",
	[CTL_EXIT] = "exit",
};

const char *
ctl_type_name(enum ctl_type t)
{
	if (t < 0 || t >= CTL_NTYPES || ctl_type_names[t] == NULL)
		return ("unknown");
	return (ctl_type_names[t]);
}

/* The line being taken apart: p moves forward, end is fixed. */
struct cursor {
	char	*p;
	char	*end;
};

/* Next space-separated word, NUL-terminated; NULL at the end of line. */
static char *
cur_word(struct cursor *c)
{
	char	*w = c->p, *sp;

	if (c->p >= c->end)
		return (NULL);
	sp = memchr(c->p, ' ', (size_t)(c->end - c->p));
	if (sp == NULL) {
		c->p = c->end;
		return (w);
	}
	*sp = '\0';
	c->p = sp + 1;
	return (w);
}

/* The rest of the line, as is (may be empty, never NULL). */
static char *
cur_rest(struct cursor *c, size_t *len)
{
	char	*r = c->p;

	if (len != NULL)
		*len = (size_t)(c->end - c->p);
	c->p = c->end;
	return (r);
}

/* Parse a prefixed id ("$3", "@4", "%5"); -1 if not one. */
static int
cur_id(struct cursor *c, char prefix)
{
	char		*w, *end;
	unsigned long	 v;

	if ((w = cur_word(c)) == NULL || w[0] != prefix || w[1] < '0' ||
	    w[1] > '9')
		return (-1);
	errno = 0;
	v = strtoul(w + 1, &end, 10);
	if (*end != '\0' || errno != 0 || v > 0x7fffffff)
		return (-1);
	return ((int)v);
}

static int
cur_ulong(struct cursor *c, unsigned long long *out)
{
	char	*w, *end;

	if ((w = cur_word(c)) == NULL || *w < '0' || *w > '9')
		return (-1);
	errno = 0;
	*out = strtoull(w, &end, 10);
	if (*end != '\0' || errno != 0)
		return (-1);
	return (0);
}

static int
parse_block(struct cursor *c, struct ctl_event *ev)
{
	unsigned long long	t, n, f;

	if (cur_ulong(c, &t) != 0 || cur_ulong(c, &n) != 0 ||
	    cur_ulong(c, &f) != 0 || c->p != c->end)
		return (-1);
	ev->time = (long long)t;
	ev->number = (unsigned long)n;
	ev->cmdflags = (int)f;
	return (0);
}

/* %subscription-changed name $S @W idx %P : value ("-" for missing parts) */
static int
parse_subscription(struct cursor *c, struct ctl_event *ev)
{
	char	*sep, *w, *end;
	int	 i;

	sep = NULL;
	for (w = c->p; w + 2 < c->end; w++) {
		if (w[0] == ' ' && w[1] == ':' && w[2] == ' ') {
			sep = w;
			break;
		}
	}
	if (sep == NULL && c->end - c->p >= 2 && c->end[-1] == ':' &&
	    c->end[-2] == ' ')
		sep = c->end - 2;	/* empty value */
	if (sep == NULL)
		return (-1);
	*sep = '\0';
	ev->text = sep + 3 <= c->end ? sep + 3 : c->end;
	ev->textlen = (size_t)(c->end - ev->text);

	{
		struct cursor	h = { c->p, sep };

		if ((ev->name = cur_word(&h)) == NULL)
			return (-1);
		for (i = 0; i < 4; i++) {
			if ((w = cur_word(&h)) == NULL)
				return (-1);
			if (strcmp(w, "-") == 0)
				continue;
			switch (i) {
			case 0:
				if (w[0] != '$')
					return (-1);
				ev->session = (int)strtol(w + 1, &end, 10);
				break;
			case 1:
				if (w[0] != '@')
					return (-1);
				ev->window = (int)strtol(w + 1, &end, 10);
				break;
			case 2:
				ev->index = (int)strtol(w, &end, 10);
				break;
			default:
				if (w[0] != '%')
					return (-1);
				ev->pane = (int)strtol(w + 1, &end, 10);
				break;
			}
			if (*end != '\0')
				return (-1);
		}
	}
	c->p = c->end;
	return (0);
}

static const struct {
	const char	*word;
	enum ctl_type	 type;
} ctl_words[] = {
	{ "%output", CTL_OUTPUT },
	{ "%extended-output", CTL_OUTPUT },
	{ "%begin", CTL_BEGIN },
	{ "%end", CTL_END },
	{ "%error", CTL_ERROR },
	{ "%pause", CTL_PAUSE },
	{ "%continue", CTL_CONTINUE },
	{ "%window-add", CTL_WINDOW_ADD },
	{ "%window-close", CTL_WINDOW_CLOSE },
	{ "%window-renamed", CTL_WINDOW_RENAMED },
	{ "%unlinked-window-add", CTL_UNLINKED_WINDOW_ADD },
	{ "%unlinked-window-close", CTL_UNLINKED_WINDOW_CLOSE },
	{ "%unlinked-window-renamed", CTL_UNLINKED_WINDOW_RENAMED },
	{ "%layout-change", CTL_LAYOUT_CHANGE },
	{ "%window-pane-changed", CTL_WINDOW_PANE_CHANGED },
	{ "%session-changed", CTL_SESSION_CHANGED },
	{ "%client-session-changed", CTL_CLIENT_SESSION_CHANGED },
	{ "%session-renamed", CTL_SESSION_RENAMED },
	{ "%sessions-changed", CTL_SESSIONS_CHANGED },
	{ "%session-window-changed", CTL_SESSION_WINDOW_CHANGED },
	{ "%pane-mode-changed", CTL_PANE_MODE_CHANGED },
	{ "%client-detached", CTL_CLIENT_DETACHED },
	{ "%subscription-changed", CTL_SUBSCRIPTION_CHANGED },
	{ "%config-error", CTL_CONFIG_ERROR },
	{ "%message", CTL_MESSAGE },
	{ "%paste-buffer-changed", CTL_PASTE_BUFFER_CHANGED },
	{ "%paste-buffer-deleted", CTL_PASTE_BUFFER_DELETED },
	{ "%exit", CTL_EXIT },
};

static enum ctl_type
lookup(const char *w)
{
	size_t	i;

	for (i = 0; i < sizeof ctl_words / sizeof ctl_words[0]; i++) {
		if (strcmp(ctl_words[i].word, w) == 0)
			return (ctl_words[i].type);
	}
	return (CTL_UNKNOWN);
}

int
ctl_parse(char *line, size_t len, struct ctl_event *ev)
{
	struct cursor		 c = { line, line + len };
	char			*w;
	unsigned long long	 age;

	memset(ev, 0, sizeof *ev);
	ev->session = ev->window = ev->pane = ev->index = -1;
	ev->text = "";

	if (len == 0 || line[0] != '%')
		return (-1);
	/* %output is by far the most common: match it before anything else. */
	if (len > 8 && memcmp(line, "%output ", 8) == 0) {
		ev->type = CTL_OUTPUT;
		ev->word = "%output";
		c.p = line + 8;
		if ((ev->pane = cur_id(&c, '%')) == -1)
			return (-1);
		ev->text = cur_rest(&c, &ev->textlen);
		return (0);
	}
	w = cur_word(&c);
	ev->word = w;
	ev->type = lookup(w);
	ev->word = ctl_type_name(ev->type);

	switch (ev->type) {
	case CTL_UNKNOWN:
		ev->text = cur_rest(&c, &ev->textlen);
		return (0);
	case CTL_BEGIN:
	case CTL_END:
	case CTL_ERROR:
		return (parse_block(&c, ev));
	case CTL_OUTPUT:
		/* %extended-output %P age [more args] : data */
		if ((ev->pane = cur_id(&c, '%')) == -1)
			return (-1);
		if (cur_ulong(&c, &age) != 0)
			return (-1);
		ev->age = age;
		/* Words up to a lone ":" are reserved for future use. */
		while ((w = cur_word(&c)) != NULL) {
			if (strcmp(w, ":") == 0) {
				ev->text = cur_rest(&c, &ev->textlen);
				return (0);
			}
		}
		return (-1);
	case CTL_PAUSE:
	case CTL_CONTINUE:
	case CTL_PANE_MODE_CHANGED:
		if ((ev->pane = cur_id(&c, '%')) == -1)
			return (-1);
		break;
	case CTL_WINDOW_ADD:
	case CTL_WINDOW_CLOSE:
	case CTL_UNLINKED_WINDOW_ADD:
	case CTL_UNLINKED_WINDOW_CLOSE:
		if ((ev->window = cur_id(&c, '@')) == -1)
			return (-1);
		break;
	case CTL_WINDOW_RENAMED:
	case CTL_UNLINKED_WINDOW_RENAMED:
		if ((ev->window = cur_id(&c, '@')) == -1)
			return (-1);
		ev->name = cur_rest(&c, NULL);
		return (0);
	case CTL_LAYOUT_CHANGE:
		if ((ev->window = cur_id(&c, '@')) == -1)
			return (-1);
		if ((ev->layout = cur_word(&c)) == NULL)
			return (-1);
		ev->visible_layout = cur_word(&c);
		ev->flags = cur_rest(&c, NULL);
		return (0);
	case CTL_WINDOW_PANE_CHANGED:
		if ((ev->window = cur_id(&c, '@')) == -1 ||
		    (ev->pane = cur_id(&c, '%')) == -1)
			return (-1);
		break;
	case CTL_SESSION_CHANGED:
	case CTL_SESSION_RENAMED:
		if ((ev->session = cur_id(&c, '$')) == -1)
			return (-1);
		ev->name = cur_rest(&c, NULL);
		return (0);
	case CTL_CLIENT_SESSION_CHANGED:
		if ((ev->client = cur_word(&c)) == NULL ||
		    (ev->session = cur_id(&c, '$')) == -1)
			return (-1);
		ev->name = cur_rest(&c, NULL);
		return (0);
	case CTL_SESSION_WINDOW_CHANGED:
		if ((ev->session = cur_id(&c, '$')) == -1 ||
		    (ev->window = cur_id(&c, '@')) == -1)
			return (-1);
		break;
	case CTL_CLIENT_DETACHED:
		if ((ev->client = cur_word(&c)) == NULL)
			return (-1);
		break;
	case CTL_SUBSCRIPTION_CHANGED:
		return (parse_subscription(&c, ev));
	case CTL_PASTE_BUFFER_CHANGED:
	case CTL_PASTE_BUFFER_DELETED:
		if ((ev->name = cur_word(&c)) == NULL)
			return (-1);
		break;
	case CTL_SESSIONS_CHANGED:
		break;
	case CTL_CONFIG_ERROR:
	case CTL_MESSAGE:
	case CTL_EXIT:
		ev->text = cur_rest(&c, &ev->textlen);
		return (0);
	case CTL_NTYPES:
		return (-1);
	}
	/* Trailing words on a fixed-form line: newer tmux may add some. */
	if (c.p < c.end)
		ev->flags = cur_rest(&c, NULL);
	return (0);
}
