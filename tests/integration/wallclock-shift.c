/*
 * A wall clock moved by the tests: loaded with LD_PRELOAD into the helper,
 * it adds the seconds written in $WALLCLOCK_SHIFT_FILE (read at each call)
 * to CLOCK_REALTIME, as an NTP step or a resumed virtual machine moves it,
 * while the kernel's other clocks (ps's elapsed times) go on.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int	clock_gettime(clockid_t, struct timespec *);

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	static int	(*real)(clockid_t, struct timespec *);
	const char	*path = getenv("WALLCLOCK_SHIFT_FILE");
	FILE		*f;
	long		 off;
	int		 r;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "clock_gettime");
	if (real == NULL)
		return (-1);
	r = real(id, ts);
	if (r == 0 && id == CLOCK_REALTIME && path != NULL &&
	    (f = fopen(path, "r")) != NULL) {
		if (fscanf(f, "%ld", &off) == 1)
			ts->tv_sec += off;
		fclose(f);
	}
	return (r);
}
