/*
 * Which tmux server: -S path, -L label, else the one in $TMUX, else the
 * default socket - the same rules as tmux itself. The key names the helper's
 * files for that server: the socket's basename (for people reading ls) and a
 * hash of the whole path (two servers may share a basename).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shared.h"

static uint32_t
server_hash(const char *s)
{
	uint32_t	h = 2166136261u;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return (h);
}

int
server_find(struct server_id *sid, const char *label, const char *path,
    char **cause)
{
	const char	*tmux, *tmpdir, *base;
	char		*sock = NULL, *comma, *p;
	struct buf	 b;

	memset(sid, 0, sizeof *sid);
	if (path != NULL && *path != '\0')
		sock = xstrdup(path);
	else if (label != NULL && *label != '\0') {
		if (strchr(label, '/') != NULL) {
			xasprintf(cause, "bad socket name: %s", label);
			return (-1);
		}
		tmpdir = getenv("TMUX_TMPDIR");
		if (tmpdir == NULL || *tmpdir == '\0')
			tmpdir = "/tmp";
		xasprintf(&sock, "%s/tmux-%ld/%s", tmpdir, (long)getuid(),
		    label);
	} else if ((tmux = getenv("TMUX")) != NULL && *tmux != '\0') {
		sock = xstrdup(tmux);
		if ((comma = strchr(sock, ',')) != NULL)
			*comma = '\0';
	} else {
		tmpdir = getenv("TMUX_TMPDIR");
		if (tmpdir == NULL || *tmpdir == '\0')
			tmpdir = "/tmp";
		xasprintf(&sock, "%s/tmux-%ld/default", tmpdir,
		    (long)getuid());
	}
	if (sock[0] != '/') {
		char	cwd[4096];

		if (getcwd(cwd, sizeof cwd) == NULL) {
			xasprintf(cause, "cannot resolve %s", sock);
			free(sock);
			return (-1);
		}
		xasprintf(&p, "%s/%s", cwd, sock);
		free(sock);
		sock = p;
	}
	base = strrchr(sock, '/') + 1;
	buf_init(&b);
	/* Keep the key short and free of odd bytes: sun_path is small. */
	for (p = (char *)base; *p != '\0' && b.len < 32; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')
			buf_addc(&b, *p);
		else
			buf_addc(&b, '_');
	}
	buf_printf(&b, "-%08x", server_hash(sock));
	sid->socket = sock;
	sid->key = buf_detach(&b);
	return (0);
}

void
server_free(struct server_id *sid)
{
	free(sid->socket);
	free(sid->key);
	memset(sid, 0, sizeof *sid);
}
