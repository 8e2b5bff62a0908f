/*
 * Tail queues behind the TAILQ_* macros lisa uses. The system's
 * <sys/queue.h> where it has one (the BSDs, macOS, glibc; libbsd's on
 * Linux), with any macro it lacks added (glibc has no _SAFE walk); musl
 * has none, so all of them are lisa's own: a doubly linked list whose
 * entries hold the next element and the address of the pointer to
 * themselves, so that removal needs no walk. make OWN_TREE=1 takes
 * lisa's own everywhere.
 */
#ifndef LISA_QUEUE_H
#define LISA_QUEUE_H

#if !defined(LISA_OWN_TREE) && defined(__has_include)
#if __has_include(<sys/queue.h>)
#include <sys/queue.h>
#endif
#endif

#ifndef TAILQ_HEAD
#define TAILQ_HEAD(name, type)						\
struct name {								\
	struct type	*tqh_first;					\
	struct type	**tqh_last;					\
}
#define TAILQ_HEAD_INITIALIZER(head)	{ NULL, &(head).tqh_first }
#define TAILQ_ENTRY(type)						\
struct {								\
	struct type	*tqe_next;					\
	struct type	**tqe_prev;					\
}
#define TAILQ_FIRST(head)		((head)->tqh_first)
#define TAILQ_NEXT(elm, field)		((elm)->field.tqe_next)
#define TAILQ_EMPTY(head)		(TAILQ_FIRST(head) == NULL)
#define TAILQ_INIT(head) do {						\
	(head)->tqh_first = NULL;					\
	(head)->tqh_last = &(head)->tqh_first;				\
} while (0)
#define TAILQ_INSERT_TAIL(head, elm, field) do {			\
	(elm)->field.tqe_next = NULL;					\
	(elm)->field.tqe_prev = (head)->tqh_last;			\
	*(head)->tqh_last = (elm);					\
	(head)->tqh_last = &(elm)->field.tqe_next;			\
} while (0)
#define TAILQ_INSERT_HEAD(head, elm, field) do {			\
	if (((elm)->field.tqe_next = (head)->tqh_first) != NULL)	\
		(head)->tqh_first->field.tqe_prev =			\
		    &(elm)->field.tqe_next;				\
	else								\
		(head)->tqh_last = &(elm)->field.tqe_next;		\
	(head)->tqh_first = (elm);					\
	(elm)->field.tqe_prev = &(head)->tqh_first;			\
} while (0)
#define TAILQ_REMOVE(head, elm, field) do {				\
	if ((elm)->field.tqe_next != NULL)				\
		(elm)->field.tqe_next->field.tqe_prev =			\
		    (elm)->field.tqe_prev;				\
	else								\
		(head)->tqh_last = (elm)->field.tqe_prev;		\
	*(elm)->field.tqe_prev = (elm)->field.tqe_next;			\
} while (0)
#define TAILQ_FOREACH(var, head, field)					\
	for ((var) = TAILQ_FIRST(head); (var) != NULL;			\
	    (var) = TAILQ_NEXT(var, field))
#endif

#ifndef TAILQ_FOREACH_SAFE
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)			\
	for ((var) = TAILQ_FIRST(head);					\
	    (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1);	\
	    (var) = (tvar))
#endif

#endif
