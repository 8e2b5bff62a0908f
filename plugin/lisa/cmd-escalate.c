/*
 * A `lisa run` out of retries and fallbacks waits for the human's decision
 * (retry, the fallback, skip, abort). The helper never opens anything for
 * it (run-watch.c marks it and notifies): it is the first entry of lisa's menu
 * and where its next-agent key goes, and its menu opens only from there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

static void	menu_line(struct buf *, const char *);

/*
 * The runs of this server that wait for a decision, whose pane is still
 * there (what tmux lists now); *n of them.
 */
static struct run *
escalate_waiting(struct lisa_ctx *ctx, size_t *n)
{
	const char	*argv[] = { "list-panes", "-a", "-F", "#{pane_id}",
			    NULL };
	struct run	*list, *out;
	char		*panes = NULL, *line, *rest;
	size_t		 all, i, found;

	*n = 0;
	if (run_list(ctx, &list, &all, 0) != 0)
		return (NULL);
	/* (tmux is asked only when a run waits: a list of every pane) */
	for (i = 0; i < all && !list[i].escalated; i++)
		;
	if (i < all && client_tmux_all(ctx, &panes, argv) != 0) {
		free(panes);
		panes = NULL;
	}
	out = xcalloc(all + 1, sizeof *out);
	for (i = 0; i < all; i++) {
		found = 0;
		for (rest = panes; list[i].escalated && rest != NULL &&
		    (line = strsep(&rest, "\n")) != NULL;) {
			if (strcmp(line, list[i].pane) == 0)
				found = 1;
			if (rest != NULL)
				rest[-1] = '\n';	/* (put back) */
		}
		if (found)
			out[(*n)++] = list[i];
		else
			run_free(&list[i]);
	}
	free(list);
	free(panes);
	return (out);
}

static void
escalate_free(struct run *list, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		run_free(&list[i]);
	free(list);
}

/* Lisa's menu: what waits for a decision, first. */
void
escalate_menu_items(struct lisa_ctx *ctx, const char *client,
    struct menu_args *ma)
{
	struct run	*list;
	struct buf	 b;
	char		*sh, *rs;
	size_t		 n, i;

	if ((list = escalate_waiting(ctx, &n)) == NULL)
		return;
	if (n > 0)
		menu_item(ma, "-#[bold]needs your decision", "", "");
	buf_init(&b);
	for (i = 0; i < n; i++) {
		buf_reset(&b);
		buf_adds(&b, "  ");
		menu_line(&b, list[i].name);
		buf_printf(&b, " failed after its retries (%s)", list[i].pane);
		sh = menu_self2(ctx, "key escalate", client, list[i].id);
		rs = menu_run_shell(sh);
		menu_item(ma, b.data, "", rs);
		free(rs);
		free(sh);
	}
	buf_free(&b);
	escalate_free(list, n);
}

/*
 * The next-agent key: a run waiting for a decision goes first; the client
 * is taken to its pane and its decision menu opens there (the key asked
 * for it). 1 if there was one.
 */
int
escalate_next(struct lisa_ctx *ctx, const char *client)
{
	struct run	*list;
	const char	*argv[6];
	char		*out = NULL, pane[16], id[32];
	size_t		 n;

	if ((list = escalate_waiting(ctx, &n)) == NULL || n == 0) {
		escalate_free(list, n);
		return (0);
	}
	strlcpy(pane, list[0].pane, sizeof pane);
	strlcpy(id, list[0].id, sizeof id);
	escalate_free(list, n);
	argv[0] = "switch-client";
	argv[1] = "-c";
	argv[2] = client;
	argv[3] = "-t";
	argv[4] = pane;
	argv[5] = NULL;
	client_tmux(ctx, &out, argv);
	free(out);
	cmd_key_escalate(ctx, client, id);	/* (it execs tmux) */
	return (1);
}

/* lisa key settle CLIENT ID: the decision is made (skip, abort). */
int
escalate_settle(struct lisa_ctx *ctx, const char *id)
{
	char	*dir, *path, *cause = NULL;

	if (id == NULL || (dir = run_dir(ctx->rundir, &cause)) == NULL) {
		free(cause);
		return (1);
	}
	path = run_escalate_path(dir, id);
	if (path != NULL)
		unlink(path);
	free(path);
	free(dir);
	return (0);
}

/* A line for a menu heading: '#' doubled, at most 70 bytes. */
static void
menu_line(struct buf *b, const char *s)
{
	char	cut[80];
	size_t	n = strlen(s);

	if (n > 70)
		n = utf8_cut(s, n, 70);
	memcpy(cut, s, n);
	cut[n] = '\0';
	menu_text(b, cut);
}

/* The last 6 lines of an agent's stderr, as menu headings. */
static void
menu_stderr(struct menu_args *ma, struct buf *b, const char *text)
{
	const char	*p, *nl;
	char		*one;
	size_t		 n = 0, i = 0;

	for (p = text; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		n++;
	}
	if (n > 0)
		menu_item(ma, "-#[bold]stderr (last lines)", "", "");
	for (p = text; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl, i++) {
		nl = p + strcspn(p, "\n");
		if (i + 6 < n)
			continue;
		one = xstrndup(p, (size_t)(nl - p));
		buf_reset(b);
		buf_adds(b, "-  ");
		menu_line(b, one);
		menu_item(ma, b->data, "", "");
		free(one);
	}
}

/*
 * A run is out of retries: its exit, how far it got, the end of its
 * stderr, and what to do - retry, the fallback, skip, or abort (close it).
 */
int
cmd_key_escalate(struct lisa_ctx *ctx, const char *client, const char *id)
{
	struct menu_args	 ma = { NULL, 0 };
	struct json_doc		*d = NULL;
	struct run		 r;
	struct buf		 b;
	char			*dir, *cause = NULL, *msg = NULL, *text, *sh, *rs;
	char			 title[96];
	int			 se;

	if (id == NULL || (dir = run_dir(ctx->rundir, &cause)) == NULL ||
	    run_read(dir, id, &r, &cause) != 0) {
		free(cause);
		return (1);
	}
	buf_init(&b);
	snprintf(title, sizeof title, " lisa: %s failed ", r.name);
	menu_start(&ma, client, title);
	if (r.termination != NULL)
		d = json_parse(r.termination, strlen(r.termination), &cause);
	if (d != NULL)
		msg = json_get_str(d, 0, "message");
	buf_adds(&b, "-");
	menu_line(&b, msg != NULL ? msg : "failed");
	buf_printf(&b, " \u00b7 attempt %d%s \u00b7 ran %llds", r.attempt,
	    r.on_fallback ? " of the fallback" : "", r.ended > r.started ?
	    (r.ended - r.started) / 1000 : 0);
	menu_item(&ma, b.data, "", "");
	buf_reset(&b);
	buf_printf(&b, "-%d crash(es), %d failure(s) before", r.crashes,
	    r.failures);
	menu_item(&ma, b.data, "", "");
	if (d != NULL && (se = json_get(d, 0, "stderr")) >= 0) {
		/* The tail when stderr was cut, else all of it: last lines. */
		if ((text = json_get_str(d, se, "tail")) == NULL)
			text = json_get_str(d, se, "head");
		menu_stderr(&ma, &b, text != NULL ? text : "");
		free(text);
	}
	menu_add(&ma, xstrdup(""));
	sh = menu_self(ctx, "retry", r.pane);
	rs = menu_run_shell(sh);
	menu_item(&ma, "Retry", "r", rs);
	free(sh);
	free(rs);
	if (r.fallback != NULL) {
		buf_reset(&b);
		buf_adds(&b, r.pane);
		sh = menu_self(ctx, "retry --fallback", b.data);
		rs = menu_run_shell(sh);
		menu_item(&ma, "Fallback retry", "f", rs);
		free(sh);
		free(rs);
	}
	/* Skip and abort settle it: it waits no more. */
	sh = menu_self2(ctx, "key settle", client, r.id);
	rs = menu_run_shell(sh);
	menu_item(&ma, "Skip (leave it as it is)", "s", rs);
	/*
	 * Abort closes the pane and its output: asked again, and with no
	 * shortcut (a key lisa binds, pressed out of habit, picked it).
	 */
	buf_reset(&b);
	buf_printf(&b, "%s ; kill-pane -t '%s'", rs, r.pane);
	free(rs);
	rs = xstrdup(b.data);
	buf_reset(&b);
	buf_printf(&b, "confirm-before -p \"lisa: close %s and its output? "
	    "(y/n)\" ", r.pane);
	ctl_quote_str(&b, rs);
	menu_item(&ma, "Abort (close the pane)", "", b.data);
	free(rs);
	free(sh);
	free(msg);
	if (d != NULL)
		json_free(d);
	buf_free(&b);
	run_free(&r);
	free(dir);
	return (menu_exec(ctx, ma.argv, ma.argc));
}

