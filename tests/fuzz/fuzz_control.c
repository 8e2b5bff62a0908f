/*
 * The control-mode client: any byte stream from tmux, cut anywhere, with
 * commands in flight (so %begin/%end blocks are matched against them).
 * Nothing may crash, leak or read out of bounds; decoded output never
 * exceeds what came in.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "util.h"

static size_t	out_bytes;

static void
fz_event(struct ctl_client *c, struct ctl_event *ev, void *arg)
{
}

static void
fz_output(struct ctl_client *c, int pane, const char *data, size_t len,
    uint64_t age, void *arg)
{
	out_bytes += len;
	if (len > 0 && (data[0] == 0x7f || data[len - 1] == 0x7f))
		out_bytes++;	/* touch both ends */
}

static void
fz_reply(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	if (len > 0)
		out_bytes += (unsigned char)body[len - 1] & 1;
}

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ctl_callbacks cbs = { fz_event, fz_output };
	static int		 logging;
	struct ctl_client	*c;
	size_t			 off = 0, n, cut;
	int			 i;


	if (!logging) {
		log_open("/dev/null", 0);
		logging = 1;
	}
	out_bytes = 0;
	c = ctl_client_new(-1, -1, &cbs, NULL);
	for (i = 0; i < 3; i++)
		ctl_client_send(c, "list-panes", fz_reply, NULL);
	/* The first byte picks where the stream is cut. */
	cut = size > 0 ? (size_t)data[0] + 1 : 1;
	while (off < size) {
		n = size - off < cut ? size - off : cut;
		ctl_client_feed(c, (const char *)data + off, n);
		off += n;
	}
	if (out_bytes > size + 3)
		abort();
	ctl_client_free(c);
	return (0);
}
