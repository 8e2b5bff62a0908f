/*
 * JSON. Writing: strings are escaped and invalid UTF-8 is replaced with
 * U+FFFD, so whatever bytes a pane title holds, the output stays valid JSON.
 * Reading: Debian's jsmn tokenizes; a document that does not parse is an
 * error for the caller to report, never a crash.
 */
#include <stdlib.h>
#include <string.h>

#define JSMN_STATIC
#define JSMN_STRICT
/* Without parent links jsmn looks back over every earlier token at each
 * comma of an array: a list of a thousand panes took 0.5 G instructions. */
#define JSMN_PARENT_LINKS
#include <jsmn.h>

#include "shared.h"

/* Length of a valid UTF-8 sequence at p (1-4), or 0 if invalid. */
size_t
json_utf8_len(const unsigned char *p, size_t left)
{
	size_t		n, i;
	uint32_t	cp;

	if (p[0] < 0x80)
		return (1);
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return (0);
	if (left < n)
		return (0);
	cp = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return (0);
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return (0);
	return (n);
}

void
json_str(struct buf *b, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, n;

	buf_addc(b, '"');
	while (i < len) {
		if (p[i] == '"' || p[i] == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)p[i++]);
		} else if (p[i] == '\n') {
			buf_adds(b, "\\n");
			i++;
		} else if (p[i] == '\t') {
			buf_adds(b, "\\t");
			i++;
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			buf_printf(b, "\\u%04x", p[i++]);
		} else if (p[i] < 0x80) {
			buf_addc(b, (char)p[i++]);
		} else if ((n = json_utf8_len(p + i, len - i)) != 0) {
			buf_add(b, p + i, n);
			i += n;
		} else {
			buf_adds(b, "\\ufffd");
			i++;
		}
	}
	buf_addc(b, '"');
}

void
json_cstr(struct buf *b, const char *s)
{
	if (s == NULL)
		buf_adds(b, "null");
	else
		json_str(b, s, strlen(s));
}

/* A key with its colon; adds the comma unless the object just opened. */
void
json_key(struct buf *b, const char *key)
{
	if (b->len != 0 && b->data[b->len - 1] != '{' &&
	    b->data[b->len - 1] != '[')
		buf_addc(b, ',');
	json_cstr(b, key);
	buf_addc(b, ':');
}

void
json_int_or_null(struct buf *b, int has, long long v)
{
	if (has)
		buf_printf(b, "%lld", v);
	else
		buf_adds(b, "null");
}

struct json_doc {
	char		*text;
	size_t		 len;
	jsmntok_t	*toks;
	int		 ntoks;
	/* The last array item found: the next is one skip on. */
	int		 item_array, item_i, item_tok;
};

struct json_doc *
json_parse(const char *text, size_t len, char **cause)
{
	struct json_doc	*d;
	jsmn_parser	 p;
	int		 n;

	jsmn_init(&p);
	n = jsmn_parse(&p, text, len, NULL, 0);
	if (n < 1) {
		xasprintf(cause, "invalid JSON (%s)", n == JSMN_ERROR_PART ?
		    "truncated" : n == 0 ? "empty" : "syntax error");
		return (NULL);
	}
	d = xcalloc(1, sizeof *d);
	d->item_array = -1;
	d->text = xstrndup(text, len);
	d->len = len;
	d->toks = xreallocarray(NULL, (size_t)n, sizeof *d->toks);
	jsmn_init(&p);
	d->ntoks = jsmn_parse(&p, d->text, len, d->toks, (unsigned)n);
	if (d->ntoks < 1) {
		xasprintf(cause, "invalid JSON");
		json_free(d);
		return (NULL);
	}
	return (d);
}

void
json_free(struct json_doc *d)
{
	if (d == NULL)
		return;
	free(d->text);
	free(d->toks);
	free(d);
}

int
json_type(struct json_doc *d, int tok)
{
	if (tok < 0 || tok >= d->ntoks)
		return (-1);
	switch (d->toks[tok].type) {
	case JSMN_OBJECT:
		return (JSON_T_OBJECT);
	case JSMN_ARRAY:
		return (JSON_T_ARRAY);
	case JSMN_STRING:
		return (JSON_T_STRING);
	case JSMN_PRIMITIVE:
		return (JSON_T_PRIMITIVE);
	default:
		return (-1);
	}
}

/*
 * Index of the token after tok and all its children. jsmn makes an object
 * key a string of size 1 whose child is the value, so every token's size is
 * its number of direct children.
 */
int
json_skip(struct json_doc *d, int tok)
{
	int	i, n;

	if (tok < 0 || tok >= d->ntoks)
		return (d->ntoks);
	n = d->toks[tok].size;
	tok++;
	for (i = 0; i < n && tok < d->ntoks; i++)
		tok = json_skip(d, tok);
	return (tok);
}

/* Token of the value under key in object obj, or -1. */
int
json_get(struct json_doc *d, int obj, const char *key)
{
	jsmntok_t	*t;
	size_t		 klen = strlen(key);
	int		 i, n, tok;

	if (json_type(d, obj) != JSON_T_OBJECT)
		return (-1);
	n = d->toks[obj].size;
	tok = obj + 1;
	for (i = 0; i < n && tok < d->ntoks; i++) {
		t = &d->toks[tok];
		if (t->type == JSMN_STRING &&
		    (size_t)(t->end - t->start) == klen &&
		    memcmp(d->text + t->start, key, klen) == 0 &&
		    tok + 1 < d->ntoks)
			return (tok + 1);
		tok = json_skip(d, tok);
	}
	return (-1);
}

int
json_ntoks(struct json_doc *d)
{
	return (d->ntoks);
}

int
json_array_size(struct json_doc *d, int tok)
{
	if (json_type(d, tok) != JSON_T_ARRAY)
		return (-1);
	return (d->toks[tok].size);
}

int
json_array_item(struct json_doc *d, int tok, int i)
{
	int	j = 0, item = tok + 1;

	if (json_type(d, tok) != JSON_T_ARRAY || i < 0 ||
	    i >= d->toks[tok].size)
		return (-1);
	/* Items in order (every caller's loop) cost one skip each. */
	if (d->item_array == tok && d->item_i <= i) {
		j = d->item_i;
		item = d->item_tok;
	}
	for (; j < i && item < d->ntoks; j++)
		item = json_skip(d, item);
	if (item >= d->ntoks)
		return (-1);
	d->item_array = tok;
	d->item_i = i;
	d->item_tok = item;
	return (item);
}

/* Decode a string token (escapes resolved) into a new string. */
int
json_tok_str(struct json_doc *d, int tok, char **out)
{
	const char	*p, *end;
	struct buf	 b;
	unsigned	 cp, lo;
	char		*e;
	char		 hex[5];

	if (json_type(d, tok) != JSON_T_STRING)
		return (-1);
	p = d->text + d->toks[tok].start;
	end = d->text + d->toks[tok].end;
	buf_init(&b);
	buf_reserve(&b, (size_t)(end - p));
	while (p < end) {
		if (*p != '\\') {
			buf_addc(&b, *p++);
			continue;
		}
		if (++p >= end)
			break;
		switch (*p) {
		case 'n': buf_addc(&b, '\n'); break;
		case 't': buf_addc(&b, '\t'); break;
		case 'r': buf_addc(&b, '\r'); break;
		case 'b': buf_addc(&b, '\b'); break;
		case 'f': buf_addc(&b, '\f'); break;
		case 'u':
			if (end - p < 5)
				goto bad;
			memcpy(hex, p + 1, 4);
			hex[4] = '\0';
			cp = (unsigned)strtoul(hex, &e, 16);
			if (*e != '\0')
				goto bad;
			p += 4;
			if (cp >= 0xd800 && cp <= 0xdbff && end - p >= 7 &&
			    p[1] == '\\' && p[2] == 'u') {
				memcpy(hex, p + 3, 4);
				lo = (unsigned)strtoul(hex, &e, 16);
				if (*e == '\0' && lo >= 0xdc00 && lo <= 0xdfff) {
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					    (lo - 0xdc00);
					p += 6;
				}
			}
			if (cp >= 0xd800 && cp <= 0xdfff)
				cp = 0xfffd;
			if (cp < 0x80)
				buf_addc(&b, (char)cp);
			else if (cp < 0x800) {
				buf_addc(&b, (char)(0xc0 | (cp >> 6)));
				buf_addc(&b, (char)(0x80 | (cp & 0x3f)));
			} else if (cp < 0x10000) {
				buf_addc(&b, (char)(0xe0 | (cp >> 12)));
				buf_addc(&b, (char)(0x80 | ((cp >> 6) & 0x3f)));
				buf_addc(&b, (char)(0x80 | (cp & 0x3f)));
			} else {
				buf_addc(&b, (char)(0xf0 | (cp >> 18)));
				buf_addc(&b, (char)(0x80 | ((cp >> 12) & 0x3f)));
				buf_addc(&b, (char)(0x80 | ((cp >> 6) & 0x3f)));
				buf_addc(&b, (char)(0x80 | (cp & 0x3f)));
			}
			break;
		default:
			buf_addc(&b, *p);
			break;
		}
		p++;
	}
	*out = buf_detach(&b);
	return (0);
bad:
	buf_free(&b);
	return (-1);
}

char *
json_get_str(struct json_doc *d, int obj, const char *key)
{
	char	*s;

	if (json_tok_str(d, json_get(d, obj, key), &s) != 0)
		return (NULL);
	return (s);
}

int
json_get_int(struct json_doc *d, int obj, const char *key, long long *v)
{
	return (json_tok_int(d, json_get(d, obj, key), v));
}

int
json_tok_int(struct json_doc *d, int tok, long long *v)
{
	char	 tmp[32], *e;
	size_t	 n;

	if (json_type(d, tok) != JSON_T_PRIMITIVE)
		return (-1);
	n = (size_t)(d->toks[tok].end - d->toks[tok].start);
	if (n == 0 || n >= sizeof tmp)
		return (-1);
	memcpy(tmp, d->text + d->toks[tok].start, n);
	tmp[n] = '\0';
	*v = strtoll(tmp, &e, 10);
	return (*e == '\0' ? 0 : -1);
}

int
json_get_bool(struct json_doc *d, int obj, const char *key, int *v)
{
	int	tok = json_get(d, obj, key);

	if (json_type(d, tok) != JSON_T_PRIMITIVE)
		return (-1);
	if (d->text[d->toks[tok].start] == 't')
		*v = 1;
	else if (d->text[d->toks[tok].start] == 'f')
		*v = 0;
	else
		return (-1);
	return (0);
}

/* Write a token's source text (objects and arrays come out whole). */
void
json_dump(struct json_doc *d, int tok, FILE *f)
{
	if (tok < 0 || tok >= d->ntoks) {
		fputs("null", f);
		return;
	}
	fwrite(d->text + d->toks[tok].start, 1,
	    (size_t)(d->toks[tok].end - d->toks[tok].start), f);
}

/* A token's JSON text (an object stays an object), as a new string. */
char *
json_tok_text(struct json_doc *d, int tok)
{
	if (tok < 0 || tok >= d->ntoks)
		return (xstrdup("null"));
	return (xstrndup(d->text + d->toks[tok].start,
	    (size_t)(d->toks[tok].end - d->toks[tok].start)));
}
