/* Allocation wrappers: callers never check for NULL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void *
xmalloc(size_t size)
{
	void	*p;

	if (size == 0)
		size = 1;
	if ((p = malloc(size)) == NULL)
		fatalx("xmalloc: out of memory (%zu bytes)", size);
	return (p);
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if (n == 0 || size == 0)
		n = size = 1;
	if ((p = calloc(n, size)) == NULL)
		fatalx("xcalloc: out of memory (%zu x %zu bytes)", n, size);
	return (p);
}

void *
xrealloc(void *p, size_t size)
{
	return (xreallocarray(p, 1, size));
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	void	*q;

	if (n == 0 || size == 0)
		n = size = 1;
	if (size != 0 && n > SIZE_MAX / size)
		fatalx("xreallocarray: %zu x %zu overflows", n, size);
	if ((q = realloc(p, n * size)) == NULL)
		fatalx("xreallocarray: out of memory (%zu x %zu bytes)", n, size);
	return (q);
}

char *
xstrdup(const char *s)
{
	return (xstrndup(s, strlen(s)));
}

char *
xstrndup(const char *s, size_t len)
{
	char	*p;
	size_t	 n;

	n = strnlen(s, len);
	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = xvasprintf(ret, fmt, ap);
	va_end(ap);
	return (n);
}

int
xvasprintf(char **ret, const char *fmt, va_list ap)
{
	int	n;

	n = vasprintf(ret, fmt, ap);
	if (n < 0 || *ret == NULL)
		fatalx("xvasprintf: out of memory");
	return (n);
}
