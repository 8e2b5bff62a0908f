/*
 * The pane-output scanner (OSC titles, BEL, OSC 133/7501) and the stderr
 * summary of a run: any bytes, any cuts. The summary's JSON must parse.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lisa.h"
#include "osc.h"
#include "run-stderr.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fz_osc(const struct osc_event *ev, void *arg)
{
	(*(size_t *)arg)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct osc_scanner	 osc;
	struct run_stderr	 rs;
	struct json_doc		*d;
	struct buf		 b;
	char			*cause = NULL;
	size_t			 off, n, cut, events = 0;

	cut = size > 0 ? (size_t)(data[0] % 64) + 1 : 1;
	osc_init(&osc);
	run_stderr_init(&rs);
	for (off = 0; off < size; off += n) {
		n = size - off < cut ? size - off : cut;
		osc_scan(&osc, (const char *)data + off, n, fz_osc, &events);
		run_stderr_feed(&rs, (const char *)data + off, n);
	}
	run_stderr_finish(&rs);
	buf_init(&b);
	run_stderr_json(&b, &rs);
	if ((d = json_parse(b.data, b.len, &cause)) == NULL)
		abort();
	json_free(d);
	buf_free(&b);
	run_stderr_free(&rs);
	return (0);
}
