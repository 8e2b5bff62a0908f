/*
 * The agent profiles. The patterns come from what the real agents were
 * measured to print (see docs/classification.md); titles and screens are
 * matched as bytes (POSIX ERE, C locale), so UTF-8 glyphs are written as
 * their bytes. A user file that does not parse is reported and ignored: the
 * built-in profiles stay.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shared.h"
#include "agent.h"

/* Hint names, in bit order, as used in agents.json and in signals. */
static const char *hint_names[SCREEN_NHINTS] = {
	"permission", "question", "trust", "busy", "retrying", "tool",
	"error", "interrupted", "prompt", "exited", "killed", "limit"
};

struct builtin {
	const char	*name;
	const char	*comm[AGENT_MAX_NAMES];
	const char	*argv[AGENT_MAX_NAMES];
	const char	*title_busy;
	const char	*title_idle;
	const char	*title_waiting;
	const char	*screen[SCREEN_NHINTS];
	const char	*retry_marks[3];
	int		 osc7501;
	int		 claude_files;
	int		 codex_files;
	int		 gemini_files;
	int		 qwen_files;
	int		 pi_files;
	int		 copilot_files;
	int		 opencode_files;
	int		 retry_screen;
	int		 hooks_partial;
	int		 answer_enter;
	int		 dialog_buttons;
	int		 dialog_clock;
	const char	*resume;
};

#define BRAILLE "\xe2[\xa0-\xa3][\x80-\xbf]"	/* U+2800-U+28FF */

static const struct builtin builtins[] = {
	{
		.name = "claude",
		/* Its own resume, the session id as $1 (lisa resume). */
		.resume = "claude --resume \"$1\"",
		.comm = { "claude" },
		.title_busy = "^" BRAILLE,
		.title_idle = "^\xe2\x9c\xb3",			/* ✳ */
		.screen = {
			[0] = "Do you want to proceed\\?|Esc to cancel \xc2\xb7 "
			    "Tab to amend",
			[1] = "Enter to select \xc2\xb7 \xe2\x86\x91/\xe2\x86\x93 "
			    "to navigate",
			[2] = "Yes, I trust this folder|Is this a project you "
			    "created or one you trust",
			[3] = "esc to interrupt",
			/* 2.1.332: "API error · retrying in 1s · attempt 1/3" */
			[4] = "[Rr]etrying in [0-9]+s \xc2\xb7 attempt [0-9]+/[0-9]+",
			[5] = "\xe2\x8e\xbf  Running\xe2\x80\xa6",
			[6] = "API Error:|Invalid API key|Request timed out",
			[7] = "Interrupted \xc2\xb7 What should Claude do instead",
			[8] = "\\? for shortcuts",
			[9] = "Resume this session with:",
			/* An API key's 429; a plan's limit ("resets 3pm"). */
			[11] = "Request rejected \\(429\\)|usage limit reached|"
			    "hit your (usage )?limit|limit reached .*resets",
		},
		.retry_marks = { "Retrying in ", "\xc2\xb7 retrying in " },
		.claude_files = 1,
	},
	{
		.name = "codex",
		.resume = "codex resume \"$1\"",
		.comm = { "codex" },
		.argv = { "codex", "codex.js" },
		.title_busy = "^" BRAILLE,
		.title_idle = ".",
		.title_waiting = "^\\[ [!.] \\] Action Required",
		.screen = {
			[0] = "Would you like to run the following command\\?|"
			    "Press enter to confirm or esc to cancel",
			[1] = "Choose what happens to the current task",
			[2] = "Trust this folder\\?",
			[3] = "esc to interr",
			[4] = "Reconnecting\\.\\.\\. [0-9]+/[0-9]+|Server is busy, "
			    "reconnecting",
			[5] = "\xe2\x80\xa2 Running |background terminal running",
			[6] = "^\xe2\x96\xa0 [^C]",			/* ■ */
			[7] = "\xe2\x96\xa0 Conversation interrupted",
			[8] = "\xe2\x80\xba Ask Codex to do anything",
			[9] = "Disconnected from this task|To continue this "
			    "session, run:",
			[11] = "last status: 429 Too Many Requests|"
			    "hit your usage limit|usage limit reached",
		},
		.retry_marks = { "Reconnecting... ", "reconnecting " },
		.osc7501 = 1,
		.codex_files = 1,
	},
	{
		.name = "gemini",
		.comm = { "gemini" },
		.argv = { "gemini", "gemini.js" },
		.title_busy = "^\xe2\x9c\xa6",			/* ✦ */
		.title_idle = "^\xe2\x97\x87",			/* ◇ */
		.title_waiting = "^\xe2\x9c\x8b",		/* ✋ */
		.screen = {
			[0] = "Allow execution of|Apply this change\\?",
			[2] = "Do you trust the files in this folder\\?",
			[3] = "\\(esc to cancel, ",
			[7] = "Request cancelled\\.",
			[8] = "Type your message or @path/to/file",
			[9] = "To resume this session: gemini --resume",
			/*
			 * 0.61.0's quota dialog, gone once answered; the
			 * error it leaves is read from the chat log, since
			 * its text stays on screen after the next turns.
			 */
			[11] = "Usage limit reached for ",
		},
		.gemini_files = 1,
		/* (its goodbye says so; -r also takes "latest" or a number) */
		.resume = "gemini --resume \"$1\"",
	},
	{
		/*
		 * Qwen Code 0.15.10 (a fork of Gemini CLI): its title never
		 * changes ("Qwen - <dir>"), so its screen tells. Its input
		 * box is drawn while it works too: the spinner row ("esc to
		 * cancel)") says busy; the permission dialog's spinner stands
		 * still, so the pane settles and is read.
		 */
		.name = "qwen",
		.comm = { "qwen" },
		.argv = { "qwen" },
		.screen = {
			[0] = "Allow execution of|Yes, allow once|Waiting for "
			    "user confirmation",
			[2] = "Do you trust (the files in )?this folder",
			[3] = "esc to cancel\\)",
			[6] = "\xe2\x9c\x95 ",			/* ✕ */
			[7] = "Request cancelled\\.",
			[8] = "Type your message or @path/to/file",
			[9] = "To continue this session, run qwen --resume",
		},
		.qwen_files = 1,
		.resume = "qwen --resume \"$1\"",
		/*
		 * Its hooks (Claude's, taken over) say nothing of a refused
		 * permission, and its dialog came with no hook (0.15.10).
		 */
		.hooks_partial = 1,
	},
	{
		.name = "aider",
		.comm = { "aider" },
		.argv = { "aider" },
		.screen = {
			[0] = "\\(Y\\)es/\\(N\\)o",
			[8] = "^[a-z-]*> $",
		},
	},
	{
		/*
		 * OpenCode 1.18.33 (a native Bun binary): its title is
		 * "OpenCode", then "OC | <session title>", whatever it does.
		 * Its bottom row says: "esc interrupt" while it works, with
		 * "[retrying in 3s attempt #2]" while it retries (a 429 too:
		 * it waits out the limit by itself), "ctrl+p commands" at its
		 * prompt. Hooks: the plugin `lisa hooks install opencode`.
		 */
		.name = "opencode",
		.comm = { "opencode" },
		.argv = { "opencode" },
		.screen = {
			[0] = "Permission required|Allow (once|always)",
			[3] = "esc (again to )?interrupt",
			[4] = "\\[retrying (in [0-9]+s )?attempt #[0-9]+\\]",
			[8] = "ctrl\\+p commands",
			[9] = "Continue +opencode -s ses_",
		},
		.retry_marks = { "[retrying " },
		/* Its retry row is replaced when the retry ends. */
		.retry_screen = 1,
		.opencode_files = 1,
		.resume = "opencode -s \"$1\"",
		/* Buttons, the selected one drawn only in colour. */
		.dialog_buttons = 1,
	},
	{
		/*
		 * GitHub Copilot CLI 1.0.102 (npm @github/copilot): a node
		 * wrapper and its native child, whose name is "MainThread":
		 * known by argv. Its title is "<intent> - GitHub Copilot",
		 * whatever it does. Its footer says "Working … esc esc
		 * interrupt" while it works and "/ commands · ? help" at
		 * its prompt. A retry's line stays on screen after it, so
		 * retries are known from the stream only.
		 */
		.name = "copilot",
		.comm = { "copilot" },
		.argv = { "copilot" },
		.screen = {
			[0] = "Do you want to run this command\\?",
			[2] = "Do you trust the files in this folder\\?",
			[3] = "esc esc (interrupt|edit prompt)",
			[6] = "\xe2\x9c\x97 Failed to get response",	/* ✗ */
			[7] = "Operation cancelled by user",
			[8] = "/ commands \xc2\xb7 \\? help",
			[9] = "Resume +copilot --resume=",
		},
		.retry_marks = { "Retrying..." },
		/*
		 * Its hooks say nothing when a permission is refused, a
		 * turn is interrupted or fails on a 4xx (no agentStop).
		 */
		.hooks_partial = 1,
		/* A number moves its dialog's pointer; Enter picks. */
		.answer_enter = 1,
		/*
		 * Its tool's line over the dialog counts the seconds it has
		 * waited ("$ Shell ... 34s"): output while nobody works.
		 */
		.dialog_clock = 1,
		.copilot_files = 1,
		.resume = "copilot --resume=\"$1\"",
	},
	{
		/*
		 * pi 1.6.0 (npm @earendil-works/pi-coding-agent; it names its
		 * process "pi"): its title is "π - <dir>" whatever it does, and
		 * it asks nothing but whether to trust a project's own files.
		 * A row over its input box says "⠼ Working" while it works,
		 * "Retrying (1/3) in 2s" while it retries; its footer
		 * ("0.4%/200k (auto)") is always drawn. Its session file
		 * tells how each turn ended (pi-file.c).
		 */
		.name = "pi",
		.comm = { "pi" },
		.argv = { "pi" },
		.screen = {
			[2] = "Trust project folder\\?",
			[3] = "^\xe2\x94\x80\xe2\x94\x80 " BRAILLE " Working",
			[4] = "^\xe2\x94\x80\xe2\x94\x80 " BRAILLE " Retrying "
			    "\\([0-9]+/[0-9]+\\) in [0-9]+s",
			[5] = "^ Elapsed [0-9]+\\.[0-9]s",
			[7] = "^ Operation aborted",
			[8] = "[0-9]%/[0-9.]+[kM]?( |$)",
			[9] = "^To resume this session:|^pi --session [0-9a-f]",
		},
		.retry_marks = { "Retrying (" },
		.pi_files = 1,
		.resume = "pi --session \"$1\"",
	},
	{
		/*
		 * A `lisa run` of a command that is none of the above: never
		 * matched by a process, given to the pane when its run ends
		 * so that the run's ending shows like an agent's (run-watch.c).
		 */
		.name = "run",
	},
};

static struct agent_profile	**profiles;
static int			  nprofiles;

const char *
agent_hint_name(unsigned bit)
{
	int	i;

	for (i = 0; i < SCREEN_NHINTS; i++) {
		if (bit == (1u << i))
			return (hint_names[i]);
	}
	return ("?");
}

/*
 * glibc's regcomp builds every repetition out: "x?++++..." or nested
 * bounds take gigabytes (found by fuzzing agents.json). Patterns are for
 * short screen and title texts, so refuse what they never need: long
 * patterns, stacked repetitions and large or many bounds.
 */
const char *
agent_pattern_check(const char *pattern)
{
	const char	*s = pattern;
	int		 bracket = 0, bounds = 0, rep = 0;
	long		 n;
	char		*end;

	if (strlen(pattern) > AGENT_MAX_PATTERN)
		return ("longer than 256 bytes");
	for (; *s != '\0'; s++) {
		if (bracket) {
			if (*s == ']' && s[-1] != '[' &&
			    !(s[-1] == '^' && s[-2] == '['))
				bracket = 0;
			continue;
		}
		if (*s == '\\' && s[1] != '\0') {
			s++;
			rep = 0;
			continue;
		}
		if (*s == '[') {
			bracket = 1;
			rep = 0;
			continue;
		}
		if (*s == '*' || *s == '+' || *s == '?' || *s == '{') {
			if (rep)
				return ("stacked repetition");
			rep = 1;
			if (*s != '{')
				continue;
			if (++bounds > 2)
				return ("more than two {bounds}");
			do {
				n = strtol(s + 1, &end, 10);
				if (n > 16)
					return ("a {bound} above 16");
				s = end;
			} while (*s == ',');
			if (*s != '}')
				return ("a bad {bound}");
			continue;
		}
		rep = 0;
	}
	return (NULL);
}

static regex_t *
compile(const char *pattern, const char *agent, char **cause)
{
	regex_t		*re;
	const char	*why;
	char		 err[128];
	int		 rc;

	if (pattern == NULL || *pattern == '\0')
		return (NULL);
	if ((why = agent_pattern_check(pattern)) != NULL) {
		if (cause != NULL && *cause == NULL)
			xasprintf(cause, "agent %s: pattern refused: %s",
			    agent, why);
		return (NULL);
	}
	re = xcalloc(1, sizeof *re);
	rc = regcomp(re, pattern, REG_EXTENDED|REG_NEWLINE|REG_NOSUB);
	if (rc != 0) {
		regerror(rc, re, err, sizeof err);
		if (cause != NULL && *cause == NULL)
			xasprintf(cause, "agent %s: bad pattern \"%s\": %s",
			    agent, pattern, err);
		free(re);
		return (NULL);
	}
	return (re);
}

static void
profile_free(struct agent_profile *p)
{
	int	i;
	regex_t	**res[3] = { &p->title_busy, &p->title_idle, &p->title_waiting };

	free(p->name);
	free(p->resume);
	for (i = 0; i < AGENT_MAX_NAMES; i++) {
		free(p->comm[i]);
		free(p->argv[i]);
	}
	for (i = 0; i < 3; i++)
		free(p->retry_marks[i]);
	for (i = 0; i < 3; i++) {
		if (*res[i] != NULL) {
			regfree(*res[i]);
			free(*res[i]);
		}
	}
	for (i = 0; i < SCREEN_NHINTS; i++) {
		if (p->screen[i] != NULL) {
			regfree(p->screen[i]);
			free(p->screen[i]);
		}
	}
	free(p);
}

static void
profile_add(struct agent_profile *p)
{
	int	i;

	/* A user profile replaces ours of the same name. */
	for (i = 0; i < nprofiles; i++) {
		if (strcmp(profiles[i]->name, p->name) == 0) {
			profile_free(profiles[i]);
			profiles[i] = p;
			return;
		}
	}
	profiles = xreallocarray(profiles, (size_t)nprofiles + 1,
	    sizeof *profiles);
	profiles[nprofiles++] = p;
}

static struct agent_profile *
profile_from_builtin(const struct builtin *b)
{
	struct agent_profile	*p;
	int			 i;

	p = xcalloc(1, sizeof *p);
	p->name = xstrdup(b->name);
	for (i = 0; i < AGENT_MAX_NAMES; i++) {
		if (b->comm[i] != NULL)
			p->comm[i] = xstrdup(b->comm[i]);
		if (b->argv[i] != NULL)
			p->argv[i] = xstrdup(b->argv[i]);
	}
	p->title_busy = compile(b->title_busy, b->name, NULL);
	p->title_idle = compile(b->title_idle, b->name, NULL);
	p->title_waiting = compile(b->title_waiting, b->name, NULL);
	for (i = 0; i < SCREEN_NHINTS; i++)
		p->screen[i] = compile(b->screen[i], b->name, NULL);
	for (i = 0; i < 3; i++) {
		if (b->retry_marks[i] != NULL)
			p->retry_marks[i] = xstrdup(b->retry_marks[i]);
	}
	p->osc7501 = b->osc7501;
	p->claude_files = b->claude_files;
	p->codex_files = b->codex_files;
	p->gemini_files = b->gemini_files;
	p->qwen_files = b->qwen_files;
	p->pi_files = b->pi_files;
	p->copilot_files = b->copilot_files;
	p->opencode_files = b->opencode_files;
	p->retry_screen = b->retry_screen;
	p->hooks_partial = b->hooks_partial;
	p->answer_enter = b->answer_enter;
	p->dialog_buttons = b->dialog_buttons;
	p->dialog_clock = b->dialog_clock;
	p->resume = b->resume != NULL ? xstrdup(b->resume) : NULL;
	return (p);
}

/* Strings of a JSON array into a fixed list. */
static void
user_names(struct json_doc *d, int obj, const char *key, char **out)
{
	int	arr = json_get(d, obj, key), i, n;

	n = json_array_size(d, arr);
	for (i = 0; i < n && i < AGENT_MAX_NAMES; i++)
		json_tok_str(d, json_array_item(d, arr, i), &out[i]);
}

static regex_t *
user_pattern(struct json_doc *d, int obj, const char *key, const char *agent,
    char **cause)
{
	char	*s;
	regex_t	*re;

	if ((s = json_get_str(d, obj, key)) == NULL)
		return (NULL);
	re = compile(s, agent, cause);
	free(s);
	return (re);
}

/*
 * Add the agents of an agents.json text (path names it in errors); -1
 * (and nothing added) if it is bad.
 */
int
agent_parse_user(const char *buf, size_t n, const char *path, char **cause)
{
	struct json_doc		 *d;
	struct agent_profile	 *p, **added = NULL;
	int			  arr, i, j, count, obj, title, screen;

	*cause = NULL;
	if ((d = json_parse(buf, n, cause)) == NULL) {
		char	*c = *cause;

		xasprintf(cause, "%s: %s", path, c);
		free(c);
		return (-1);
	}
	arr = json_get(d, 0, "agents");
	if ((count = json_array_size(d, arr)) < 0) {
		xasprintf(cause, "%s: no \"agents\" array", path);
		json_free(d);
		return (-1);
	}
	added = xcalloc((size_t)count + 1, sizeof *added);
	for (i = 0; i < count; i++) {
		obj = json_array_item(d, arr, i);
		p = xcalloc(1, sizeof *p);
		added[i] = p;
		p->user = 1;
		if ((p->name = json_get_str(d, obj, "name")) == NULL) {
			xasprintf(cause, "%s: agent %d has no name", path, i);
			break;
		}
		user_names(d, obj, "comm", p->comm);
		user_names(d, obj, "argv", p->argv);
		{
			char	*marks[AGENT_MAX_NAMES] = { NULL };
			int	 k;

			user_names(d, obj, "retry_text", marks);
			for (k = 0; k < AGENT_MAX_NAMES; k++) {
				if (k < 3)
					p->retry_marks[k] = marks[k];
				else
					free(marks[k]);
			}
		}
		if (p->comm[0] == NULL && p->argv[0] == NULL) {
			xasprintf(cause, "%s: agent %s has neither comm nor "
			    "argv", path, p->name);
			break;
		}
		json_get_bool(d, obj, "osc7501", &p->osc7501);
		json_get_bool(d, obj, "claude_files", &p->claude_files);
		json_get_bool(d, obj, "codex_files", &p->codex_files);
		json_get_bool(d, obj, "gemini_files", &p->gemini_files);
		json_get_bool(d, obj, "qwen_files", &p->qwen_files);
		json_get_bool(d, obj, "pi_files", &p->pi_files);
		json_get_bool(d, obj, "copilot_files", &p->copilot_files);
		json_get_bool(d, obj, "opencode_files", &p->opencode_files);
		json_get_bool(d, obj, "retry_screen", &p->retry_screen);
		json_get_bool(d, obj, "hooks_partial", &p->hooks_partial);
		json_get_bool(d, obj, "answer_enter", &p->answer_enter);
		json_get_bool(d, obj, "dialog_buttons", &p->dialog_buttons);
		json_get_bool(d, obj, "dialog_clock", &p->dialog_clock);
		p->resume = json_get_str(d, obj, "resume");
		title = json_get(d, obj, "title");
		p->title_busy = user_pattern(d, title, "busy", p->name, cause);
		p->title_idle = user_pattern(d, title, "idle", p->name, cause);
		p->title_waiting = user_pattern(d, title, "waiting", p->name,
		    cause);
		screen = json_get(d, obj, "screen");
		for (j = 0; j < SCREEN_NHINTS; j++)
			p->screen[j] = user_pattern(d, screen, hint_names[j],
			    p->name, cause);
		if (*cause != NULL)
			break;
	}
	json_free(d);
	if (*cause != NULL) {
		for (i = 0; i < count; i++) {
			if (added[i] != NULL)
				profile_free(added[i]);
		}
		free(added);
		return (-1);
	}
	for (i = 0; i < count; i++)
		profile_add(added[i]);
	free(added);
	return (0);
}

/* Read ~/.config/lisa/agents.json, never through a symlink. */
static int
agent_load_user(const char *path, char **cause)
{
	char	buf[256 * 1024];
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_RDONLY|O_NOFOLLOW|O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return (0);
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n < 0 || n == (ssize_t)sizeof buf) {
		xasprintf(cause, "%s: unreadable or too large", path);
		return (-1);
	}
	return (agent_parse_user(buf, (size_t)n, path, cause));
}

char *
agent_config_path(void)
{
	const char	*xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char		*path;

	if (xdg != NULL && *xdg == '/')
		xasprintf(&path, "%s/lisa/agents.json", xdg);
	else
		xasprintf(&path, "%s/.config/lisa/agents.json",
		    home != NULL ? home : "");
	return (path);
}

/*
 * Load the built-in profiles and then the user's file (path NULL: the
 * default place). Returns -1 with *cause if the user file is broken; the
 * built-in profiles are loaded either way.
 */
int
agent_load(const char *path, char **cause)
{
	char	*def = NULL;
	size_t	 i;
	int	 rc;

	agent_free_all();
	for (i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		profile_add(profile_from_builtin(&builtins[i]));
	if (path == NULL)
		path = def = agent_config_path();
	*cause = NULL;
	rc = agent_load_user(path, cause);
	free(def);
	return (rc);
}

void
agent_free_all(void)
{
	int	i;

	for (i = 0; i < nprofiles; i++)
		profile_free(profiles[i]);
	free(profiles);
	profiles = NULL;
	nprofiles = 0;
}

int
agent_count(void)
{
	return (nprofiles);
}

const struct agent_profile *
agent_by_name(const char *name)
{
	int	i;

	for (i = 0; i < nprofiles; i++) {
		if (strcmp(profiles[i]->name, name) == 0)
			return (profiles[i]);
	}
	return (NULL);
}

static const char *
base_name(const char *s)
{
	const char	*slash = strrchr(s, '/');

	return (slash != NULL ? slash + 1 : s);
}

/*
 * Which agent, if any, is this process: by its name, or (for agents that
 * run under an interpreter, like node) by a basename among its first
 * arguments.
 */
const struct agent_profile *
agent_match(const char *comm, char **argv, int argc)
{
	int	i, j, k;

	for (i = 0; i < nprofiles; i++) {
		for (j = 0; j < AGENT_MAX_NAMES && profiles[i]->comm[j]; j++) {
			if (strcmp(comm, profiles[i]->comm[j]) == 0)
				return (profiles[i]);
		}
	}
	for (k = 0; k < argc && k < 4; k++) {
		for (i = 0; i < nprofiles; i++) {
			for (j = 0; j < AGENT_MAX_NAMES &&
			    profiles[i]->argv[j] != NULL; j++) {
				if (strcmp(base_name(argv[k]),
				    profiles[i]->argv[j]) == 0)
					return (profiles[i]);
			}
		}
	}
	return (NULL);
}

/*
 * Which word of a matched process's argv names the agent's program: a
 * script's path after its interpreter (node .../gemini), else argv[0].
 */
int
agent_argv_word(const struct agent_profile *p, char **argv, int argc)
{
	int	j, k;

	for (k = 0; k < argc && k < 4; k++) {
		for (j = 0; j < AGENT_MAX_NAMES; j++) {
			if ((p->argv[j] != NULL &&
			    strcmp(base_name(argv[k]), p->argv[j]) == 0) ||
			    (p->comm[j] != NULL &&
			    strcmp(base_name(argv[k]), p->comm[j]) == 0))
				return (k);
		}
	}
	return (0);
}

enum title_class
agent_title(const struct agent_profile *p, const char *title)
{
	if (p == NULL || title == NULL)
		return (TITLE_UNKNOWN);
	if (p->title_waiting != NULL &&
	    regexec(p->title_waiting, title, 0, NULL, 0) == 0)
		return (TITLE_WAITING);
	if (p->title_busy != NULL &&
	    regexec(p->title_busy, title, 0, NULL, 0) == 0)
		return (TITLE_BUSY);
	if (p->title_idle != NULL &&
	    regexec(p->title_idle, title, 0, NULL, 0) == 0)
		return (TITLE_IDLE);
	return (TITLE_UNKNOWN);
}

/* Which hints a screen shows; *sig gets the signal a shell reported. */
unsigned
agent_screen(const struct agent_profile *p, const char *text, int *sig)
{
	unsigned	hints = 0;
	size_t		i;

	*sig = -1;
	for (i = 0; p != NULL && i < SCREEN_NHINTS; i++) {
		if (p->screen[i] != NULL &&
		    regexec(p->screen[i], text, 0, NULL, 0) == 0)
			hints |= 1u << i;
	}
	if ((*sig = agent_shell_death(text)) != -1)
		hints |= SCREEN_KILLED;
	return (hints);
}

/*
 * Is S an id an agent names a conversation by (a UUID, OpenCode's
 * ses_...)? What lisa resume records and passes on, and nothing else.
 */
int
agent_id_ok(const char *s)
{
	size_t	n = strlen(s);

	return (n >= 8 && n < 64 && strspn(s, "0123456789abcdefghijklmnop"
	    "qrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_") == n);
}

/* Is S a model's name (printed as it is: never a terminal's escape)? */
int
agent_model_ok(const char *s)
{
	size_t	n = strlen(s);

	return (n >= 1 && n < 64 && strspn(s, "0123456789abcdefghijklmnop"
	    "qrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._:/@-") == n);
}
