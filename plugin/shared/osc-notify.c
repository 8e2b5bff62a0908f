/*
 * The notification sequences terminals raise as desktop notifications,
 * so one reaches a laptop through ssh from the box tmux runs on:
 *
 *  OSC 9 ; text BEL			iTerm2, WezTerm, Ghostty, kitty,
 *					Windows Terminal
 *  OSC 777 ; notify ; title ; body BEL	rxvt-unicode, foot, Ghostty, WezTerm
 *  OSC 99 ; i=ID:d=0:e=1 ; title ST	kitty (and foot), base64 payloads
 *  OSC 99 ; i=ID:d=1:e=1:p=body ; body ST
 *
 * No terminal can be asked which it understands, so "auto" goes by the
 * name it answers tmux's XTVERSION query with (client_termtype) or by its
 * TERM (client_termname), and sends nothing to a terminal it does not
 * know: some (the Linux console) print an unknown OSC as text. A client
 * that is itself a tmux or screen pane (tmux on a remote box, attached
 * from tmux on the laptop) gets the sequence wrapped for the outer one to
 * pass on: tmux does so with allow-passthrough on.
 *
 * The texts are names and states the user or a remote host chose: only
 * printable UTF-8 goes into a sequence, never a control character.
 */
#include <string.h>

#include "shared.h"
#include "osc-notify.h"

static const char *nterm_names[] = { "off", "auto", "osc9", "osc777",
    "osc99" };

int
nterm_parse(const char *v)
{
	size_t	i;

	if (strcmp(v, "on") == 0)
		return (NTERM_AUTO);
	for (i = 0; i < sizeof nterm_names / sizeof nterm_names[0]; i++) {
		if (strcmp(v, nterm_names[i]) == 0)
			return ((int)i);
	}
	return (-1);
}

const char *
nterm_name(int kind)
{
	if (kind < 0 || kind > NTERM_OSC99)
		return ("?");
	return (nterm_names[kind]);
}

static int
nterm_has(const char *s, const char *what)
{
	return (s != NULL && strcasestr(s, what) != NULL);
}

/*
 * The sequence for a client: the mode asked for, or in auto the one its
 * terminal is known to understand; *wrap says what is in between.
 */
int
nterm_pick(int mode, const char *termname, const char *termtype, int *wrap)
{
	*wrap = NTERM_DIRECT;
	if (termname == NULL)
		termname = "";
	if (termtype == NULL)
		termtype = "";
	if (strncmp(termtype, "tmux", 4) == 0 ||
	    strncmp(termname, "tmux", 4) == 0)
		*wrap = NTERM_TMUX;
	else if (strncmp(termname, "screen", 6) == 0)
		*wrap = *termtype == '\0' ? NTERM_SCREEN : NTERM_TMUX;
	if (mode != NTERM_AUTO)
		return (mode);

	if (*wrap != NTERM_DIRECT)
		return (NTERM_OSC9);	/* the laptop's terminal: unknown */
	if (nterm_has(termtype, "kitty") || nterm_has(termname, "kitty"))
		return (NTERM_OSC99);
	if (nterm_has(termtype, "foot") || strncmp(termname, "foot", 4) == 0 ||
	    nterm_has(termname, "rxvt"))
		return (NTERM_OSC777);
	if (nterm_has(termtype, "iterm") || nterm_has(termtype, "wezterm") ||
	    nterm_has(termtype, "ghostty") || nterm_has(termname, "wezterm") ||
	    nterm_has(termname, "ghostty"))
		return (NTERM_OSC9);
	return (NTERM_OFF);
}

/*
 * Printable UTF-8 only, at most NTERM_TEXT_MAX bytes; a separator of the
 * sequence (';' where it splits fields) becomes ','.
 */
static void
nterm_clean(struct buf *b, const char *text, int semicolon)
{
	const unsigned char	*s = (const unsigned char *)text;
	size_t			 n = strlen(text), len, used = 0;

	while (n > 0) {
		len = json_utf8_len(s, n);
		/* C1 controls (U+0080..U+009F) are controls too. */
		if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
			len = 0;
		if (len == 0 || (len == 1 && (*s < 0x20 || *s == 0x7f))) {
			len = len == 0 ? 1 : len;
			if (used + 1 > NTERM_TEXT_MAX)
				break;
			buf_addc(b, len == 1 && *s == '\t' ? ' ' : '?');
			used++;
		} else {
			if (used + len > NTERM_TEXT_MAX)
				break;
			if (len == 1 && *s == ';' && semicolon)
				buf_addc(b, ',');
			else
				buf_add(b, s, len);
			used += len;
		}
		s += len;
		n -= len;
	}
}

static void
nterm_base64(struct buf *b, const char *data, size_t n)
{
	static const char	 set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char	*s = (const unsigned char *)data;
	unsigned int		 v;
	size_t			 i;

	for (i = 0; i + 2 < n; i += 3) {
		v = (unsigned int)s[i] << 16 | (unsigned int)s[i + 1] << 8 |
		    s[i + 2];
		buf_addc(b, set[v >> 18]);
		buf_addc(b, set[(v >> 12) & 63]);
		buf_addc(b, set[(v >> 6) & 63]);
		buf_addc(b, set[v & 63]);
	}
	if (i < n) {
		v = (unsigned int)s[i] << 16;
		if (i + 1 < n)
			v |= (unsigned int)s[i + 1] << 8;
		buf_addc(b, set[v >> 18]);
		buf_addc(b, set[(v >> 12) & 63]);
		buf_addc(b, i + 1 < n ? set[(v >> 6) & 63] : '=');
		buf_addc(b, '=');
	}
}

/* One OSC 99 chunk: the text cleaned, then base64 (e=1). */
static void
nterm_osc99(struct buf *b, unsigned int id, int done, const char *part,
    const char *text, int bel)
{
	struct buf	clean;

	buf_init(&clean);
	nterm_clean(&clean, text, 0);
	buf_printf(b, "\033]99;i=lisa%u:d=%d:e=1%s%s;", id, done,
	    part != NULL ? ":p=" : "", part != NULL ? part : "");
	nterm_base64(b, clean.data, clean.len);
	buf_adds(b, bel ? "\a" : "\033\\");
	buf_free(&clean);
}

/* The bare sequence of a kind. */
static void
nterm_sequence(struct buf *b, int kind, int wrap, unsigned int id,
    const char *line, const char *title, const char *body)
{
	switch (kind) {
	case NTERM_OSC9:
		buf_adds(b, "\033]9;");
		nterm_clean(b, line, 0);
		buf_addc(b, '\a');
		break;
	case NTERM_OSC777:
		buf_adds(b, "\033]777;notify;");
		nterm_clean(b, title, 1);
		buf_addc(b, ';');
		nterm_clean(b, body, 1);
		buf_addc(b, '\a');
		break;
	case NTERM_OSC99:
		/* Inside screen's DCS an ST would end it: BEL there. */
		nterm_osc99(b, id, 0, NULL, title, wrap == NTERM_SCREEN);
		nterm_osc99(b, id, 1, "body", body, wrap == NTERM_SCREEN);
		break;
	}
}

/*
 * The bytes for a client's terminal: OSC 99 is two sequences, each
 * wrapped on its own. tmux's passthrough doubles every ESC inside;
 * screen's takes the sequence as it is (and one ST ends it).
 */
void
nterm_build(struct buf *out, int kind, int wrap, unsigned int id,
    const char *line, const char *title, const char *body)
{
	struct buf	 seq;
	const char	*p, *end, *next;

	buf_init(&seq);
	nterm_sequence(&seq, kind, wrap, id, line, title, body);
	if (wrap == NTERM_DIRECT) {
		buf_add(out, seq.data, seq.len);
		buf_free(&seq);
		return;
	}
	p = seq.data;
	end = seq.data + seq.len;
	while (p < end) {
		/* Each sequence ends in BEL or ST (ESC \). */
		next = p + 1;
		while (next < end && *next != '\a' &&
		    !(next[0] == '\\' && next[-1] == '\033'))
			next++;
		if (next < end)
			next++;
		buf_adds(out, wrap == NTERM_TMUX ? "\033Ptmux;" : "\033P");
		for (; p < next; p++) {
			if (*p == '\033' && wrap == NTERM_TMUX)
				buf_addc(out, '\033');
			buf_addc(out, *p);
		}
		buf_adds(out, "\033\\");
	}
	buf_free(&seq);
}
