/*
 * Text for a desktop notification's body: most notification daemons read
 * it as markup (the Desktop Notifications spec's <b>, <i>, <a href>,
 * <img>), so an agent's question ("<a href=...>") would be drawn as a
 * link. '&', '<' and '>' as entities: the text, shown as it is.
 */
#include <string.h>

#include "util.h"
#include "shared.h"

char *
markup_escape(const char *s)
{
	struct buf	b;

	buf_init(&b);
	for (; *s != '\0'; s++) {
		if (*s == '&')
			buf_adds(&b, "&amp;");
		else if (*s == '<')
			buf_adds(&b, "&lt;");
		else if (*s == '>')
			buf_adds(&b, "&gt;");
		else
			buf_addc(&b, *s);
	}
	return (buf_detach(&b));
}
