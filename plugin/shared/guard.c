/*
 * Dialogs on screen, for every agent: the profile's own patterns first
 * (permission, question, trust), then the shapes all of them draw a
 * choice with whatever its words: a pointer on a numbered option
 * ("❯ 1. Yes", "› 1. Yes, proceed (y)", "● 1. Allow once") or a yes/no
 * prompt. A false alarm costs a refused nudge; a miss answers a dialog.
 */
#include <ctype.h>
#include <string.h>

#include "agent.h"
#include "guard.h"

/* Pointers the agents draw before the highlighted option. */
static const char *guard_pointers[] = {
	"\xe2\x9d\xaf",		/* ❯ Claude Code */
	"\xe2\x80\xba",		/* › Codex */
	"\xe2\x97\x8f",		/* ● Gemini CLI, Qwen Code */
	"\xe2\x96\xb6",		/* ▶ */
	"\xe2\x86\x92",		/* → */
	">",
};

/* Yes/no prompts of agents and the tools they run. */
static const char *guard_yesno[] = {
	"(y/n)", "[y/n]", "[Y/n]", "[y/N]", "(Y/n)", "(y/N)", "(Y)es/(N)o",
	"(yes/no)", "[yes/no]",
};

/* Skip spaces and the box-drawing borders a dialog sits in. */
static const char *
guard_skip_frame(const char *s, const char *end)
{
	for (;;) {
		if (s < end && (*s == ' ' || *s == '\t' || *s == '|'))
			s++;
		else if (end - s >= 3 && (unsigned char)s[0] == 0xe2 &&
		    (unsigned char)s[1] == 0x94)	/* U+2500-U+253F */
			s += 3;
		else
			return (s);
	}
}

/* The option a line points at ("1. Yes"), or NULL. */
static const char *
guard_option(const char *s, const char *end)
{
	const char	*num;
	size_t		 i, n;

	s = guard_skip_frame(s, end);
	for (i = 0; i < sizeof guard_pointers / sizeof guard_pointers[0]; i++) {
		n = strlen(guard_pointers[i]);
		if ((size_t)(end - s) > n && memcmp(s, guard_pointers[i], n) == 0)
			break;
	}
	if (i == sizeof guard_pointers / sizeof guard_pointers[0])
		return (NULL);
	s += n;
	while (s < end && *s == ' ')
		s++;
	num = s;
	while (s < end && isdigit((unsigned char)*s))
		s++;
	return (s > num && s < end && (*s == '.' || *s == ')') ? num : NULL);
}

static void
guard_set(struct guard *g, enum guard_kind kind, const char *what)
{
	g->kind = kind;
	strlcpy(g->what, what, sizeof g->what);
}

/*
 * What the screen TEXT (capture-pane -p: rows, newline-separated) shows,
 * read with the agent's profile (NULL: the shapes only).
 */
void
guard_screen(const struct agent_profile *agent, const char *text,
    struct guard *g)
{
	const char	*line, *end, *o;
	unsigned	 hints = 0;
	size_t		 i, n;
	int		 sig;

	memset(g, 0, sizeof *g);
	if (agent != NULL)
		hints = agent_screen(agent, text, &sig);
	if (hints & SCREEN_PERMISSION)
		guard_set(g, GUARD_DIALOG, "permission");
	else if (hints & SCREEN_QUESTION)
		guard_set(g, GUARD_DIALOG, "question");
	else if (hints & SCREEN_TRUST)
		guard_set(g, GUARD_DIALOG, "trust");
	for (line = text; *line != '\0'; line = *end != '\0' ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		if ((o = guard_option(line, end)) != NULL) {
			if (g->kind != GUARD_DIALOG)
				guard_set(g, GUARD_DIALOG, "choice");
			/* From the option's number on, its words. */
			n = (size_t)(end - o);
			while (n > 0 && o[n - 1] == ' ')
				n--;
			if (n >= sizeof g->choice)
				n = sizeof g->choice - 1;
			memcpy(g->choice, o, n);
			g->choice[n] = '\0';
			continue;
		}
		for (i = 0; i < sizeof guard_yesno / sizeof guard_yesno[0];
		    i++) {
			n = strlen(guard_yesno[i]);
			if (memmem(line, (size_t)(end - line), guard_yesno[i],
			    n) != NULL && g->kind != GUARD_DIALOG)
				guard_set(g, GUARD_DIALOG, "confirmation");
		}
	}
	if (g->kind == GUARD_NONE && (hints & SCREEN_BUSY))
		guard_set(g, GUARD_BUSY, "busy");
}

/*
 * Does the verdict alone forbid typing? An agent that waits for anything
 * but its prompt waits on a dialog keys would answer (its detail may
 * still be coming: "" too). The reason, or NULL.
 */
const char *
guard_verdict(const char *state, const char *detail)
{
	if (state == NULL || strcmp(state, "waiting_input") != 0)
		return (NULL);
	if (detail != NULL && strcmp(detail, "prompt") == 0)
		return (NULL);
	return (detail != NULL && *detail != '\0' ? detail : "a dialog");
}
