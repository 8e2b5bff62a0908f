/*
 * The classifier's words: state, lifecycle and activity names, and the
 * names (and the status line's words) `lisa wait --until` takes.
 */
#include <stdio.h>
#include <string.h>

#include "classify.h"

static const char *state_names[ST_NSTATES] = {
	"none", "just_started", "in_progress", "waiting_input", "completed",
	"crashed", "stuck", "degraded", "not_found"
};

const char *
cls_state_name(enum cls_state s)
{
	return (s < ST_NSTATES ? state_names[s] : "none");
}

enum cls_state
cls_state_from_name(const char *name)
{
	int	i;

	for (i = 0; i < ST_NSTATES; i++) {
		if (strcmp(state_names[i], name) == 0)
			return ((enum cls_state)i);
	}
	return (ST_NSTATES);
}

/*
 * What a human may type for states: a state name (the JSON's), or the
 * word the status line, borders and menu use for its group.
 */
static const struct {
	const char	*word;
	unsigned int	 mask;
} state_words[] = {
	{ "starting", 1u << ST_JUST_STARTED },
	{ "working", (1u << ST_JUST_STARTED)|(1u << ST_IN_PROGRESS) },
	{ "waiting", 1u << ST_WAITING_INPUT },
	{ "done", 1u << ST_COMPLETED },
	{ "gone", 1u << ST_NOT_FOUND },
};

int
cls_state_mask(const char *name, unsigned int *mask)
{
	size_t	i;
	int	st;

	for (i = 0; i < sizeof state_words / sizeof state_words[0]; i++) {
		if (strcmp(state_words[i].word, name) == 0) {
			*mask |= state_words[i].mask;
			return (0);
		}
	}
	st = cls_state_from_name(name);
	if (st == ST_NSTATES || st == ST_NONE)
		return (-1);
	*mask |= 1u << st;
	return (0);
}

/* For errors: every name cls_state_mask takes. */
const char *
cls_state_names_help(void)
{
	return ("just_started in_progress waiting_input completed crashed "
	    "stuck degraded not_found, or starting working waiting done gone");
}

const char *
cls_lifecycle_name(enum cls_lifecycle l)
{
	static const char *names[] = { "none", "starting", "running",
	    "exited" };

	return (l <= LC_EXITED ? names[l] : "none");
}

const char *
cls_activity_name(enum cls_activity a)
{
	static const char *names[] = { "none", "working", "waiting", "idle" };

	return (a <= AC_IDLE ? names[a] : "none");
}
