/*
 * A time as the agents write it in their files (RFC 3339, UTC:
 * "2026-11-27T09:14:02.112Z"), read to the millisecond.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "shared.h"

/* Epoch ms of the time s begins with, or 0 if it is none. */
int64_t
rfc3339_ms(const char *s)
{
	struct tm	 tm;
	const char	*p;
	int64_t		 ms;
	int		 i;

	memset(&tm, 0, sizeof tm);
	if ((p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL ||
	    (ms = (int64_t)timegm(&tm)) <= 0)
		return (0);
	ms *= 1000;
	/* Milliseconds: the first three digits of the fraction. */
	if (*p == '.') {
		for (p++, i = 100; i > 0 && *p >= '0' && *p <= '9';
		    p++, i /= 10)
			ms += (*p - '0') * i;
	}
	return (ms);
}

/* Epoch MS as "2026-11-27T09:14:02.112Z". */
void
rfc3339(int64_t ms, char *out, size_t len)
{
	time_t		t = (time_t)(ms / 1000);
	struct tm	tm;
	char		tmp[32];

	gmtime_r(&t, &tm);
	strftime(tmp, sizeof tmp, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, len, "%s.%03dZ", tmp, (int)(ms % 1000));
}
