/*
 * A program on PATH, found as the shell finds it (the first directory
 * where it is executable): the helper's notifiers and curl, and what lisa
 * doctor says the helper would use.
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
	char		*copy, *p, *dir, *full;

	if (path == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	copy = p = xstrdup(path);
	while ((dir = strsep(&p, ":")) != NULL) {
		if (*dir == '\0')
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
