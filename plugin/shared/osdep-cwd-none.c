/*
 * The generic backend where lisa knows no call for a process's working
 * directory: none, and the agent's own files say it where they can
 * (docs/architecture.md).
 */
#include <sys/types.h>

#include <stddef.h>

#include "osdep.h"

int
osdep_cwd(pid_t pid, char *buf, size_t size)
{
	(void)pid;
	(void)buf;
	(void)size;
	return (-1);
}
