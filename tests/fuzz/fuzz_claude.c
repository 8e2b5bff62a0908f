/*
 * Claude Code's files as lisa reads them: sessions/<pid>.json and the
 * tail of a transcript (whole, or cut at any byte as the tail read cuts
 * it). The first input byte picks the cut.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lisa.h"
#include "claude-file.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct claude_session	 cs;
	enum transcript_event	 ev;
	char			*cause;
	size_t			 skip;

	if (claude_session_parse((const char *)data, size, 4242, 12345, &cs,
	    &cause) == 0) {
		if (cause != NULL || strnlen(cs.id, sizeof cs.id) ==
		    sizeof cs.id || cs.status > SS_WAITING)
			abort();
	} else if (cause == NULL)
		abort();	/* every refusal says why */
	free(cause);

	ev = claude_transcript_tail((const char *)data, size, 0);
	if (ev > TX_INTERRUPTED)
		abort();
	skip = size > 0 ? data[0] % (size + 1) : 0;
	ev = claude_transcript_tail((const char *)data + skip, size - skip, 1);
	if (ev > TX_INTERRUPTED)
		abort();
	return (0);
}
