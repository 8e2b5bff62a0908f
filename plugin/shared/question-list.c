/*
 * Dialogs whose options are not numbered lines (question.c reads those):
 * Cline's keys on one line ("[y] Approve   [n] Deny"), OpenCode's buttons
 * on one line, the selected one drawn in colour, and a list whose
 * selection is a pointer ("> Continue (tab)", "❯ Option A": Continue's
 * CLI), read as its options in order, the pointer's one selected.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "question-int.h"

/*
 * Cline's keys, on one line under its dialog: "[y] Approve   [n] Deny",
 * each option its key in brackets and its words. The line, or -1.
 */
int
question_keyed(struct qline *lines, int nlines, struct question *q)
{
	const char	*s, *end, *seg;
	int		 i, last = nlines - 1;

	/* (the screen's blank rows under it are not its lines) */
	while (last >= 0 && lines[last].n == 0)
		last--;
	for (i = last; i >= 0 && last - i < 8; i--) {
		if (lines[i].n >= 4 && lines[i].s[0] == '[' &&
		    lines[i].s[2] == ']' && lines[i].s[3] == ' ')
			break;
	}
	if (i < 0 || last - i >= 8)
		return (-1);
	s = lines[i].s;
	end = s + lines[i].n;
	while (s < end && q->noptions < QUESTION_MAX_OPTIONS) {
		seg = s;
		if (end - s < 5 || s[0] != '[' || s[2] != ']' || s[3] != ' ' ||
		    !isgraph((unsigned char)s[1]))
			break;
		while (s < end && !(s + 2 <= end && memcmp(s, "  ", 2) == 0))
			s++;
		question_copy(q->options[q->noptions++], sizeof q->options[0],
		    seg, (size_t)(s - seg));
		while (s < end && *s == ' ')
			s++;
	}
	if (s != end || q->noptions < 2) {
		q->noptions = 0;
		return (-1);
	}
	return (i);
}

/*
 * What a dialog of keys (Cline's) asks: the line over them that asks
 * ("Approve tool call?"), the "$ CMD" lines between, and the line over the
 * question ("Cline needs permission"), its first line. That line, or KI.
 */
int
question_from_keyed(struct qline *lines, int ki, struct question *q)
{
	int	qi, i, dollar = -1;

	if ((qi = question_asking(lines, ki - 1, ki - 12)) == -1)
		return (ki);
	question_copy(q->text, sizeof q->text, lines[qi].s, lines[qi].n);
	for (i = ki - 1; i > qi; i--) {
		if (question_dollar(&lines[i]))
			dollar = i;
	}
	if (dollar != -1) {
		strlcpy(q->tool, "shell", sizeof q->tool);
		question_subject(q, lines, dollar, ki - 1, 2);
	}
	/* (its first line: the nearest over the question; a spinner's row,
	 * which turns, is over that) */
	for (i = qi - 1; i >= 0 && qi - i <= 2 && lines[i].n == 0; i--)
		;
	return (i >= 0 && qi - i <= 2 ? i : qi);
}

/* OpenCode's keys under its buttons: "⇆ select  enter confirm". */
#define QUESTION_BUTTONS_HINT "\xe2\x87\x86 select"

/*
 * OpenCode's dialog: buttons on one line ("Allow once   Allow always
 * Reject", its keys after them), the one selected drawn only in colour
 * (question_selected_sgr). The buttons' line, or -1.
 */
int
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
 * What a dialog of buttons (OpenCode's) asks: over them, its "$ CMD" (cut
 * where a column beside it starts) and its "△ Permission required", its
 * first line.
 */
int
question_from_buttons(struct qline *lines, int bi, struct question *q)
{
	const struct qline	*l;
	const char		*gap;
	int			 i;

	for (i = bi - 1; i >= 0 && bi - i <= 15; i--) {
		l = &lines[i];
		if (l->n > 2 && l->s[0] == '$' && l->s[1] == ' ' &&
		    q->subject_lines == 0) {
			gap = question_find(l->s + 2, l->n - 2, "   ");
			free(q->subject);
			q->subject = xstrndup(l->s + 2, (size_t)((gap != NULL ?
			    gap : l->s + l->n) - (l->s + 2)));
			q->subject_lines = 1;
			strlcpy(q->tool, "shell", sizeof q->tool);
		} else if (l->n > 4 && memcmp(l->s, "\xe2\x96\xb3 ", 4) == 0) {
			question_copy(q->text, sizeof q->text, l->s + 4,
			    l->n - 4);	/* after "△ " */
			return (i);
		}
	}
	return (bi);
}

/* The columns S's first N bytes take (a UTF-8 character takes one). */
static int
question_cols(const char *s, size_t n)
{
	int	cols = 0;

	for (; n > 0; s++, n--) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			cols++;
	}
	return (cols);
}

/*
 * A list's item: its text, after the pointer ('>' or '❯' and a space)
 * where it is drawn on it. The column the text starts at, or -1 for a
 * blank line.
 */
int
question_list_item(const struct qline *l, const char **text, size_t *n,
    int *pointed)
{
	const char	*s = l->s, *end = l->s + l->n;

	*pointed = 0;
	if (end - s >= 2 && s[0] == '>' && s[1] == ' ') {
		*pointed = 1;
		s += 2;
	} else if (end - s >= 4 && memcmp(s, "\xe2\x9d\xaf ", 4) == 0) {
		*pointed = 1;		/* ❯ */
		s += 4;
	}
	while (s < end && *s == ' ')
		s++;
	if (s == end)
		return (-1);
	*text = s;
	*n = (size_t)(end - s);
	return (question_cols(l->raw, (size_t)(s - l->raw)));
}

/*
 * The list in the screen's last lines: the pointed item and the items
 * right over and under it that start in its column ("(or start typing
 * ...)" under them is a hint, no option). Its first line, its last into
 * *LAST; -1 when there is none of two items or more.
 */
int
question_list(struct qline *lines, int nlines, struct question *q,
    int *last)
{
	const char	*text;
	size_t		 n;
	int		 i, end = nlines - 1, col = -1, pointed, first;

	while (end >= 0 && lines[end].n == 0)
		end--;
	for (i = end; i >= 0 && end - i <= 12; i--) {
		col = question_list_item(&lines[i], &text, &n, &pointed);
		if (col != -1 && pointed)
			break;
	}
	if (i < 0 || end - i > 12)
		return (-1);
	for (first = i; first > 0; first--) {
		if (question_list_item(&lines[first - 1], &text, &n,
		    &pointed) != col || pointed || *text == '(')
			break;
	}
	for (*last = i; *last < nlines - 1; (*last)++) {
		if (question_list_item(&lines[*last + 1], &text, &n,
		    &pointed) != col || pointed || *text == '(')
			break;
	}
	if (*last == first)
		return (-1);
	for (i = first; i <= *last && q->noptions < QUESTION_MAX_OPTIONS;
	    i++) {
		question_list_item(&lines[i], &text, &n, &pointed);
		if (pointed)
			q->selected = q->noptions;
		question_copy(q->options[q->noptions++], sizeof q->options[0],
		    text, n);
	}
	return (first);
}

/*
 * What a list asks: the line over it that asks ("Would you like to
 * continue?", "? Which color?", "Allow command?"), and over that what it
 * would run: "$ CMD" lines (open-codex's, "Shell Command" over them), or
 * a tool's line with it in parentheses ("Bash(touch x)", wrapped lines
 * too: Continue's). The dialog's first line: the tool's, the question's,
 * or FIRST.
 */
int
question_from_list(struct qline *lines, int first, int last,
    struct question *q)
{
	const struct qline	*l;
	const char		*paren;
	size_t			 n;
	int			 qi, i, to;

	(void)last;
	if ((qi = question_asking(lines, first - 1, first - 12)) == -1)
		return (first);
	l = &lines[qi];
	if (l->n > 2 && l->s[0] == '?' && l->s[1] == ' ')
		question_copy(q->text, sizeof q->text, l->s + 2, l->n - 2);
	else
		question_copy(q->text, sizeof q->text, l->s, l->n);
	/* open-codex's: "Shell Command", then "$ CMD" over the question. */
	/* (within its box: what is over it is conversation) */
	for (i = qi - 1; i >= 0 && qi - i <= 10 && !lines[i].rule &&
	    !question_dollar(&lines[i]); i--)
		;
	if (i >= 0 && qi - i <= 10 && !lines[i].rule) {
		strlcpy(q->tool, "shell", sizeof q->tool);
		question_subject(q, lines, i, qi - 1, 2);
		for (to = i - 1; to >= 0 && lines[to].n == 0 &&
		    !lines[to].rule; to--)
			;
		return (to >= 0 && i - to <= 2 && !lines[to].rule ? to : i);
	}
	for (i = qi - 1; i >= 0 && qi - i <= 10 && !lines[i].rule; i--) {
		l = &lines[i];
		paren = l->n > 0 ? memchr(l->s, '(', l->n) : NULL;
		if (paren == NULL || paren == l->s || !isupper((unsigned char)
		    l->s[0]) || memchr(l->s, ' ', (size_t)(paren - l->s)))
			continue;
		/* (to the line its ')' ends, under it when it wraps) */
		for (to = i; to < qi && (lines[to].n == 0 ||
		    lines[to].s[lines[to].n - 1] != ')'); to++)
			;
		if (to == qi)
			continue;
		if ((size_t)(paren - l->s) == 4 && memcmp(l->s, "Bash", 4) == 0)
			strlcpy(q->tool, "shell", sizeof q->tool);
		else
			question_copy(q->tool, sizeof q->tool, l->s,
			    (size_t)(paren - l->s));
		question_subject(q, lines, i, to, (size_t)(paren - l->s) + 1);
		n = strlen(q->subject);
		if (n > 0 && q->subject[n - 1] == ')')
			q->subject[n - 1] = '\0';
		return (i);
	}
	return (qi);
}
