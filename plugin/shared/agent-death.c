/*
 * What a shell prints when its job dies ("Killed", "[1]+  Terminated"),
 * or a wrapper that outlived its native child ("... was terminated by
 * signal SIGKILL."): the signal it names, read from a pane's screen or
 * from the bytes it wrote. Whatever the agent.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "agent.h"

/* A wrapper's words: Copilot's node loader, which then exits 1. */
static const struct {
	const char	*text;
	int		 sig;
	int		 wrapper;
} shell_deaths[] = {
	{ "Killed", 9, 0 }, { "Terminated", 15, 0 },
	{ "Segmentation fault", 11, 0 }, { "Aborted", 6, 0 },
	{ "Hangup", 1, 0 }, { "Quit", 3, 0 }, { "Bus error", 7, 0 },
	{ "SIGKILL", 9, 1 }, { "SIGTERM", 15, 1 }, { "SIGSEGV", 11, 1 },
	{ "SIGABRT", 6, 1 }, { "SIGHUP", 1, 1 }, { "SIGBUS", 7, 1 },
};

static regex_t	shell_death_re[sizeof shell_deaths / sizeof shell_deaths[0]];
static int	shell_death_ready;

static void
agent_shell_death_init(void)
{
	size_t	i;

	for (i = 0; i < sizeof shell_deaths / sizeof shell_deaths[0]; i++) {
		char	*pat;

		/*
		 * bash: "Killed" alone, or "[1]+  Killed  cmd"; at the
		 * cursor, which may sit anywhere after the agent's last
		 * output: its prompt (Claude's is a glyph and a no-break
		 * space), or under load the end of a spinner line
		 * ("tokens)Killed"). Not inside a word.
		 */
		if (shell_deaths[i].wrapper)
			xasprintf(&pat, "terminated by signal %s"
			    "([^[:alnum:]]|$)", shell_deaths[i].text);
		else
			xasprintf(&pat, "(^|[^[:alpha:]])%s"
			    "([[:space:]]|$)", shell_deaths[i].text);
		regcomp(&shell_death_re[i], pat,
		    REG_EXTENDED|REG_NEWLINE|REG_NOSUB);
		free(pat);
	}
	shell_death_ready = 1;
}

/* The signal a shell's report of its job's death names ("Killed"), or -1. */
int
agent_shell_death(const char *text)
{
	size_t	i;

	if (!shell_death_ready)
		agent_shell_death_init();
	for (i = 0; i < sizeof shell_deaths / sizeof shell_deaths[0]; i++) {
		if (regexec(&shell_death_re[i], text, 0, NULL, 0) == 0)
			return (shell_deaths[i].sig);
	}
	return (-1);
}

/*
 * The same in the bytes a pane wrote: each escape sequence is one space,
 * as the report follows the agent's last cursor move ("\033[1AKilled").
 */
int
agent_shell_death_stream(const char *data, size_t len)
{
	char	*text, *o;
	size_t	 i;
	int	 sig;

	o = text = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		if (data[i] != '\033') {
			*o++ = data[i] == '\0' ? ' ' : data[i];
			continue;
		}
		*o++ = ' ';
		if (++i == len)
			break;
		if (data[i] == '[') {		/* CSI: up to its final byte */
			while (++i < len && (data[i] < 0x40 || data[i] > 0x7e))
				;
		} else if (data[i] == ']' || data[i] == 'P' ||
		    data[i] == '_' || data[i] == '^' || data[i] == 'X') {
			/* A string: up to BEL or ST (ESC \\). */
			while (++i < len && data[i] != '\a' &&
			    !(data[i] == '\\' && data[i - 1] == '\033'))
				;
		}
	}
	*o = '\0';
	sig = agent_shell_death(text);
	free(text);
	return (sig);
}
