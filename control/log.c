/*
 * Logging. Warnings always go to the log (stderr until a file is opened);
 * debug lines only with -v. The file is capped so a flood of malformed input
 * cannot fill the disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define LOG_MAX_BYTES (4 * 1024 * 1024)

static FILE	*log_file;
static int	 log_verbose;
static size_t	 log_written;

void
log_open(const char *path, int verbose)
{
	int	fd;

	log_verbose = verbose;
	if (path == NULL)
		return;
	fd = open(path, O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW|O_CLOEXEC, 0600);
	if (fd == -1)
		return;
	if ((log_file = fdopen(fd, "w")) == NULL) {
		close(fd);
		return;
	}
	setvbuf(log_file, NULL, _IOLBF, 0);
	log_written = 0;
}

void
log_close(void)
{
	if (log_file != NULL)
		fclose(log_file);
	log_file = NULL;
}

int
log_get_verbose(void)
{
	return (log_verbose);
}

static void
log_vwrite(const char *prefix, const char *fmt, va_list ap, const char *suffix)
{
	FILE		*f = log_file != NULL ? log_file : stderr;
	struct timespec	 ts;
	int		 n;

	if (log_written > LOG_MAX_BYTES)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	n = fprintf(f, "%lld.%03ld %s", (long long)ts.tv_sec,
	    ts.tv_nsec / 1000000, prefix);
	n += vfprintf(f, fmt, ap);
	if (suffix != NULL)
		n += fprintf(f, ": %s", suffix);
	n += fprintf(f, "\n");
	if (n > 0)
		log_written += (size_t)n;
	if (log_written > LOG_MAX_BYTES)
		fprintf(f, "log limit reached, further lines dropped\n");
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	log_vwrite("", fmt, ap, NULL);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite("warning: ", fmt, ap, NULL);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_vwrite("warning: ", fmt, ap, strerror(saved));
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_vwrite("fatal: ", fmt, ap, strerror(saved));
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite("fatal: ", fmt, ap, NULL);
	va_end(ap);
	exit(1);
}
