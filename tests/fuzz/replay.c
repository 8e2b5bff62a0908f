/*
 * A fuzzer's input replayed without libFuzzer: each file named is given
 * to LLVMFuzzerTestOneInput once. Every build links each fuzzer with
 * this, so a symbol a fuzzer lacks breaks the build here, not in CI's
 * clang-only make fuzz; and a crash file can be rerun under gdb.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
main(int argc, char **argv)
{
	FILE	*f;
	char	*data = NULL;
	size_t	 size, got;
	int	 i;

	for (i = 1; i < argc; i++) {
		if ((f = fopen(argv[i], "rb")) == NULL) {
			perror(argv[i]);
			return (1);
		}
		size = 0;
		free(data);
		data = NULL;
		for (;;) {
			char	*n = realloc(data, size + 65536);

			if (n == NULL)
				abort();
			data = n;
			got = fread(data + size, 1, 65536, f);
			size += got;
			if (got < 65536)
				break;
		}
		fclose(f);
		LLVMFuzzerTestOneInput((const uint8_t *)data, size);
	}
	free(data);
	return (0);
}
