/*
 * What an agent says it has used: tokens over its session and how full
 * its context window is, read from the files it writes (usage.c). Never
 * estimated, never priced.
 */
#ifndef LISA_USAGE_H
#define LISA_USAGE_H

#include <stddef.h>

#define USAGE_CLAUDE_WINDOW	200000LL	/* Claude's standard window */
#define USAGE_CLAUDE_WINDOW_1M	1000000LL	/* its long-context one */
#define USAGE_GEMINI_WINDOW	1048576LL	/* Gemini CLI's default limit */
#define USAGE_QWEN_WINDOW	131072LL	/* Qwen Code's, for a model it
						   does not know (0.15) */
#define USAGE_QWEN_WINDOW_NEW	200000LL	/* ... since 0.21 */
#define USAGE_NO_WINDOW		-1LL		/* fallback: none, if not known */

enum usage_part { USAGE_INPUT, USAGE_OUTPUT, USAGE_CACHE_READ,
    USAGE_CACHE_WRITE, USAGE_NPARTS };

struct usage {
	int		 known;		/* some usage was read */
	long long	 total[USAGE_NPARTS];	/* over the session */
	long long	 context;	/* the last request's whole input */
	long long	 window;	/* its context window, 0 if unknown */
	int		 window_given;	/* by the agent itself (Codex) */
	/* Claude writes a message once per content block: count it once. */
	char		 last_id[64];
	long long	 last[USAGE_NPARTS];
	char		 model[64];	/* the last message's */
	long long	 fallback;	/* the agent's window for a model
					   nobody knows (0: Claude's,
					   USAGE_NO_WINDOW: unknown) */
	long long	 baseline;	/* always in the window, and left out
					   of the agent's own figure (Codex:
					   prompts, tools, room to compact) */
};

#define USAGE_CODEX_BASELINE	12000LL	/* codex-rs BASELINE_TOKENS */

void	usage_init(struct usage *);
int	usage_claude_line(struct usage *, const char *, size_t);
int	usage_codex_line(struct usage *, const char *, size_t);
int	usage_codex_meta(const char *, size_t, char *, size_t);
int	usage_gemini_line(struct usage *, const char *, size_t);
int	usage_qwen_line(struct usage *, const char *, size_t);
int	usage_pi_line(struct usage *, const char *, size_t);
struct json_doc;
int	usage_hook(struct usage *, struct json_doc *, int);
long long usage_model_window(const char *, const char *);
int	usage_window_word(const char *, const char *, size_t *, long long *);
void	usage_set_window(struct usage *, const char *);
int	usage_percent(const struct usage *);
const char *usage_part_name(enum usage_part);

#endif
