/*
 * What question.c and question-list.c share: a screen's lines as a
 * dialog's parser sees them, and the helpers both read them with.
 */
#ifndef LISA_QUESTION_INT_H
#define LISA_QUESTION_INT_H

#include <stddef.h>

#include "question.h"

enum qrule { QRULE_NONE, QRULE_SOLID, QRULE_DASHED };

struct qline {
	const char	*raw;	/* the line as drawn, ... */
	size_t		 rawn;	/* ... without blanks at its end */
	const char	*s;	/* without the frame and the spaces around */
	size_t		 n;
	int		 indent;
	enum qrule	 rule;	/* a line of ─ (a dialog's top), of ╌ */
};

/* question.c */
int	 question_option(const struct qline *, const char **, size_t *,
	     int *);
void	 question_copy(char *, size_t, const char *, size_t);
void	 question_subject(struct question *, struct qline *, int, int,
	     size_t);
int	 question_asking(struct qline *, int, int);
int	 question_dollar(const struct qline *);

/* question-list.c */
int	 question_keyed(struct qline *, int, struct question *);
int	 question_from_keyed(struct qline *, int, struct question *);
int	 question_buttons(struct qline *, int, struct question *);
int	 question_from_buttons(struct qline *, int, struct question *);
int	 question_list_item(const struct qline *, const char **, size_t *,
	     int *);
int	 question_list(struct qline *, int, struct question *, int *);
int	 question_from_list(struct qline *, int, int, struct question *);

#endif
