/*
 * A small JSON tree for editing other programs' settings (Claude's
 * settings.json): parsed with jsmn, keys kept in their order, written back
 * pretty-printed. Strings are kept in their escaped form, so whatever the
 * user wrote comes back byte for byte.
 */
#include <stdlib.h>
#include <string.h>

#define JSMN_STATIC
#define JSMN_STRICT
#include <jsmn.h>

#include "shared.h"

static struct jv *
jv_new(enum jv_type t)
{
	struct jv	*v = xcalloc(1, sizeof *v);

	v->type = t;
	return (v);
}

static struct jv *
jv_build(const char *text, jsmntok_t *toks, int ntoks, int *i, int depth)
{
	jsmntok_t	*t;
	struct jv	*v, *child;
	int		 n, k;

	if (*i >= ntoks || depth > 64)
		return (NULL);
	t = &toks[(*i)++];
	switch (t->type) {
	case JSMN_OBJECT:
	case JSMN_ARRAY:
		v = jv_new(t->type == JSMN_OBJECT ? JV_OBJECT : JV_ARRAY);
		n = t->size;
		for (k = 0; k < n; k++) {
			char	*key = NULL;

			if (v->type == JV_OBJECT) {
				if (*i >= ntoks || toks[*i].type != JSMN_STRING)
					goto bad;
				key = xstrndup(text + toks[*i].start,
				    (size_t)(toks[*i].end - toks[*i].start));
				(*i)++;
			}
			if ((child = jv_build(text, toks, ntoks, i,
			    depth + 1)) == NULL) {
				free(key);
				goto bad;
			}
			child->key = key;
			jv_append(v, child);
		}
		return (v);
	case JSMN_STRING:
	case JSMN_PRIMITIVE:
		v = jv_new(t->type == JSMN_STRING ? JV_STRING : JV_PRIMITIVE);
		v->raw = xstrndup(text + t->start, (size_t)(t->end - t->start));
		return (v);
	default:
		return (NULL);
	}
bad:
	jv_free(v);
	return (NULL);
}

struct jv *
jv_parse(const char *text, size_t len, char **cause)
{
	jsmn_parser	 p;
	jsmntok_t	*toks;
	struct jv	*v;
	int		 n, i = 0;

	jsmn_init(&p);
	n = jsmn_parse(&p, text, len, NULL, 0);
	if (n < 1) {
		xasprintf(cause, "invalid JSON");
		return (NULL);
	}
	toks = xreallocarray(NULL, (size_t)n, sizeof *toks);
	jsmn_init(&p);
	n = jsmn_parse(&p, text, len, toks, (unsigned)n);
	v = n > 0 ? jv_build(text, toks, n, &i, 0) : NULL;
	free(toks);
	if (v == NULL)
		xasprintf(cause, "invalid JSON");
	return (v);
}

void
jv_free(struct jv *v)
{
	struct jv	*c;

	if (v == NULL)
		return;
	while ((c = v->first) != NULL) {
		v->first = c->next;
		jv_free(c);
	}
	free(v->key);
	free(v->raw);
	free(v);
}

void
jv_append(struct jv *parent, struct jv *child)
{
	struct jv	**pp = &parent->first;

	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = child;
	child->next = NULL;
}

/* Unlink and free a child. */
void
jv_remove(struct jv *parent, struct jv *child)
{
	struct jv	**pp;

	for (pp = &parent->first; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == child) {
			*pp = child->next;
			child->next = NULL;
			jv_free(child);
			return;
		}
	}
}

struct jv *
jv_get(struct jv *obj, const char *key)
{
	struct jv	*c;

	if (obj == NULL || obj->type != JV_OBJECT)
		return (NULL);
	for (c = obj->first; c != NULL; c = c->next) {
		if (strcmp(c->key, key) == 0)
			return (c);
	}
	return (NULL);
}

/* The value under key, created (as type) if missing. */
struct jv *
jv_get_or_add(struct jv *obj, const char *key, enum jv_type type)
{
	struct jv	*v;

	if ((v = jv_get(obj, key)) != NULL)
		return (v);
	v = jv_new(type);
	v->key = xstrdup(key);
	jv_append(obj, v);
	return (v);
}

/* A string value (escaped for JSON from plain text). */
struct jv *
jv_string(const char *key, const char *text)
{
	struct jv	*v = jv_new(JV_STRING);
	struct buf	 b;

	buf_init(&b);
	json_cstr(&b, text);
	/* Keep the escaped body without the quotes. */
	v->raw = xstrndup(b.data + 1, b.len - 2);
	v->key = key != NULL ? xstrdup(key) : NULL;
	buf_free(&b);
	return (v);
}

struct jv *
jv_container(const char *key, enum jv_type type)
{
	struct jv	*v = jv_new(type);

	v->key = key != NULL ? xstrdup(key) : NULL;
	return (v);
}

static void
jv_indent(struct buf *b, int depth)
{
	int	i;

	buf_addc(b, '\n');
	for (i = 0; i < depth; i++)
		buf_adds(b, "  ");
}

static void
jv_dump_at(const struct jv *v, struct buf *b, int depth)
{
	const struct jv	*c;

	switch (v->type) {
	case JV_STRING:
		buf_addc(b, '"');
		buf_adds(b, v->raw);
		buf_addc(b, '"');
		return;
	case JV_PRIMITIVE:
		buf_adds(b, v->raw);
		return;
	case JV_OBJECT:
	case JV_ARRAY:
		buf_addc(b, v->type == JV_OBJECT ? '{' : '[');
		for (c = v->first; c != NULL; c = c->next) {
			jv_indent(b, depth + 1);
			if (v->type == JV_OBJECT) {
				buf_addc(b, '"');
				buf_adds(b, c->key);
				buf_adds(b, "\": ");
			}
			jv_dump_at(c, b, depth + 1);
			if (c->next != NULL)
				buf_addc(b, ',');
		}
		if (v->first != NULL)
			jv_indent(b, depth);
		buf_addc(b, v->type == JV_OBJECT ? '}' : ']');
		return;
	}
}

void
jv_dump(const struct jv *v, struct buf *b)
{
	jv_dump_at(v, b, 0);
	buf_addc(b, '\n');
}

/* The plain text of a string value (escapes resolved). */
char *
jv_text(const struct jv *v)
{
	struct json_doc	*d;
	struct buf	 b;
	char		*s = NULL, *cause = NULL;

	if (v == NULL || v->type != JV_STRING)
		return (NULL);
	buf_init(&b);
	buf_printf(&b, "\"%s\"", v->raw);
	if ((d = json_parse(b.data, b.len, &cause)) != NULL) {
		json_tok_str(d, 0, &s);
		json_free(d);
	}
	free(cause);
	buf_free(&b);
	return (s);
}
