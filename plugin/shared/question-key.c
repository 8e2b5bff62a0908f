/*
 * Answering a dialog read by question.c: the words a person answers with
 * (allow, deny, always, an option's number), the key that picks an option
 * as its agent draws it, and which option is selected where colours say.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"
#include "question.h"

/* The last line of SCREEN (to END) holding LABEL; its start, or NULL. */
static const char *
question_line_of(const char *screen, const char *end, const char *label)
{
	const char	*p, *e, *found = NULL;

	for (p = screen; p < end; p = e + 1) {
		e = p + strcspn(p, "\n");
		if (question_find(p, (size_t)(e - p), label) != NULL)
			found = p;
		if (*e == '\0')
			break;
	}
	return (found);
}

/*
 * Which option is selected where only colours say so (capture-pane -e):
 * the one whose colours are not the others'. OpenCode's buttons, on the
 * last line with their keys ("⇆"); else a list of option lines, each
 * option on the last line that holds it (Grok CLI). -1 if not one.
 */
int
question_selected_sgr(const char *screen, const struct question *q)
{
	const char	*line, *end, *p, *at, *sgr, *esc, *row;
	char		 seen[QUESTION_MAX_OPTIONS][64];
	int		 i, j, same, odd = -1;

	/* The last line with the buttons' keys ("⇆", colours around it). */
	for (line = NULL, p = screen; *p != '\0'; p = *end != '\0' ? end + 1 :
	    end) {
		end = p + strcspn(p, "\n");
		if (question_find(p, (size_t)(end - p), "\xe2\x87\x86"))
			line = p;
	}
	if (q->noptions < 2)
		return (-1);
	end = line != NULL ? line + strcspn(line, "\n") : screen +
	    strlen(screen);
	for (i = 0, p = line; i < q->noptions; i++) {
		if (line == NULL) {
			if ((row = question_line_of(screen, end,
			    q->options[i])) == NULL)
				return (-1);
			p = row;
		} else
			row = line;
		at = question_find(p, (size_t)(row + strcspn(row, "\n") - p),
		    q->options[i]);
		if (at == NULL)
			return (-1);
		/* The last colour set before the label. */
		for (sgr = NULL, esc = row; esc < at; esc++) {
			if (esc[0] == '\033' && esc[1] == '[')
				sgr = esc;
		}
		if (sgr == NULL)
			return (-1);
		snprintf(seen[i], sizeof seen[i], "%.*s", (int)strcspn(sgr,
		    "m") + 1, sgr);
		p = at + strlen(q->options[i]);
	}
	for (i = 0; i < q->noptions; i++) {
		for (same = 0, j = 0; j < q->noptions; j++)
			same += j != i && strcmp(seen[i], seen[j]) == 0;
		if (same == 0) {
			if (odd != -1)
				return (-1);
			odd = i;
		}
	}
	/* (two buttons both "apart": which, unknown) */
	return (odd);
}

/* "don't ask again", in the words of each agent (Gemini: "this session"). */
static const char *question_always[] = { "don't ask", "always",
    "this session", "rest of the session", NULL };

static int
question_has(const char *s, const char *word)
{
	size_t	n = strlen(word);

	for (; *s != '\0'; s++) {
		if (strncasecmp(s, word, n) == 0)
			return (1);
	}
	return (0);
}

static int
question_is_always(const char *words)
{
	int	i;

	for (i = 0; question_always[i] != NULL; i++) {
		if (question_has(words, question_always[i]))
			return (1);
	}
	return (0);
}

/*
 * The key that picks an option: what the agent shows in parentheses at
 * the option's end ("(y)", "(esc)": Codex) or in brackets before it ("[y]
 * Approve": Cline), else its number. WHAT is
 * allow (a yes that is not for always), always (only when named: "don't
 * ask again", "always"), deny (a no), or a number. The option's index,
 * or -1 when the dialog has none such.
 */
int
question_option_key(const struct question *q, const char *what, char *key,
    size_t len)
{
	const char	*o, *words, *lp, *rp;
	int		 i, pick = -1, number;

	for (i = 0; i < q->noptions && pick == -1; i++) {
		o = q->options[i];
		/* (an option drawn without its number: its place) */
		number = isdigit((unsigned char)*o) ? (int)strtol(o, NULL, 10) :
		    i + 1;
		words = o + strspn(o, "0123456789.) ");
		if (o[0] == '[' && o[1] != '\0' && o[2] == ']' && o[3] == ' ')
			words = o + 4;
		if (isdigit((unsigned char)*what)) {
			if (number == (int)strtol(what, NULL, 10))
				pick = i;
		} else if (strcmp(what, "always") == 0) {
			if (question_is_always(words))
				pick = i;
		} else if (strcmp(what, "allow") == 0) {
			if ((strncasecmp(words, "yes", 3) == 0 ||
			    strncasecmp(words, "allow", 5) == 0 ||
			    strncasecmp(words, "approve", 7) == 0 ||
			    strncasecmp(words, "continue", 8) == 0) &&
			    !question_is_always(words))
				pick = i;
		} else if (strcmp(what, "deny") == 0) {
			if (strncasecmp(words, "no", 2) == 0 ||
			    strncasecmp(words, "deny", 4) == 0 ||
			    strncasecmp(words, "reject", 6) == 0)
				pick = i;
		}
	}
	if (pick == -1)
		return (-1);
	o = q->options[pick];
	if (o[0] == '[' && o[1] != '\0' && o[2] == ']' && o[3] == ' ') {
		snprintf(key, len, "%c", o[1]);
		return (pick);
	}
	lp = strrchr(o, '(');
	rp = lp != NULL ? strchr(lp, ')') : NULL;
	if (!isdigit((unsigned char)*o) && (lp == NULL || rp == NULL)) {
		*key = '\0';		/* a button: selected, then Enter */
		return (pick);
	}
	if (lp != NULL && rp != NULL && rp[1] == '\0' && rp - lp - 1 >= 1 &&
	    rp - lp - 1 <= 5)
		snprintf(key, len, "%.*s", (int)(rp - lp - 1), lp + 1);
	else if (lp != NULL && rp != NULL && rp[1] == '\0' &&
	    strncasecmp(lp + 1, "esc ", 4) == 0)
		snprintf(key, len, "esc");	/* Copilot: "(Esc to stop)" */
	else
		snprintf(key, len, "%d", (int)strtol(o, NULL, 10));
	return (pick);
}

/* Is a verdict's DETAIL a dialog whose question lisa reads? */
int
question_detail(const char *detail)
{
	return (strcmp(detail, "permission") == 0 ||
	    strcmp(detail, "question") == 0 || strcmp(detail, "trust") == 0);
}

/*
 * The words a person answers with, as lisa acts on them: allow (yes, y),
 * deny (no, n), always, or an option's number ("allow", "deny", "always"
 * or the number itself). NULL for anything else: free text is a reply,
 * said as one (--reply), never taken from a word that looks like one.
 */
const char *
question_choice(const char *what)
{
	static const char	*words[][2] = {
		{ "allow", "allow" }, { "yes", "allow" }, { "y", "allow" },
		{ "deny", "deny" }, { "no", "deny" }, { "n", "deny" },
		{ "always", "always" }
	};
	size_t			 i, n = strspn(what, "0123456789");

	if (n != 0 && n <= 2 && what[n] == '\0' && what[0] != '0')
		return (what);
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (strcmp(what, words[i][0]) == 0)
			return (words[i][1]);
	}
	return (NULL);
}

/*
 * What a dialog asks, in one line for people: "asks to run: CMD" for a
 * permission that names what it would run, else "asks: TEXT".
 */
void
question_asks(const char *kind, const char *subject, const char *text,
    char *out, size_t len)
{
	char	first[256];

	if (kind != NULL && strcmp(kind, "permission") == 0 &&
	    subject != NULL && *subject != '\0') {
		question_first_line(subject, first, sizeof first);
		snprintf(out, len, "asks to run: %s", first);
	} else
		snprintf(out, len, "asks: %s", text != NULL ? text : "");
}
