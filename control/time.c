/* Clock helpers: monotonic for deadlines and latencies, real for display. */
#include <time.h>

#include "util.h"

uint64_t
time_mono_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000);
}

uint64_t
time_mono_ms(void)
{
	return (time_mono_us() / 1000);
}

int64_t
time_real_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}
