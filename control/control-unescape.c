/*
 * %output escaping: tmux writes every byte below 0x20 and the backslash as
 * \ooo (three octal digits) and everything else raw. tmux never cuts an
 * escape across lines, so each line decodes on its own; the byte stream of a
 * pane is the concatenation of its decoded lines, whatever UTF-8 or terminal
 * sequence a line boundary falls into.
 */
#include <string.h>

#include "control.h"

/*
 * Decode len bytes from in into out (which needs len bytes) and return the
 * decoded length. A malformed escape (not three octal digits) is kept
 * literally rather than dropped: losing bytes would be worse.
 */
size_t
ctl_unescape(const char *in, size_t len, char *out)
{
	const char	*end = in + len, *bs;
	char		*o = out;
	size_t		 run;

	while (in < end) {
		bs = memchr(in, '\\', (size_t)(end - in));
		if (bs == NULL) {
			run = (size_t)(end - in);
			memcpy(o, in, run);
			o += run;
			break;
		}
		run = (size_t)(bs - in);
		memcpy(o, in, run);
		o += run;
		in = bs;
		if (end - in >= 4 &&
		    in[1] >= '0' && in[1] <= '3' &&
		    in[2] >= '0' && in[2] <= '7' &&
		    in[3] >= '0' && in[3] <= '7') {
			*o++ = (char)(((in[1] - '0') << 6) |
			    ((in[2] - '0') << 3) | (in[3] - '0'));
			in += 4;
		} else
			*o++ = *in++;
	}
	return ((size_t)(o - out));
}

/* A byte as \ooo: tmux's output escape, and our quoting's. */
void
ctl_put_octal(struct buf *b, unsigned char c)
{
	char	tmp[4];

	tmp[0] = '\\';
	tmp[1] = (char)('0' + ((c >> 6) & 7));
	tmp[2] = (char)('0' + ((c >> 3) & 7));
	tmp[3] = (char)('0' + (c & 7));
	buf_add(b, tmp, 4);
}

/* Encode as tmux does (used by tests and the benchmark's stream generator). */
size_t
ctl_escape(const void *data, size_t len, struct buf *b)
{
	const unsigned char	*p = data;
	size_t			 i, start = b->len;

	buf_reserve(b, len);
	for (i = 0; i < len; i++) {
		if (p[i] < ' ' || p[i] == '\\')
			ctl_put_octal(b, p[i]);
		else
			buf_addc(b, (char)p[i]);
	}
	return (b->len - start);
}

/*
 * A command's output as tmux 3.4 and 3.5 print it (utf8_stravisx with
 * VIS_OCTAL|VIS_CSTYLE|VIS_NOSLASH; 3.4 also writes '$' as "\$"), back to
 * its bytes, into a new string. The backslash itself is not escaped, so a
 * user's "\037" and an escaped 0x1f look alike: returns 0 when the text
 * held no backslash but those before '$' (the result is exact), -1 when
 * it may not be.
 */
int
ctl_unvis(const char *in, int dollar, char **out)
{
	static const char	 cstyle[] = "n\nr\rt\ta\ab\bf\fv\v";
	const char		*c;
	char			*o;
	int			 exact = 1;

	o = *out = xmalloc(strlen(in) + 1);
	while (*in != '\0') {
		if (*in != '\\') {
			*o++ = *in++;
			continue;
		}
		if (dollar && in[1] == '$') {
			*o++ = '$';
			in += 2;
			continue;
		}
		exact = 0;
		if (in[1] >= '0' && in[1] <= '3' && in[2] >= '0' &&
		    in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
			*o++ = (char)(((in[1] - '0') << 6) |
			    ((in[2] - '0') << 3) | (in[3] - '0'));
			in += 4;
		} else if (in[1] != '\0' &&
		    (c = strchr(cstyle, in[1])) != NULL &&
		    (c - cstyle) % 2 == 0) {
			*o++ = c[1];
			in += 2;
		} else
			*o++ = *in++;
	}
	*o = '\0';
	return (exact ? 0 : -1);
}

/*
 * capture-pane -J on tmux before 3.3 gives each line up to the width
 * allocated for it (a quarter, a half or all of the pane), not up to what
 * was written: "abc" comes back as "abc" and seventeen spaces. What was
 * written and what was padded cannot be told apart, so each trailing run
 * of spaces is made one space: a prompt drawn as "> " (aider's) still ends
 * in its space, a message quoting the line trims it. In place; the new
 * length.
 */
size_t
ctl_unpad(char *text, size_t len)
{
	size_t	i, o = 0, sp = 0;

	for (i = 0; i < len; i++) {
		if (text[i] == ' ') {
			sp++;
			continue;
		}
		if (sp > 0) {
			/* (a run inside a line stays as it was) */
			if (text[i] != '\n')
				while (sp-- > 1)
					text[o++] = ' ';
			text[o++] = ' ';
			sp = 0;
		}
		text[o++] = text[i];
	}
	if (sp > 0)
		text[o++] = ' ';
	return (o);
}
