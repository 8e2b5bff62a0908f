/*
 * A red-black tree for lisa-tree.h: nodes embedded in the caller's
 * elements (an offset finds the element), NULL children as the black
 * leaves, parent links for walking in order. Insert and remove keep the
 * two rules: a red node has no red child, and every path down to a leaf
 * meets as many black nodes; so the height stays within twice log2(n).
 */
#include <stddef.h>

#include "lisa-tree.h"

#define ELM(n, off)	((void *)((char *)(n) - (off)))
#define RED(n)		((n) != NULL && (n)->rbn_red)

static void
rb_rotate_left(struct lisa_rbnode **root, struct lisa_rbnode *x)
{
	struct lisa_rbnode	*y = x->rbn_right;

	x->rbn_right = y->rbn_left;
	if (y->rbn_left != NULL)
		y->rbn_left->rbn_parent = x;
	y->rbn_parent = x->rbn_parent;
	if (x->rbn_parent == NULL)
		*root = y;
	else if (x == x->rbn_parent->rbn_left)
		x->rbn_parent->rbn_left = y;
	else
		x->rbn_parent->rbn_right = y;
	y->rbn_left = x;
	x->rbn_parent = y;
}

static void
rb_rotate_right(struct lisa_rbnode **root, struct lisa_rbnode *x)
{
	struct lisa_rbnode	*y = x->rbn_left;

	x->rbn_left = y->rbn_right;
	if (y->rbn_right != NULL)
		y->rbn_right->rbn_parent = x;
	y->rbn_parent = x->rbn_parent;
	if (x->rbn_parent == NULL)
		*root = y;
	else if (x == x->rbn_parent->rbn_right)
		x->rbn_parent->rbn_right = y;
	else
		x->rbn_parent->rbn_left = y;
	y->rbn_right = x;
	x->rbn_parent = y;
}

/* Insert n; if an equal element is there already, return it instead. */
void *
lisa_rb_insert(struct lisa_rbnode **root, struct lisa_rbnode *n, size_t off,
    lisa_rbcmp cmp)
{
	struct lisa_rbnode	*parent = NULL, *p = *root, *g, *u;
	int			 c = 0;

	while (p != NULL) {
		parent = p;
		c = cmp(ELM(n, off), ELM(p, off));
		if (c < 0)
			p = p->rbn_left;
		else if (c > 0)
			p = p->rbn_right;
		else
			return (ELM(p, off));
	}
	n->rbn_parent = parent;
	n->rbn_left = n->rbn_right = NULL;
	n->rbn_red = 1;
	if (parent == NULL)
		*root = n;
	else if (c < 0)
		parent->rbn_left = n;
	else
		parent->rbn_right = n;

	/* A red under a red: recolour up, or rotate once or twice. */
	while ((p = n->rbn_parent) != NULL && p->rbn_red) {
		g = p->rbn_parent;	/* p is red: not the root */
		if (p == g->rbn_left) {
			u = g->rbn_right;
			if (RED(u)) {
				p->rbn_red = u->rbn_red = 0;
				g->rbn_red = 1;
				n = g;
				continue;
			}
			if (n == p->rbn_right) {
				rb_rotate_left(root, p);
				n = p;
				p = n->rbn_parent;
			}
			p->rbn_red = 0;
			g->rbn_red = 1;
			rb_rotate_right(root, g);
		} else {
			u = g->rbn_left;
			if (RED(u)) {
				p->rbn_red = u->rbn_red = 0;
				g->rbn_red = 1;
				n = g;
				continue;
			}
			if (n == p->rbn_left) {
				rb_rotate_right(root, p);
				n = p;
				p = n->rbn_parent;
			}
			p->rbn_red = 0;
			g->rbn_red = 1;
			rb_rotate_left(root, g);
		}
	}
	(*root)->rbn_red = 0;
	return (NULL);
}

/* v takes u's place under u's parent. */
static void
rb_replace(struct lisa_rbnode **root, struct lisa_rbnode *u,
    struct lisa_rbnode *v)
{
	if (u->rbn_parent == NULL)
		*root = v;
	else if (u == u->rbn_parent->rbn_left)
		u->rbn_parent->rbn_left = v;
	else
		u->rbn_parent->rbn_right = v;
	if (v != NULL)
		v->rbn_parent = u->rbn_parent;
}

/*
 * A black node left its path: x (maybe a NULL leaf, under parent) counts
 * one black short. Borrow from the sibling's side, or push the shortfall
 * up.
 */
static void
rb_remove_fix(struct lisa_rbnode **root, struct lisa_rbnode *x,
    struct lisa_rbnode *parent)
{
	struct lisa_rbnode	*w;

	while (x != *root && !RED(x)) {
		if (x == parent->rbn_left) {
			w = parent->rbn_right;
			if (RED(w)) {
				w->rbn_red = 0;
				parent->rbn_red = 1;
				rb_rotate_left(root, parent);
				w = parent->rbn_right;
			}
			if (!RED(w->rbn_left) && !RED(w->rbn_right)) {
				w->rbn_red = 1;
				x = parent;
				parent = x->rbn_parent;
				continue;
			}
			if (!RED(w->rbn_right)) {
				w->rbn_left->rbn_red = 0;
				w->rbn_red = 1;
				rb_rotate_right(root, w);
				w = parent->rbn_right;
			}
			w->rbn_red = parent->rbn_red;
			parent->rbn_red = 0;
			w->rbn_right->rbn_red = 0;
			rb_rotate_left(root, parent);
		} else {
			w = parent->rbn_left;
			if (RED(w)) {
				w->rbn_red = 0;
				parent->rbn_red = 1;
				rb_rotate_right(root, parent);
				w = parent->rbn_left;
			}
			if (!RED(w->rbn_left) && !RED(w->rbn_right)) {
				w->rbn_red = 1;
				x = parent;
				parent = x->rbn_parent;
				continue;
			}
			if (!RED(w->rbn_left)) {
				w->rbn_right->rbn_red = 0;
				w->rbn_red = 1;
				rb_rotate_left(root, w);
				w = parent->rbn_left;
			}
			w->rbn_red = parent->rbn_red;
			parent->rbn_red = 0;
			w->rbn_left->rbn_red = 0;
			rb_rotate_right(root, parent);
		}
		x = *root;
		break;
	}
	if (x != NULL)
		x->rbn_red = 0;
}

void
lisa_rb_remove(struct lisa_rbnode **root, struct lisa_rbnode *z)
{
	struct lisa_rbnode	*y, *x, *parent;
	int			 was_red;

	if (z->rbn_left == NULL || z->rbn_right == NULL) {
		/* At most one child: it takes z's place. */
		x = z->rbn_left != NULL ? z->rbn_left : z->rbn_right;
		parent = z->rbn_parent;
		was_red = z->rbn_red;
		rb_replace(root, z, x);
	} else {
		/* Two: z's successor (no left child) takes its place. */
		y = lisa_rb_min(z->rbn_right);
		was_red = y->rbn_red;
		x = y->rbn_right;
		if (y->rbn_parent == z)
			parent = y;
		else {
			parent = y->rbn_parent;
			rb_replace(root, y, x);
			y->rbn_right = z->rbn_right;
			y->rbn_right->rbn_parent = y;
		}
		rb_replace(root, z, y);
		y->rbn_left = z->rbn_left;
		y->rbn_left->rbn_parent = y;
		y->rbn_red = z->rbn_red;
	}
	if (!was_red)
		rb_remove_fix(root, x, parent);
	z->rbn_left = z->rbn_right = z->rbn_parent = NULL;
}

void *
lisa_rb_find(struct lisa_rbnode *p, const void *key, size_t off,
    lisa_rbcmp cmp)
{
	int	c;

	while (p != NULL) {
		if ((c = cmp(key, ELM(p, off))) < 0)
			p = p->rbn_left;
		else if (c > 0)
			p = p->rbn_right;
		else
			return (ELM(p, off));
	}
	return (NULL);
}

struct lisa_rbnode *
lisa_rb_min(struct lisa_rbnode *p)
{
	if (p == NULL)
		return (NULL);
	while (p->rbn_left != NULL)
		p = p->rbn_left;
	return (p);
}

/* In order: the leftmost of the right subtree, else the first parent
 * this node is left of. */
struct lisa_rbnode *
lisa_rb_next(struct lisa_rbnode *p)
{
	if (p->rbn_right != NULL)
		return (lisa_rb_min(p->rbn_right));
	while (p->rbn_parent != NULL && p == p->rbn_parent->rbn_right)
		p = p->rbn_parent;
	return (p->rbn_parent);
}

/*
 * For the unit test: the tree's black height if it keeps every rule
 * (links, order, colours), else -1.
 */
static int
rb_check(struct lisa_rbnode *p, struct lisa_rbnode *parent, size_t off,
    lisa_rbcmp cmp)
{
	int	l, r;

	if (p == NULL)
		return (1);
	if (p->rbn_parent != parent)
		return (-1);
	if (p->rbn_red && (RED(p->rbn_left) || RED(p->rbn_right)))
		return (-1);
	if (p->rbn_left != NULL && cmp(ELM(p->rbn_left, off), ELM(p, off)) >= 0)
		return (-1);
	if (p->rbn_right != NULL &&
	    cmp(ELM(p->rbn_right, off), ELM(p, off)) <= 0)
		return (-1);
	if ((l = rb_check(p->rbn_left, p, off, cmp)) == -1 ||
	    (r = rb_check(p->rbn_right, p, off, cmp)) == -1 || l != r)
		return (-1);
	return (l + !p->rbn_red);
}

int
lisa_rb_check(struct lisa_rbnode *root, size_t off, lisa_rbcmp cmp)
{
	if (root != NULL && root->rbn_red)
		return (-1);
	return (rb_check(root, NULL, off, cmp));
}
