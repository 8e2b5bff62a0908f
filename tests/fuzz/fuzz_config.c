/*
 * ~/.config/lisa/agents.json: the user's agent profiles, with their
 * regular expressions, then matched against text taken from the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "agent.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct agent_profile	*p;
	static int			 loaded;
	char				*cause = NULL, *text, *argv[2];
	int				 n, sig, rc;

	if (!loaded) {
		agent_load("/nonexistent/agents.json", &cause);
		free(cause);
		loaded = 1;
	}
	n = agent_count();
	rc = agent_parse_user((const char *)data, size, "agents.json", &cause);
	if ((rc == 0) != (cause == NULL))
		abort();
	if (rc != 0 && agent_count() != n)
		abort();	/* a bad file adds nothing */
	free(cause);

	/* Whatever loaded must match safely against the input as text. */
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	argv[0] = text;
	argv[1] = NULL;
	if ((p = agent_match(text, argv, 1)) != NULL) {
		agent_title(p, text);
		agent_screen(p, text, &sig);
	}
	agent_shell_death(text);
	agent_shell_death_stream((const char *)data, size);
	free(text);

	/* Back to the built-in profiles for the next input. */
	if (rc == 0) {
		agent_load("/nonexistent/agents.json", &cause);
		free(cause);
	}
	return (0);
}
