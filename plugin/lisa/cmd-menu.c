/*
 * What lisa's key bindings run (through run-shell -b, never on the helper's
 * control connection, which a menu would stall until it closes):
 *
 *   lisa key menu CLIENT	display-menu of agents by state, then actions
 *   lisa key next CLIENT	jump to the next pane that needs the human
 *   lisa key details CLIENT	display-popup with `lisa details` of its pane
 *   lisa details [TARGET]	state, reason, signals and the pane's events
 *
 * Everything shown comes from agents and users (session names, titles), so
 * menu and message texts have '#' doubled: tmux expands them as formats.
 */
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lisa.h"

#define MENU_MAX_AGENTS	40


char *
menu_str(struct json_doc *d, int obj, const char *key)
{
	char	*s = json_get_str(d, obj, key);

	return (s != NULL ? s : xstrdup(""));
}

static int
menu_cmp(const void *a0, const void *b0)
{
	const struct menu_agent	*a = a0, *b = b0;

	if (a->group != b->group)
		return (a->group < b->group ? -1 : 1);
	/* Those that ask: the one that has waited longest first. */
	if (a->group == UI_ASKS && a->age_ms != b->age_ms)
		return (a->age_ms > b->age_ms ? -1 : 1);
	/* Else: this tmux's first, then each host's together; by name. */
	if ((a->host == NULL) != (b->host == NULL))
		return (a->host == NULL ? -1 : 1);
	if (a->host != NULL && strcmp(a->host, b->host) != 0)
		return (ui_natcmp(a->host, b->host));
	return (ui_natcmp(a->where != NULL ? a->where : a->target,
	    b->where != NULL ? b->where : b->target));
}

/*
 * A host not connected now: its agents are what we last saw, not shown
 * as current (docs/fleet.md) but said in a line of their own.
 */
struct menu_stale {
	char		*host;
	char		*host_state;
	int		 n;
	long long	 seen_ms;	/* the most recent of them */
};

static void
menu_stale_add(struct menu_stale **stale, size_t *nstale,
    struct json_doc *d, int item)
{
	struct menu_stale	*s = NULL;
	char			*host = menu_str(d, item, "host");
	long long		 ms = -1;
	size_t			 i;

	json_get_int(d, item, "seen_age_ms", &ms);
	for (i = 0; i < *nstale; i++) {
		if (strcmp((*stale)[i].host, host) == 0)
			s = &(*stale)[i];
	}
	if (s == NULL) {
		*stale = xreallocarray(*stale, *nstale + 1, sizeof **stale);
		s = &(*stale)[(*nstale)++];
		s->host = host;
		s->host_state = menu_str(d, item, "host_state");
		s->n = 0;
		s->seen_ms = ms;
	} else
		free(host);
	s->n++;
	if (ms >= 0 && (s->seen_ms < 0 || ms < s->seen_ms))
		s->seen_ms = ms;
}

/* A line for each host whose agents are not current (if SHOW); freed. */
static void
menu_stale_items(struct menu_args *ma, struct menu_stale *stale,
    size_t nstale, int show)
{
	struct buf	 name;
	char		 age[16];
	size_t		 i;

	buf_init(&name);
	for (i = 0; i < nstale; i++) {
		menu_age(stale[i].seen_ms, age, sizeof age);
		buf_reset(&name);
		/* (a host's name is the user's; a heading is not chosen) */
		buf_adds(&name, "-  ");
		menu_text(&name, stale[i].host);
		buf_printf(&name, " %s: %d agent%s last seen %s ago",
		    stale[i].host_state, stale[i].n, stale[i].n == 1 ? "" : "s",
		    *age != '\0' ? age : "?");
		if (show)
			menu_item(ma, name.data, "", "");
		free(stale[i].host);
		free(stale[i].host_state);
	}
	free(stale);
	buf_free(&name);
}

/*
 * The agents the helper knows, worst group first; STALE (if not NULL):
 * those of hosts not connected now, by host (else left out).
 */
int
menu_agents(struct lisa_ctx *ctx, struct menu_agent **out, size_t *n,
    struct menu_stale **stale, size_t *nstale)
{
	struct json_doc		*d;
	struct menu_agent	*list = NULL, *m;
	char			*cause = NULL, *state;
	int			 panes, i, count, item, current;
	enum cls_state		 st;

	*n = 0;
	/* (brief: what a menu reads, a tenth of the whole list) */
	if (client_call(ctx, "{\"cmd\":\"list\",\"brief\":true}\n", &d,
	    &cause) != 0) {
		fprintf(stderr, "lisa: %s\n", cause);
		free(cause);
		return (-1);
	}
	panes = json_get(d, 0, "panes");
	count = json_array_size(d, panes);
	for (i = 0; i < count; i++) {
		item = json_array_item(d, panes, i);
		if ((state = json_get_str(d, item, "state")) == NULL)
			continue;
		st = cls_state_from_name(state);
		free(state);
		if (ui_group_of(st) == -1)
			continue;
		if (json_get_bool(d, item, "current", &current) == 0 &&
		    !current) {
			if (stale != NULL)
				menu_stale_add(stale, nstale, d, item);
			continue;
		}
		list = xreallocarray(list, *n + 1, sizeof *list);
		m = &list[(*n)++];
		m->pane = menu_str(d, item, "pane_id");
		/* A remote pane's target is %N@HOST already (the fleet). */
		if ((m->host = json_get_str(d, item, "host")) != NULL) {
			free(m->pane);
			m->pane = menu_str(d, item, "target");
		}
		m->target = menu_str(d, item, "target");
		m->session = menu_str(d, item, "session");
		m->window = menu_str(d, item, "window_name");
		if (json_get_int(d, item, "window", &m->window_index) != 0)
			m->window_index = -1;
		if (json_get_int(d, item, "pane_index", &m->pane_index) != 0)
			m->pane_index = -1;
		m->where = NULL;
		m->agent = menu_str(d, item, "agent");
		m->detail = menu_str(d, item, "detail");
		m->state = (int)st;
		m->group = ui_group_of_verdict(st, m->detail);
		if (json_get_int(d, item, "state_age_ms", &m->age_ms) != 0)
			m->age_ms = -1;
	}
	json_free(d);
	if (*n > 1)
		qsort(list, *n, sizeof *list, menu_cmp);
	*out = list;
	return (0);
}

void
menu_agent_free(struct menu_agent *m)
{
	free(m->pane);
	free(m->host);
	free(m->target);
	free(m->session);
	free(m->window);
	free(m->where);
	free(m->agent);
	free(m->detail);
}

void
menu_free(struct menu_agent *list, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		menu_agent_free(&list[i]);
	free(list);
}

/* Text for a format: the one boundary (ctl_format_escape). */
void
menu_text(struct buf *b, const char *s)
{
	ctl_format_escape(b, s);
}

/*
 * The pane a client looks at ("%N"), or NULL. The pane id comes first and
 * a space separates: no byte that some tmux escapes in replies (3.4 and
 * 3.5 send \037 as four characters), and a pane id has no space.
 */
char *
menu_client_pane(struct lisa_ctx *ctx, const char *client)
{
	const char	*argv[] = { "list-clients", "-F",
			    "#{pane_id} #{client_name}", NULL };

	if (*ctx->key_pane != '\0')	/* (the key said) */
		return (xstrdup(ctx->key_pane));
	return (client_tmux_find(ctx, argv, '%', client));
}

/* Replace this process with tmux ARGV (lisa's work is done). */
int
menu_exec(struct lisa_ctx *ctx, char **argv, int argc)
{
	char	**full;
	int	  i, n = 0;

	if (ctx->key_to != NULL)
		return (key_to_write(ctx, argv, argc));
	full = xcalloc((size_t)argc + 6, sizeof *full);
	full[n++] = (char *)"tmux";
	full[n++] = (char *)"-N";	/* never start a server */
	full[n++] = (char *)"-u";
	full[n++] = (char *)"-S";
	full[n++] = ctx->sid.socket;
	for (i = 0; i < argc; i++)
		full[n++] = argv[i];
	full[n] = NULL;
	execvp("tmux", full);
	fprintf(stderr, "lisa: tmux: %s\n", strerror(errno));
	return (1);
}

/*
 * Feedback on CLIENT. 3.2a's display-message takes no argument to -c: the
 * message goes to the most recently active client, the one that pressed
 * the key.
 */
int
menu_message(struct lisa_ctx *ctx, const char *client, const char *msg)
{
	struct tmux_caps	 caps;
	char			*argv[] = { (char *)"display-message",
				    (char *)"-c", (char *)client, (char *)msg };

	client_tmux_caps(ctx, &caps);
	if (!caps.display_client) {
		argv[1] = (char *)msg;
		return (menu_exec(ctx, argv, 2));
	}
	return (menu_exec(ctx, argv, 4));
}

/* A shell command line that runs this lisa against this server. */
char *
menu_self(struct lisa_ctx *ctx, const char *what, const char *arg)
{
	struct buf	 b;
	char		*self = client_self();

	buf_init(&b);
	ctl_shell_quote(&b, self);
	free(self);
	buf_adds(&b, " -S ");
	ctl_shell_quote(&b, ctx->sid.socket);
	buf_printf(&b, " %s ", what);
	ctl_shell_quote(&b, arg);
	return (buf_detach(&b));
}

/* The same, with a second argument ("key jump CLIENT %N@HOST"). */
char *
menu_self2(struct lisa_ctx *ctx, const char *what, const char *arg,
    const char *arg2)
{
	struct buf	 b;
	char		*sh = menu_self(ctx, what, arg);

	buf_init(&b);
	buf_adds(&b, sh);
	buf_addc(&b, ' ');
	ctl_shell_quote(&b, arg2);
	free(sh);
	return (buf_detach(&b));
}

/* run-shell -b "..." with '#' escaped for run-shell's format expansion. */
char *
menu_run_shell(const char *sh)
{
	struct buf	fmt, cmd;

	buf_init(&fmt);
	ctl_format_escape(&fmt, sh);
	buf_init(&cmd);
	buf_adds(&cmd, "run-shell -b ");
	ctl_quote_str(&cmd, fmt.data);
	buf_free(&fmt);
	return (buf_detach(&cmd));
}

void
menu_age(long long ms, char *out, size_t len)
{
	if (ms < 0)
		*out = '\0';
	else if (ms < 60000)
		snprintf(out, len, "%llds", ms / 1000);
	else if (ms < 3600000)
		snprintf(out, len, "%lldm", ms / 60000);
	else if (ms < 86400000)
		snprintf(out, len, "%lldh", ms / 3600000);
	else
		snprintf(out, len, "%lldd", ms / 86400000);
}

void
menu_add(struct menu_args *ma, char *arg)
{
	ma->argv = xreallocarray(ma->argv, (size_t)ma->argc + 1,
	    sizeof *ma->argv);
	ma->argv[ma->argc++] = arg;
}

/* display-menu on a client, centred; "--": headings start with '-'. */
void
menu_start(struct menu_args *ma, const char *client, const char *title)
{
	const char	*args[] = { "display-menu", "-c", client, "-T", title,
			    "-x", "C", "-y", "C", "--" };
	size_t		 i;

	for (i = 0; i < sizeof args / sizeof args[0]; i++)
		menu_add(ma, xstrdup(args[i]));
}

void
menu_item(struct menu_args *ma, const char *name, const char *key,
    const char *cmd)
{
	menu_add(ma, xstrdup(name));
	menu_add(ma, xstrdup(key));
	menu_add(ma, xstrdup(cmd));
}

/*
 * An item that asks with tmux's prompt (PROMPT) and runs RS once the text
 * is in buffer BUFFER: %%% puts it in quoted (tmux escapes " \ $ ; ~);
 * what RS runs reads the buffer and deletes it.
 */
void
menu_prompt_item(struct menu_args *ma, const char *label, const char *key,
    const char *prompt, const char *buffer, const char *rs)
{
	struct buf	tmpl, b;

	buf_init(&tmpl);
	buf_printf(&tmpl, "set-buffer -b %s -- \"%%%%%%\" ; %s", buffer, rs);
	buf_init(&b);
	buf_printf(&b, "command-prompt -p '%s' ", prompt);
	ctl_quote_str(&b, tmpl.data);
	menu_item(ma, label, key, b.data);
	buf_free(&tmpl);
	buf_free(&b);
}

/* An action on the client's pane, confirmed first if it destroys. */
static void
menu_action(struct menu_args *ma, struct lisa_ctx *ctx, const char *client,
    const char *label, const char *key, const char *what, int confirm,
    const char *pane, const char *incarnation)
{
	struct buf	 b;
	char		*sh, *rs, *arg;

	/*
	 * The pane and agent the menu was made for, not the current one;
	 * quoted as every other field (a token, a remote pane's id).
	 */
	xasprintf(&arg, "%s:%s:%s", what, pane, incarnation);
	sh = menu_self2(ctx, "key act", client, arg);
	free(arg);
	buf_init(&b);
	buf_adds(&b, sh);
	rs = menu_run_shell(b.data);
	if (confirm) {
		buf_reset(&b);
		buf_printf(&b, "confirm-before -p \"lisa: %s this pane's agent? "
		    "(y/n)\" ", what);
		ctl_quote_str(&b, rs);
		menu_item(ma, label, key, b.data);
	} else
		menu_item(ma, label, key, rs);
	free(sh);
	free(rs);
	buf_free(&b);
}

/* S cut to N columns (utf8_fit), an ellipsis if cut. */
static void
menu_cut(struct buf *b, const char *s, size_t n)
{
	size_t	len = utf8_fit(s, n);

	buf_add(b, s, len);
	if (s[len] != '\0')
		buf_adds(b, "\xe2\x80\xa6");
}

/*
 * The pane's dialog, as lisa read it, and its answers: "Allow once",
 * "Deny", "Reply..." (a tmux prompt for the text). Each carries the
 * dialog's token (its fingerprint, the pane, its agent): the helper
 * refuses if the dialog on screen is another by then. Never "always".
 */
static void
menu_answers(struct menu_args *ma, struct lisa_ctx *ctx, const char *client,
    const char *pane, const struct act_facts *f)
{
	struct buf	 label, b;
	const char	*expect = f->token;
	char		*sh, *rs, what[16];
	int		 i;

	buf_init(&label);
	buf_init(&b);
	buf_adds(&b, "-");		/* a line to read, not to choose */
	menu_cut(&label, f->asks, 48);
	menu_text(&b, label.data);
	menu_item(ma, b.data, "", "");
	if (strcmp(f->kind, "question") == 0 && f->noptions > 0) {
		/*
		 * A question: its own options, each `lisa answer N` (the
		 * number lisa read it by, whatever the agent draws before).
		 */
		for (i = 0; i < f->noptions; i++) {
			buf_reset(&b);
			menu_cut(&b, f->options[i], 48);
			buf_reset(&label);
			if (b.data[0] == '-')
				buf_addc(&label, ' ');	/* (not a heading) */
			menu_text(&label, b.data);
			snprintf(what, sizeof what, "%d", i + 1);
			menu_action(ma, ctx, client, label.data, "", what, 0,
			    pane, expect);
		}
	} else {
		menu_action(ma, ctx, client, "Allow once", "y", "allow", 0,
		    pane, expect);
		/* (n is "Next agent"; x, Dismiss, is for ended agents alone) */
		menu_action(ma, ctx, client, "Deny", "x", "deny", 0, pane,
		    expect);
	}
	/*
	 * Reply: tmux asks for the text, into a buffer the answer reads and
	 * deletes. The pane goes without its '%': "%1" would be the
	 * prompt's first answer.
	 */
	buf_reset(&b);
	buf_printf(&b, "reply:%s:%s", pane + 1, expect);
	sh = menu_self2(ctx, "key act", client, b.data);
	rs = menu_run_shell(sh);
	buf_reset(&b);
	buf_printf(&b, "lisa-reply-%s", pane + 1);
	menu_prompt_item(ma, "Reply\xe2\x80\xa6", "t",
	    "lisa: reply (declines the dialog):", b.data, rs);
	free(sh);
	free(rs);
	buf_free(&label);
	buf_free(&b);
}

/* S in WIDTH columns (as drawn: utf8_width), cut with an ellipsis. */
static void
menu_pad(struct buf *b, const char *s, size_t width)
{
	size_t	w = utf8_width(s);
	char	*cut;

	if (w > width && width > 0) {
		/* (width - 1 columns of it, then an ellipsis) */
		cut = xstrndup(s, utf8_fit(s, width - 1));
		menu_text(b, cut);
		w = utf8_width(cut) + 1;
		free(cut);
		buf_adds(b, "\xe2\x80\xa6");
	} else
		menu_text(b, s);
	for (; w < width; w++)
		buf_addc(b, ' ');
}

/*
 * Where each agent is, as a human names it: the window's name, with its
 * session when agents are in more than one, and its index.pane when two
 * agents would read the same.
 */
static void
menu_where(struct menu_agent *list, size_t n)
{
	size_t	i, j;
	int	sessions = 0, dup;

	for (i = 1; i < n; i++) {
		if (strcmp(list[i].session, list[0].session) != 0)
			sessions = 1;
	}
	for (i = 0; i < n; i++) {
		free(list[i].where);
		if (list[i].host != NULL)
			xasprintf(&list[i].where, "%s:%s:%s", list[i].host,
			    list[i].session, list[i].window);
		else if (sessions)
			xasprintf(&list[i].where, "%s:%s", list[i].session,
			    list[i].window);
		else
			list[i].where = xstrdup(list[i].window);
	}
	for (i = 0; i < n; i++) {
		dup = 0;
		for (j = 0; j < n && !dup; j++)
			dup = j != i && strcmp(list[i].session,
			    list[j].session) == 0 && strcmp(list[i].window,
			    list[j].window) == 0;
		if (dup) {
			char	*w = list[i].where;

			xasprintf(&list[i].where, "%s (%lld.%lld)", w,
			    list[i].window_index, list[i].pane_index);
			free(w);
		}
	}
}

/*
 * lisa key menu CLIENT [host:NAME|find]: the agents by state, then the
 * actions. Past MENU_MAX_AGENTS (a fleet's hundreds), those that need you
 * and a line per host (cmd-menu-many.c); with an argument, the agents of
 * one host, or those matching what tmux's prompt asked for.
 */
static int
cmd_key_menu(struct lisa_ctx *ctx, const char *client, const char *arg)
{
	/* Not d, f, k, n, r, t, u, x, y, R: the actions below use them. */
	static const char	 keys[] = "123456789abceghijlmopqsvwz";
	struct menu_agent	*list;
	struct menu_args	 ma = { NULL, 0 };
	struct buf		 name, cmd;
	size_t			 n, i, shown, total, rows, asks;
	size_t			 wagent = 0, wwhere = 0, wdetail = 0, cols, fixed;
	int			 group = -1, many;
	char			 key[2] = { 0, 0 }, age[16], title[160], *sh;
	char			*rs, *pane;
	struct act_facts	 f;
	struct menu_stale	*stale = NULL;
	size_t			 nstale = 0;

	if (menu_agents(ctx, &list, &n, &stale, &nstale) != 0)
		return (1);
	total = n;
	if (arg != NULL && menu_filter(ctx, arg, list, &n, title,
	    sizeof title) != 0)
		return (menu_message(ctx, client, title));
	if (arg == NULL)
		snprintf(title, sizeof title, " lisa: %zu agent%s ", n,
		    n == 1 ? "" : "s");
	menu_start(&ma, client, title);
	escalate_menu_items(ctx, client, &ma);
	buf_init(&name);
	buf_init(&cmd);
	/*
	 * Many: only those that need you, each; the rest by host below. No
	 * more lines than the client has: tmux would draw no menu at all.
	 */
	rows = menu_rows(ctx, client);
	if (rows > MENU_MAX_AGENTS)
		rows = MENU_MAX_AGENTS;
	many = arg == NULL && n > rows;
	shown = many ? menu_urgent(list, n, rows) : n < rows ? n : rows;
	/* A table: agent, where, detail, age, each column aligned. */
	menu_where(list, shown);
	for (i = 0; i < shown; i++) {
		if (utf8_width(list[i].agent) > wagent)
			wagent = utf8_width(list[i].agent);
		if (utf8_width(list[i].where) > wwhere)
			wwhere = utf8_width(list[i].where);
		if (utf8_width(list[i].detail) > wdetail)
			wdetail = utf8_width(list[i].detail);
	}
	/*
	 * No wider than the client (menu_cols): the window names give way;
	 * border 4, key 4, age 6, three gaps and the indent 8.
	 */
	if ((cols = menu_cols(ctx, client)) != 0) {
		fixed = 4 + 4 + 6 + 8 + wagent + wdetail;
		if (fixed + wwhere > cols)
			wwhere = cols > fixed + 8 ? cols - fixed : 8;
	}
	for (i = 0; i < shown; i++) {
		if (list[i].group != group) {
			group = list[i].group;
			/* A leading '-' makes the line a heading. */
			buf_reset(&name);
			buf_printf(&name, "-#[bold]%s", ui_group_title(group));
			menu_item(&ma, name.data, "", "");
		}
		buf_reset(&name);
		buf_adds(&name, "  ");
		menu_pad(&name, list[i].agent, wagent);
		buf_adds(&name, "  ");
		menu_pad(&name, list[i].where, wwhere);
		buf_adds(&name, "  ");
		menu_pad(&name, list[i].detail, wdetail);
		menu_age(list[i].age_ms, age, sizeof age);
		if (*age != '\0')
			buf_printf(&name, "  %4s", age);
		key[0] = i < sizeof keys - 1 ? keys[i] : '\0';
		buf_reset(&cmd);
		if (list[i].host != NULL) {
			/* A remote one: its host's jump window (cmd-jump.c). */
			sh = menu_self2(ctx, "key jump", client, list[i].pane);
			rs = menu_run_shell(sh);
			menu_item(&ma, name.data, key, rs);
			free(sh);
			free(rs);
			continue;
		}
		/* Pane ids come from tmux: "%N", nothing to quote. */
		buf_printf(&cmd, "switch-client -t '%s'", list[i].pane);
		menu_item(&ma, name.data, key, cmd.data);
	}
	/* Every one that asks is one choice away: the rest, together. */
	for (i = shown, asks = 0; i < n; i++)
		asks += list[i].group == UI_ASKS;
	if (many && asks != 0) {
		buf_reset(&name);
		buf_printf(&name, "  %zu more asking\xe2\x80\xa6", asks);
		sh = menu_self2(ctx, "key menu", client, "state:asks");
		rs = menu_run_shell(sh);
		menu_item(&ma, name.data, "", rs);
		free(sh);
		free(rs);
	}
	if (many)
		menu_groups_items(ctx, client, &ma, list, n);
	else if (n > shown) {
		buf_reset(&name);
		buf_printf(&name, "-  ... %zu more: find with more words (/)",
		    n - shown);
		menu_item(&ma, name.data, "", "");
	}
	if (n == 0 && (nstale == 0 || arg != NULL))
		menu_item(&ma, arg != NULL ? "-none" : "-no agents in this tmux",
		    "", "");
	menu_stale_items(&ma, stale, nstale, arg == NULL);
	if (many || arg != NULL || total > rows)
		menu_find_item(ctx, client, &ma);
	menu_add(&ma, xstrdup(""));	/* a separator line */
	sh = menu_self(ctx, "key next", client);
	rs = menu_run_shell(sh);
	menu_item(&ma, "Next agent that needs you", "n", rs);
	free(sh);
	free(rs);
	sh = menu_self(ctx, "key details", client);
	rs = menu_run_shell(sh);
	menu_item(&ma, "Why? (this pane)", "d", rs);
	free(sh);
	free(rs);
	resume_menu_items(ctx, client, &ma);
	/* Actions on the client's pane: only those that apply to it. */
	if ((pane = menu_client_pane(ctx, client)) != NULL)
		act_facts(ctx, pane, &f);
	else
		memset(&f, 0, sizeof f);
	/* Its dialog, answered on purpose: the one shown here, or none. */
	if (f.agent && !f.ended && f.dialog && *f.token != '\0')
		menu_answers(&ma, ctx, client, pane, &f);
	/* Never on a dialog: the nudge would answer it. */
	if (f.agent && !f.ended && !f.dialog)
		menu_action(&ma, ctx, client, "Nudge (this pane)", "u",
		    "nudge", 0, pane, f.incarnation);
	if (f.ended)
		menu_action(&ma, ctx, client, "Dismiss (this pane)", "x",
		    "dismiss", 0, pane, f.incarnation);
	if (f.run)
		menu_action(&ma, ctx, client, "Retry (this pane)", "r",
		    "retry", 0, pane, f.incarnation);
	if (f.fallback)
		menu_action(&ma, ctx, client, "Retry with fallback", "f",
		    "fallback", 0, pane, f.incarnation);
	if ((f.agent && !f.ended) || f.run)
		menu_action(&ma, ctx, client, "Kill (this pane)", "k", "kill",
		    1, pane, f.incarnation);
	free(pane);
	buf_free(&name);
	buf_free(&cmd);
	menu_free(list, n);
	return (menu_exec(ctx, ma.argv, ma.argc));
}

int
cmd_key(struct lisa_ctx *ctx, const char *what, const char *client,
    const char *arg)
{
	if (what == NULL || client == NULL) {
		fprintf(stderr, "usage: lisa key menu|next|details CLIENT\n");
		return (2);
	}
	if (strcmp(what, "menu") == 0)
		return (cmd_key_menu(ctx, client, arg));
	if (strcmp(what, "next") == 0)
		return (cmd_key_next(ctx, client));
	if (strcmp(what, "details") == 0)
		return (cmd_key_details(ctx, client));
	if (strcmp(what, "act") == 0)
		return (cmd_key_act(ctx, client, arg));
	if (strcmp(what, "escalate") == 0)
		return (cmd_key_escalate(ctx, client, arg));
	if (strcmp(what, "settle") == 0)
		return (escalate_settle(ctx, arg));
	if (strcmp(what, "jump") == 0)
		return (cmd_key_jump(ctx, client, arg));
	if (strcmp(what, "resume") == 0)
		return (cmd_key_resume(ctx, client, arg));
	args_usage_error(lisa_cmd_find("key"), "unknown key: %s (menu, next or "
	    "details)", what);
}
