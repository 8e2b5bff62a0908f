/*
 * The JSON readers: jsmn-based json_parse with every accessor lisa uses
 * (hook payloads, socket requests, replies), and the editing tree of json-edit.c
 * (settings files), whose dump must parse again.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
walk(struct json_doc *d, int tok, int depth)
{
	long long	 v;
	char		*s;
	int		 i, n, b;

	if (tok < 0 || depth > 8)
		return;
	if (json_tok_str(d, tok, &s) == 0)
		free(s);
	json_tok_int(d, tok, &v);
	free(json_tok_text(d, tok));
	if (json_type(d, tok) == JSON_T_ARRAY) {
		n = json_array_size(d, tok);
		for (i = 0; i < n && i < 64; i++)
			walk(d, json_array_item(d, tok, i), depth + 1);
	}
	if (json_type(d, tok) == JSON_T_OBJECT) {
		walk(d, json_get(d, tok, "hook_event_name"), depth + 1);
		walk(d, json_get(d, tok, "message"), depth + 1);
		walk(d, json_get(d, tok, "content"), depth + 1);
		free(json_get_str(d, tok, "status"));
		free(json_get_str(d, tok, "type"));
		json_get_int(d, tok, "pid", &v);
		json_get_bool(d, tok, "ok", &b);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_doc	*d;
	struct jv	*jv, *again;
	struct buf	 b;
	char		*cause = NULL;

	if ((d = json_parse((const char *)data, size, &cause)) != NULL) {
		walk(d, 0, 0);
		json_free(d);
	}
	free(cause);
	cause = NULL;

	if ((jv = jv_parse((const char *)data, size, &cause)) != NULL) {
		buf_init(&b);
		jv_dump(jv, &b);
		again = jv_parse(b.data, b.len, &cause);
		if (again == NULL)
			abort();	/* what we write must read back */
		jv_free(again);
		buf_free(&b);
		jv_free(jv);
	}
	free(cause);
	cause = NULL;

	return (0);
}
