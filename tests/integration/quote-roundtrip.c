/*
 * Round-trip through a real tmux server: for hostile and random byte
 * strings, send `set -g @lisa-q <ctl_quote(s)>` then `show -gv @lisa-q`
 * over our own control client and require the same bytes back. Then the
 * format boundary: names full of '#' (and random ones of "#[({})S,")
 * through `rename-window <ctl_quote(ctl_format_str(s))>`, which tmux
 * expands as a format, read back as #{window_name}: the same text, and
 * no "#(...)" run.
 * usage: quote-roundtrip SOCKET-NAME COUNT
 */
#include <sys/wait.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "tmux-version.h"

static const char *hostile[] = {
	"plain", "", " ", "\"", "'", "\\", "\\\\", "$HOME", "${HOME}", "~",
	"~root", "#{pane_id}", "#[fg=red]", "##", "a;b", "a \\; b", "{", "}",
	"{ x }", "line\nbreak", "\ttab", "caf\xc3\xa9", "\xe2\x9c\xb3 busy",
	"\x7f", "\x01\x02\x1b[31m", "%end 1 2 1", "%begin 1 2 1", "\r",
	"trailing\\", "quote\"in\"side", "-x", "--", "#", "a#{?x,y,z}",
};

struct state {
	int	 done;
	int	 ok;
	char	*body;
	size_t	 len;
};

static void
reply(struct ctl_client *c, int ok, const char *body, size_t len, void *arg)
{
	struct state	*st = arg;

	st->done = 1;
	st->ok = ok;
	free(st->body);
	st->body = malloc(len + 1);
	memcpy(st->body, body, len);
	st->body[len] = '\0';
	st->len = len;
}

static const struct ctl_callbacks cbs = { NULL, NULL };

static int	 escaped;	/* replies escaped: tmux 3.4, 3.5 */
static int	 dollar;	/* and '$' too: 3.4 */
static char	 bufpath[256];
static int	 bufcases;

static int
wait_reply(struct ctl_client *c, struct state *st)
{
	struct pollfd	pfd = { ctl_client_rfd(c), POLLIN, 0 };

	st->done = 0;
	if (ctl_client_flush(c) != 0)
		return (-1);
	while (!st->done) {
		if (poll(&pfd, 1, 5000) <= 0)
			return (-1);
		if (ctl_client_read(c) == -1)
			return (-1);
	}
	return (0);
}

/*
 * tmux 3.4 and 3.5 escape command output without escaping the backslash,
 * so show -gv is read back as lisa does (ctl_unvis). Where that cannot be
 * exact (a backslash in the value), the same quoted bytes go through
 * set-buffer and save-buffer instead, which write them raw to a file.
 */
static int
readback(struct ctl_client *c, struct state *st, const char *s, size_t len,
    struct buf *cmd)
{
	char	*value, data[1024];
	int	 fd;
	ssize_t	 n;

	if (ctl_unvis(st->body, dollar, &value) == 0) {
		free(st->body);
		st->body = value;
		st->len = strlen(value);
		return (0);
	}
	free(value);
	buf_reset(cmd);
	buf_adds(cmd, "set-buffer -b lisa-q -- ");
	ctl_quote(cmd, s, len);
	if (ctl_client_send(c, cmd->data, reply, st) != 0 ||
	    wait_reply(c, st) != 0 || !st->ok)
		return (-1);
	buf_reset(cmd);
	buf_adds(cmd, "save-buffer -b lisa-q ");
	ctl_quote_str(cmd, bufpath);
	if (ctl_client_send(c, cmd->data, reply, st) != 0 ||
	    wait_reply(c, st) != 0 || !st->ok)
		return (-1);
	if ((fd = open(bufpath, O_RDONLY|O_NOFOLLOW)) == -1)
		return (-1);
	n = read(fd, data, sizeof data);
	close(fd);
	unlink(bufpath);
	if (n < 0)
		return (-1);
	free(st->body);
	st->body = malloc((size_t)n + 1);
	memcpy(st->body, data, (size_t)n);
	st->body[n] = '\0';
	st->len = (size_t)n;
	bufcases++;
	return (0);
}

static int
roundtrip(struct ctl_client *c, const char *s, size_t len)
{
	struct state	st = { 0, 0, NULL, 0 };
	struct buf	cmd;
	int		rc = 0;

	buf_init(&cmd);
	buf_adds(&cmd, "set -g @lisa-q ");
	ctl_quote(&cmd, s, len);
	if (ctl_client_send(c, cmd.data, reply, &st) != 0 ||
	    wait_reply(c, &st) != 0 || !st.ok) {
		fprintf(stderr, "set failed for %zu bytes: %s\n", len,
		    st.body != NULL ? st.body : "(no reply)");
		rc = -1;
		goto out;
	}
	if (ctl_client_send(c, "show -gv @lisa-q", reply, &st) != 0 ||
	    wait_reply(c, &st) != 0 || !st.ok) {
		rc = -1;
		goto out;
	}
	if (escaped && readback(c, &st, s, len, &cmd) != 0) {
		rc = -1;
		goto out;
	}
	if (st.len != len || memcmp(st.body, s, len) != 0) {
		fprintf(stderr, "mismatch: sent %zu bytes, got %zu\n", len,
		    st.len);
		for (size_t k = 0; k < len; k++) {
			if (k >= st.len || st.body[k] != s[k]) {
				fprintf(stderr, "  first difference at %zu: "
				    "sent 0x%02x (then 0x%02x), got 0x%02x\n", k,
				    (unsigned char)s[k], k + 1 < len ?
				    (unsigned char)s[k + 1] : 0, k < st.len ?
				    (unsigned char)st.body[k] : 0);
				break;
			}
		}
		rc = -1;
	}
out:
	free(st.body);
	buf_free(&cmd);
	return (rc);
}

static const char *names[] = {
	"#(touch x)", "#{pane_id}", "#[fg=red]", "##[fg=red]", "###[x",
	"##", "###", "#", "a#", "#S", "#,", "#}", "x#[bg=red]##(touch y)",
	"#{?x,y,z}", "#(#{", "a##b#[c", "w#[fg=red]4", "#{q:x}#T#W#H",
	"[#]", "##(x)#[", "#[#[##[", "100% #{pane_id} done",
};

/* A name, as tmux keeps it after expanding it as a format. */
static int
name_roundtrip(struct ctl_client *c, const char *s)
{
	struct state	 st = { 0, 0, NULL, 0 };
	struct buf	 cmd;
	char		*esc = ctl_format_str(s), *value = NULL;
	int		 rc = -1;

	buf_init(&cmd);
	buf_adds(&cmd, "rename-window -t :0 ");
	ctl_quote_str(&cmd, esc);
	if (ctl_client_send(c, cmd.data, reply, &st) != 0 ||
	    wait_reply(c, &st) != 0 || !st.ok)
		goto out;
	if (ctl_client_send(c, "display -p -t :0 '#{window_name}'", reply,
	    &st) != 0 || wait_reply(c, &st) != 0 || !st.ok)
		goto out;
	if (escaped && ctl_unvis(st.body, dollar, &value) == 0) {
		free(st.body);
		st.body = value;
		value = NULL;
	}
	rc = strcmp(st.body, s) == 0 ? 0 : -1;
	if (rc != 0)
		fprintf(stderr, "name \"%s\" (sent \"%s\") came back \"%s\"\n",
		    s, esc, st.body);
out:
	free(value);
	free(st.body);
	free(esc);
	buf_free(&cmd);
	return (rc);
}

static struct tmux_version tv;

/* Which tmux this is, and so how it prints replies. */
static int
version(struct ctl_client *c)
{
	struct state		st = { 0, 0, NULL, 0 };
	struct tmux_caps	caps;
	int			rc = -1;

	if (ctl_client_send(c, "display -p '#{version}'", reply, &st) == 0 &&
	    wait_reply(c, &st) == 0 && st.ok &&
	    tmux_version_parse(st.body, &tv) == 0) {
		tmux_caps_get(&tv, &caps);
		escaped = caps.reply_escaped;
		dollar = caps.dollar_escaped;
		rc = 0;
	}
	free(st.body);
	return (rc);
}

int
main(int argc, char **argv)
{
	struct ctl_client	*c;
	int			 in[2], out[2], i, n, bad = 0, total = 0;
	char			 s[200], dir[200];
	size_t			 len, j;
	unsigned int		 seed = 42;
	pid_t			 pid;

	if (argc != 3)
		return (2);
	n = atoi(argv[2]);
	if (pipe(in) != 0 || pipe(out) != 0)
		return (2);
	if ((pid = fork()) == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execlp("tmux", "tmux", "-u", "-L", argv[1], "-C", "attach",
		    "-f", "ignore-size", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	c = ctl_client_new(out[0], in[1], &cbs, NULL);
	if (version(c) != 0) {
		fprintf(stderr, "no version from tmux\n");
		return (1);
	}
	snprintf(dir, sizeof dir, "%s/lisa-q.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL)
		return (2);
	snprintf(bufpath, sizeof bufpath, "%s/buffer", dir);
	for (i = 0; i < (int)(sizeof hostile / sizeof hostile[0]); i++) {
		total++;
		if (roundtrip(c, hostile[i], strlen(hostile[i])) != 0) {
			fprintf(stderr, "  hostile case %d\n", i);
			bad++;
		}
	}
	if (getenv("LISA_TEST_SEED") != NULL)
		seed = (unsigned)atoi(getenv("LISA_TEST_SEED"));
	srandom(seed);
	for (i = 0; i < n; i++) {
		len = (size_t)(random() % (sizeof s));
		for (j = 0; j < len; j++)
			s[j] = (char)(1 + random() % 255);	/* no NUL */
		total++;
		if (roundtrip(c, s, len) != 0) {
			fprintf(stderr, "  random case %d (seed %u)\n", i,
			    seed);
			bad++;
		}
	}
	for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
		total++;
		if (name_roundtrip(c, names[i]) != 0)
			bad++;
	}
	for (i = 0; i < n / 4; i++) {
		static const char alphabet[] = "#[({})S,a ";

		len = 1 + (size_t)(random() % 24);
		for (j = 0; j < len; j++)
			s[j] = alphabet[random() % (sizeof alphabet - 1)];
		s[len] = '\0';
		total++;
		if (name_roundtrip(c, s) != 0) {
			fprintf(stderr, "  random name %d (seed %u)\n", i,
			    seed);
			bad++;
		}
	}
	printf("%d/%d strings round-tripped byte-exact on tmux %s",
	    total - bad, total, tv.text);
	if (escaped)
		printf(" (escaped replies: %d read back by save-buffer, the "
		    "rest by show -gv and ctl_unvis)\n", bufcases);
	else
		printf(" (show -gv)\n");
	rmdir(dir);
	close(in[1]);
	waitpid(pid, NULL, 0);
	ctl_client_free(c);
	return (bad != 0);
}
