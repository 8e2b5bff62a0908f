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

enum qrule { QRULE_NONE, QRULE_SOLID, QRULE_DASHED };

struct qline {
	const char	*s;	/* without the frame and the spaces around */
	size_t		 n;
	int		 indent;
	enum qrule	 rule;	/* a line of ─ (a dialog's top), of ╌ */
};

/*
 * A line of box-drawing rules and nothing else: solid (─ ━, the top of
 * Claude Code's dialog) or dashed (╌ ╍ ┄ ┈, around its command). A blank
 * row of a box ("│   │") is no rule.
 */
static enum qrule
question_rule(const char *s, const char *end)
{
	int	solid = 0, dashed = 0;

	for (; end - s >= 3; s++) {
		if ((unsigned char)s[0] != 0xe2)
			continue;
		if ((unsigned char)s[1] == 0x94 && ((unsigned char)s[2] == 0x80 ||
		    (unsigned char)s[2] == 0x81))
			solid++;
		else if (((unsigned char)s[1] == 0x95 &&
		    ((unsigned char)s[2] == 0x8c || (unsigned char)s[2] == 0x8d)) ||
		    ((unsigned char)s[1] == 0x94 && ((unsigned char)s[2] == 0x84 ||
		    (unsigned char)s[2] == 0x88)))
			dashed++;
	}
	if (dashed >= 3)
		return (QRULE_DASHED);
	return (solid >= 3 ? QRULE_SOLID : QRULE_NONE);
}

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
	l->rule = l->n == 0 ? question_rule(start, end) : QRULE_NONE;
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

/* A line that names a tool: "Bash command", "Edit file", "Fetch". */
static int
question_tool_line(const struct qline *l)
{
	size_t	i, words = 1;

	if (l->n == 0 || l->n > 40 || !isupper((unsigned char)l->s[0]))
		return (0);
	for (i = 0; i < l->n; i++) {
		if (l->s[i] == ' ')
			words++;
		else if (!isalnum((unsigned char)l->s[i]))
			return (0);
	}
	return (words <= 3);
}

/*
 * Claude Code's dialog: under its top rule (2.1.3xx) or just over the
 * command, a line that names the tool; what it would do is between dashed
 * rules (2.1.3xx), else indented under the tool's line, else the line
 * after it. Its first line, "…" if there are more.
 */
static void
question_claude(struct qline *lines, int qi, struct question *q)
{
	int	i, top = -1, first = -1, more = 0;
	size_t	n;

	for (i = qi - 1; i >= 0 && qi - i <= 20; i--) {
		if (lines[i].rule == QRULE_SOLID)
			break;
	}
	if (i >= 0 && qi - i <= 20 && lines[i].rule == QRULE_SOLID) {
		for (i++; i < qi && lines[i].n == 0; i++)
			;
		if (i < qi && question_tool_line(&lines[i]))
			top = i;
	}
	/* (no rule, or another's: an older version's, or the prompt's) */
	if (top == -1) {
		for (i = qi - 1; i >= 0 && qi - i <= 12 && top == -1; i--) {
			if (question_tool_line(&lines[i]) &&
			    lines[i].indent <= lines[qi].indent)
				top = i;
		}
	}
	if (top == -1)
		return;
	for (i = top + 1; i < qi && lines[i].rule != QRULE_DASHED; i++)
		;
	if (i < qi) {
		for (i++; i < qi && lines[i].n == 0 && !lines[i].rule; i++)
			;
		if (i < qi && lines[i].n != 0)
			first = i;
		more = first != -1 && first + 1 < qi && lines[first + 1].n != 0;
	} else {
		for (i = top + 1; i < qi && first == -1; i++) {
			if (lines[i].n != 0 && lines[i].indent > lines[top].indent)
				first = i;
		}
		for (i = top + 1; i < qi && first == -1; i++) {
			if (lines[i].n != 0)
				first = i;
		}
	}
	if (first == -1)
		return;
	n = strcspn(lines[top].s, " ");
	question_copy(q->tool, sizeof q->tool, lines[top].s,
	    n < lines[top].n ? n : lines[top].n);
	question_copy(q->subject, sizeof q->subject - 4, lines[first].s,
	    lines[first].n);
	if (more)
		strlcat(q->subject, "\xe2\x80\xa6", sizeof q->subject);
}

/*
 * Gemini CLI's and Qwen Code's dialog: "? TOOL  WHAT" heads it (Qwen:
 * "?  Shell touch x (why) ←"), what it would run below, in a box or
 * indented: that line, else the head's words after the tool.
 */
static void
question_gemini(struct qline *lines, int qi, struct question *q)
{
	const struct qline	*l;
	size_t			 n, sp;
	int			 i, top = -1;

	/* ("? for shortcuts" is Claude Code's footer: a tool is a Name) */
	for (i = qi - 1; i >= 0 && qi - i <= 12 && top == -1; i--) {
		l = &lines[i];
		sp = 1 + strspn(l->s + 1, " ");
		if (l->n > sp && l->s[0] == '?' && sp > 1 &&
		    isupper((unsigned char)l->s[sp]))
			top = i;
	}
	if (top == -1)
		return;
	l = &lines[top];
	sp = 1 + strspn(l->s + 1, " ");
	n = strcspn(l->s + sp, " ");
	if (sp + n > l->n)
		n = l->n - sp;
	question_copy(q->tool, sizeof q->tool, l->s + sp, n);
	for (i = top + 1; i < qi && lines[i].n == 0; i++)
		;
	if (i < qi) {
		question_copy(q->subject, sizeof q->subject, lines[i].s,
		    lines[i].n);
		return;
	}
	sp += n + strspn(l->s + sp + n, " ");
	if (sp < l->n)
		question_copy(q->subject, sizeof q->subject, l->s + sp,
		    l->n - sp);
}

/*
 * A box just over the question (its bottom rule, its lines, its top
 * rule): what it would run is the box's first line.
 */
static void
question_boxed(struct qline *lines, int qi, struct question *q)
{
	int	i, bottom;

	for (i = qi - 1; i >= 0 && lines[i].n == 0 && !lines[i].rule; i--)
		;
	if (i < 0 || lines[i].rule != QRULE_SOLID)
		return;
	bottom = i;
	for (i--; i >= 0 && bottom - i <= 12 && !lines[i].rule; i--)
		;
	if (i < 0 || lines[i].rule != QRULE_SOLID)
		return;
	for (i++; i < bottom && lines[i].n == 0; i++)
		;
	if (i < bottom)
		question_copy(q->subject, sizeof q->subject, lines[i].s,
		    lines[i].n);
}

/* OpenCode's keys under its buttons: "⇆ select  enter confirm". */
#define QUESTION_BUTTONS_HINT "\xe2\x87\x86 select"

static const char *
question_find(const char *s, size_t n, const char *what)
{
	size_t	w = strlen(what);

	for (; n >= w; s++, n--) {
		if (memcmp(s, what, w) == 0)
			return (s);
	}
	return (NULL);
}

/*
 * OpenCode's dialog: buttons on one line ("Allow once   Allow always
 * Reject", its keys after them), the one selected drawn only in colour
 * (question_selected_sgr). The buttons' line, or -1.
 */
static int
question_buttons(struct qline *lines, int nlines, struct question *q)
{
	const char	*s, *end, *seg;
	int		 i;

	for (i = nlines - 1; i >= 0 && nlines - i <= 6; i--) {
		if (question_find(lines[i].s, lines[i].n,
		    QUESTION_BUTTONS_HINT) != NULL)
			break;
	}
	if (i < 0 || nlines - i > 6)
		return (-1);
	s = lines[i].s;
	end = question_find(s, lines[i].n, QUESTION_BUTTONS_HINT);
	while (s < end && q->noptions < QUESTION_MAX_OPTIONS) {
		seg = s;
		while (s < end && !(s + 3 <= end && memcmp(s, "   ", 3) == 0))
			s++;
		while (s > seg && s[-1] == ' ')
			s--;
		if (s > seg && question_find(seg, (size_t)(s - seg), "ctrl+") ==
		    NULL && question_find(seg, (size_t)(s - seg), "  ") == NULL)
			question_copy(q->options[q->noptions++],
			    sizeof q->options[0], seg, (size_t)(s - seg));
		while (s < end && *s == ' ')
			s++;
	}
	if (q->noptions < 2) {
		q->noptions = 0;
		return (-1);
	}
	return (i);
}

/*
 * Which of the buttons on LINE (capture-pane -e: with its colours) is
 * selected: the one whose colours are not the others'. -1 if not one.
 */
int
question_selected_sgr(const char *screen, const struct question *q)
{
	const char	*line, *end, *p, *at, *sgr, *esc;
	char		 seen[QUESTION_MAX_OPTIONS][64];
	int		 i, j, same, odd = -1;

	/* The last line with the buttons' keys ("⇆", colours around it). */
	for (line = NULL, p = screen; *p != '\0'; p = *end != '\0' ? end + 1 :
	    end) {
		end = p + strcspn(p, "\n");
		if (question_find(p, (size_t)(end - p), "\xe2\x87\x86"))
			line = p;
	}
	if (line == NULL || q->noptions < 2)
		return (-1);
	end = line + strcspn(line, "\n");
	for (i = 0, p = line; i < q->noptions; i++) {
		if ((at = question_find(p, (size_t)(end - p),
		    q->options[i])) == NULL)
			return (-1);
		/* The last colour set before the label. */
		for (sgr = NULL, esc = line; esc < at; esc++) {
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

/*
 * What a dialog of buttons (OpenCode's) asks: over them, its "$ CMD" (cut
 * where a column beside it starts) and its "△ Permission required".
 */
static void
question_from_buttons(struct qline *lines, int bi, const char *kind,
    struct question *q)
{
	const struct qline	*l;
	const char		*gap;
	int			 i;

	strlcpy(q->kind, kind != NULL ? kind : "choice", sizeof q->kind);
	strlcpy(q->source, "screen", sizeof q->source);
	for (i = bi - 1; i >= 0 && bi - i <= 15; i--) {
		l = &lines[i];
		if (l->n > 2 && l->s[0] == '$' && l->s[1] == ' ' &&
		    *q->subject == '\0') {
			gap = question_find(l->s + 2, l->n - 2, "   ");
			question_copy(q->subject, sizeof q->subject, l->s + 2,
			    (size_t)((gap != NULL ? gap : l->s + l->n) -
			    (l->s + 2)));
			strlcpy(q->tool, "shell", sizeof q->tool);
		} else if (l->n > 4 && memcmp(l->s, "\xe2\x96\xb3 ", 4) == 0) {
			question_copy(q->text, sizeof q->text, l->s + 4,
			    l->n - 4);	/* after "△ " */
			break;
		}
	}
	question_fingerprint(q);
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
	if (first == -1) {
		if ((first = question_buttons(lines, nlines, q)) == -1)
			return (-1);
		question_from_buttons(lines, first, kind, q);
		return (0);
	}
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
	/* Gemini CLI's "? Shell  touch x" over its question. */
	if (*q->subject == '\0')
		question_gemini(lines, qi, q);
	/* Claude Code's: over the question, the tool and what it would do. */
	if (*q->subject == '\0')
		question_claude(lines, qi, q);
	/* Copilot CLI's: the command in a box of its own over the question. */
	if (*q->subject == '\0')
		question_boxed(lines, qi, q);
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

/* allow, deny, always or an option's number: a choice, not a reply. */
int
question_is_choice(const char *what)
{
	size_t	n = strspn(what, "0123456789");

	if (n != 0 && n <= 2 && what[n] == '\0')
		return (1);
	return (strcmp(what, "allow") == 0 || strcmp(what, "deny") == 0 ||
	    strcmp(what, "always") == 0);
}

/*
 * What a dialog asks, in one line for people: "asks to run: CMD" for a
 * permission that names what it would run, else "asks: TEXT".
 */
void
question_asks(const char *kind, const char *subject, const char *text,
    char *out, size_t len)
{
	if (kind != NULL && strcmp(kind, "permission") == 0 &&
	    subject != NULL && *subject != '\0')
		snprintf(out, len, "asks to run: %s", subject);
	else
		snprintf(out, len, "asks: %s", text != NULL ? text : "");
}
