/*
 * Token usage as agents record it. Claude Code's transcript has one line
 * per content block of each assistant message, each with the message's
 * id, model and the API's usage (input_tokens, output_tokens,
 * cache_creation_input_tokens, cache_read_input_tokens); the context in
 * use is that request's whole input: new, cache written and cache read.
 * The transcript does not say the window; the model's id does, through
 * what Claude Code itself knows of its models (its model table in the
 * pinned 2.1.332: 1M for these, 200k for the others), the user's
 * @lisa-context-windows, or a [1m] suffix; a context past the window
 * means the long one.
 * Gemini CLI's chat log and Codex's rollout are read the same way
 * (usage_gemini_line, usage_codex_line).
 * Pure functions over untrusted text, unit-tested and fuzzed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "usage.h"

/*
 * The models Claude Code 2.1.332 gives a 1M window (its model table,
 * context.window); every other Claude model has 200k. Prefixes: a
 * model's dated or later minor ids share its window.
 */
static const struct {
	const char	*prefix;
	long long	 window;
} usage_windows[] = {
	{ "claude-opus-4-7", USAGE_CLAUDE_WINDOW_1M },
	{ "claude-opus-4-8", USAGE_CLAUDE_WINDOW_1M },
	{ "claude-opus-5", USAGE_CLAUDE_WINDOW_1M },
	{ "claude-sonnet-5", USAGE_CLAUDE_WINDOW_1M },
	{ "claude-haiku-5", USAGE_CLAUDE_WINDOW_1M },
	{ "claude-fable-5", USAGE_CLAUDE_WINDOW_1M },
	{ "claude-mythos-5", USAGE_CLAUDE_WINDOW_1M },
	/*
	 * Gemini CLI 0.61.0's tokenLimit(): 1048576 for every model but
	 * Gemma 4's (256000).
	 */
	{ "gemini-", USAGE_GEMINI_WINDOW },
	{ "gemma-", USAGE_GEMINI_WINDOW },
	{ "gemma-4-31b-it", 256000 },
	{ "gemma-4-26b-a4b-it", 256000 },
	/* Qwen Code 0.15.10's table, for its own models. */
	{ "qwen3-coder-plus", USAGE_CLAUDE_WINDOW_1M },
	{ "qwen3-coder-flash", USAGE_CLAUDE_WINDOW_1M },
	{ "qwen3.", USAGE_CLAUDE_WINDOW_1M },
	{ "coder-model", USAGE_CLAUDE_WINDOW_1M },
	{ "qwen3-max", 262144 },
	{ "qwen3-coder-", 262144 },
	{ "qwen", 262144 },
};

static const char *usage_part_names[USAGE_NPARTS] = {
	"input", "output", "cache_read", "cache_write"
};

void
usage_init(struct usage *u)
{
	memset(u, 0, sizeof *u);
}

const char *
usage_part_name(enum usage_part part)
{
	return (usage_part_names[part]);
}

/*
 * Percent of the window in use, -1 if not known: as the agent itself shows
 * it. With a baseline (Codex), of what is left once the baseline is taken
 * from both, as Codex's "N% left" is made: its remainder cut to a whole
 * percent, the used part the rest (62,610 of 258,400: 79% left, 21 used).
 */
int
usage_percent(const struct usage *u)
{
	long long	pct, eff, used;

	if (!u->known || u->window <= 0)
		return (-1);
	if (u->baseline > 0) {
		if (u->window <= u->baseline)
			return (100);
		eff = u->window - u->baseline;
		used = u->context > u->baseline ? u->context - u->baseline : 0;
		if (used > eff)
			used = eff;
		return (100 - (int)((eff - used) * 100 / eff));
	}
	pct = (u->context * 100 + u->window / 2) / u->window;
	return (pct > 999 ? 999 : (int)pct);
}

/* A count the API could have sent: not negative, not absurd. */
static int
usage_count(struct json_doc *d, int obj, const char *key, long long *v)
{
	*v = 0;
	if (json_get(d, obj, key) == -1)
		return (0);	/* absent: none of that kind */
	if (json_get_int(d, obj, key, v) != 0 || *v < 0 ||
	    *v > 1000000000000LL)
		return (-1);
	return (0);
}

/*
 * A message's counts: the same message again (by id) replaces its older
 * ones, so each is counted once, at its newest.
 */
static void
usage_add(struct usage *u, const char *id, long long v[USAGE_NPARTS])
{
	int	i;

	if (id == NULL || *id == '\0' || strcmp(id, u->last_id) != 0)
		memset(u->last, 0, sizeof u->last);
	for (i = 0; i < USAGE_NPARTS; i++) {
		u->total[i] += v[i] - u->last[i];
		u->last[i] = v[i];
	}
	snprintf(u->last_id, sizeof u->last_id, "%s", id != NULL ? id : "");
	u->known = 1;
}

/*
 * One transcript line. Returns 1 if it changed u (an assistant message
 * with usage), 0 if it was not one, -1 if it claimed to be but made no
 * sense (left out).
 */
int
usage_claude_line(struct usage *u, const char *line, size_t len)
{
	struct json_doc	*d;
	char		*type = NULL, *id = NULL, *model = NULL, *cause = NULL;
	long long	 v[USAGE_NPARTS];
	int		 msg, us, err = 0, side = 0, rc = 0;

	/* Most lines are not assistant messages: no parse for them. */
	if (memmem(line, len, "\"usage\"", 7) == NULL ||
	    memmem(line, len, "\"assistant\"", 11) == NULL)
		return (0);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	type = json_get_str(d, 0, "type");
	json_get_bool(d, 0, "isApiErrorMessage", &err);
	json_get_bool(d, 0, "isSidechain", &side);
	if (type == NULL || strcmp(type, "assistant") != 0 || err || side)
		goto out;
	if ((msg = json_get(d, 0, "message")) == -1 ||
	    (us = json_get(d, msg, "usage")) == -1 ||
	    json_type(d, us) != JSON_T_OBJECT) {
		rc = -1;
		goto out;
	}
	if (usage_count(d, us, "input_tokens", &v[USAGE_INPUT]) != 0 ||
	    usage_count(d, us, "output_tokens", &v[USAGE_OUTPUT]) != 0 ||
	    usage_count(d, us, "cache_read_input_tokens",
	    &v[USAGE_CACHE_READ]) != 0 ||
	    usage_count(d, us, "cache_creation_input_tokens",
	    &v[USAGE_CACHE_WRITE]) != 0) {
		rc = -1;
		goto out;
	}
	id = json_get_str(d, msg, "id");
	model = json_get_str(d, msg, "model");
	/* Claude's own notes (an interrupt, an error) used nothing. */
	if (model != NULL && strcmp(model, "<synthetic>") == 0)
		goto out;
	usage_add(u, id, v);
	snprintf(u->model, sizeof u->model, "%s", model != NULL ? model : "");
	u->context = v[USAGE_INPUT] + v[USAGE_CACHE_READ] +
	    v[USAGE_CACHE_WRITE];
	rc = 1;
out:
	free(type);
	free(id);
	free(model);
	json_free(d);
	return (rc);
}

/*
 * Gemini's usageMetadata, as Gemini CLI and Qwen Code (its fork) write it
 * to their chat logs, each with its own names: the prompt (cached tokens
 * included), the cached part, the answer, the thinking.
 */
struct usage_shape {
	const char	*type, *qtype;	/* the record's type (quoted) */
	const char	*obj, *qobj;	/* the object with the counts */
	const char	*id;
	const char	*in, *cached, *out, *thoughts;
	int		 absent_ok;	/* no counts yet is not an error */
	long long	 fallback;	/* the agent's window, unknown model */
};

static const struct usage_shape usage_gemini = {
	"gemini", "\"gemini\"", "tokens", "\"tokens\"", "id",
	"input", "cached", "output", "thoughts", 1, 0
};
static const struct usage_shape usage_qwen = {
	"assistant", "\"assistant\"", "usageMetadata", "\"usageMetadata\"",
	"uuid", "promptTokenCount", "cachedContentTokenCount",
	"candidatesTokenCount", "thoughtsTokenCount", 0, USAGE_QWEN_WINDOW
};

/*
 * Qwen Code's window for a model it does not know, by the version each
 * record names: 131072 up to 0.15.10, 200000 from 0.21.2 on (the next
 * published; 0.24.4 too). No version: the old one.
 */
static long long
usage_qwen_window(struct json_doc *d)
{
	char	*version = json_get_str(d, 0, "version");
	long	 major = 0, minor = 0;
	int	 new;

	if (version != NULL)
		sscanf(version, "%ld.%ld", &major, &minor);
	free(version);
	new = major > 0 || minor >= 21;
	return (new ? USAGE_QWEN_WINDOW_NEW : USAGE_QWEN_WINDOW);
}

static int
usage_shaped_line(struct usage *u, const struct usage_shape *sh,
    const char *line, size_t len)
{
	struct json_doc	*d;
	char		*type = NULL, *id = NULL, *model = NULL, *cause = NULL;
	long long	 v[USAGE_NPARTS], in, cached, thoughts;
	int		 obj, rc = 0;

	if (memmem(line, len, sh->qobj, strlen(sh->qobj)) == NULL ||
	    memmem(line, len, sh->qtype, strlen(sh->qtype)) == NULL)
		return (0);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	type = json_get_str(d, 0, "type");
	if (type == NULL || strcmp(type, sh->type) != 0)
		goto out;
	obj = json_get(d, 0, sh->obj);
	if (sh->absent_ok && (obj == -1 || json_type(d, obj) != JSON_T_OBJECT))
		goto out;	/* Gemini's tokens: null, until the usage */
	rc = -1;
	if (obj == -1 || json_type(d, obj) != JSON_T_OBJECT ||
	    usage_count(d, obj, sh->in, &in) != 0 ||
	    usage_count(d, obj, sh->cached, &cached) != 0 || cached > in ||
	    usage_count(d, obj, sh->out, &v[USAGE_OUTPUT]) != 0 ||
	    usage_count(d, obj, sh->thoughts, &thoughts) != 0)
		goto out;
	v[USAGE_INPUT] = in - cached;	/* Claude's sense: not from a cache */
	v[USAGE_CACHE_READ] = cached;
	v[USAGE_CACHE_WRITE] = 0;
	v[USAGE_OUTPUT] += thoughts;	/* thinking is output, billed so */
	id = json_get_str(d, 0, sh->id);
	model = json_get_str(d, 0, "model");
	usage_add(u, id, v);
	if (model != NULL)
		snprintf(u->model, sizeof u->model, "%s", model);
	u->context = in;	/* the prompt: what "context left" divides */
	u->fallback = sh->fallback;
	if (sh->fallback == USAGE_QWEN_WINDOW)
		u->fallback = usage_qwen_window(d);
	rc = 1;
out:
	free(type);
	free(id);
	free(model);
	json_free(d);
	return (rc);
}

/*
 * One message's usage as an agent's hook told it (lisa's OpenCode plugin:
 * the counts of an assistant message once it completed, and the window
 * OpenCode itself gives the model, if it said): obj holds id, model,
 * input (not from a cache), output (thinking included), cache_read,
 * cache_write, window. Same returns as usage_claude_line.
 */
int
usage_hook(struct usage *u, struct json_doc *d, int obj)
{
	char		*id, *model;
	long long	 v[USAGE_NPARTS], window;

	if (obj == -1 || json_type(d, obj) != JSON_T_OBJECT)
		return (-1);
	if (usage_count(d, obj, "input", &v[USAGE_INPUT]) != 0 ||
	    usage_count(d, obj, "output", &v[USAGE_OUTPUT]) != 0 ||
	    usage_count(d, obj, "cache_read", &v[USAGE_CACHE_READ]) != 0 ||
	    usage_count(d, obj, "cache_write", &v[USAGE_CACHE_WRITE]) != 0 ||
	    usage_count(d, obj, "window", &window) != 0)
		return (-1);
	id = json_get_str(d, obj, "id");
	model = json_get_str(d, obj, "model");
	usage_add(u, id, v);
	snprintf(u->model, sizeof u->model, "%s", model != NULL ? model : "");
	u->context = v[USAGE_INPUT] + v[USAGE_CACHE_READ] +
	    v[USAGE_CACHE_WRITE];
	/* The agent's own window; without it, none is guessed. */
	u->window_given = window > 0;
	u->window = window;
	u->fallback = USAGE_NO_WINDOW;
	free(id);
	free(model);
	return (1);
}

/*
 * One line of Gemini CLI's chat log ($GEMINI_CLI_HOME or ~, then
 * .gemini/tmp/<project>/chats/session-*.jsonl): a "gemini" record's
 * tokens {input, output, cached, thoughts, tool, total} and model. Gemini
 * appends a message again with the same id when its tokens come: the
 * newest counts, once. Same returns as usage_claude_line.
 */
int
usage_gemini_line(struct usage *u, const char *line, size_t len)
{
	return (usage_shaped_line(u, &usage_gemini, line, len));
}

/*
 * One line of Qwen Code's chat log ($QWEN_RUNTIME_DIR, $QWEN_HOME or
 * ~/.qwen, then projects/<cwd, every non-alphanumeric byte a '-'>/chats/
 * <session>.jsonl; 0.15.10, 0.24.4): an "assistant" record's usageMetadata in
 * Gemini's names, one record per message (uuid). Same returns.
 */
int
usage_qwen_line(struct usage *u, const char *line, size_t len)
{
	return (usage_shaped_line(u, &usage_qwen, line, len));
}

/*
 * One line of a pi session file (pi-file.c): a "message" record whose
 * message is the model's, with usage {input (not from a cache), output,
 * cacheRead, cacheWrite}. A failed try's counts are all 0: it used
 * nothing, and says nothing of the context. The window is pi's own (its
 * models.json, agent-files-gemini.c) or lisa's table's; none is guessed
 * for a model neither knows. Same returns as usage_claude_line.
 */
int
usage_pi_line(struct usage *u, const char *line, size_t len)
{
	struct json_doc	*d;
	char		*type = NULL, *role = NULL, *id = NULL, *model = NULL;
	char		*cause = NULL;
	long long	 v[USAGE_NPARTS];
	int		 m, us, rc = 0;

	if (memmem(line, len, "\"usage\"", 7) == NULL ||
	    memmem(line, len, "\"assistant\"", 11) == NULL)
		return (0);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	type = json_get_str(d, 0, "type");
	if (type == NULL || strcmp(type, "message") != 0 ||
	    (m = json_get(d, 0, "message")) == -1 ||
	    json_type(d, m) != JSON_T_OBJECT ||
	    (role = json_get_str(d, m, "role")) == NULL ||
	    strcmp(role, "assistant") != 0)
		goto out;
	rc = -1;
	if ((us = json_get(d, m, "usage")) == -1 ||
	    json_type(d, us) != JSON_T_OBJECT ||
	    usage_count(d, us, "input", &v[USAGE_INPUT]) != 0 ||
	    usage_count(d, us, "output", &v[USAGE_OUTPUT]) != 0 ||
	    usage_count(d, us, "cacheRead", &v[USAGE_CACHE_READ]) != 0 ||
	    usage_count(d, us, "cacheWrite", &v[USAGE_CACHE_WRITE]) != 0)
		goto out;
	rc = 0;
	if (v[USAGE_INPUT] + v[USAGE_OUTPUT] + v[USAGE_CACHE_READ] +
	    v[USAGE_CACHE_WRITE] == 0)
		goto out;
	id = json_get_str(d, 0, "id");
	model = json_get_str(d, m, "model");
	usage_add(u, id, v);
	snprintf(u->model, sizeof u->model, "%s", model != NULL ? model : "");
	u->context = v[USAGE_INPUT] + v[USAGE_CACHE_READ] +
	    v[USAGE_CACHE_WRITE];
	u->fallback = USAGE_NO_WINDOW;
	rc = 1;
out:
	free(type);
	free(role);
	free(id);
	free(model);
	json_free(d);
	return (rc);
}

/*
 * One word of @lisa-context-windows, P to END: "PREFIX=TOKENS" gives the
 * prefix's length and the tokens (0), anything else -1 (ignored, and
 * said so: options.c).
 */
int
usage_window_word(const char *p, const char *end, size_t *n, long long *v)
{
	const char	*eq;
	char		*stop;

	if ((eq = memchr(p, '=', (size_t)(end - p))) == NULL || eq == p)
		return (-1);
	*v = strtoll(eq + 1, &stop, 10);
	if (stop != end || *v <= 0)
		return (-1);
	*n = (size_t)(eq - p);
	return (0);
}

/*
 * The window of a model: the longest prefix in user ("PREFIX=TOKENS ...",
 * from @lisa-context-windows), else in what we know, else Claude's
 * standard 200k; a [1m] suffix is the long window.
 */
static long long
usage_window(const char *model, const char *user, long long fallback)
{
	const char	*p, *end;
	long long	 window, v;
	size_t		 best = 0, n, i;

	if (fallback == USAGE_NO_WINDOW)
		window = 0;
	else
		window = fallback > 0 ? fallback : USAGE_CLAUDE_WINDOW;
	if (strstr(model, "[1m]") != NULL)
		return (USAGE_CLAUDE_WINDOW_1M);
	for (i = 0; i < sizeof usage_windows / sizeof usage_windows[0]; i++) {
		n = strlen(usage_windows[i].prefix);
		if (n > best && strncmp(model, usage_windows[i].prefix, n) == 0) {
			best = n;
			window = usage_windows[i].window;
		}
	}
	for (p = user; p != NULL && *p != '\0'; p = end) {
		p += strspn(p, " ");
		end = p + strcspn(p, " ");
		if (p == end || usage_window_word(p, end, &n, &v) != 0)
			continue;	/* not PREFIX=TOKENS: ignored */
		if (n >= best && strncmp(model, p, n) == 0) {
			best = n;
			window = v;
		}
	}
	return (window);
}

long long
usage_model_window(const char *model, const char *user)
{
	return (usage_window(model, user, 0));
}

/*
 * One line of Codex's rollout ($CODEX_HOME/sessions/Y/M/D/rollout-*.jsonl).
 * Its event_msg token_count carries the session's totals
 * (total_token_usage, which replace ours: Codex counts them itself), the
 * last request's (last_token_usage: what it sent and got back is what the
 * context now holds) and the model's window (model_context_window). One
 * with "info": null only reports rate limits. Same returns as
 * usage_claude_line.
 */
int
usage_codex_line(struct usage *u, const char *line, size_t len)
{
	struct json_doc	*d;
	char		*type = NULL, *ptype = NULL, *cause = NULL;
	long long	 v[USAGE_NPARTS], cached, in, out, total, window;
	long long	 reasoning;
	int		 pl, info, tot, last, rc = 0;

	if (memmem(line, len, "\"token_count\"", 13) == NULL)
		return (0);
	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	type = json_get_str(d, 0, "type");
	if (type == NULL || strcmp(type, "event_msg") != 0 ||
	    (pl = json_get(d, 0, "payload")) == -1 ||
	    (ptype = json_get_str(d, pl, "type")) == NULL ||
	    strcmp(ptype, "token_count") != 0 ||
	    (info = json_get(d, pl, "info")) == -1 ||
	    json_type(d, info) != JSON_T_OBJECT)
		goto out;
	rc = -1;
	if ((tot = json_get(d, info, "total_token_usage")) == -1 ||
	    json_type(d, tot) != JSON_T_OBJECT ||
	    (last = json_get(d, info, "last_token_usage")) == -1 ||
	    json_type(d, last) != JSON_T_OBJECT)
		goto out;
	if (usage_count(d, tot, "input_tokens", &v[USAGE_INPUT]) != 0 ||
	    usage_count(d, tot, "cached_input_tokens", &cached) != 0 ||
	    cached > v[USAGE_INPUT] ||
	    usage_count(d, tot, "output_tokens", &v[USAGE_OUTPUT]) != 0 ||
	    usage_count(d, tot, "cache_write_input_tokens",
	    &v[USAGE_CACHE_WRITE]) != 0 ||
	    usage_count(d, last, "input_tokens", &in) != 0 ||
	    usage_count(d, last, "output_tokens", &out) != 0 ||
	    usage_count(d, last, "total_tokens", &total) != 0 ||
	    usage_count(d, last, "reasoning_output_tokens", &reasoning) != 0 ||
	    usage_count(d, info, "model_context_window", &window) != 0)
		goto out;
	v[USAGE_INPUT] -= cached;	/* Claude's sense: not from a cache */
	v[USAGE_CACHE_READ] = cached;
	memcpy(u->total, v, sizeof u->total);
	u->context = total > 0 ? total : in + out;
	/* Its earlier turns' reasoning is dropped from the window (Codex's
	 * own estimate, tokens_in_context_window). */
	u->context = u->context > reasoning ? u->context - reasoning : 0;
	u->baseline = USAGE_CODEX_BASELINE;
	if (window > 0) {
		u->window = window;
		u->window_given = 1;
	}
	u->known = 1;
	rc = 1;
out:
	free(type);
	free(ptype);
	json_free(d);
	return (rc);
}

/*
 * A rollout's first line, session_meta: the directory the thread works in
 * (payload.cwd), which is how lisa knows whose a new rollout is. 0 if cwd
 * was found (and fits).
 */
int
usage_codex_meta(const char *line, size_t len, char *cwd, size_t cwdlen)
{
	struct json_doc	*d;
	char		*type = NULL, *dir = NULL, *cause = NULL;
	int		 pl, rc = -1;

	if ((d = json_parse(line, len, &cause)) == NULL) {
		free(cause);
		return (-1);
	}
	type = json_get_str(d, 0, "type");
	if (type != NULL && strcmp(type, "session_meta") == 0 &&
	    (pl = json_get(d, 0, "payload")) != -1 &&
	    (dir = json_get_str(d, pl, "cwd")) != NULL && *dir == '/' &&
	    strlen(dir) < cwdlen) {
		strlcpy(cwd, dir, cwdlen);
		rc = 0;
	}
	free(type);
	free(dir);
	json_free(d);
	return (rc);
}

/*
 * The window for the last message's model; a context past it is long.
 * A window the agent wrote itself (Codex) stands.
 */
void
usage_set_window(struct usage *u, const char *user)
{
	long long	w;

	if (u->window_given)
		return;
	w = usage_window(u->model, user, u->fallback);

	/* Claude's long window is told by the context alone. */
	if (u->fallback == 0 && u->context > w && w < USAGE_CLAUDE_WINDOW_1M)
		w = USAGE_CLAUDE_WINDOW_1M;
	u->window = w;
}
