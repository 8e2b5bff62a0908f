/*
 * The agent profiles: the built-in ones (agent-builtin.c) compiled, and a
 * user's agents.json over them. A user file that does not parse is
 * reported and ignored: the built-in profiles stay.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shared.h"
#include "agent.h"
#include "agent-int.h"

/* Hint names, in bit order, as used in agents.json and in signals. */
static const char *hint_names[SCREEN_NHINTS] = {
	"permission", "question", "trust", "busy", "retrying", "tool",
	"error", "interrupted", "prompt", "exited", "killed", "limit"
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
	free(p->opencode_dir);
	free(p->reject_form);
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
	p->cline_files = b->cline_files;
	p->copilot_files = b->copilot_files;
	p->opencode_files = b->opencode_files;
	if (b->opencode_dir != NULL)
		p->opencode_dir = xstrdup(b->opencode_dir);
	p->retry_screen = b->retry_screen;
	p->hooks_partial = b->hooks_partial;
	p->answer_enter = b->answer_enter;
	p->dialog_buttons = b->dialog_buttons;
	p->dialog_clock = b->dialog_clock;
	p->dialog_spinner = b->dialog_spinner;
	p->dialog_list = b->dialog_list;
	p->error_screen = b->error_screen;
	p->resume = b->resume != NULL ? xstrdup(b->resume) : NULL;
	if (b->reject_form != NULL)
		p->reject_form = xstrdup(b->reject_form);
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
		json_get_bool(d, obj, "cline_files", &p->cline_files);
		json_get_bool(d, obj, "copilot_files", &p->copilot_files);
		json_get_bool(d, obj, "opencode_files", &p->opencode_files);
		p->opencode_dir = json_get_str(d, obj, "opencode_dir");
		/* One directory's name under the user's data directory. */
		if (p->opencode_dir != NULL && (p->opencode_dir[0] == '\0' ||
		    p->opencode_dir[0] == '.' ||
		    strchr(p->opencode_dir, '/') != NULL)) {
			xasprintf(cause, "%s: agent %s: opencode_dir is not a "
			    "directory's name", path, p->name);
			break;
		}
		json_get_bool(d, obj, "retry_screen", &p->retry_screen);
		json_get_bool(d, obj, "hooks_partial", &p->hooks_partial);
		json_get_bool(d, obj, "answer_enter", &p->answer_enter);
		json_get_bool(d, obj, "dialog_buttons", &p->dialog_buttons);
		json_get_bool(d, obj, "dialog_clock", &p->dialog_clock);
		json_get_bool(d, obj, "dialog_spinner", &p->dialog_spinner);
		json_get_bool(d, obj, "dialog_list", &p->dialog_list);
		json_get_bool(d, obj, "error_screen", &p->error_screen);
		p->resume = json_get_str(d, obj, "resume");
		p->reject_form = json_get_str(d, obj, "reject_form");
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
	for (i = 0; i < agent_nbuiltins; i++)
		profile_add(profile_from_builtin(&agent_builtins[i]));
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
 * Whether argument ARG names NAME: its basename, or, for a NAME with a
 * '/' ("qwen-code/cli.js": a script too common a name alone), the end of
 * its path.
 */
static int
agent_arg_is(const char *arg, const char *name)
{
	size_t	alen, nlen;

	if (strchr(name, '/') == NULL)
		return (strcmp(base_name(arg), name) == 0);
	alen = strlen(arg);
	nlen = strlen(name);
	if (alen < nlen || strcmp(arg + alen - nlen, name) != 0)
		return (0);
	return (alen == nlen || arg[alen - nlen - 1] == '/');
}

/*
 * Which agent, if any, is this process: by its name, or (for agents that
 * run under an interpreter, like node) by a basename (or a path's end)
 * among its first arguments.
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
				if (agent_arg_is(argv[k],
				    profiles[i]->argv[j]))
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
			    agent_arg_is(argv[k], p->argv[j])) ||
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
