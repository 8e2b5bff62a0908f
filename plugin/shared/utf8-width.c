/*
 * Text in columns as a terminal draws it: a wide character (日, 🚀) takes
 * two columns, a combining mark none, whatever its bytes. The menus and
 * tables lisa draws align by this, as tmux draws them by wcwidth(3).
 */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "shared.h"

/*
 * wcwidth answers for the locale's character set: a UTF-8 one, as tmux
 * takes (its own fallback is C.UTF-8). Only LC_CTYPE is touched.
 */
void
utf8_locale(void)
{
	static const char	*tries[] = { "", "C.UTF-8", "C.utf8",
	    "en_US.UTF-8" };
	size_t			 i;
	const char		*cs;

	for (i = 0; i < sizeof tries / sizeof tries[0]; i++) {
		if (setlocale(LC_CTYPE, tries[i]) == NULL)
			continue;
		cs = nl_langinfo(CODESET);
		if (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0)
			return;
	}
	setlocale(LC_CTYPE, "C");
}

/* One character at S: its length in bytes (1 for a bad byte), its width. */
static size_t
utf8_char(const char *s, int *width)
{
	const unsigned char	*u = (const unsigned char *)s;
	unsigned int		 c, n, i;
	int			 w;

	if (u[0] < 0x80) {
		*width = u[0] < 0x20 || u[0] == 0x7f ? 0 : 1;
		return (1);
	}
	if ((u[0] & 0xe0) == 0xc0) {
		c = u[0] & 0x1f;
		n = 2;
	} else if ((u[0] & 0xf0) == 0xe0) {
		c = u[0] & 0x0f;
		n = 3;
	} else if ((u[0] & 0xf8) == 0xf0) {
		c = u[0] & 0x07;
		n = 4;
	} else {
		*width = 1;
		return (1);
	}
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*width = 1;
			return (1);
		}
		c = (c << 6) | (u[i] & 0x3f);
	}
	w = wcwidth((wchar_t)c);
	/* (unknown to the locale: one column, as most terminals draw it) */
	*width = w < 0 ? 1 : w;
	return (n);
}

size_t
utf8_width(const char *s)
{
	size_t	n = 0;
	int	w;

	while (*s != '\0') {
		s += utf8_char(s, &w);
		n += (size_t)w;
	}
	return (n);
}

/*
 * How many bytes of S fit in COLS columns: whole characters, with the
 * combining marks after the last one kept.
 */
size_t
utf8_fit(const char *s, size_t cols)
{
	size_t	at = 0, used = 0, len;
	int	w;

	while (s[at] != '\0') {
		len = utf8_char(s + at, &w);
		if (used + (size_t)w > cols)
			break;
		used += (size_t)w;
		at += len;
	}
	return (at);
}

/* S in a column of WIDTH, padded with spaces (never cut): a table's. */
void
utf8_column(FILE *f, const char *s, size_t width)
{
	size_t	w = utf8_width(s);

	fputs(s, f);
	for (; w < width; w++)
		fputc(' ', f);
}
