/*
 * A dialog read off an agent's screen (capture-pane -p text): its options
 * are the last run of numbered lines ("❯ 1. Yes", "› 1. Yes, proceed
 * (y)"), its question the line above them that asks ("Do you want to
 * proceed?", "Would you like to run the following command?"), and what
 * it would do the lines above that: Claude Code's "Bash command" over the
 * command, Codex's "$ touch x". The fingerprint is a hash of all of it:
 * the same dialog gives the same one, any other a different one.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "question.h"

#define QUESTION_MAX_LINES	256

struct qline {
	const char	*s;	/* without the frame and the spaces around */
	size_t		 n;
	int		 indent;
};

/* Spaces and box-drawing borders (U+2500-U+257F) around a line's text. */
static void
question_clean(const char *s, const char *end, struct qline *l)
{
	const char	*start = s;

	for (;;) {
		if (s < end && (*s == ' ' || *s == '\t' || *s == '|'))
			s++;
		else if (end - s >= 3 && (unsigned char)s[0] == 0xe2 &&
		    ((unsigned char)s[1] == 0x94 || (unsigned char)s[1] == 0x95))
			s += 3;
		else
			break;
	}
	l->indent = (int)(s - start);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
	    (end - s >= 3 && (unsigned char)end[-3] == 0xe2 &&
	    ((unsigned char)end[-2] == 0x94 || (unsigned char)end[-2] == 0x95))))
		end -= end[-1] == ' ' || end[-1] == '\t' ? 1 : 3;
	l->s = s;
	l->n = (size_t)(end - s);
}

/*
 * An option line: an optional pointer glyph (any non-ASCII character or
 * '>'), then "N." or "N)". Its text from the number on, and whether the
 * pointer is on it.
 */
static int
question_option(const struct qline *l, const char **opt, size_t *n,
    int *pointed)
{
	const char	*s = l->s, *end = l->s + l->n, *num;

	*pointed = 0;
	if (s < end && (*s == '>' || (unsigned char)*s >= 0x80)) {
		*pointed = 1;
		s++;
		while (s < end && ((unsigned char)*s & 0xc0) == 0x80)
			s++;
		while (s < end && *s == ' ')
			s++;
	}
	num = s;
	while (s < end && isdigit((unsigned char)*s))
		s++;
	if (s == num || s - num > 2 || s >= end || (*s != '.' && *s != ')') ||
	    s + 1 >= end || s[1] != ' ')
		return (0);
	*opt = num;
	*n = (size_t)(end - num);
	return (1);
}

static void
question_copy(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* FNV-1a, 64 bits, over every field: 12 hex digits of it. */
void
question_fingerprint(struct question *q)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	const char	*fields[4 + QUESTION_MAX_OPTIONS], *p;
	int		 i, n = 0;

	fields[n++] = q->kind;
	fields[n++] = q->tool;
	fields[n++] = q->subject;
	fields[n++] = q->text;
	for (i = 0; i < q->noptions; i++)
		fields[n++] = q->options[i];
	for (i = 0; i < n; i++) {
		for (p = fields[i]; *p != '\0'; p++) {
			h ^= (unsigned char)*p;
			h *= 0x100000001b3ULL;
		}
		h ^= '\n';
		h *= 0x100000001b3ULL;
	}
	snprintf(q->fingerprint, sizeof q->fingerprint, "%012llx",
	    (unsigned long long)(h >> 16));
}

/*
 * The dialog on SCREEN, with the kind the agent's profile gave it
 * (permission, question, trust, or NULL: "choice"). 0 if one with
 * options is there, else -1 (q is empty).
 */
int
question_from_screen(const char *kind, const char *screen, struct question *q)
{
	struct qline	 lines[QUESTION_MAX_LINES], *l;
	const char	*p, *end, *opt;
	size_t		 n;
	int		 nlines = 0, i, first = -1, last = -1, pointed, qi = -1;
	int		 top;

	memset(q, 0, sizeof *q);
	q->selected = -1;
	for (p = screen; *p != '\0' && nlines < QUESTION_MAX_LINES;
	    p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		question_clean(p, end, &lines[nlines++]);
	}
	/* The last run of option lines (a blank line may sit inside). */
	for (i = nlines - 1; i >= 0; i--) {
		if (question_option(&lines[i], &opt, &n, &pointed)) {
			if (last == -1)
				last = i;
			first = i;
		} else if (last != -1 && lines[i].n != 0)
			break;
	}
	if (first == -1)
		return (-1);
	for (i = first; i <= last; i++) {
		if (!question_option(&lines[i], &opt, &n, &pointed) ||
		    q->noptions == QUESTION_MAX_OPTIONS)
			continue;
		if (pointed)
			q->selected = q->noptions;
		question_copy(q->options[q->noptions++], sizeof q->options[0],
		    opt, n);
	}
	strlcpy(q->kind, kind != NULL ? kind : "choice", sizeof q->kind);
	strlcpy(q->source, "screen", sizeof q->source);

	/* Up from the options: Codex's "$ command", then the question. */
	for (i = first - 1; i >= 0 && i >= first - 12; i--) {
		l = &lines[i];
		if (l->n == 0)
			continue;
		if (l->n > 2 && l->s[0] == '$' && l->s[1] == ' ' &&
		    *q->subject == '\0') {
			question_copy(q->subject, sizeof q->subject, l->s + 2,
			    l->n - 2);
			strlcpy(q->tool, "shell", sizeof q->tool);
			continue;
		}
		if (l->s[l->n - 1] == '?') {
			qi = i;
			break;
		}
	}
	if (qi == -1) {
		/* No line asks: the one just above the options says it. */
		for (i = first - 1; i >= 0 && lines[i].n == 0; i--)
			;
		if (i >= 0)
			question_copy(q->text, sizeof q->text, lines[i].s,
			    lines[i].n);
		question_fingerprint(q);
		return (0);
	}
	question_copy(q->text, sizeof q->text, lines[qi].s, lines[qi].n);
	/*
	 * Claude Code's: over the question, what it would do, indented under
	 * a line that names the tool ("Bash command", "Edit file").
	 */
	if (*q->subject == '\0') {
		for (i = qi - 1; i >= 0 && lines[i].n == 0; i--)
			;
		for (top = i; top >= 0 && qi - top < 10 && (lines[top].n == 0 ||
		    lines[top].indent > lines[qi].indent); top--)
			;
		if (i >= 0 && top >= 0 && top < i && lines[top].n != 0 &&
		    lines[top].indent <= lines[qi].indent) {
			l = &lines[top];
			n = strcspn(l->s, " ");
			if (n > l->n)
				n = l->n;
			question_copy(q->tool, sizeof q->tool, l->s, n);
			for (i = top + 1; lines[i].n == 0; i++)
				;
			question_copy(q->subject, sizeof q->subject,
			    lines[i].s, lines[i].n);
		}
	}
	question_fingerprint(q);
	return (0);
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
 * the option's end ("(y)", "(esc)": Codex), else its number. WHAT is
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
		number = (int)strtol(o, NULL, 10);
		words = o + strspn(o, "0123456789.) ");
		if (isdigit((unsigned char)*what)) {
			if (number == (int)strtol(what, NULL, 10))
				pick = i;
		} else if (strcmp(what, "always") == 0) {
			if (question_is_always(words))
				pick = i;
		} else if (strcmp(what, "allow") == 0) {
			if ((strncasecmp(words, "yes", 3) == 0 ||
			    strncasecmp(words, "allow", 5) == 0) &&
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
	lp = strrchr(o, '(');
	rp = lp != NULL ? strchr(lp, ')') : NULL;
	if (lp != NULL && rp != NULL && rp[1] == '\0' && rp - lp - 1 >= 1 &&
	    rp - lp - 1 <= 5)
		snprintf(key, len, "%.*s", (int)(rp - lp - 1), lp + 1);
	else
		snprintf(key, len, "%d", (int)strtol(o, NULL, 10));
	return (pick);
}
