/*
 * The agents menu at a fleet's scale (hundreds of agents: tmux's menus do
 * not scroll, and a terminal shows forty lines): those that need you,
 * each, worst first; then one line per host ("this tmux" for the local
 * panes) with its count and how many need you, which opens that host's
 * agents (left out when all are this tmux's); one line per state, which
 * opens those in it; and "Find an agent..." (/), tmux's prompt, whose
 * words narrow the menu to the agents they all match (agent, session,
 * window, host, state, detail).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisa.h"

#define MENU_URGENT	24	/* agents that need you, each on its line */
#define MENU_HOSTS	12	/* host lines */

/*
 * Lines a menu on CLIENT may give its agents: tmux draws no menu taller
 * than the client, so its height less the border and the lines the menu
 * has besides (headings, actions: at most MENU_OTHER_LINES).
 */
size_t
menu_rows(struct lisa_ctx *ctx, const char *client)
{
	const char	*argv[] = { "list-clients", "-F",
			    "%#{client_height} #{client_name}", NULL };
	char		*found = NULL;
	long		 h = 0;

	/* ("%" first: client_tmux_find wants an id's lead) */
	if (ctx->key_height > 0)
		h = ctx->key_height;
	else if ((found = client_tmux_find(ctx, argv, '%', client)) != NULL)
		h = strtol(found + 1, NULL, 10);
	free(found);
	if (h <= 0)
		h = 40;
	h -= 2 + MENU_OTHER_LINES;
	return (h < 5 ? 5 : (size_t)h);
}

/*
 * How wide CLIENT's menu may be. tmux before 3.3 draws no menu wider than
 * its client (a long window name, and the key did nothing); 3.3 and later
 * cut a wide line so that its start is lost (the agent's name).
 */
size_t
menu_cols(struct lisa_ctx *ctx, const char *client)
{
	const char		*argv[] = { "list-clients", "-F",
				    "%#{client_width} #{client_name}", NULL };
	char			*found;
	long			 w = 0;

	if ((found = client_tmux_find(ctx, argv, '%', client)) != NULL)
		w = strtol(found + 1, NULL, 10);
	free(found);
	return (w > 0 ? (size_t)w : 80);
}

/* How many states (the menu's groups) LIST's agents are in. */
static size_t
menu_nstates(struct menu_agent *list, size_t n)
{
	size_t	i, states = 0;
	int	g, seen[UI_NGROUPS] = { 0 };

	for (i = 0; i < n; i++) {
		g = list[i].group;
		if (g >= 0 && g < UI_NGROUPS && !seen[g]) {
			seen[g] = 1;
			states++;
		}
	}
	return (states);
}

/* How many hosts LIST has (this tmux's panes one of them). */
static size_t
menu_nhosts(struct menu_agent *list, size_t n)
{
	size_t	i, j, hosts = 0;
	int	seen;

	for (i = 0; i < n; i++) {
		for (seen = 0, j = 0; j < i && !seen; j++)
			seen = (list[i].host == NULL) == (list[j].host == NULL) &&
			    (list[i].host == NULL ||
			    strcmp(list[i].host, list[j].host) == 0);
		hosts += !seen;
	}
	return (hosts);
}

/*
 * How many of LIST's first agents (worst first) need you: at most some,
 * and what ROWS leaves after the host lines and the group headings.
 */
size_t
menu_urgent(struct menu_agent *list, size_t n, size_t rows)
{
	size_t	i, max = MENU_URGENT, hosts = menu_nhosts(list, n), asks = 0;

	/*
	 * "by host", a line each (MENU_HOSTS, then "more"), none for this
	 * tmux alone; "by state" and a line each; 3 headings
	 */
	hosts = (hosts > 1 ? 1 + (hosts > MENU_HOSTS ? MENU_HOSTS + 1 :
	    hosts) : 0) + 1 + menu_nstates(list, n) + 3;
	if (rows < hosts + 3)
		max = 3;
	else if (max > rows - hosts)
		max = rows - hosts;
	/* More that ask than fit: a line opens the rest ("N more asking"). */
	for (i = 0; i < n; i++)
		asks += list[i].group == UI_ASKS;
	if (asks > max && max > 1)
		max--;
	for (i = 0; i < n && i < max; i++) {
		if (!ui_group_needs_you(list[i].group))
			break;
	}
	return (i);
}

/* Does HAY hold NEEDLE, letters' case aside? */
static int
menu_has(const char *hay, const char *needle, size_t len)
{
	size_t	i;

	for (; *hay != '\0'; hay++) {
		for (i = 0; i < len && hay[i] != '\0'; i++) {
			if (tolower((unsigned char)hay[i]) !=
			    tolower((unsigned char)needle[i]))
				break;
		}
		if (i == len)
			return (1);
	}
	return (0);
}

/* Does m match every word of WORDS? */
static int
menu_match(struct menu_agent *m, const char *words)
{
	const char	*w = words, *fields[7];
	size_t		 len;
	int		 i, found;

	fields[0] = m->agent;
	fields[1] = m->session;
	fields[2] = m->window;
	fields[3] = m->host != NULL ? m->host : "";
	fields[4] = m->detail;
	fields[5] = cls_state_name(m->state);
	fields[6] = ui_group_name(m->group);
	for (;;) {
		w += strspn(w, " \t");
		if ((len = strcspn(w, " \t")) == 0)
			return (1);
		for (found = i = 0; i < 7 && !found; i++)
			found = fields[i] != NULL && menu_has(fields[i], w, len);
		if (!found)
			return (0);
		w += len;
	}
}

/*
 * Keep of LIST the agents ARG asks for: "state:NAME" those in one of the
 * menu's groups, "host:NAME" one host's ("host:"
 * alone: this tmux's), "find" the words tmux's prompt left in the
 * client's buffer. TITLE says which; non-zero (and TITLE a message) when
 * nothing is to be shown.
 */
int
menu_filter(struct lisa_ctx *ctx, const char *arg, struct menu_agent *list,
    size_t *n, char *title, size_t len)
{
	char	*words = NULL, *host = NULL;
	size_t	 i, kept = 0;
	int	 keep, state = -1;

	if (strncmp(arg, "state:", 6) == 0) {
		if ((state = ui_group_find(arg + 6)) < 0) {
			snprintf(title, len, "lisa: no such state");
			return (-1);
		}
		snprintf(title, len, " lisa: %s ", ui_group_name(state));
	} else if (strncmp(arg, "host:", 5) == 0) {
		host = xstrdup(arg + 5);
		snprintf(title, len, " lisa: %s ", *host != '\0' ? host :
		    "this tmux");
	} else if (strncmp(arg, "find:", 5) == 0) {
		if ((words = menu_buffer_take(ctx, arg + 5)) == NULL ||
		    strspn(words, " \t") == strlen(words)) {
			free(words);
			snprintf(title, len, "lisa: nothing to find");
			return (-1);
		}
	} else {
		snprintf(title, len, "lisa: no such menu: %s", arg);
		return (-1);
	}
	for (i = 0; i < *n; i++) {
		if (state != -1)
			keep = list[i].group == state;
		else if (host != NULL)
			keep = *host == '\0' ? list[i].host == NULL :
			    list[i].host != NULL &&
			    strcmp(list[i].host, host) == 0;
		else
			keep = menu_match(&list[i], words);
		if (keep)
			list[kept++] = list[i];
		else
			menu_agent_free(&list[i]);
	}
	*n = kept;
	if (words != NULL) {
		/* (the user's words: tmux shows the title as a format) */
		snprintf(title, len, " lisa: %zu matching ", kept);
		free(words);
	}
	free(host);
	return (0);
}

/* One line per state, in the menu's order: how many, and opens them. */
static void
menu_states_items(struct lisa_ctx *ctx, const char *client,
    struct menu_args *ma, struct menu_agent *list, size_t n)
{
	struct buf	 line, arg;
	char		*sh, *rs;
	size_t		 i, count[UI_NGROUPS] = { 0 };
	int		 g;

	for (i = 0; i < n; i++) {
		if (list[i].group >= 0 && list[i].group < UI_NGROUPS)
			count[list[i].group]++;
	}
	buf_init(&line);
	buf_init(&arg);
	menu_item(ma, "-#[bold]by state", "", "");
	for (g = 0; g < UI_NGROUPS; g++) {
		if (count[g] == 0)
			continue;
		buf_reset(&line);
		buf_printf(&line, "  %s: %zu", ui_group_title(g), count[g]);
		buf_reset(&arg);
		buf_printf(&arg, "state:%s", ui_group_name(g));
		sh = menu_self2(ctx, "key menu", client, arg.data);
		rs = menu_run_shell(sh);
		menu_item(ma, line.data, "", rs);
		free(sh);
		free(rs);
	}
	buf_free(&line);
	buf_free(&arg);
}

/*
 * The groups a long menu opens: one line per host (this tmux first, and
 * none when all are this tmux's), its agents and who needs you; then one
 * per state.
 */
void
menu_groups_items(struct lisa_ctx *ctx, const char *client,
    struct menu_args *ma, struct menu_agent *list, size_t n)
{
	struct buf	 line, text, arg;
	const char	*host;
	char		*sh, *rs;
	size_t		 i, j, lines = 0, hosts = menu_nhosts(list, n);
	int		 seen, agents, urgent;

	buf_init(&line);
	buf_init(&text);
	buf_init(&arg);
	if (hosts > 1)
		menu_item(ma, "-#[bold]by host", "", "");
	for (i = 0; i < n && hosts > 1; i++) {
		host = list[i].host;
		/* (each host once: the list is sorted by host within groups) */
		for (seen = 0, j = 0; j < i && !seen; j++)
			seen = (host == NULL) == (list[j].host == NULL) &&
			    (host == NULL || strcmp(host, list[j].host) == 0);
		if (seen)
			continue;
		if (lines++ == MENU_HOSTS) {
			menu_item(ma, "-  ... more hosts: find one (/)", "", "");
			break;
		}
		agents = urgent = 0;
		for (j = i; j < n; j++) {
			if ((host == NULL) != (list[j].host == NULL) ||
			    (host != NULL && strcmp(host, list[j].host) != 0))
				continue;
			agents++;
			urgent += ui_group_needs_you(list[j].group);
		}
		buf_reset(&text);
		buf_printf(&text, "  %s: %d agent%s", host != NULL ? host :
		    "this tmux", agents, agents == 1 ? "" : "s");
		if (urgent != 0)
			buf_printf(&text, ", %d need%s you", urgent,
			    urgent == 1 ? "s" : "");
		buf_reset(&line);
		menu_text(&line, text.data);
		buf_reset(&arg);
		buf_printf(&arg, "host:%s", host != NULL ? host : "");
		sh = menu_self2(ctx, "key menu", client, arg.data);
		rs = menu_run_shell(sh);
		menu_item(ma, line.data, "", rs);
		free(sh);
		free(rs);
	}
	menu_states_items(ctx, client, ma, list, n);
	buf_free(&line);
	buf_free(&text);
	buf_free(&arg);
}

/*
 * "Find an agent..." (/): tmux's prompt; what is typed goes, quoted by
 * tmux's %%%, into a buffer of this client's, which the menu it opens
 * reads and deletes.
 */
void
menu_find_item(struct lisa_ctx *ctx, const char *client,
    struct menu_args *ma)
{
	struct buf	 name, b;
	char		*sh, *rs;
	const char	*c;

	buf_init(&name);
	buf_adds(&name, "lisa-find-");
	for (c = client; *c != '\0'; c++) {
		if (isalnum((unsigned char)*c))
			buf_addc(&name, *c);
	}
	buf_init(&b);
	buf_printf(&b, "find:%s", name.data);
	sh = menu_self2(ctx, "key menu", client, b.data);
	rs = menu_run_shell(sh);
	menu_prompt_item(ma, "Find an agent\xe2\x80\xa6", "/",
	    "lisa: find agents (words):", name.data, rs);
	free(sh);
	free(rs);
	buf_free(&b);
	buf_free(&name);
}
