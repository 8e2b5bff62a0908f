/*
 * Quoting. ctl_quote is the only way text we did not write enters a tmux
 * command: a double-quoted string with \\ \" \$ \~ escaped and every byte
 * below 0x20, 0x7f and every byte from 0x80 written as \ooo. That keeps the
 * line free of newlines (an empty line detaches a control client), of ';',
 * '{' and '#' meaning anything, and of tmux's $VAR and ~ expansion.
 */
#include <string.h>

#include "control.h"

void
ctl_quote(struct buf *b, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i;

	buf_addc(b, '"');
	for (i = 0; i < len; i++) {
		switch (p[i]) {
		case '\\':
		case '"':
		case '$':
		case '~':
			buf_addc(b, '\\');
			buf_addc(b, (char)p[i]);
			continue;
		}
		if (p[i] < 0x20 || p[i] >= 0x7f)
			ctl_put_octal(b, p[i]);
		else
			buf_addc(b, (char)p[i]);
	}
	buf_addc(b, '"');
}

void
ctl_quote_str(struct buf *b, const char *s)
{
	ctl_quote(b, s, strlen(s));
}

/* A tmux command line of ARGC words, each quoted (ctl_quote). */
void
ctl_quote_argv(struct buf *b, char *const *argv, int argc)
{
	int	i;

	for (i = 0; i < argc; i++) {
		if (i != 0)
			buf_addc(b, ' ');
		ctl_quote_str(b, argv[i]);
	}
}

/*
 * The one boundary between text lisa did not write and a tmux format.
 * tmux expands as a format the arguments of run-shell, display-message,
 * display-menu and display-popup, hook bodies, rename-window and
 * rename-session, new-session -s and -c, new-window -n and -c, and
 * respawn-pane -c (tmux 3.2a to 3.7: cmd-*.c and spawn.c), where "#(...)"
 * runs a shell command. Its expansion (format.c: format_expand1) gives
 * "##" back as one '#', so "#(", "#{" and "#S" there are text; but a run
 * of '#' before '[' it leaves as it is, for the drawing of styles
 * (format_draw), which shows "##[" as the text "#[" and takes "#[" as a
 * style. So:
 *
 *   DRAWN (a message, a menu's text, a hook body: drawn or run after the
 *   expansion): every '#' doubled, "#[" becomes "##[", drawn as "#[";
 *   a name (a window's or session's name, a directory: kept as the
 *   expansion leaves it): every run of '#' doubled, but one before '['
 *   left as it is, which the expansion keeps.
 *
 * Apply before ctl_quote; never to an argument tmux takes as it is
 * (set-option's value, send-keys -l), where "##" would stay.
 */
static void
ctl_format_escape_as(struct buf *b, const char *s, int drawn)
{
	size_t	n;

	while (*s != '\0') {
		if (*s != '#') {
			buf_addc(b, *s++);
			continue;
		}
		n = strspn(s, "#");
		if (drawn || s[n] != '[')
			buf_add(b, s, n);	/* once more: doubled */
		buf_add(b, s, n);
		s += n;
	}
}

/* Text tmux expands and then draws or runs: every '#' doubled. */
void
ctl_format_escape(struct buf *b, const char *s)
{
	ctl_format_escape_as(b, s, 1);
}

/*
 * A name or directory tmux expands and keeps (new-window -n and -c,
 * new-session -s and -c, respawn-pane -c, rename-window), as a string of
 * its own for an argv (the caller frees it).
 */
char *
ctl_format_str(const char *s)
{
	struct buf	b;

	buf_init(&b);
	ctl_format_escape_as(&b, s, 0);
	return (buf_detach(&b));
}

/* POSIX shell single quoting, for strings run-shell hands to /bin/sh. */
void
ctl_shell_quote(struct buf *b, const char *s)
{
	buf_addc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
}
