/*
 * Token usage from Claude Code's transcript lines: a message written once
 * per content block counts once, the context is the last request's whole
 * input, and lines that are not usage, or make no sense, change nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "usage.h"

#define MSG(id, model, in, out, cr, cw) \
	"{\"type\":\"assistant\",\"message\":{\"id\":\"" id "\",\"model\":\"" \
	model "\",\"role\":\"assistant\",\"usage\":{\"input_tokens\":" #in \
	",\"output_tokens\":" #out ",\"cache_read_input_tokens\":" #cr \
	",\"cache_creation_input_tokens\":" #cw "}}}"

static int
feed(struct usage *u, const char *line)
{
	return (usage_claude_line(u, line, strlen(line)));
}

static void
test_totals_and_context(void **state)
{
	struct usage	u;

	usage_init(&u);
	assert_int_equal(usage_percent(&u), -1);
	assert_int_equal(feed(&u, MSG("m1", "claude-x", 10, 5, 1000, 200)), 1);
	/* The same message's second block, with its final output count. */
	assert_int_equal(feed(&u, MSG("m1", "claude-x", 10, 50, 1000, 200)), 1);
	assert_int_equal(feed(&u, MSG("m2", "claude-x", 3, 7, 1210, 60)), 1);
	assert_int_equal(u.total[USAGE_INPUT], 13);
	assert_int_equal(u.total[USAGE_OUTPUT], 57);
	assert_int_equal(u.total[USAGE_CACHE_READ], 2210);
	assert_int_equal(u.total[USAGE_CACHE_WRITE], 260);
	assert_int_equal(u.context, 3 + 1210 + 60);
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_CLAUDE_WINDOW);
	assert_int_equal(usage_percent(&u), 1);	/* 1273 of 200k, rounded */
	assert_int_equal(feed(&u, MSG("m3", "claude-x", 1, 1, 125999, 0)), 1);
	assert_int_equal(usage_percent(&u), 63);
	/* Claude's own note after an interrupt used nothing. */
	assert_int_equal(feed(&u, MSG("m4", "<synthetic>", 0, 0, 0, 0)), 0);
	assert_int_equal(usage_percent(&u), 63);
}

static void
test_window(void **state)
{
	struct usage	u;

	usage_init(&u);
	feed(&u, MSG("a", "claude-x", 1, 1, 0, 0));
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_CLAUDE_WINDOW);
	feed(&u, MSG("b", "claude-sonnet[1m]", 1, 1, 0, 0));
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_CLAUDE_WINDOW_1M);
	/* What Claude Code 2.1.197 knows: 1M for Opus 4.8. */
	feed(&u, MSG("c", "claude-opus-4-8", 1, 1, 500000, 0));
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_CLAUDE_WINDOW_1M);
	assert_int_equal(usage_percent(&u), 50);
	/* Past 200k on a model we do not know: the long window. */
	feed(&u, MSG("d", "claude-x", 250000, 1, 0, 0));
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_CLAUDE_WINDOW_1M);
	/* The user's word wins; what is not PREFIX=TOKENS is ignored. */
	feed(&u, MSG("e", "claude-x-2", 1000, 1, 0, 0));
	usage_set_window(&u, "junk =5 claude-x=abc claude-=9x claude-x=128000");
	assert_int_equal(u.window, 128000);
	assert_int_equal(usage_model_window("claude-opus-4-8-2026", "claude-opus=64000"),
	    USAGE_CLAUDE_WINDOW_1M);	/* a longer prefix of ours */
	assert_int_equal(usage_model_window("claude-opus-4-8", "claude-opus-4-8=64000"),
	    64000);
	assert_int_equal(usage_model_window("", NULL), USAGE_CLAUDE_WINDOW);
	/* Claude Code 2.1.332's default, and its neighbours. */
	assert_int_equal(usage_model_window("claude-opus-5-5", NULL),
	    USAGE_CLAUDE_WINDOW_1M);
	assert_int_equal(usage_model_window("claude-haiku-5-5", NULL),
	    USAGE_CLAUDE_WINDOW_1M);
	assert_int_equal(usage_model_window("claude-haiku-4-5-20251001", NULL),
	    USAGE_CLAUDE_WINDOW);
	assert_int_equal(usage_model_window("claude-opus-4-6", NULL),
	    USAGE_CLAUDE_WINDOW);
}

static void
test_not_usage(void **state)
{
	static const char *lines[] = {
		"{\"type\":\"user\",\"message\":{\"content\":\"usage\"}}",
		"{\"type\":\"assistant\",\"isApiErrorMessage\":true,"
		    "\"message\":{\"usage\":{\"input_tokens\":9}}}",
		"{\"type\":\"assistant\",\"isSidechain\":true,"
		    "\"message\":{\"usage\":{\"input_tokens\":9}}}",
		"{\"type\":\"system\",\"content\":\"\\\"assistant\\\" \\\"usage\\\"\"}",
		"",
	};
	static const char *bad[] = {
		"{\"type\":\"assistant\",\"message\":{\"usage\":7}}",
		"{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":-4}}}",
		"{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":\"9\"}}}",
		("{\"type\":\"assistant\",\"message\":{\"usage\":{\"output_tokens\":"
		    "99999999999999999}}}"),
		"{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tok",
	};
	struct usage	u;
	size_t		i;

	usage_init(&u);
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
		assert_int_equal(feed(&u, lines[i]), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (feed(&u, bad[i]) != -1)
			fail_msg("bad %zu taken: %s", i, bad[i]);
	}
	assert_int_equal(u.known, 0);
	assert_int_equal(u.total[USAGE_INPUT], 0);
}

/* Codex 0.169.0's token_count, as its rollout has it (shortened). */
#define CX(tin, tcached, tout, lin, lout, ltotal, window) \
	"{\"timestamp\":\"2026-11-25T16:57:26.420Z\",\"type\":\"event_msg\"," \
	"\"payload\":{\"type\":\"token_count\",\"info\":{\"total_token_usage\":" \
	"{\"input_tokens\":" #tin ",\"cached_input_tokens\":" #tcached \
	",\"cache_write_input_tokens\":0,\"output_tokens\":" #tout \
	",\"reasoning_output_tokens\":0,\"total_tokens\":1},\"last_token_usage\":" \
	"{\"input_tokens\":" #lin ",\"cached_input_tokens\":0,\"output_tokens\":" \
	#lout ",\"total_tokens\":" #ltotal "},\"model_context_window\":" \
	#window "},\"rate_limits\":{\"primary\":null}}}"

static int
feed_cx(struct usage *u, const char *line)
{
	return (usage_codex_line(u, line, strlen(line)));
}

static void
test_codex(void **state)
{
	struct usage	u;
	char		cwd[64];
	const char	*meta = "{\"type\":\"session_meta\",\"payload\":{\"id\":"
	    "\"01a2\",\"cwd\":\"/home/me/work\",\"originator\":\"codex-tui\"}}";

	usage_init(&u);
	assert_int_equal(feed_cx(&u, CX(150000, 149000, 20, 150000, 20, 150020,
	    258400)), 1);
	/* Totals are Codex's own; input is what no cache held. */
	assert_int_equal(u.total[USAGE_INPUT], 1000);
	assert_int_equal(u.total[USAGE_CACHE_READ], 149000);
	assert_int_equal(u.total[USAGE_OUTPUT], 20);
	assert_int_equal(u.context, 150020);
	assert_int_equal(u.window, 258400);
	/* As Codex's /status: its 12k baseline out of both (43% left). */
	assert_int_equal(usage_percent(&u), 57);
	/* Its window is not replaced by Claude's table or the user's. */
	usage_set_window(&u, "=1000");
	assert_int_equal(u.window, 258400);
	/* The next turn: totals replace, not add. */
	assert_int_equal(feed_cx(&u, CX(300000, 290000, 60, 150100, 40, 150140,
	    258400)), 1);
	assert_int_equal(u.total[USAGE_INPUT], 10000);
	assert_int_equal(u.total[USAGE_OUTPUT], 60);
	assert_int_equal(u.context, 150140);
	/* The figure a user compared: "79% left (62.6K used / 258K)". */
	assert_int_equal(feed_cx(&u, CX(300000, 290000, 60, 62000, 610, 62610,
	    258400)), 1);
	assert_int_equal(usage_percent(&u), 21);
	/* At the baseline or under: none of it used; a tiny window: full. */
	assert_int_equal(feed_cx(&u, CX(300000, 290000, 60, 11000, 10, 11010,
	    258400)), 1);
	assert_int_equal(usage_percent(&u), 0);
	assert_int_equal(feed_cx(&u, CX(300000, 290000, 60, 100, 10, 110,
	    12000)), 1);
	assert_int_equal(usage_percent(&u), 100);
	assert_int_equal(feed_cx(&u, CX(300000, 290000, 60, 150100, 40, 150140,
	    258400)), 1);
	/* Rate limits only, other records, nonsense: nothing changes. */
	assert_int_equal(feed_cx(&u, "{\"type\":\"event_msg\",\"payload\":{"
	    "\"type\":\"token_count\",\"info\":null,\"rate_limits\":{}}}"), 0);
	assert_int_equal(feed_cx(&u, "{\"type\":\"event_msg\",\"payload\":{"
	    "\"type\":\"task_complete\"}}"), 0);
	assert_int_equal(feed_cx(&u, CX(10, 20, 1, 1, 1, 2, 100)), -1);
	assert_int_equal(feed_cx(&u, CX(-5, 0, 1, 1, 1, 2, 100)), -1);
	assert_int_equal(feed_cx(&u, "{\"type\":\"token_count\""), -1);
	assert_int_equal(u.context, 150140);

	assert_int_equal(usage_codex_meta(meta, strlen(meta), cwd, sizeof cwd),
	    0);
	assert_string_equal(cwd, "/home/me/work");
	assert_int_equal(usage_codex_meta(meta, strlen(meta), cwd, 5), -1);
	assert_int_equal(usage_codex_meta("{\"type\":\"event_msg\"}", 20, cwd,
	    sizeof cwd), -1);
}

/* As Gemini CLI 0.61.0 wrote them (content shortened). */
#define GM(id, in, cached, out, thoughts) \
	"{\"id\":\"" id "\",\"timestamp\":\"2026-11-25T20:07:46.019Z\"," \
	"\"type\":\"gemini\",\"content\":\"Mock answer.\",\"thoughts\":[]," \
	"\"tokens\":{\"input\":" #in ",\"output\":" #out ",\"cached\":" \
	#cached ",\"thoughts\":" #thoughts ",\"tool\":0,\"total\":1}," \
	"\"model\":\"gemini-3.8-flash\"}"

static int
feed_gm(struct usage *u, const char *line)
{
	return (usage_gemini_line(u, line, strlen(line)));
}

static void
test_gemini(void **state)
{
	struct usage	u;

	usage_init(&u);
	/* An answer without its usage yet, then the same with it. */
	assert_int_equal(feed_gm(&u, "{\"id\":\"a\",\"type\":\"gemini\","
	    "\"content\":\"x\",\"tokens\":null,\"model\":\"gemini-3.8-flash\"}"),
	    0);
	assert_false(u.known);
	assert_int_equal(feed_gm(&u, GM("a", 150000, 0, 20, 0)), 1);
	assert_true(u.known);
	assert_int_equal(u.context, 150000);
	assert_int_equal(u.total[USAGE_INPUT], 150000);
	assert_int_equal(u.total[USAGE_OUTPUT], 20);
	/* The same message again: counted once, its newest usage. */
	assert_int_equal(feed_gm(&u, GM("a", 150000, 0, 30, 0)), 1);
	assert_int_equal(u.total[USAGE_OUTPUT], 30);
	/* The next one: cached prompt tokens and thinking. */
	assert_int_equal(feed_gm(&u, GM("b", 200000, 150000, 10, 5)), 1);
	assert_int_equal(u.context, 200000);
	assert_int_equal(u.total[USAGE_INPUT], 200000);
	assert_int_equal(u.total[USAGE_CACHE_READ], 150000);
	assert_int_equal(u.total[USAGE_OUTPUT], 45);
	assert_string_equal(u.model, "gemini-3.8-flash");
	usage_set_window(&u, "");
	assert_int_equal(u.window, USAGE_GEMINI_WINDOW);
	assert_int_equal(usage_percent(&u), 19);
	/* Gemma 4 has a smaller one; the user's word wins. */
	snprintf(u.model, sizeof u.model, "gemma-4-31b-it");
	usage_set_window(&u, "");
	assert_int_equal(u.window, 256000);
	usage_set_window(&u, "gemma-4-31b-it=400000");
	assert_int_equal(u.window, 400000);

	/* Nonsense is left out; other records are not usage. */
	assert_int_equal(feed_gm(&u, GM("c", 10, 20, 1, 0)), -1);
	assert_int_equal(feed_gm(&u, GM("c", -1, 0, 1, 0)), -1);
	assert_int_equal(feed_gm(&u, "{\"type\":\"gemini\",\"tokens\":"), -1);
	assert_int_equal(feed_gm(&u, "{\"type\":\"user\",\"content\":"
	    "\"\\\"gemini\\\" \\\"tokens\\\"\"}"), 0);
	assert_int_equal(u.context, 200000);
}

/* As Qwen Code 0.15.10 wrote it (shortened). */
#define QW(id, model, in, cached, out) \
	"{\"uuid\":\"" id "\",\"sessionId\":\"525d\",\"type\":\"assistant\"," \
	"\"cwd\":\"/tmp/qw/work\",\"version\":\"0.15.10\",\"model\":\"" model \
	"\",\"message\":{\"role\":\"model\",\"parts\":[{\"text\":\"Done.\"}]}," \
	"\"usageMetadata\":{\"promptTokenCount\":" #in ",\"candidatesTokenCount\":" \
	#out ",\"thoughtsTokenCount\":0,\"totalTokenCount\":1," \
	"\"cachedContentTokenCount\":" #cached "}}"

static void
test_qwen(void **state)
{
	struct usage	u;
	const char	*line;

	usage_init(&u);
	line = QW("a", "mock-model", 100000, 1000, 20);
	assert_int_equal(usage_qwen_line(&u, line, strlen(line)), 1);
	line = QW("b", "mock-model", 120000, 100000, 30);
	assert_int_equal(usage_qwen_line(&u, line, strlen(line)), 1);
	assert_int_equal(u.context, 120000);
	assert_int_equal(u.total[USAGE_INPUT], 99000 + 20000);
	assert_int_equal(u.total[USAGE_CACHE_READ], 101000);
	assert_int_equal(u.total[USAGE_OUTPUT], 50);
	/* A model Qwen does not know has its 128k, never Claude's rules. */
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_QWEN_WINDOW);
	assert_int_equal(usage_percent(&u), 92);
	line = QW("c", "mock-model", 200000, 0, 1);
	assert_int_equal(usage_qwen_line(&u, line, strlen(line)), 1);
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_QWEN_WINDOW);
	line = QW("d", "qwen3-coder-plus", 200000, 0, 1);
	assert_int_equal(usage_qwen_line(&u, line, strlen(line)), 1);
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_CLAUDE_WINDOW_1M);
	/* Nonsense is left out; a user line is not usage. */
	line = QW("e", "m", 10, 20, 1);
	assert_int_equal(usage_qwen_line(&u, line, strlen(line)), -1);
	line = "{\"type\":\"user\",\"x\":\"\\\"usageMetadata\\\" \\\"assistant\\\"\"}";
	assert_int_equal(usage_qwen_line(&u, line, strlen(line)), 0);
}

/* Qwen Code 0.24.4 (its line as 0.15.10's, its version newer): 200k. */
static void
test_qwen_new_window(void **state)
{
	struct usage	u;
	const char	*line;

	(void)state;
	usage_init(&u);
	line = "{\"uuid\":\"a\",\"sessionId\":\"6c66\",\"type\":\"assistant\","
	    "\"cwd\":\"/w\",\"version\":\"0.24.4\",\"model\":\"mock-model\","
	    "\"usageMetadata\":{\"promptTokenCount\":150000,"
	    "\"candidatesTokenCount\":20,\"thoughtsTokenCount\":0,"
	    "\"totalTokenCount\":150020,\"cachedContentTokenCount\":0}}";
	assert_int_equal(usage_qwen_line(&u, line, strlen(line)), 1);
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_QWEN_WINDOW_NEW);
	assert_int_equal(usage_percent(&u), 75);
	/* 0.15.10's record after it (a resumed log): its own window again. */
	line = QW("b", "mock-model", 100000, 0, 20);
	assert_int_equal(usage_qwen_line(&u, line, strlen(line)), 1);
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, USAGE_QWEN_WINDOW);
}

/* A hook's usage (lisa's OpenCode plugin): its window or none guessed. */
static int
hook(struct usage *u, const char *json)
{
	struct json_doc	*d;
	char		*cause = NULL;
	int		 rc;

	if ((d = json_parse(json, strlen(json), &cause)) == NULL) {
		free(cause);
		return (-2);
	}
	rc = usage_hook(u, d, json_get(d, 0, "usage"));
	json_free(d);
	return (rc);
}

static void
test_hook(void **state)
{
	struct usage	u;

	usage_init(&u);
	assert_int_equal(hook(&u, "{\"usage\":{\"id\":\"m1\",\"model\":\"gpt-x\","
	    "\"input\":900,\"output\":20,\"cache_read\":100,\"cache_write\":0,"
	    "\"window\":2000}}"), 1);
	usage_set_window(&u, NULL);
	assert_int_equal(u.context, 1000);
	assert_int_equal(u.window, 2000);
	assert_int_equal(usage_percent(&u), 50);
	/* No window from OpenCode: none, unless the user names the model. */
	assert_int_equal(hook(&u, "{\"usage\":{\"id\":\"m2\",\"model\":\"gpt-x\","
	    "\"input\":10,\"output\":1}}"), 1);
	usage_set_window(&u, NULL);
	assert_int_equal(u.window, 0);
	assert_int_equal(usage_percent(&u), -1);
	assert_int_equal(u.total[USAGE_INPUT], 910);
	usage_set_window(&u, "gpt=400");
	assert_int_equal(u.window, 400);
	/* Nonsense changes nothing. */
	assert_int_equal(hook(&u, "{\"usage\":{\"input\":-5}}"), -1);
	assert_int_equal(hook(&u, "{\"usage\":[1]}"), -1);
	assert_int_equal(hook(&u, "{}"), -1);
	assert_int_equal(u.total[USAGE_INPUT], 910);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals_and_context),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_not_usage),
		cmocka_unit_test(test_codex),
		cmocka_unit_test(test_gemini),
		cmocka_unit_test(test_qwen),
		cmocka_unit_test(test_qwen_new_window),
		cmocka_unit_test(test_hook),
	};

	return (cmocka_run_group_tests_name("usage", tests, NULL, NULL));
}
