/*
 * What a waiting agent asks, as data (question.c): the kind, the tool and
 * what it would run or touch (every line of it), the question and its
 * options as the agent drew them, and a fingerprint of the whole dialog,
 * so that an answer can be refused when the dialog on screen is not the
 * one the user saw. Pure: read from screen text, unit-tested on the real
 * agents' screens. The words a person answers with and the keys that
 * pick an option are question-key.c's.
 */
#ifndef LISA_QUESTION_H
#define LISA_QUESTION_H

#include <stddef.h>

#include "sha256.h"

#define QUESTION_MAX_OPTIONS	8

struct question {
	char	 kind[16];	/* permission, question, trust, choice */
	char	 tool[32];	/* "Bash", or "" */
	char	*subject;	/* every line of the command, file or URL
				   ("\n" between), or ""; owned */
	int	 subject_lines;
	char	*hook_subject;	/* the hook's, where it says more; or NULL */
	char	 text[256];	/* "Do you want to proceed?" */
	char	 options[QUESTION_MAX_OPTIONS][96];	/* "1. Yes", ... */
	int	 noptions;
	int	 selected;	/* the option the pointer is on, or -1 */
	int	 lines;		/* the dialog's lines, all fingerprinted */
	int	 top_seen;	/* its first line is in the text read */
	char	 source[8];	/* "screen" or "hook" */
	char	 fingerprint[SHA256_HEX];
};

/* question.c */
int	 question_from_screen(const char *, const char *, struct question *);
void	 question_add_hook(struct question *, const char *, const char *);
void	 question_free(struct question *);
void	 question_move(struct question *, struct question *);
void	 question_first_line(const char *, char *, size_t);
const char *question_find(const char *, size_t, const char *);

/* question-key.c */
int	 question_option_key(const struct question *, const char *, char *,
	     size_t);
int	 question_selected_sgr(const char *, const struct question *);
int	 question_detail(const char *);
const char *question_choice(const char *);
void	 question_asks(const char *, const char *, const char *, char *,
	     size_t);

#endif
