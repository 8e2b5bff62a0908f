/*
 * Our control clients' way into a tmux before 3.7 (tmux GitHub issue
 * 4980). A client identifies itself in several messages; tmux reads its
 * flags (control mode) from the first and makes the client's control
 * state at the last, and runs its notifications in between: one of them
 * then reaches a control client with no state, and the server crashes.
 * The client sends its two descriptors (stdin, stdout) in sendmsg calls of
 * their own, so tmux reads the identify in three goes at least, and a
 * loaded machine can hold the client between them for as long as it likes.
 *
 * So tmux -C connects here (-S this socket), and the helper connects to
 * the server for it: the client's identify is kept until it is whole,
 * then sent as two writes, stdin alone and then stdout followed by
 * everything else, flags last but one. tmux reads the flags in the same
 * go as the end of the identify: no notification can fall between. After
 * that, bytes and descriptors pass as they come, both ways.
 *
 * This replaces a session-created hook that held tmux's notifications
 * while the client identified: a notification held for a session killed
 * meanwhile crashes tmux too (GitHub issue 5244), and a script making a
 * window and killing its session did that at once.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"

/* tmux's imsg framing (compat/imsg.h), the same machine's byte order. */
#define PROXY_HDR_SIZE		16
#define PROXY_MAX_MSG		16384
#define PROXY_OLD_HASFD		1		/* flags, before 3.6 */
#define PROXY_FD_MARK		0x80000000U	/* in len, from 3.6 */
#define PROXY_IDENTIFY_DONE	106		/* MSG_IDENTIFY_DONE */
#define PROXY_IDENTIFY_MAX	(256 * 1024)
#define PROXY_MAX_FDS		4

/* One direction of a relay: what the far side has not taken yet. */
struct proxy_pipe {
	struct buf		 pending;
	int			 fds[PROXY_MAX_FDS];
	int			 nfds;
};

struct proxy_conn {
	int			 down;		/* tmux -C */
	int			 up;		/* the server */
	struct loop_fd		*dev;
	struct loop_fd		*uev;
	int			 relaying;	/* the identify has gone */
	struct proxy_pipe	 to_up;
	struct proxy_pipe	 to_down;
	TAILQ_ENTRY(proxy_conn)	 entry;
};
static TAILQ_HEAD(, proxy_conn) proxy_conns =
    TAILQ_HEAD_INITIALIZER(proxy_conns);

static int		 proxy_fd = -1;
static struct loop_fd	*proxy_lf;
static char		*proxy_sock;
static int		 proxy_new_hdr;	/* tmux 3.6's framing */

static void	proxy_events(struct proxy_conn *);

static void
proxy_pipe_free(struct proxy_pipe *p)
{
	int	i;

	for (i = 0; i < p->nfds; i++)
		close(p->fds[i]);
	p->nfds = 0;
	buf_free(&p->pending);
}

static void
proxy_free(struct proxy_conn *pc)
{
	TAILQ_REMOVE(&proxy_conns, pc, entry);
	loop_del(pc->dev);
	close(pc->down);
	if (pc->uev != NULL)
		loop_del(pc->uev);
	if (pc->up != -1)
		close(pc->up);
	proxy_pipe_free(&pc->to_up);
	proxy_pipe_free(&pc->to_down);
	free(pc);
}

/* Read what is there, descriptors too (ours now: close-on-exec). */
static ssize_t
proxy_recv(int fd, struct proxy_pipe *p)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int) * PROXY_MAX_FDS)];
	} cbuf;
	struct msghdr	 msg;
	struct cmsghdr	*cm;
	struct iovec	 iov;
	char		 data[8192];
	ssize_t		 n;
	int		 i, k, got[PROXY_MAX_FDS];

	memset(&msg, 0, sizeof msg);
	iov.iov_base = data;
	iov.iov_len = sizeof data;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof cbuf.buf;
	while ((n = recvmsg(fd, &msg, 0)) == -1 && errno == EINTR)
		;
	if (n <= 0)
		return (n == 0 ? 0 : (errno == EAGAIN ? -2 : -1));
	for (cm = CMSG_FIRSTHDR(&msg); cm != NULL;
	    cm = CMSG_NXTHDR(&msg, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		k = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		memcpy(got, CMSG_DATA(cm), sizeof(int) * (size_t)k);
		for (i = 0; i < k; i++) {
			compat_fd_flags(got[i], 0);
			if (p->nfds == PROXY_MAX_FDS) {
				close(got[i]);
				return (-1);
			}
			p->fds[p->nfds++] = got[i];
		}
	}
	if (msg.msg_flags & MSG_CTRUNC)
		return (-1);
	buf_add(&p->pending, data, (size_t)n);
	return (n);
}

/* Send len bytes of data with the descriptors given; -1 on an error. */
static ssize_t
proxy_sendmsg(int fd, const char *data, size_t len, const int *fds, int nfds)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int) * PROXY_MAX_FDS)];
	} cbuf;
	struct msghdr	 msg;
	struct cmsghdr	*cm;
	struct iovec	 iov;
	ssize_t		 n;

	memset(&msg, 0, sizeof msg);
	iov.iov_base = (void *)data;
	iov.iov_len = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (nfds > 0) {
		memset(&cbuf, 0, sizeof cbuf);
		msg.msg_control = cbuf.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
	}
	while ((n = sendmsg(fd, &msg, 0)) == -1 && errno == EINTR)
		;
	if (n == -1 && errno == EAGAIN)
		return (0);
	return (n);
}

/* Pass on what waits in p (its descriptors with its first byte). */
static int
proxy_flush(int fd, struct proxy_pipe *p)
{
	ssize_t	n;
	int	i;

	if (p->pending.len == 0)
		return (0);
	if ((n = proxy_sendmsg(fd, p->pending.data, p->pending.len, p->fds,
	    p->nfds)) == -1)
		return (-1);
	if (n > 0) {
		for (i = 0; i < p->nfds; i++)
			close(p->fds[i]);
		p->nfds = 0;
		buf_consume(&p->pending, (size_t)n);
	}
	return (0);
}

/* A message's length and whether it has a descriptor; -1 if not one. */
static int
proxy_header(const char *p, uint32_t *type, size_t *len, int *hasfd)
{
	uint32_t	l32;
	uint16_t	l16, flags;

	memcpy(type, p, sizeof *type);
	if (proxy_new_hdr) {
		memcpy(&l32, p + 4, sizeof l32);
		*hasfd = (l32 & PROXY_FD_MARK) != 0;
		*len = l32 & ~PROXY_FD_MARK;
	} else {
		memcpy(&l16, p + 4, sizeof l16);
		memcpy(&flags, p + 6, sizeof flags);
		*hasfd = (flags & PROXY_OLD_HASFD) != 0;
		*len = l16;
	}
	return (*len < PROXY_HDR_SIZE || *len > PROXY_MAX_MSG ? -1 : 0);
}

/*
 * The identify, once its end is here: every message with a descriptor
 * but the last alone, then the last with all the others after it.
 * Returns 1 when sent, 0 when the end has not come yet, -1 on an error.
 */
static int
proxy_identify(struct proxy_conn *pc)
{
	struct proxy_pipe	*p = &pc->to_up;
	struct buf		 rest;
	const char		*d = p->pending.data;
	size_t			 off, len, lastfd = SIZE_MAX, end = 0;
	uint32_t		 type;
	int			 hasfd, nfd = 0, fdi = 0, done = 0;

	for (off = 0; off + PROXY_HDR_SIZE <= p->pending.len; off += len) {
		if (proxy_header(d + off, &type, &len, &hasfd) != 0)
			return (-1);
		if (off + len > p->pending.len)
			break;
		if (hasfd) {
			nfd++;
			lastfd = off;
		}
		if (type == PROXY_IDENTIFY_DONE) {
			done = 1;
			end = off + len;
			break;
		}
	}
	if (!done)
		return (p->pending.len > PROXY_IDENTIFY_MAX ? -1 : 0);
	if (nfd != p->nfds)
		return (-1);
	buf_init(&rest);
	for (off = 0; off < end; off += len) {
		proxy_header(d + off, &type, &len, &hasfd);
		if (!hasfd)
			continue;
		if (off == lastfd)
			buf_add(&rest, d + off, len);
		else if (proxy_sendmsg(pc->up, d + off, len, &p->fds[fdi++],
		    1) != (ssize_t)len)
			goto fail;
	}
	for (off = 0; off < end; off += len) {
		proxy_header(d + off, &type, &len, &hasfd);
		if (!hasfd)
			buf_add(&rest, d + off, len);
	}
	buf_add(&rest, d + end, p->pending.len - end);	/* its command */
	/* (a fresh socket: a few hundred bytes always go at once) */
	if (proxy_sendmsg(pc->up, rest.data, rest.len, &p->fds[fdi],
	    nfd > 0 ? 1 : 0) != (ssize_t)rest.len)
		goto fail;
	buf_free(&rest);
	proxy_pipe_free(p);
	buf_init(&p->pending);
	pc->relaying = 1;
	return (1);

fail:
	buf_free(&rest);
	return (-1);
}

static void
proxy_events(struct proxy_conn *pc)
{
	/* Read a side only while the other has taken what it sent. */
	loop_events(pc->dev, (pc->to_up.pending.len == 0 || !pc->relaying ?
	    POLLIN : 0) | (pc->to_down.pending.len != 0 ? POLLOUT : 0));
	loop_events(pc->uev, (pc->to_down.pending.len == 0 ? POLLIN : 0) |
	    (pc->relaying && pc->to_up.pending.len != 0 ? POLLOUT : 0));
}

/*
 * One side's events: what waits for it goes out; what it sent is passed
 * to the other side (the client's identify first kept whole). -1: gone.
 */
static int
proxy_side(struct proxy_conn *pc, short revents, int self, int other,
    struct proxy_pipe *to_self, struct proxy_pipe *to_other)
{
	ssize_t	n;

	if ((revents & POLLOUT) && proxy_flush(self, to_self) != 0)
		return (-1);
	if (revents & (POLLIN|POLLHUP|POLLERR)) {
		if ((n = proxy_recv(self, to_other)) == 0 || n == -1)
			return (-1);
		if (self == pc->down && !pc->relaying) {
			if (proxy_identify(pc) == -1) {
				log_warnx("proxy: a client's identify not "
				    "understood: dropped");
				return (-1);
			}
		} else if (proxy_flush(other, to_other) != 0)
			return (-1);
	}
	proxy_events(pc);
	return (0);
}

static void
proxy_down_cb(int fd, short revents, void *arg)
{
	struct proxy_conn	*pc = arg;

	if (proxy_side(pc, revents, pc->down, pc->up, &pc->to_down,
	    &pc->to_up) != 0)
		proxy_free(pc);
}

static void
proxy_up_cb(int fd, short revents, void *arg)
{
	struct proxy_conn	*pc = arg;

	if (proxy_side(pc, revents, pc->up, pc->down, &pc->to_up,
	    &pc->to_down) != 0)
		proxy_free(pc);
}

static void
proxy_accept_cb(int fd, short revents, void *arg)
{
	struct proxy_conn	*pc;
	struct sockaddr_un	 sa;
	uid_t			 uid;
	int			 cfd, up;
	char			*cause = NULL;

	if ((cfd = compat_accept(proxy_fd, 1)) == -1)
		return;
	if (osdep_peer_uid(cfd, &uid) != 0 || uid != getuid()) {
		close(cfd);
		return;
	}
	/* Never wait on a server that does not take us (stopped, full). */
	if (runtime_sockaddr(lisad.sid.socket, &sa, &cause) != 0 ||
	    (up = compat_socket_unix(1)) == -1) {
		free(cause);
		close(cfd);
		return;
	}
	if (connect(up, (struct sockaddr *)&sa, sizeof sa) != 0) {
		log_warn("proxy: connect %s", lisad.sid.socket);
		close(up);
		close(cfd);
		return;
	}
	pc = xcalloc(1, sizeof *pc);
	pc->down = cfd;
	pc->up = up;
	buf_init(&pc->to_up.pending);
	buf_init(&pc->to_down.pending);
	pc->dev = loop_add(cfd, POLLIN, proxy_down_cb, pc);
	pc->uev = loop_add(up, POLLIN, proxy_up_cb, pc);
	TAILQ_INSERT_TAIL(&proxy_conns, pc, entry);
}

/*
 * The socket our control clients connect to, where tmux needs it (before
 * 3.7); NULL where they go to the server itself.
 */
const char *
proxy_path(void)
{
	return (proxy_sock);
}

int
proxy_open(void)
{
	struct sockaddr_un	sa;
	char			*path, *cause = NULL;
	mode_t			old;

	if (!lisad.caps.identify_crash || getenv("LISAD_NO_PROXY") != NULL)
		return (0);
	proxy_new_hdr = lisad.caps.imsg_len32;
	path = runtime_path(lisad.rundir, lisad.sid.key, ".tmux");
	if (runtime_sockaddr(path, &sa, &cause) != 0 ||
	    (proxy_fd = compat_socket_unix(1)) == -1) {
		log_warnx("proxy: %s", cause != NULL ? cause : "socket");
		free(cause);
		free(path);
		return (-1);
	}
	unlink(path);
	old = umask(077);
	if (bind(proxy_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
	    listen(proxy_fd, 128) != 0) {
		umask(old);
		log_warn("proxy: %s", path);
		close(proxy_fd);
		proxy_fd = -1;
		free(path);
		return (-1);
	}
	umask(old);
	chmod(path, 0600);
	proxy_sock = path;
	proxy_lf = loop_add(proxy_fd, POLLIN, proxy_accept_cb, NULL);
	log_debug("proxy: control clients through %s", path);
	return (0);
}

void
proxy_close(void)
{
	struct proxy_conn	*pc, *pc1;

	TAILQ_FOREACH_SAFE(pc, &proxy_conns, entry, pc1)
		proxy_free(pc);
	if (proxy_fd != -1) {
		loop_del(proxy_lf);
		close(proxy_fd);
		proxy_fd = -1;
	}
	if (proxy_sock != NULL) {
		unlink(proxy_sock);
		free(proxy_sock);
		proxy_sock = NULL;
	}
}
