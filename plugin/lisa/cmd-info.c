/*
 * lisa info: what the helper says of itself (its pid, versions, sessions,
 * protocol counters, what it wrote, memory), one "name value" line each,
 * nested figures as name.part; --json as the helper sends it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lisa.h"

static void
info_print(struct json_doc *d, int obj, const char *prefix)
{
	char	*key, *value, *name;
	int	 t, end;

	end = json_skip(d, obj);
	for (t = obj + 1; t < end; t = json_skip(d, t)) {
		if (json_tok_str(d, t, &key) != 0)
			break;
		xasprintf(&name, "%s%s%s", prefix, *prefix != '\0' ? "." : "",
		    key);
		if (json_type(d, t + 1) == JSON_T_OBJECT)
			info_print(d, t + 1, name);
		else {
			if (json_type(d, t + 1) != JSON_T_STRING ||
			    json_tok_str(d, t + 1, &value) != 0)
				value = json_tok_text(d, t + 1);
			printf("%-24s %s\n", name, value);
			free(value);
		}
		free(name);
		free(key);
	}
}

int
cmd_info(struct lisa_ctx *ctx, int json)
{
	struct json_doc	*d;
	char		*cause = NULL;

	if (client_call(ctx, "{\"cmd\":\"info\"}\n", &d, &cause) != 0) {
		fprintf(stderr, "lisa: %s\n", cause);
		free(cause);
		return (1);
	}
	if (json) {
		json_dump(d, 0, stdout);
		printf("\n");
	} else
		info_print(d, 0, "");
	json_free(d);
	return (0);
}
