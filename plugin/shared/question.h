/*
 * What a waiting agent asks, as data (question.c): the kind, the tool and
 * what it would run or touch, the question and its options as the agent
 * drew them, and a fingerprint of that dialog, so that an answer can be
 * refused when the dialog on screen is not the one the user saw. Pure:
 * read from screen text, unit-tested on the real agents' screens.
 */
#ifndef LISA_QUESTION_H
#define LISA_QUESTION_H

#define QUESTION_MAX_OPTIONS	8

struct question {
	char	 kind[16];	/* permission, question, trust, choice */
	char	 tool[32];	/* "Bash", or "" */
	char	 subject[256];	/* the command, file or URL, or "" */
	char	 text[256];	/* "Do you want to proceed?" */
	char	 options[QUESTION_MAX_OPTIONS][96];	/* "1. Yes", ... */
	int	 noptions;
	int	 selected;	/* the option the pointer is on, or -1 */
	char	 source[8];	/* "screen" or "hook" */
	char	 fingerprint[13];	/* 12 hex digits */
};

int	 question_from_screen(const char *, const char *, struct question *);
void	 question_fingerprint(struct question *);
int	 question_option_key(const struct question *, const char *, char *,
	     size_t);
int	 question_selected_sgr(const char *, const struct question *);
int	 question_detail(const char *);
int	 question_is_choice(const char *);
void	 question_asks(const char *, const char *, const char *, char *,
	     size_t);

#endif
