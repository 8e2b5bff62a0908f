/*
 * Red-black trees behind the RB_* macros lisa uses. The system's
 * <sys/tree.h> where it has one (the BSDs; libbsd on Linux); else lisa's
 * own (macOS and musl have none): a plain C red-black tree
 * (compat-tree.c) that typed functions, generated as sys/tree.h's are,
 * call with the entry's offset and a comparison. make OWN_TREE=1 takes
 * lisa's own everywhere.
 */
#ifndef LISA_TREE_H
#define LISA_TREE_H

#include <stddef.h>
#include <stdint.h>

#if !defined(LISA_OWN_TREE) && defined(__has_include)
#if __has_include(<sys/tree.h>)
#include <sys/tree.h>
#define LISA_SYSTEM_TREE 1
#endif
#endif

/* The generic tree, always built: its unit test runs everywhere. */
struct lisa_rbnode {
	struct lisa_rbnode	*rbn_left;
	struct lisa_rbnode	*rbn_right;
	struct lisa_rbnode	*rbn_parent;
	int			 rbn_red;
};
typedef int (*lisa_rbcmp)(const void *, const void *);
void		*lisa_rb_insert(struct lisa_rbnode **, struct lisa_rbnode *,
		    size_t, lisa_rbcmp);
void		 lisa_rb_remove(struct lisa_rbnode **, struct lisa_rbnode *);
void		*lisa_rb_find(struct lisa_rbnode *, const void *, size_t,
		    lisa_rbcmp);
struct lisa_rbnode *lisa_rb_min(struct lisa_rbnode *);
struct lisa_rbnode *lisa_rb_next(struct lisa_rbnode *);
int		 lisa_rb_check(struct lisa_rbnode *, size_t, lisa_rbcmp);

#ifndef LISA_SYSTEM_TREE

#define RB_HEAD(name, type)						\
struct name {								\
	struct lisa_rbnode	*rbh_root;				\
}
#define RB_INITIALIZER(head)	{ NULL }
#define RB_INIT(head)		do { (head)->rbh_root = NULL; } while (0)
#define RB_EMPTY(head)		((head)->rbh_root == NULL)
#define RB_ENTRY(type)		struct lisa_rbnode

/* The element an entry is in, or NULL. */
#define LISA_RB_ELM(type, field, n)					\
	((n) == NULL ? NULL :						\
	    (struct type *)(void *)((char *)(n) - offsetof(struct type, field)))

#define RB_PROTOTYPE(name, type, field, cmp)				\
	LISA_RB_PROTOTYPE(name, type, field, cmp, )
#define RB_PROTOTYPE_STATIC(name, type, field, cmp)			\
	LISA_RB_PROTOTYPE(name, type, field, cmp, static)
#define LISA_RB_PROTOTYPE(name, type, field, cmp, attr)			\
attr struct type *name##_RB_INSERT(struct name *, struct type *);	\
attr struct type *name##_RB_REMOVE(struct name *, struct type *);	\
attr struct type *name##_RB_FIND(struct name *, struct type *);	\
attr struct type *name##_RB_MIN(struct name *);				\
attr struct type *name##_RB_NEXT(struct type *);

#define RB_GENERATE(name, type, field, cmp)				\
	LISA_RB_GENERATE(name, type, field, cmp, )
#define RB_GENERATE_STATIC(name, type, field, cmp)			\
	LISA_RB_GENERATE(name, type, field, cmp, static __unused)
#define LISA_RB_GENERATE(name, type, field, cmp, attr)			\
static int								\
name##_RB_CMPV(const void *a, const void *b)				\
{									\
	return (cmp((struct type *)(uintptr_t)a,			\
	    (struct type *)(uintptr_t)b));				\
}									\
attr struct type *							\
name##_RB_INSERT(struct name *head, struct type *elm)			\
{									\
	return (lisa_rb_insert(&head->rbh_root, &elm->field,		\
	    offsetof(struct type, field), name##_RB_CMPV));		\
}									\
attr struct type *							\
name##_RB_REMOVE(struct name *head, struct type *elm)			\
{									\
	lisa_rb_remove(&head->rbh_root, &elm->field);			\
	return (elm);							\
}									\
attr struct type *							\
name##_RB_FIND(struct name *head, struct type *elm)			\
{									\
	return (lisa_rb_find(head->rbh_root, elm,			\
	    offsetof(struct type, field), name##_RB_CMPV));		\
}									\
attr struct type *							\
name##_RB_MIN(struct name *head)					\
{									\
	return (LISA_RB_ELM(type, field, lisa_rb_min(head->rbh_root)));	\
}									\
attr struct type *							\
name##_RB_NEXT(struct type *elm)					\
{									\
	return (LISA_RB_ELM(type, field, lisa_rb_next(&elm->field)));	\
}

#define RB_INSERT(name, head, elm)	name##_RB_INSERT(head, elm)
#define RB_REMOVE(name, head, elm)	name##_RB_REMOVE(head, elm)
#define RB_FIND(name, head, elm)	name##_RB_FIND(head, elm)
#define RB_MIN(name, head)		name##_RB_MIN(head)
#define RB_NEXT(name, head, elm)	name##_RB_NEXT(elm)
#define RB_FOREACH(x, name, head)					\
	for ((x) = RB_MIN(name, head); (x) != NULL;			\
	    (x) = name##_RB_NEXT(x))
#define RB_FOREACH_SAFE(x, name, head, y)				\
	for ((x) = RB_MIN(name, head);					\
	    (x) != NULL && ((y) = name##_RB_NEXT(x), 1);		\
	    (x) = (y))

#endif /* !LISA_SYSTEM_TREE */

#endif
