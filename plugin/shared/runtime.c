/*
 * The per-user runtime directory ($XDG_RUNTIME_DIR/lisa, else
 * /tmp/lisa-UID): created 0700, and refused unless it is a real directory
 * owned by us and closed to everyone else - a directory someone else made in
 * /tmp first must not receive our socket or lock.
 */
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shared.h"

static int
runtime_check(const char *path, char **cause)
{
	struct stat	st, st2;
	int		fd;

	if (lstat(path, &st) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
		xasprintf(cause, "%s is not a directory", path);
		return (-1);
	}
	if (st.st_uid != getuid()) {
		xasprintf(cause, "%s is owned by uid %ld, not us", path,
		    (long)st.st_uid);
		return (-1);
	}
	if ((st.st_mode & 077) != 0) {
		xasprintf(cause, "%s has mode %03o, want 0700", path,
		    (unsigned)(st.st_mode & 0777));
		return (-1);
	}
	/* Re-check through an fd opened without following links. */
	fd = open(path, O_RDONLY|O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st2) != 0 || st2.st_ino != st.st_ino ||
	    st2.st_dev != st.st_dev) {
		if (fd != -1)
			close(fd);
		xasprintf(cause, "%s changed while checking it", path);
		return (-1);
	}
	close(fd);
	return (0);
}

/* Find or make the runtime directory. */
int
runtime_dir(char **path, char **cause)
{
	const char	*xdg;
	struct stat	 st;
	char		*dir;

	xdg = getenv("XDG_RUNTIME_DIR");
	if (xdg != NULL && xdg[0] == '/' && stat(xdg, &st) == 0 &&
	    S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
	    access(xdg, W_OK) == 0)
		xasprintf(&dir, "%s/lisa", xdg);
	else
		xasprintf(&dir, "/tmp/lisa-%ld", (long)getuid());
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		xasprintf(cause, "mkdir %s: %s", dir, strerror(errno));
		free(dir);
		return (-1);
	}
	if (runtime_check(dir, cause) != 0) {
		free(dir);
		return (-1);
	}
	*path = dir;
	return (0);
}

/*
 * The per-user state directory for what must outlive a reboot (the agents
 * lisa resume brings back): $XDG_STATE_HOME/lisa/SUB, else
 * ~/.local/state/lisa/SUB; each level made 0700 where missing, the last two
 * checked as the runtime directory is.
 */
int
runtime_state_dir(const char *sub, char **path, char **cause)
{
	const char	*xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char		*base, *top, *dir, *p;

	if (xdg != NULL && xdg[0] == '/')
		base = xstrdup(xdg);
	else if (home != NULL && home[0] == '/')
		xasprintf(&base, "%s/.local/state", home);
	else {
		xasprintf(cause, "no XDG_STATE_HOME or HOME for lisa's state");
		return (-1);
	}
	/* (the levels above lisa's are the user's: made, not judged) */
	for (p = base + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(base, 0700);
		*p = '/';
	}
	mkdir(base, 0700);
	xasprintf(&top, "%s/lisa", base);
	xasprintf(&dir, "%s/%s", top, sub);
	free(base);
	if ((mkdir(top, 0700) != 0 && errno != EEXIST) ||
	    (mkdir(dir, 0700) != 0 && errno != EEXIST)) {
		xasprintf(cause, "mkdir %s: %s", dir, strerror(errno));
		free(top);
		free(dir);
		return (-1);
	}
	if (runtime_check(top, cause) != 0 || runtime_check(dir, cause) != 0) {
		free(top);
		free(dir);
		return (-1);
	}
	free(top);
	*path = dir;
	return (0);
}

/* Fill a unix socket address; -1 if the path does not fit sun_path. */
int
runtime_sockaddr(const char *path, struct sockaddr_un *sa, char **cause)
{
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa->sun_path) {
		xasprintf(cause, "socket path too long: %s", path);
		return (-1);
	}
	strlcpy(sa->sun_path, path, sizeof sa->sun_path);
	return (0);
}

char *
runtime_path(const char *dir, const char *key, const char *suffix)
{
	char	*p;

	xasprintf(&p, "%s/%s%s", dir, key, suffix);
	return (p);
}

/*
 * Take the helper's lock: an flock on KEY.lock holding our pid. The kernel
 * drops it when the process dies, so a crash leaves no stale lock. Returns
 * the fd (kept open for life), or -1 with *holder set if another helper has
 * it.
 */
int
runtime_lock(const char *path, pid_t *holder, char **cause)
{
	char	pid[32];
	int	fd, n, tries = 0;

	*holder = 0;
	fd = open(path, O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC, 0600);
	if (fd == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	/*
	 * A helper just killed can leave its lock a moment longer with a
	 * child it forked that has not exec'd yet: while the pid in the file
	 * is gone, try again, for a second at most.
	 */
	while (flock(fd, LOCK_EX|LOCK_NB) != 0 && errno == EWOULDBLOCK &&
	    tries++ < 50) {
		runtime_read_pid(path, holder);
		if (*holder <= 0 || kill(*holder, 0) == 0 || errno != ESRCH)
			break;
		usleep(20000);
	}
	*holder = 0;
	if (flock(fd, LOCK_EX|LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK) {
			runtime_read_pid(path, holder);
			xasprintf(cause, "already running (pid %ld)",
			    (long)*holder);
		} else
			xasprintf(cause, "flock %s: %s", path,
			    strerror(errno));
		close(fd);
		return (-1);
	}
	if (ftruncate(fd, 0) == 0) {
		n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
		if (write(fd, pid, (size_t)n) != n)
			log_warn("write %s", path);
	}
	return (fd);
}

/* Does a helper hold the lock at PATH now (1), or nobody (0)? */
int
runtime_lock_held(const char *path)
{
	int	fd, held;

	if ((fd = open(path, O_RDONLY|O_NOFOLLOW|O_CLOEXEC)) == -1)
		return (0);
	held = flock(fd, LOCK_SH|LOCK_NB) != 0 && errno == EWOULDBLOCK;
	close(fd);		/* (our shared lock, if we took it, goes) */
	return (held);
}

int
runtime_read_pid(const char *path, pid_t *pid)
{
	char	 tmp[32];
	ssize_t	 n;
	int	 fd;

	*pid = 0;
	fd = open(path, O_RDONLY|O_NOFOLLOW|O_CLOEXEC);
	if (fd == -1)
		return (-1);
	n = read(fd, tmp, sizeof tmp - 1);
	close(fd);
	if (n <= 0)
		return (-1);
	tmp[n] = '\0';
	*pid = (pid_t)strtol(tmp, NULL, 10);
	return (*pid > 0 ? 0 : -1);
}

/*
 * A state file of ours in the runtime directory, replaced whole: written
 * to PATH.tmp (0600, never through a link) and renamed over PATH, so a
 * reader sees the old file or the new one. Nothing to write: PATH goes.
 */
int
runtime_write_file(const char *path, const char *data, size_t len)
{
	char	*tmp;
	int	 fd, ok = 0, saved;

	if (len == 0)
		return (unlink(path) == 0 || errno == ENOENT ? 0 : -1);
	xasprintf(&tmp, "%s.tmp", path);
	/* (open's errno kept: a read-only directory is not a full disk) */
	if ((fd = open(tmp, O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW|O_CLOEXEC,
	    0600)) != -1) {
		errno = 0;
		if (write(fd, data, len) == (ssize_t)len &&
		    rename(tmp, path) == 0)
			ok = 1;
	}
	/* (a short write says nothing: the disk was full) */
	saved = errno != 0 ? errno : ENOSPC;
	if (!ok)
		unlink(tmp);
	if (fd != -1)
		close(fd);
	free(tmp);
	errno = saved;
	return (ok ? 0 : -1);
}

/*
 * Can DIR take a file of BYTES? One is written, synced and removed, so a
 * read-only or full filesystem is found out now, not when a file lisa
 * must keep is written (a full one may say so only at fsync).
 */
int
runtime_dir_writable(const char *dir, size_t bytes, char **cause)
{
	char	*path, *zero;
	int	 fd, saved = 0;

	xasprintf(&path, "%s/.writable-%ld", dir, (long)getpid());
	(void)unlink(path);
	fd = open(path, O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, 0600);
	if (fd == -1)
		saved = errno;
	else {
		zero = xcalloc(1, bytes);
		errno = 0;
		if (write(fd, zero, bytes) != (ssize_t)bytes)
			saved = errno != 0 ? errno : ENOSPC;
		else if (fsync(fd) != 0)
			saved = errno;
		free(zero);
		close(fd);
		unlink(path);
	}
	free(path);
	if (saved != 0) {
		xasprintf(cause, "%s: %s", dir, strerror(saved));
		return (-1);
	}
	return (0);
}

/*
 * Such a file, at most MAX bytes of it (never through a link), as a
 * NUL-terminated string in *out; -1 with errno set if it cannot be read
 * (ENOENT: there is none).
 */
int
runtime_read_file(const char *path, size_t max, char **out, size_t *len)
{
	char	*data;
	int	 fd;
	ssize_t	 r;

	*out = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY|O_NOFOLLOW|O_CLOEXEC)) == -1)
		return (-1);
	data = xmalloc(max + 1);
	while (*len < max && (r = read(fd, data + *len, max - *len)) > 0)
		*len += (size_t)r;
	close(fd);
	data[*len] = '\0';
	*out = data;
	return (0);
}

/* Each line of DATA (LEN bytes) to CB, at most MAX of them; how many. */
int
runtime_lines(const char *data, size_t len, int max,
    void (*cb)(const char *, size_t))
{
	const char	*line, *nl, *end = data + len;
	int		 n = 0;

	for (line = data; line < end && n < max; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if (nl > line) {
			cb(line, (size_t)(nl - line));
			n++;
		}
	}
	return (n);
}
