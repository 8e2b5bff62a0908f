/*
 * A small VT parser that only keeps what lisa needs. Ground text is skipped
 * fast; CSI and other escapes are skipped by their grammar; OSC and DCS
 * strings are collected (bounded) until BEL or ST. CAN/SUB abort a string,
 * as in a terminal. DCS "tmux;" payloads are undoubled and scanned again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "osc.h"

enum {
	S_GROUND,
	S_ESC,		/* after ESC */
	S_CSI,		/* ESC [ ... final */
	S_ESC_INTER,	/* ESC + intermediate(s), e.g. ESC ( B */
	S_OSC,		/* ESC ] ... */
	S_OSC_ESC,	/* ESC inside OSC: ST or abort */
	S_DCS,		/* ESC P ... */
	S_DCS_ESC,	/* ESC inside DCS */
	S_SOS,		/* ESC X / ^ / _ strings: ignored until ST */
	S_SOS_ESC,
};

void
osc_init(struct osc_scanner *sc)
{
	sc->state = S_GROUND;
	sc->len = 0;
	sc->overflow = 0;
}

static void
collect(struct osc_scanner *sc, char c)
{
	if (sc->len < OSC_MAX)
		sc->seq[sc->len++] = c;
	else
		sc->overflow = 1;
}

static void
emit_osc(char *s, size_t len, int passthrough, osc_cb cb, void *arg)
{
	struct osc_event	ev;
	size_t			i;
	int			n = 0, digits = 0;

	s[len] = '\0';
	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9' && digits < 6; i++) {
		n = n * 10 + (s[i] - '0');
		digits++;
	}
	ev.kind = OSC_EV_OSC;
	ev.passthrough = passthrough;
	if (digits == 0 || (i < len && s[i] != ';')) {
		ev.number = -1;
		ev.payload = s;
		ev.len = len;
	} else {
		ev.number = n;
		ev.payload = s + (i < len ? i + 1 : i);
		ev.len = len - (i < len ? i + 1 : i);
	}
	cb(&ev, arg);
}

static void
emit_bel(int passthrough, osc_cb cb, void *arg)
{
	struct osc_event	ev;

	memset(&ev, 0, sizeof ev);
	ev.kind = OSC_EV_BEL;
	ev.number = -1;
	ev.payload = "";
	ev.passthrough = passthrough;
	cb(&ev, arg);
}

static void	scan(struct osc_scanner *, const char *, size_t, int, osc_cb,
		    void *);

/* A finished DCS: for "tmux;" undouble the ESCs and scan the inside. */
static void
end_dcs(struct osc_scanner *sc, int passthrough, osc_cb cb, void *arg)
{
	struct osc_scanner	*inner;
	size_t			 i, n = 0;

	if (sc->overflow || passthrough || sc->len < 5 ||
	    memcmp(sc->seq, "tmux;", 5) != 0)
		return;
	inner = malloc(sizeof *inner);
	if (inner == NULL)
		return;
	osc_init(inner);
	for (i = 5; i < sc->len; i++) {
		if (sc->seq[i] == '\033' && i + 1 < sc->len &&
		    sc->seq[i + 1] == '\033')
			i++;
		sc->seq[n++] = sc->seq[i];
	}
	scan(inner, sc->seq, n, 1, cb, arg);
	free(inner);
}

static void
scan(struct osc_scanner *sc, const char *p, size_t len, int passthrough,
    osc_cb cb, void *arg)
{
	const char	*end = p + len;
	unsigned char	 c;
	uint64_t	 w;

	while (p < end) {
		if (sc->state == S_GROUND) {
			/*
			 * Fast path: plain text and UTF-8 pass untouched,
			 * eight bytes at a time while none is below 0x20.
			 */
			while (end - p >= 8) {
				memcpy(&w, p, sizeof w);
				if (((w - 0x2020202020202020ULL) & ~w &
				    0x8080808080808080ULL) != 0)
					break;
				p += 8;
			}
			while (p < end && (unsigned char)*p >= 0x20)
				p++;
			if (p == end)
				break;
			c = (unsigned char)*p++;
			if (c == 0x1b)
				sc->state = S_ESC;
			else if (c == 0x07)
				emit_bel(passthrough, cb, arg);
			continue;
		}
		if (sc->state == S_CSI) {
			/* Parameters and intermediates: nothing to do. */
			while (p < end && (unsigned char)*p >= 0x20 &&
			    (unsigned char)*p < 0x40)
				p++;
			if (p == end)
				break;
		}
		c = (unsigned char)*p++;
		switch (sc->state) {
		case S_ESC:
			sc->len = 0;
			sc->overflow = 0;
			if (c == '[')
				sc->state = S_CSI;
			else if (c == ']')
				sc->state = S_OSC;
			else if (c == 'P')
				sc->state = S_DCS;
			else if (c == 'X' || c == '^' || c == '_')
				sc->state = S_SOS;
			else if (c >= 0x20 && c <= 0x2f)
				sc->state = S_ESC_INTER;
			else if (c == 0x1b)
				sc->state = S_ESC;
			else
				sc->state = S_GROUND;
			break;
		case S_ESC_INTER:
			if (c < 0x20 || c > 0x2f)
				sc->state = c == 0x1b ? S_ESC : S_GROUND;
			break;
		case S_CSI:
			/* C0 inside CSI is executed, as a terminal would. */
			if (c == 0x07)
				emit_bel(passthrough, cb, arg);
			else if (c >= 0x40 && c <= 0x7e)
				sc->state = S_GROUND;
			else if (c == 0x1b)
				sc->state = S_ESC;
			else if (c == 0x18 || c == 0x1a)
				sc->state = S_GROUND;
			break;
		case S_OSC:
			if (c == 0x07) {
				if (!sc->overflow)
					emit_osc(sc->seq, sc->len, passthrough,
					    cb, arg);
				sc->state = S_GROUND;
			} else if (c == 0x1b)
				sc->state = S_OSC_ESC;
			else if (c == 0x18 || c == 0x1a)
				sc->state = S_GROUND;
			else
				collect(sc, (char)c);
			break;
		case S_OSC_ESC:
			if (c == '\\') {
				if (!sc->overflow)
					emit_osc(sc->seq, sc->len, passthrough,
					    cb, arg);
				sc->state = S_GROUND;
			} else {
				/* Aborted by a new escape sequence. */
				sc->state = S_ESC;
				p--;
			}
			break;
		case S_DCS:
			if (c == 0x1b)
				sc->state = S_DCS_ESC;
			else if (c == 0x18 || c == 0x1a)
				sc->state = S_GROUND;
			else
				collect(sc, (char)c);
			break;
		case S_DCS_ESC:
			if (c == '\\') {
				end_dcs(sc, passthrough, cb, arg);
				sc->state = S_GROUND;
			} else if (sc->len >= 5 &&
			    memcmp(sc->seq, "tmux;", 5) == 0) {
				/* Inside passthrough every ESC is doubled. */
				collect(sc, '\033');
				collect(sc, (char)c);
				sc->state = S_DCS;
			} else {
				sc->state = S_ESC;
				p--;
			}
			break;
		case S_SOS:
			if (c == 0x1b)
				sc->state = S_SOS_ESC;
			else if (c == 0x18 || c == 0x1a)
				sc->state = S_GROUND;
			break;
		case S_SOS_ESC:
			sc->state = c == '\\' ? S_GROUND : S_SOS;
			break;
		}
	}
}

void
osc_scan(struct osc_scanner *sc, const char *p, size_t len, osc_cb cb,
    void *arg)
{
	scan(sc, p, len, 0, cb, arg);
}
