/*
 * Every @lisa-* option a user sets, what each takes and its default, and
 * whether a value is one lisa can use. The helper checks each value here
 * before its subsystem reads it: a value it cannot use keeps the default
 * and is said (on the clients, in lisa doctor, in lisa info) instead of
 * being taken as something else. docs/ui.md's "Every option" table is
 * this one, and a unit test holds the two together.
 */
#ifndef LISA_OPTIONS_H
#define LISA_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

enum option_kind {
	OPTION_SECONDS,		/* a number of seconds, 0 or more */
	OPTION_SECONDS_POS,	/* a number of seconds, more than 0 */
	OPTION_FLAG,		/* on or off (yes/no, 1/0) */
	OPTION_COUNT,		/* a whole number, 1 or more */
	OPTION_CHOICE,		/* one of the words in values */
	OPTION_ORDER,		/* groups, each at most once */
	OPTION_URL,		/* http:// or https://, no spaces */
	OPTION_COLOUR,		/* a tmux colour */
	OPTION_ICON,		/* text of at most 32 bytes */
	OPTION_SEPARATOR,	/* text of at most 16 bytes */
	OPTION_KEY,		/* a tmux key name, or none */
	OPTION_HOSTS,		/* ssh destinations */
	OPTION_WINDOWS,		/* PREFIX=TOKENS ... */
	OPTION_TEXT,		/* anything, a command or a format */
};

struct option_def {
	const char	*name;	/* "@lisa-icon-<group>": one per group */
	enum option_kind kind;
	const char	*dflt;	/* as docs/ui.md says it */
	const char	*values; /* OPTION_CHOICE's words */
};

enum option_check {
	OPTION_OK,
	OPTION_PARTLY,		/* used, but a part of it is left out */
	OPTION_BAD,		/* not used: the default is */
	OPTION_UNKNOWN,		/* no option of lisa's has that name */
};

size_t			 options_count(void);
const struct option_def	*options_get(size_t);
const struct option_def	*options_find(const char *);
const char		*options_kind_name(enum option_kind);
enum option_check	 options_check(const char *, const char *, char *,
			     size_t);
int			 options_flag(const char *);
int			 options_seconds(const char *, uint64_t *);
int			 options_url_valid(const char *);

const char		*options_host_invalid(const char *);

#define OPTIONS_URL_MAX	2048
/* @lisa-hosts: the fleet's limits (fleet.h takes them from here). */
#define OPTIONS_HOSTS_MAX	64
#define OPTIONS_HOST_LEN	256
#define OPTIONS_HOSTS_SEP	" \t,"

#endif
