/*
 * A dialog read off an agent's screen (capture-pane -p -J text): its
 * options are the last run of numbered lines ("❯ 1. Yes", "› 1. Yes,
 * proceed (y)"), its question the line above them that asks ("Do you want
 * to proceed?"), and what it would do every line above that its agent
 * draws for it: Claude Code's command between dashed rules under "Bash
 * command", Codex's "$ touch x" and the lines under it, Gemini's box.
 *
 * The fingerprint is SHA-256 over the dialog's kind, tool, question and
 * options and every line from its first (the top its agent draws: the
 * rule over Claude Code's tool line, Codex's question, Gemini's "? Shell",
 * a box's top, OpenCode's "△") to its last option, each whole as drawn
 * but for blanks at its end: a command of 400 lines is 400 lines, and a
 * dialog that differs anywhere in them has another fingerprint.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "question.h"
#include "question-int.h"


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

	l->raw = s;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
	    end[-1] == '\r'))
		end--;
	l->rawn = (size_t)(end - s);
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
	l->rule = l->n == 0 ? question_rule(start, start + l->rawn) :
	    QRULE_NONE;
}

/*
 * An option line: an optional pointer glyph (any non-ASCII character or
 * '>'), then "N." or "N)". Its text from the number on, and whether the
 * pointer is on it.
 */
int
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

void
question_copy(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* memmem for a string: WHAT in S's N bytes, or NULL. */
const char *
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
 * What it would do: lines FROM to TO (inclusive), each without its frame,
 * "\n" between, blank lines at either end left out; SKIP bytes of the
 * first ("$ "). Every line: nothing is cut.
 */
void
question_subject(struct question *q, struct qline *lines, int from, int to,
    size_t skip)
{
	struct buf	b;
	int		i;

	while (from <= to && lines[from].n == 0)
		from++;
	while (to >= from && lines[to].n == 0)
		to--;
	buf_init(&b);
	q->subject_lines = 0;
	for (i = from; i <= to; i++) {
		if (i > from)
			buf_addc(&b, '\n');
		if (i == from && skip <= lines[i].n)
			buf_add(&b, lines[i].s + skip, lines[i].n - skip);
		else
			buf_add(&b, lines[i].s, lines[i].n);
		q->subject_lines++;
	}
	free(q->subject);
	q->subject = buf_detach(&b);
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

static void
question_tool(struct question *q, const struct qline *l)
{
	size_t	n = strcspn(l->s, " ");

	question_copy(q->tool, sizeof q->tool, l->s, n < l->n ? n : l->n);
}

/*
 * Claude Code 2.1.3xx: its command between dashed rules over the
 * question, a tool's line over them (a tip and a description between),
 * the dialog's solid rule over that. The dialog's first line, or -1.
 */
static int
question_claude(struct qline *lines, int qi, struct question *q)
{
	int	i, close, open, tool = -1;

	for (i = qi - 1; i >= 0 && lines[i].n == 0 &&
	    lines[i].rule == QRULE_NONE; i--)
		;
	if (i < 0 || lines[i].rule != QRULE_DASHED)
		return (-1);
	close = i;
	for (i = close - 1; i >= 0 && lines[i].rule != QRULE_DASHED; i--)
		;
	if (i < 0)
		return (-1);
	open = i;
	for (i = open - 1; i >= 0 && open - i <= 8; i--) {
		if (lines[i].rule == QRULE_SOLID)
			break;
		if (question_tool_line(&lines[i]))
			tool = i;
	}
	if (tool == -1)
		return (-1);
	question_tool(q, &lines[tool]);
	question_subject(q, lines, open + 1, close - 1, 0);
	return (i >= 0 && lines[i].rule == QRULE_SOLID ? i : tool);
}

/*
 * Claude Code before 2.1.3xx (and the fake agent): the tool's line over
 * the command, which is indented under it, then the question. Lines as
 * deep as the question's may stand between only a few times.
 */
static int
question_claude_old(struct qline *lines, int qi, struct question *q)
{
	int	i, top = -1, shallow = 0;

	for (i = qi - 1; i >= 0 && top == -1 && shallow <= 4; i--) {
		if (lines[i].n == 0)
			continue;
		if (question_tool_line(&lines[i]) &&
		    lines[i].indent <= lines[qi].indent)
			top = i;
		else if (lines[i].indent <= lines[qi].indent)
			shallow++;
	}
	if (top == -1)
		return (-1);
	question_tool(q, &lines[top]);
	question_subject(q, lines, top + 1, qi - 1, 0);
	return (top);
}

/*
 * Qwen Code 0.24's auto mode, when it hands a call over to the user, says
 * why over the command ("⚠ Auto Mode couldn't classify this action (…).
 * Review it manually. Switching to Default Mode is recommended if you
 * want to continue without the classifier.", wrapped): the first line
 * after that notice, or FROM if there is none (or no end to it before TO).
 */
static int
question_notice(const struct qline *lines, int from, int to)
{
	const char	*end;
	size_t		 n;
	int		 i;

	if (lines[from].n < 4 || memcmp(lines[from].s, "\xe2\x9a\xa0 ", 4) != 0)
		return (from);
	end = question_find(lines[from].s, lines[from].n,
	    "couldn't classify") != NULL ? "classifier." : "manually.";
	n = strlen(end);
	for (i = from; i < to; i++) {
		if (lines[i].n >= n &&
		    memcmp(lines[i].s + lines[i].n - n, end, n) == 0)
			return (i + 1);
	}
	return (from);
}

/*
 * Gemini CLI's and Qwen Code's dialog: "? TOOL  WHAT" heads it (Qwen:
 * "?  Shell touch x (why) ←"), what it would run below it, in a box of
 * its own (Gemini) or not (Qwen), then the question.
 */
static int
question_gemini(struct qline *lines, int qi, struct question *q)
{
	const struct qline	*l;
	size_t			 n, sp;
	int			 i, top = -1, from, to;

	/* ("? for shortcuts" is Claude Code's footer: a tool is a Name) */
	for (i = qi - 1; i >= 0 && top == -1; i--) {
		l = &lines[i];
		sp = 1 + strspn(l->s + 1, " ");
		if (l->n > sp && l->s[0] == '?' && sp > 1 &&
		    isupper((unsigned char)l->s[sp]))
			top = i;
	}
	if (top == -1)
		return (-1);
	l = &lines[top];
	sp = 1 + strspn(l->s + 1, " ");
	n = strcspn(l->s + sp, " ");
	if (sp + n > l->n)
		n = l->n - sp;
	question_copy(q->tool, sizeof q->tool, l->s + sp, n);
	for (from = top + 1; from < qi && lines[from].n == 0 &&
	    lines[from].rule == QRULE_NONE; from++)
		;
	if (from < qi && lines[from].rule == QRULE_SOLID) {
		/* Its own box: every line inside. */
		for (to = from + 1; to < qi && lines[to].rule != QRULE_SOLID;
		    to++)
			;
		question_subject(q, lines, from + 1, to - 1, 0);
	} else if (from < qi)
		question_subject(q, lines, question_notice(lines, from, qi),
		    qi - 1, 0);
	if (q->subject_lines == 0) {
		sp += n + strspn(l->s + sp + n, " ");
		question_subject(q, lines, top, top, sp < l->n ? sp : l->n);
	}
	return (top);
}

/*
 * A box just over the question (its bottom rule, its lines, its top
 * rule): what it would run is every line inside (Copilot CLI).
 */
static int
question_boxed(struct qline *lines, int qi, struct question *q)
{
	int	i, bottom;

	for (i = qi - 1; i >= 0 && lines[i].n == 0 && !lines[i].rule; i--)
		;
	if (i < 0 || lines[i].rule != QRULE_SOLID)
		return (-1);
	bottom = i;
	for (i--; i >= 0 && !lines[i].rule; i--)
		;
	if (i < 0 || lines[i].rule != QRULE_SOLID)
		return (-1);
	question_subject(q, lines, i + 1, bottom - 1, 0);
	return (i);
}

/*
 * Grok CLI's: "⏺ Run bash command(CMD)", "⎿ Command: CMD" and what it
 * shows of it ("No changes detected." for a command), then the question.
 */
#define QUESTION_GROK_CMD "\xe2\x8e\xbf Command: "
static int
question_grok(struct qline *lines, int qi, struct question *q)
{
	size_t	n = strlen(QUESTION_GROK_CMD);
	int	i, to;

	for (i = qi - 1; i >= 0 && qi - i <= 12; i--) {
		if (lines[i].n >= n && memcmp(lines[i].s, QUESTION_GROK_CMD,
		    n) == 0)
			break;
	}
	if (i < 2 || qi - i > 12 || question_find(lines[i - 2].s,
	    lines[i - 2].n, "\xe2\x8f\xba ") == NULL)
		return (-1);
	for (to = qi - 1; to > i && (lines[to].n == 0 ||
	    (lines[to].n == 20 && memcmp(lines[to].s, "No changes detected.",
	    20) == 0)); to--)
		;
	strlcpy(q->tool, "shell", sizeof q->tool);
	question_subject(q, lines, i, to, n);
	return (i - 2);
}

int
question_dollar(const struct qline *l)
{
	return (l->n > 2 && l->s[0] == '$' && l->s[1] == ' ');
}

/* Up from FROM to LIMIT: the line that asks ('?' at its end), or -1. */
int
question_asking(struct qline *lines, int from, int limit)
{
	int	i;

	for (i = from; i >= 0 && i >= limit; i--) {
		if (lines[i].n != 0 && !question_dollar(&lines[i]) &&
		    lines[i].s[lines[i].n - 1] == '?')
			return (i);
	}
	return (-1);
}

/*
 * How far up from the options (FIRST) a question may be: 12 lines, and
 * not past a line no dialog's question is above: a rule, a question's
 * header (Claude Code's "☐ Choice"), an earlier turn's result ("⎿
 * Interrupted · What should Claude do instead?" after a denied dialog:
 * its '?' is not the next question's).
 */
static int
question_bound(const struct qline *lines, int first)
{
	int	i;

	for (i = first - 1; i >= 0 && i >= first - 12; i--) {
		if (lines[i].rule != QRULE_NONE)
			return (i + 1);
		if (lines[i].n >= 3 &&
		    (memcmp(lines[i].s, "\xe2\x98\x90", 3) == 0 ||	/* ☐ */
		    memcmp(lines[i].s, "\xe2\x8e\xbf", 3) == 0))	/* ⎿ */
			return (i + 1);
	}
	return (first - 12);
}

/*
 * Codex's "$ CMD", its lines under it, between the question and the
 * options: the top "$" line there, or -1. A command longer than the
 * question's reach is found above it, its question over it.
 */
static int
question_codex(struct qline *lines, int first, int *qi)
{
	int	i, dollar = -1;

	if (*qi == -1) {
		for (i = first - 1; i >= 0 && !question_dollar(&lines[i]); i--)
			;
		if (i < 0)
			return (-1);
		*qi = question_asking(lines, i - 1, i - 12);
		if (*qi == -1)
			return (-1);
	}
	for (i = first - 1; i > *qi; i--) {
		if (question_dollar(&lines[i]))
			dollar = i;
	}
	return (dollar);
}

/* The fingerprint: every field, then every line of the dialog. */
static void
question_fingerprint(struct question *q, struct qline *lines, int top,
    int first, int last, int list)
{
	struct sha256	 c;
	unsigned char	 d[SHA256_LEN];
	const char	*fields[3 + QUESTION_MAX_OPTIONS], *opt;
	size_t		 n;
	int		 i, nf = 0, pointed;

	fields[nf++] = q->kind;
	fields[nf++] = q->tool;
	fields[nf++] = q->text;
	for (i = 0; i < q->noptions; i++)
		fields[nf++] = q->options[i];
	sha256_init(&c);
	sha256_adds(&c, "lisa dialog 1\n");
	for (i = 0; i < nf; i++) {
		sha256_adds(&c, fields[i]);
		sha256_add(&c, "\n", 1);
	}
	/*
	 * (each line ends with a byte no line holds: none runs into the
	 * next; an option's line from its number on, a list's item from its
	 * text on: where the pointer is drawn is no other dialog)
	 */
	for (i = top; i <= last; i++) {
		if (i >= first && (list ? question_list_item(&lines[i], &opt,
		    &n, &pointed) != -1 : question_option(&lines[i], &opt, &n,
		    &pointed)))
			sha256_add(&c, opt, n);
		else
			sha256_add(&c, lines[i].raw, lines[i].rawn);
		sha256_add(&c, "\0", 1);
	}
	q->lines = last - top + 1;
	sha256_end(&c, d);
	sha256_hex(d, q->fingerprint);
}

/*
 * A scrollbar's thumb (█) at the end of a row, after a blank or a frame:
 * 1 if the row [P, END) ends in one, 2 if it is blank but for it; *AT is
 * where the thumb begins.
 */
#define QUESTION_THUMB "\xe2\x96\x88"
static int
question_thumb(const char *p, const char *end, const char **at)
{
	const char	*s;

	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	if (end - p < 3 || memcmp(end - 3, QUESTION_THUMB, 3) != 0)
		return (0);
	*at = end - 3;
	for (s = p; s < end - 3 && *s == ' '; s++)
		;
	if (s == end - 3)
		return (2);
	if (end[-4] == ' ' || (end - p >= 6 && (unsigned char)end[-6] == 0xe2 &&
	    ((unsigned char)end[-5] == 0x94 || (unsigned char)end[-5] == 0x95)))
		return (1);
	return (0);
}

/*
 * SCREEN's lines; *N of them. A scrollbar drawn down the right edge
 * (Qwen Code 0.24 once its history is taller than the pane: a █ at the
 * end of each row) is not the rows' text: the question's '?' is not at
 * its end otherwise, and a dialog would not be the same with and without
 * it. It is one when three rows or more end in it, one of them blank.
 */
static struct qline *
question_lines(const char *screen, int *n)
{
	struct qline	*lines;
	const char	*p, *end, *at;
	int		 count = 1, thumbs = 0, blank = 0, t;

	for (p = screen; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		count++;
		if ((t = question_thumb(p, end, &at)) != 0) {
			thumbs++;
			blank |= t == 2;
		}
	}
	lines = xcalloc((size_t)count, sizeof *lines);
	*n = 0;
	for (p = screen; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		if (thumbs >= 3 && blank && question_thumb(p, end, &at) != 0)
			question_clean(p, at, &lines[(*n)++]);
		else
			question_clean(p, end, &lines[(*n)++]);
	}
	return (lines);
}

/*
 * The dialog on SCREEN, with the kind the agent's profile gave it
 * (permission, question, trust, or NULL: "choice"). 0 if one with
 * options is there, else -1 (q is empty). Either way q is the caller's to
 * question_free.
 */
int
question_from_screen(const char *kind, const char *screen, struct question *q)
{
	struct qline	*lines, *l;
	const char	*opt;
	size_t		 n;
	int		 nlines, i, first = -1, last = -1, pointed, qi, top;
	int		 dollar;

	memset(q, 0, sizeof *q);
	q->selected = -1;
	q->subject = xstrdup("");
	strlcpy(q->kind, kind != NULL ? kind : "choice", sizeof q->kind);
	strlcpy(q->source, "screen", sizeof q->source);
	lines = question_lines(screen, &nlines);

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
		if ((first = question_keyed(lines, nlines, q)) != -1)
			top = question_from_keyed(lines, first, q);
		else if ((first = question_buttons(lines, nlines, q)) != -1)
			top = question_from_buttons(lines, first, q);
		else if ((first = question_list(lines, nlines, q, &last)) !=
		    -1) {
			top = question_from_list(lines, first, last, q);
			q->top_seen = top != first;
			question_fingerprint(q, lines, top, first, last, 1);
			free(lines);
			return (0);
		} else {
			free(lines);
			question_free(q);
			return (-1);
		}
		q->top_seen = top != first;
		question_fingerprint(q, lines, top, first + 1, first, 0);
		free(lines);
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

	/* Up from the options: the question, over Codex's "$ command". */
	qi = question_asking(lines, first - 1, question_bound(lines, first));
	if ((dollar = question_codex(lines, first, &qi)) != -1) {
		strlcpy(q->tool, "shell", sizeof q->tool);
		question_subject(q, lines, dollar, first - 1, 2);
	}
	if (qi == -1) {
		/* No line asks: the one just above the options says it. */
		for (i = first - 1; i >= 0 && lines[i].n == 0; i--)
			;
		if (i >= 0)
			question_copy(q->text, sizeof q->text, lines[i].s,
			    lines[i].n);
		top = i >= 0 ? i : first;
	} else {
		l = &lines[qi];
		question_copy(q->text, sizeof q->text, l->s, l->n);
		top = -1;
		if (dollar != -1)
			top = qi;
		/* Gemini CLI's "? Shell  touch x" over its question. */
		if (top == -1)
			top = question_gemini(lines, qi, q);
		/* Claude Code's: the tool and its command over the question. */
		if (top == -1)
			top = question_claude(lines, qi, q);
		/* Copilot CLI's: the command in a box of its own. */
		if (top == -1)
			top = question_boxed(lines, qi, q);
		if (top == -1)
			top = question_grok(lines, qi, q);
		if (top == -1)
			top = question_claude_old(lines, qi, q);
		q->top_seen = top != -1;
		if (top == -1)
			top = qi;
	}
	question_fingerprint(q, lines, top, first, last, 0);
	free(lines);
	return (0);
}

/*
 * The agent's hook (Claude Code's PermissionRequest) named the tool and
 * its whole command: taken when its first line is the screen's, shown
 * beside the screen's where it says more, and then in the fingerprint
 * too (an answer reads the same hook with the screen: a token read before
 * the hook told more named less than the dialog asks). A hook that says
 * what the screen shows, to its last blank, leaves the fingerprint as it
 * was: the hook may come after lisa read the screen (a loaded machine),
 * and the dialog the user read is still the same one.
 */
void
question_add_hook(struct question *q, const char *tool, const char *subject)
{
	struct sha256	 c;
	unsigned char	 d[SHA256_LEN];
	size_t		 n, m, whole;

	if (subject == NULL || *subject == '\0' ||
	    strcmp(q->kind, "permission") != 0 || q->subject == NULL)
		return;
	/* (the screen's has no blanks at its end; the hook's may) */
	n = strcspn(q->subject, "\n");
	m = strcspn(subject, "\n");
	while (m > n && (subject[m - 1] == ' ' || subject[m - 1] == '\t'))
		m--;
	if (n == 0 || m != n || strncmp(subject, q->subject, n) != 0)
		return;
	strlcpy(q->tool, tool, sizeof q->tool);
	strlcpy(q->source, "hook", sizeof q->source);
	free(q->hook_subject);
	q->hook_subject = strcmp(subject, q->subject) != 0 ?
	    xstrdup(subject) : NULL;
	whole = strlen(subject);
	while (whole > 0 && strchr(" \t\n", subject[whole - 1]) != NULL)
		whole--;
	if (whole == strlen(q->subject) &&
	    strncmp(subject, q->subject, whole) == 0)
		return;
	sha256_init(&c);
	sha256_adds(&c, q->fingerprint);
	sha256_adds(&c, "\nhook\n");
	sha256_adds(&c, tool);
	sha256_add(&c, "\n", 1);
	sha256_adds(&c, subject);
	sha256_end(&c, d);
	sha256_hex(d, q->fingerprint);
}

/* A subject's first line, "…" after it if there are more. */
void
question_first_line(const char *s, char *out, size_t len)
{
	size_t	n = strcspn(s, "\n");

	if (len < 4)
		return;
	question_copy(out, len - 3, s, n);
	if (s[n] == '\n')
		strlcat(out, "\xe2\x80\xa6", len);
}

void
question_free(struct question *q)
{
	free(q->subject);
	free(q->hook_subject);
	q->subject = q->hook_subject = NULL;
}

/* SRC into DST (DST's own freed first); SRC is left empty. */
void
question_move(struct question *dst, struct question *src)
{
	question_free(dst);
	*dst = *src;
	src->subject = src->hook_subject = NULL;
}
