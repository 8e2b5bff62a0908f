/* Growable byte buffers, used for framing, command building and JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void
buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->size = 0;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

void
buf_reserve(struct buf *b, size_t more)
{
	size_t	need, size;

	if (more > SIZE_MAX - b->len - 1)
		fatalx("buf_reserve: size overflow");
	need = b->len + more + 1;
	if (need <= b->size)
		return;
	size = b->size == 0 ? 256 : b->size;
	while (size < need)
		size = size > SIZE_MAX / 2 ? need : size * 2;
	b->data = xrealloc(b->data, size);
	b->size = size;
	b->data[b->len] = '\0';
}

void
buf_add(struct buf *b, const void *p, size_t len)
{
	buf_reserve(b, len);
	if (len != 0)
		memcpy(b->data + b->len, p, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatalx("buf_printf: bad format");
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Drop the first len bytes. */
void
buf_consume(struct buf *b, size_t len)
{
	if (len >= b->len) {
		buf_reset(b);
		return;
	}
	memmove(b->data, b->data + len, b->len - len);
	b->len -= len;
	b->data[b->len] = '\0';
}

/* Hand the storage to the caller; the buffer is empty afterwards. */
char *
buf_detach(struct buf *b)
{
	char	*p;

	if (b->data == NULL)
		return (xstrdup(""));
	p = b->data;
	buf_init(b);
	return (p);
}
