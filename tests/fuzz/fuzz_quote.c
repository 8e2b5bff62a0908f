/*
 * ctl_quote, the only way text lisa did not write reaches a tmux command:
 * its output, read back by tmux's rules for a double-quoted word
 * (cmd-parse.y: \\ \" \$ \~ \ooo escapes; $ and ~ would expand, a bare
 * newline would end the command), must be exactly the input, and must
 * contain nothing tmux would expand or split on.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "util.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* tmux's reading of a "..." word; -1 if tmux would not take it whole. */
static int
unquote(const char *s, size_t len, struct buf *out)
{
	size_t	i = 0;
	int	v, k;

	if (len < 2 || s[0] != '"' || s[len - 1] != '"')
		return (-1);
	for (i = 1; i < len - 1; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '$' || c == '~' || c == '\n' || c < 0x20 ||
		    c >= 0x7f)
			return (-1);	/* would end, expand or mangle */
		if (c != '\\') {
			buf_addc(out, (char)c);
			continue;
		}
		if (++i >= len - 1)
			return (-1);
		c = (unsigned char)s[i];
		if (c >= '0' && c <= '7') {
			for (v = 0, k = 0; k < 3; k++, i++) {
				if (i >= len - 1 || s[i] < '0' || s[i] > '7')
					return (-1);
				v = v * 8 + (s[i] - '0');
			}
			i--;
			buf_addc(out, (char)v);
		} else if (c == '\\' || c == '"' || c == '$' || c == '~')
			buf_addc(out, (char)c);
		else
			return (-1);
	}
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf	q, back;

	buf_init(&q);
	buf_init(&back);
	ctl_quote(&q, (const char *)data, size);
	if (unquote(q.data, q.len, &back) != 0 || back.len != size ||
	    (size > 0 && memcmp(back.data, data, size) != 0))
		abort();
	buf_free(&q);
	buf_free(&back);
	return (0);
}
