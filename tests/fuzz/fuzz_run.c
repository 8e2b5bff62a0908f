/*
 * Run records (the lifecycle/done files `lisa run` writes and the helper
 * and CLI read back): parse, write, parse again; writing settles.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "run-record.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run	 r;
	struct buf	 b, b2;
	char		*cause = NULL, *text;

	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if (run_parse(text, size, &r, &cause) == 0) {
		/*
		 * Our own JSON reads back, and after one pass (invalid UTF-8
		 * becomes U+FFFD) writing is a fixed point.
		 */
		buf_init(&b);
		run_json(&b, &r);
		run_free(&r);
		if (run_parse(b.data, b.len, &r, &cause) != 0)
			abort();
		buf_free(&b);
		buf_init(&b);
		run_json(&b, &r);
		run_free(&r);
		if (run_parse(b.data, b.len, &r, &cause) != 0)
			abort();
		buf_init(&b2);
		run_json(&b2, &r);
		if (b.len != b2.len || memcmp(b.data, b2.data, b.len) != 0)
			abort();
		run_free(&r);
		buf_free(&b);
		buf_free(&b2);
	} else if (cause == NULL)
		abort();
	free(cause);
	free(text);
	return (0);
}
