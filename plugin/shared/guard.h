/*
 * What keys must never land in: before lisa types into a pane (a nudge, a
 * watchdog's nudge), the screen read at that moment and the verdict are
 * checked here. Pure: no I/O, so every agent's screens can be tested.
 */
#ifndef LISA_GUARD_H
#define LISA_GUARD_H

struct agent_profile;

enum guard_kind {
	GUARD_NONE = 0,		/* nothing drawn that keys would answer */
	GUARD_DIALOG,		/* a dialog, selection list or question */
	GUARD_BUSY,		/* the agent says it is working */
};

struct guard {
	enum guard_kind	 kind;
	char		 what[16];	/* permission, question, trust, choice */
	char		 choice[96];	/* the option Enter would pick */
};

void		 guard_screen(const struct agent_profile *, const char *,
		     struct guard *);
const char	*guard_verdict(const char *, const char *);

#endif
