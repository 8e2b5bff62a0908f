/*
 * The details popup: why a pane is in its state, and its last events
 * (lisa details), in a popup sized to what it says.
 */

#include <sys/ioctl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lisa.h"

/* What "lisa details PANE" prints, run as a child of this lisa. */
static char *
details_text(struct lisa_ctx *ctx, const char *pane)
{
	char		*self = client_self(), *out = NULL;
	const char	*argv[] = { "lisa", "-S", ctx->sid.socket, "details",
			    pane, NULL };

	client_capture(self, argv, &out);
	free(self);
	return (out != NULL ? out : xstrdup(""));
}

/* The client's size, from tmux; 0 when it cannot be read. */
static void
details_client_size(struct lisa_ctx *ctx, const char *client, int *sx,
    int *sy)
{
	const char	*argv[] = { "list-clients", "-F",
			    "#{client_width} #{client_height} #{client_name}",
			    NULL };
	char		*out = NULL, *line, *rest, name[256];
	int		 w, h;

	*sx = *sy = 0;
	if (client_tmux_all(ctx, &out, argv) != 0 || out == NULL) {
		free(out);
		return;
	}
	for (rest = out; (line = strsep(&rest, "\n")) != NULL;) {
		if (sscanf(line, "%d %d %255[^\n]", &w, &h, name) == 3 &&
		    strcmp(name, client) == 0) {
			*sx = w;
			*sy = h;
		}
	}
	free(out);
}

/*
 * The popup, as big as its text (plus a border, a margin and the closing
 * line) and no bigger than the client: a pane with no agent gets a small
 * box, not most of the screen.
 */
/* Rows a line of cols columns takes in width columns. */
static int
details_rows(int cols, int width)
{
	if (width < 1)
		width = 1;
	return (cols > 0 ? (cols + width - 1) / width : 1);
}

/* Columns of one line of text (to its newline), as drawn: utf8_width. */
static int
details_cols(const char *line)
{
	char	*one = xstrndup(line, strcspn(line, "\n"));
	int	 cols = (int)utf8_width(one);

	free(one);
	return (cols);
}

int
cmd_key_details(struct lisa_ctx *ctx, const char *client)
{
	struct tmux_caps	 caps;
	char	*pane, *sh, *text, *line, *rest, title[64], ws[16], hs[16];
	char	*argv[12];
	int	 n = 0, sx, sy, w = 0, h = 0, cols;

	if ((pane = menu_client_pane(ctx, client)) == NULL)
		return (menu_message(ctx, client, "lisa: no pane"));
	text = details_text(ctx, pane);
	for (line = text; line != NULL; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if ((cols = details_cols(line)) > w)
			w = cols;
	}
	w += 4;		/* border and a space each side */
	if (w < 40)
		w = 40;
	details_client_size(ctx, client, &sx, &sy);
	if (sx > 0 && w > sx)
		w = sx;
	/* Lines wider than the box wrap: count the rows they take. */
	for (rest = text; (line = strsep(&rest, "\n")) != NULL; )
		h += details_rows(details_cols(line), w - 4);
	free(text);
	h += 3;		/* border and "(any key closes)" */
	if (sy > 0 && h > sy)
		h = sy;
	snprintf(ws, sizeof ws, "%d", w);
	snprintf(hs, sizeof hs, "%d", h);
	sh = menu_self(ctx, "details --wait", pane);
	snprintf(title, sizeof title, " lisa: %s ", pane);
	argv[n++] = (char *)"display-popup";
	argv[n++] = (char *)"-c";
	argv[n++] = (char *)client;
	argv[n++] = (char *)"-E";
	argv[n++] = (char *)"-w";
	argv[n++] = ws;
	argv[n++] = (char *)"-h";
	argv[n++] = hs;
	client_tmux_caps(ctx, &caps);
	if (caps.popup_title) {
		argv[n++] = (char *)"-T";
		argv[n++] = title;
	}
	argv[n++] = sh;
	return (menu_exec(ctx, argv, n));
}

/* One key from the popup's terminal, unechoed; -1 if none can be read. */
static int
details_key(void)
{
	struct termios	 old, raw;
	char		 c;
	ssize_t		 n;

	if (!isatty(0) || tcgetattr(0, &old) != 0)
		return (-1);
	raw = old;
	raw.c_lflag &= ~(ICANON|ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(0, TCSANOW, &raw);
	while ((n = read(0, &c, 1)) == -1 && errno == EINTR)
		;
	tcsetattr(0, TCSANOW, &old);
	return (n == 1 ? (unsigned char)c : -1);
}

/*
 * In a popup: keep the text up until a key is pressed. A pane whose
 * dialog lisa has read (F, made before the text was printed: an answer
 * names the dialog shown by its token, never a newer one) may be answered
 * from here with the menu's keys: y allows once, x denies, t asks for a
 * reply.
 */
static void
details_wait(struct lisa_ctx *ctx, const char *pane,
    const struct act_facts *f)
{
	char	 line[1024], n[4];
	int	 c, question, i;

	if (!isatty(0))
		return;
	if (pane == NULL || f == NULL || *f->token == '\0') {
		printf("\n  (any key closes)");
		fflush(stdout);
		details_key();
		return;
	}
	/* A question: its options by their numbers, as the menu offers. */
	question = strcmp(f->kind, "question") == 0 && f->noptions > 0;
	if (question) {
		/* (as lisa read them: what the number picks) */
		printf("\n");
		for (i = 0; i < f->noptions; i++)
			printf("\n  %s", f->options[i]);
		printf("\n  1-%d its option \xc2\xb7 t reply\xe2\x80\xa6 "
		    "\xc2\xb7 any other key closes", f->noptions);
	}
	else
		printf("\n  y allow once \xc2\xb7 x deny \xc2\xb7 "
		    "t reply\xe2\x80\xa6 \xc2\xb7 any other key closes");
	fflush(stdout);
	c = details_key();
	if (question && c >= '1' && c < '1' + f->noptions) {
		snprintf(n, sizeof n, "%c", c);
		printf("\n");
		cmd_answer(ctx, pane, n, NULL, f->token);
	} else if (!question && (c == 'y' || c == 'x')) {
		printf("\n");
		cmd_answer(ctx, pane, c == 'y' ? "allow" : "deny", NULL,
		    f->token);
	} else if (c == 't') {
		printf("\n  reply (declines the dialog, then types it): ");
		fflush(stdout);
		if (fgets(line, sizeof line, stdin) == NULL)
			return;
		line[strcspn(line, "\r\n")] = '\0';
		if (*line == '\0')
			return;
		cmd_answer(ctx, pane, NULL, line, f->token);
	} else
		return;
	printf("  (any key closes)");
	fflush(stdout);
	details_key();
}

/* The facts of the pane (TARGET) a popup answers from; 0 if none. */
static int
details_facts(struct lisa_ctx *ctx, const char *target, char **pane,
    struct act_facts *f)
{
	memset(f, 0, sizeof *f);
	*pane = NULL;
	if (target == NULL || !isatty(0) ||
	    (*pane = client_resolve(ctx, target)) == NULL)
		return (0);
	act_facts(ctx, *pane, f);
	return (1);
}

/*
 * In a popup smaller than the text, the top is what matters (the verdict,
 * then the newest signals and events): print what fits, then wait. 0 when
 * the terminal's size is not known (print it all).
 */
static int
details_fit(struct lisa_ctx *ctx, const char *target)
{
	struct winsize	 ws;
	struct act_facts f;
	char		*text, *line, *rest, *pane;
	int		 rows, used = 0, need;

	if (target == NULL || !isatty(1) ||
	    ioctl(1, TIOCGWINSZ, &ws) != 0 || ws.ws_row < 4 || ws.ws_col < 8)
		return (0);
	rows = ws.ws_row - 2;		/* "(any key closes)" */
	details_facts(ctx, target, &pane, &f);
	text = details_text(ctx, target);
	for (rest = text; (line = strsep(&rest, "\n")) != NULL; used += need) {
		if (rest == NULL && *line == '\0')
			break;
		need = details_rows(details_cols(line), ws.ws_col);
		if (used + need > rows - (rest != NULL)) {
			printf("  \xe2\x80\xa6\n");
			break;
		}
		printf("%s\n", line);
	}
	free(text);
	fflush(stdout);
	details_wait(ctx, pane, &f);
	free(pane);
	return (1);
}

/*
 * Is event ITEM of pane PANE ("%N"; HOST for a remote one, else NULL)?
 * Not a remote pane's with the same id, not an earlier server's %N.
 */
int
event_of_pane(struct lisa_ctx *ctx, struct json_doc *d, int item,
    const char *pane, const char *host)
{
	char	*ev, *srv, *h;
	int	 mine;

	ev = json_get_str(d, item, "pane_id");
	h = json_get_str(d, item, "host");
	srv = json_get_str(d, item, "server");
	if (ev == NULL || strcmp(ev, pane) != 0)
		mine = 0;
	else if (host != NULL)
		mine = h != NULL && strcmp(h, host) == 0;
	else
		mine = h == NULL && srv != NULL &&
		    strcmp(srv, client_instance(ctx)) == 0;
	free(ev);
	free(h);
	free(srv);
	return (mine);
}

/* Does the pane have an agent (alive or ended)? */
static int
details_agent(struct lisa_ctx *ctx, const char *pane)
{
	struct json_doc	*d;
	char		*cause = NULL, *state;
	int		 yes = 0;

	if (client_ask_pane(ctx, "status", pane, &d, &cause) == 0) {
		state = json_get_str(d, json_get(d, 0, "pane"), "state");
		yes = state != NULL;
		free(state);
		json_free(d);
	}
	free(cause);
	return (yes);
}

/* The why behind a pane's state, and what happened to it lately. */
int
cmd_details(struct lisa_ctx *ctx, const char *target, int wait)
{
	struct json_doc	*d;
	struct act_facts f;
	char		*cause = NULL, *pane = NULL, *ts, *type, *from, *to;
	char		*detail;
	int		 events, i, n, item, shown = 0, rc;

	if (wait && details_fit(ctx, target))
		return (0);
	memset(&f, 0, sizeof f);
	if (wait) {
		details_facts(ctx, target, &pane, &f);
		free(pane);
	}
	if ((pane = client_resolve(ctx, target)) == NULL) {
		printf("%s: not_found\n", target != NULL ? target : "");
		rc = 1;
	} else
		rc = cmd_explain(ctx, pane);
	if (rc == 0 && client_call(ctx, "{\"cmd\":\"events\"}\n", &d,
	    &cause) == 0) {
		events = json_get(d, 0, "events");
		n = json_array_size(d, events);
		for (i = n - 1; i >= 0 && shown < 12; i--) {
			item = json_array_item(d, events, i);
			if (!event_of_pane(ctx, d, item, pane, NULL))
				continue;
			if (shown == 0)
				printf("\n  last events:\n");
			ts = menu_str(d, item, "ts");
			type = menu_str(d, item, "event");
			from = menu_str(d, item, "from");
			to = menu_str(d, item, "to");
			detail = menu_str(d, item, "detail");
			if (strcmp(type, "transition") == 0)
				printf("    %s  %s -> %s %s\n", ts, from, to,
				    detail);
			else
				printf("    %s  %s %s\n", ts, type, detail);
			free(ts);
			free(type);
			free(from);
			free(to);
			free(detail);
			shown++;
		}
		/* A plain pane, and nothing ever ran here that lisa saw. */
		if (shown == 0)
			printf("\n  %s\n", details_agent(ctx, pane) ?
			    "no events yet" : "no agent has run here");
		json_free(d);
	}
	free(cause);
	if (wait)
		details_wait(ctx, pane, &f);
	free(pane);
	return (rc);
}
