/*
 * lisa key WHAT CLIENT --to FILE --at 'PANE HEIGHT VERSION INSTANCE':
 * what a key binding runs (ui-install.c). The binding is
 *
 *	run-shell "lisa ... key menu --to FILE --at '...' CLIENT" \;
 *	source-file -qF FILE
 *
 * so the command lisa made (a menu, a switch, a message) is run by the
 * pressing client's own queue, as if bound: no tmux client is started per
 * press, and none of the helper's control connections waits on a menu
 * (display-menu holds its queue until the menu closes). What lisa would
 * have asked tmux of the client came with the key (its pane, its height,
 * tmux's version, the server's instance).
 *
 * FILE is KEY.key-PID in lisa's runtime directory (0700), the PID the
 * client's; anything else is refused. run-shell without -b shows what
 * lisa prints and says when it fails, so from here lisa prints nothing
 * and exits 0: a failure is a message line, written to FILE.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

static int	key_to_written;

/* FILE, --at: as the binding gives them, or a usage error. */
int
key_to_setup(struct lisa_ctx *ctx, const char *to, const char *at)
{
	char		*prefix, *end;
	const char	*p;
	size_t		 n;
	int		 fd;

	prefix = runtime_path(ctx->rundir, ctx->sid.key, ".key-");
	n = strlen(prefix);
	if (strncmp(to, prefix, n) != 0 || to[n] == '\0' ||
	    strspn(to + n, "0123456789") != strlen(to + n) ||
	    strlen(to + n) > 10) {
		free(prefix);
		fprintf(stderr, "lisa: key: --to must be %sPID\n",
		    ctx->rundir);
		return (-1);
	}
	free(prefix);
	if (at != NULL) {
		p = at;
		n = strcspn(p, " ");
		/* "%N+": its window shows a remote pane (cmd-jump.c). */
		if (n > 2 && p[n - 1] == '+') {
			ctx->key_jump = 1;
			n--;
		}
		if (n < 2 || n >= sizeof ctx->key_pane || *p != '%' ||
		    strspn(p + 1, "0123456789") != n - 1) {
			fprintf(stderr, "lisa: key: --at 'PANE HEIGHT "
			    "VERSION INSTANCE': not a pane: %s\n", at);
			return (-1);
		}
		memcpy(ctx->key_pane, p, n);
		ctx->key_pane[n] = '\0';
		p += n + ctx->key_jump;
		p += *p == ' ';
		ctx->key_height = strtol(p, &end, 10);
		if (end == p || (*end != ' ' && *end != '\0') ||
		    ctx->key_height <= 0)
			ctx->key_height = 0;
		p = end + (*end == ' ');
		n = strcspn(p, " ");
		if (n < sizeof ctx->key_version) {
			memcpy(ctx->key_version, p, n);
			ctx->key_version[n] = '\0';
		}
		p += n + (p[n] == ' ');
		/* The server's instance (#{pid}-#{start_time}). */
		if (*p != '\0' && *p != '-' &&
		    strspn(p, "0123456789-") == strlen(p))
			ctx->instance = xstrdup(p);
	}
	ctx->key_to = xstrdup(to);
	/* Never the file of a press before: that menu is old. */
	if (unlink(to) != 0 && errno != ENOENT)
		return (-1);
	if ((fd = open("/dev/null", O_WRONLY|O_CLOEXEC)) != -1) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	return (0);
}

/* ARGV, one tmux command, into the file (by a rename: whole or none). */
int
key_to_write(struct lisa_ctx *ctx, char **argv, int argc)
{
	struct buf	 b;
	char		*tmp;
	int		 fd, rc = 1;

	buf_init(&b);
	ctl_quote_argv(&b, argv, argc);
	buf_addc(&b, '\n');
	xasprintf(&tmp, "%s.tmp", ctx->key_to);
	(void)unlink(tmp);
	fd = open(tmp, O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, 0600);
	if (fd != -1) {
		if (write(fd, b.data, b.len) == (ssize_t)b.len &&
		    close(fd) == 0 && rename(tmp, ctx->key_to) == 0)
			rc = 0;
		else
			(void)unlink(tmp);
	}
	free(tmp);
	buf_free(&b);
	key_to_written = rc == 0;
	return (rc);
}

/*
 * The key's end: if it showed nothing and failed, a message says so. A
 * press just before lisa stop can write its file after the helper took
 * the keys' files away (ui-install.c). lisa stop removes the helper's
 * socket and then the keys' files again, so a file written after that
 * sees no socket and is taken away here: none is left behind. A helper
 * that was killed leaves its socket (and its keys bound): its message
 * stays to be shown.
 */
int
key_to_done(struct lisa_ctx *ctx, const char *client, int rc)
{
	struct stat	sb;

	if (ctx->key_to == NULL)
		return (rc);
	if (!key_to_written && rc != 0)
		menu_message(ctx, client, "lisa: no answer from lisa's helper "
		    "(lisa doctor)");
	if (lstat(ctx->sockpath, &sb) != 0 && errno == ENOENT)
		(void)unlink(ctx->key_to);
	return (0);
}
