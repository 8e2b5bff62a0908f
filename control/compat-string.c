/*
 * strlcpy and strlcat where the system has neither (glibc before 2.38
 * without libbsd): copy or append into a buffer of size bytes, always
 * NUL-terminated when size is not 0, and return the length the whole
 * string would have had, so that a caller sees truncation.
 */
#include <string.h>

#include "util.h"

#ifndef LISA_HAVE_STRLCPY
size_t
strlcpy(char *dst, const char *src, size_t size)
{
	size_t	n = strlen(src);

	if (size != 0) {
		size_t	c = n < size - 1 ? n : size - 1;

		memcpy(dst, src, c);
		dst[c] = '\0';
	}
	return (n);
}

size_t
strlcat(char *dst, const char *src, size_t size)
{
	size_t	d = strnlen(dst, size);

	if (d == size)
		return (size + strlen(src));
	return (d + strlcpy(dst + d, src, size - d));
}
#endif
