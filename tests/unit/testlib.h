/* Small helpers for the unit tests: a seeded PRNG (LISA_TEST_SEED). */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t test_rng_state;

static inline void
test_rng_init(void)
{
	const char	*s = getenv("LISA_TEST_SEED");

	test_rng_state = s != NULL ? strtoull(s, NULL, 10) : 0x1234567;
	if (test_rng_state == 0)
		test_rng_state = 1;
	fprintf(stderr, "# seed %llu (set LISA_TEST_SEED to vary)\n",
	    (unsigned long long)test_rng_state);
}

static inline uint64_t
test_rng(void)
{
	uint64_t	x = test_rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return (test_rng_state = x);
}

static inline size_t
test_rng_below(size_t n)
{
	return (n == 0 ? 0 : (size_t)(test_rng() % n));
}

#endif
