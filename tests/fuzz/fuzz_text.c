/*
 * The pane-output scanner (OSC titles, BEL, OSC 133/7501) and the stderr
 * summary of a run: any bytes, any cuts. The summary's JSON must parse.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "osc.h"
#include "run-stderr.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct fz_seen {
	size_t		n;
	uint64_t	hash;
};

/* Count and hash every event: cutting the input must not change them. */
static void
fz_osc(const struct osc_event *ev, void *arg)
{
	struct fz_seen	*s = arg;
	size_t		 i;

	s->n++;
	s->hash = s->hash * 31 + (uint64_t)ev->kind * 7 + (uint64_t)ev->number;
	for (i = 0; i < ev->len; i++)
		s->hash = s->hash * 131 + (unsigned char)ev->payload[i];
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct osc_scanner	 osc;
	struct run_stderr	 rs;
	struct json_doc		*d;
	struct buf		 b;
	char			*cause = NULL;
	struct fz_seen		 whole = { 0, 0 }, cuts = { 0, 0 };
	size_t			 off, n, cut;

	cut = size > 0 ? (size_t)(data[0] % 64) + 1 : 1;
	osc_init(&osc);
	osc_scan(&osc, (const char *)data, size, fz_osc, &whole);
	osc_init(&osc);
	run_stderr_init(&rs);
	for (off = 0; off < size; off += n) {
		n = size - off < cut ? size - off : cut;
		osc_scan(&osc, (const char *)data + off, n, fz_osc, &cuts);
		run_stderr_feed(&rs, (const char *)data + off, n);
	}
	if (whole.n != cuts.n || whole.hash != cuts.hash)
		abort();	/* the stream's cuts changed what was seen */
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
