/*
 * The CLI's commands, as tmux keeps its cmd_entry table: name, alias,
 * usage, what it does and how many arguments it takes. Usage errors are
 * exit 2, always with the command's own usage line (lisa(1), EXIT STATUS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisa.h"

static const struct lisa_cmd lisa_cmds[] = {
	{ "start", NULL, "[-v]", "start the helper for this tmux server",
	  0, 0, 1 },
	{ "stop", NULL, "", "stop it; every option, hook and key is put back",
	  0, 0, 1 },
	{ "list", "ls", "[--json]", "panes the helper knows, with their state",
	  0, 0, 1 },
	{ "status", NULL, "[TARGET] [--json]",
	  "an agent pane's state, reason and signals", 0, 1, 1 },
	{ "explain", NULL, "[TARGET]", "why: every signal and its age",
	  0, 1, 1 },
	{ "details", NULL, "[TARGET] [--wait]",
	  "explain, and the pane's last events", 0, 1, 1 },
	{ "run", NULL, "[--name N] [--session S | --window] [--retries N] "
	  "[--fallback CMD] [--cwd D] -- COMMAND...",
	  "start an agent in a new window (in session S, else this one), "
	  "recorded", 1, -1, 1 },
	{ "resume", NULL, "[--all|--restored] [--dry-run] [--host HOST] [N|ID...]",
	  "the agents that ran when their tmux server ended: list them, or "
	  "bring them back with their own conversations", 0, -1, 1 },
	{ "runs", NULL, "[--json]", "the runs lisa started, and how they ended",
	  0, 0, 1 },
	{ "nudge", NULL, "PANE [TEXT] [--force] [--expect INCARNATION]",
	  "type TEXT (default: continue), then Enter", 1, 2, 1 },
	{ "answer", NULL, "PANE [allow|yes|y|deny|no|n|always|N] "
	  "[--reply TEXT] [--expect TOKEN]",
	  "answer the dialog the pane's agent waits on, with one key "
	  "(--reply: decline it, then type TEXT)", 1, 2, 1 },
	{ "kill", NULL, "PANE [--force] [--expect INCARNATION]",
	  "SIGTERM the pane's processes, SIGKILL after 2 s", 1, 1, 1 },
	{ "retry", NULL, "PANE [--fallback] [--force]",
	  "the pane's run again (or its fallback)", 1, 1, 1 },
	{ "dismiss", NULL, "PANE", "forget an ended agent's crashed/done "
	  "verdict", 1, 1, 1 },
	{ "key", NULL, "menu|next|details CLIENT [--to FILE] [--at 'PANE "
	  "HEIGHT VERSION INSTANCE']", "what lisa's tmux keys run",
	  2, 3, 1 },
	{ "wait", NULL, "[TARGET] [--until STATE,...] [--timeout SECONDS]",
	  "block until the pane reaches a state (working, waiting, done, "
	  "crashed, stuck, or a JSON state name)", 0, 1, 1 },
	{ "events", NULL, "[TARGET] [--json] [--follow] [--since TIME]",
	  "transitions and pane events, all or one pane's own (TIME: RFC "
	  "3339, or 30s / 10m / 2h ago)", 0, 1, 1 },
	{ "reload", NULL, "", "re-read @lisa-* options and agents.json",
	  0, 0, 1 },
	{ "shell-init", NULL, "bash|zsh|fish",
	  "OSC 133 prompt marks for that shell", 1, 1, 0 },
	{ "hooks", NULL,
	  "install|uninstall [claude|codex|opencode|copilot|qwen|kilo] "
	  "[--dry-run]",
	  "add or remove lisa's agent hooks", 1, 2, 0 },
	{ "notify", NULL, "[--agent A] [EVENT]",
	  "what agent hooks run (reads the event)", 0, 1, 0 },
	{ "info", NULL, "[--json]", "what the helper says of itself: pid, "
	  "versions, sessions, counters, memory", 0, 0, 1 },
	{ "doctor", NULL, "[--json]",
	  "check tmux, its version, helper, socket and hooks", 0, 0, 0 },
	{ "tap", NULL, "PANE [--bytes N]",
	  "copy a pane's output as the helper decodes it", 1, 1, 1 },
	{ "hosts", NULL, "[--json]", "the @lisa-hosts machines: connected, "
	  "connecting, stalled or down, since when, why", 0, 0, 1 },
	{ "bridge", NULL, "", "what a fleet's ssh runs on a host (lisa "
	  "hosts)", 0, 0, 0 },
	{ "version", NULL, "", "lisa's version", 0, 0, 0 },
	{ "help", NULL, "[COMMAND]", "this, or one command's usage", 0, 1, 0 },
};
#define LISA_NCMDS (sizeof lisa_cmds / sizeof lisa_cmds[0])

const struct lisa_cmd *
lisa_cmd_find(const char *name)
{
	size_t	i;

	for (i = 0; i < LISA_NCMDS; i++) {
		if (strcmp(lisa_cmds[i].name, name) == 0 ||
		    (lisa_cmds[i].alias != NULL &&
		    strcmp(lisa_cmds[i].alias, name) == 0))
			return (&lisa_cmds[i]);
	}
	return (NULL);
}

/* One command's usage line. */
void
lisa_cmd_usage(FILE *f, const struct lisa_cmd *c)
{
	fprintf(f, "usage: lisa %s%s%s\n", c->name, *c->args != '\0' ? " " :
	    "", c->args);
}

/*
 * How to read lisa(1): "man lisa" once it is installed (make install),
 * else the page in the plugin's own tree, as TPM leaves it.
 */
const char *
lisa_cmd_man(void)
{
	static char	 out[4200];
	char		 self[4096], *p;
	int		 i;

	if (system("man -w lisa >/dev/null 2>&1") == 0 ||
	    osdep_self_exe(self, sizeof self) != 0)
		return ("man lisa");
	/* bin/lisa -> the tree's docs/lisa.1 */
	for (i = 0; i < 2 && (p = strrchr(self, '/')) != NULL; i++)
		*p = '\0';
	snprintf(out, sizeof out, "%s/docs/lisa.1", self);
	if (access(out, R_OK) != 0)
		return ("man lisa");
	snprintf(out, sizeof out, "man %s/docs/lisa.1", self);
	return (out);
}

/* Every command: to stdout when asked for (exit 0), else to stderr. */
void
lisa_cmd_usage_all(FILE *f)
{
	size_t	i;
	int	n;

	fprintf(f, "usage: lisa [-L socket-name | -S socket-path] COMMAND "
	    "[ARGUMENTS]\n");
	for (i = 0; i < LISA_NCMDS; i++) {
		n = fprintf(f, "  %s%s%s", lisa_cmds[i].name,
		    *lisa_cmds[i].args != '\0' ? " " : "", lisa_cmds[i].args);
		if (n > 24)
			fprintf(f, "\n%24s", "");
		else
			fprintf(f, "%*s", 24 - n, "");
		fprintf(f, "%s\n", lisa_cmds[i].what);
	}
	fprintf(f, "Exit status: 0 done, 1 failed, 2 a usage error (wait: 1 "
	    "timed out, 2 the pane is gone).\n'lisa help COMMAND' or 'lisa "
	    "COMMAND -h': one command.\n"
	    "Everything, with every option: %s\n", lisa_cmd_man());
}

/*
 * Arguments after the command's name: a usage error (exit 2, its usage
 * line) when too few or too many.
 */
void
lisa_cmd_check(const struct lisa_cmd *c, int nargs)
{
	if (nargs < c->min_args)
		args_usage_error(c, "missing argument");
	if (c->max_args >= 0 && nargs > c->max_args)
		args_usage_error(c, "too many arguments");
}
