/*
 * A program on PATH, found as the shell finds it (the first directory
 * where it is executable): the helper's notifiers and curl, what lisa
 * doctor says the helper would use, and an agent's program (resume).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shared.h"

/* Its path (a new string), or NULL. */
char *
path_which(const char *name)
{
	const char	*path = getenv("PATH");

	return (path_which_in(path != NULL ? path : "/usr/local/bin:/usr/bin:"
	    "/bin", name, 0));
}

/*
 * The same on PATH (another process's: ABSOLUTE, its relative entries
 * skipped, as they were relative to where it was).
 */
char *
path_which_in(const char *path, const char *name, int absolute)
{
	char	*copy, *p, *dir, *full;

	copy = p = xstrdup(path);
	while ((dir = strsep(&p, ":")) != NULL) {
		if (*dir == '\0' || (absolute && *dir != '/'))
			continue;
		xasprintf(&full, "%s/%s", dir, name);
		if (access(full, X_OK) == 0) {
			free(copy);
			return (full);
		}
		free(full);
	}
	free(copy);
	return (NULL);
}
