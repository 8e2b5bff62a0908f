/*
 * trickle: write BYTES_PER_SECOND of agent-like text, a tenth of it every
 * 100 ms, for ever. make bench (B4) runs a hundred of these as "claude"
 * (a symlink), so the helper treats them as agents streaming output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	static const char	 line[] = "\033[2K\r\342\240\202 Working on "
	    "src/main.c - reading files, running tests (esc to interrupt)\r\n";
	struct timespec		 tick = { 0, 100 * 1000 * 1000 };
	char			*chunk;
	size_t			 rate, n, off;

	rate = argc > 1 ? strtoul(argv[1], NULL, 10) : 10240;
	n = rate / 10 > 0 ? rate / 10 : 1;
	if ((chunk = malloc(n)) == NULL)
		return (1);
	for (off = 0; off < n; off++)
		chunk[off] = line[off % (sizeof line - 1)];
	for (;;) {
		if (write(1, chunk, n) < 0)
			return (1);
		nanosleep(&tick, NULL);
	}
}
