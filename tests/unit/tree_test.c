/*
 * lisa's own red-black tree and tail queue (control/lisa-tree.h,
 * lisa-queue.h), taken here whatever the system has: what macOS and musl
 * builds run. Random inserts and removals against a plain array, the
 * tree's rules checked after each.
 */
#define LISA_OWN_TREE 1

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"
#include "lisa-queue.h"
#include "lisa-tree.h"

struct item {
	int			 key;
	RB_ENTRY(item)		 entry;
	TAILQ_ENTRY(item)	 qentry;
};

static int
item_cmp(struct item *a, struct item *b)
{
	return (a->key < b->key ? -1 : a->key > b->key);
}

RB_HEAD(items, item);
RB_PROTOTYPE(items, item, entry, item_cmp)
RB_GENERATE(items, item, entry, item_cmp)

static int
item_cmpv(const void *a, const void *b)
{
	return (item_cmp((struct item *)(uintptr_t)a,
	    (struct item *)(uintptr_t)b));
}

#define N 2000

static int
check(struct items *head, const int *in, int n)
{
	struct item	*it;
	int		 prev = -1, count = 0, i;

	assert_true(lisa_rb_check(head->rbh_root, offsetof(struct item,
	    entry), item_cmpv) >= 0);
	RB_FOREACH(it, items, head) {
		assert_true(it->key > prev);
		assert_true(in[it->key]);
		prev = it->key;
		count++;
	}
	for (i = 0; i < n; i++)
		count -= in[i];
	return (count);
}

static void
test_tree_random(void **state)
{
	struct items	 head = RB_INITIALIZER(&head);
	struct item	*items, find, *it, *tmp;
	int		 in[N] = { 0 }, i, k, round, height;

	(void)state;
	items = calloc(N, sizeof *items);
	for (i = 0; i < N; i++)
		items[i].key = i;
	srandom(7);
	assert_true(RB_EMPTY(&head));
	for (round = 0; round < 20000; round++) {
		k = (int)(random() % N);
		if (!in[k]) {
			assert_null(RB_INSERT(items, &head, &items[k]));
			in[k] = 1;
		} else if (random() % 3 == 0) {
			/* An equal key is refused: the one there comes back. */
			find.key = k;
			assert_ptr_equal(RB_INSERT(items, &head, &find),
			    &items[k]);
		} else {
			assert_ptr_equal(RB_REMOVE(items, &head, &items[k]),
			    &items[k]);
			in[k] = 0;
		}
		find.key = k;
		it = RB_FIND(items, &head, &find);
		assert_true(in[k] ? it == &items[k] : it == NULL);
		if (round % 97 == 0)
			assert_int_equal(check(&head, in, N), 0);
	}
	assert_int_equal(check(&head, in, N), 0);
	/* Balanced: a black height, so at most 2 log2(n+1) deep. */
	height = lisa_rb_check(head.rbh_root, offsetof(struct item, entry),
	    item_cmpv);
	assert_true(height > 1 && height <= 12);
	/* Emptied in a walk that removes as it goes. */
	RB_FOREACH_SAFE(it, items, &head, tmp)
		RB_REMOVE(items, &head, it);
	assert_true(RB_EMPTY(&head));
	assert_null(RB_MIN(items, &head));
	free(items);
}

static void
test_tree_in_order_and_sorted_input(void **state)
{
	struct items	 head;
	struct item	 items[512], *it;
	int		 i, n = 0;

	(void)state;
	RB_INIT(&head);
	/* Ascending input: the worst case of an unbalanced tree. */
	for (i = 0; i < 512; i++) {
		items[i].key = i;
		RB_INSERT(items, &head, &items[i]);
	}
	assert_true(lisa_rb_check(head.rbh_root, offsetof(struct item,
	    entry), item_cmpv) <= 10);
	RB_FOREACH(it, items, &head)
		assert_int_equal(it->key, n++);
	assert_int_equal(n, 512);
	for (i = 511; i >= 0; i -= 2)
		RB_REMOVE(items, &head, &items[i]);
	n = 0;
	RB_FOREACH(it, items, &head) {
		assert_int_equal(it->key, n);
		n += 2;
	}
	assert_int_equal(n, 512);
}

TAILQ_HEAD(itemq, item);

static void
test_queue(void **state)
{
	struct itemq	 q = TAILQ_HEAD_INITIALIZER(q);
	struct item	 items[10], *it, *tmp;
	int		 i, n;

	(void)state;
	assert_true(TAILQ_EMPTY(&q));
	for (i = 0; i < 10; i++) {
		items[i].key = i;
		TAILQ_INSERT_TAIL(&q, &items[i], qentry);
	}
	/* Remove the odd ones while walking, then the first and last. */
	TAILQ_FOREACH_SAFE(it, &q, qentry, tmp) {
		if (it->key % 2 == 1)
			TAILQ_REMOVE(&q, it, qentry);
	}
	TAILQ_REMOVE(&q, &items[0], qentry);
	TAILQ_REMOVE(&q, &items[8], qentry);
	n = 0;
	TAILQ_FOREACH(it, &q, qentry) {
		assert_int_equal(it->key, 2 + 2 * n);
		n++;
	}
	assert_int_equal(n, 3);
	/* The tail is right after removing the last: append still works. */
	TAILQ_INSERT_TAIL(&q, &items[9], qentry);
	assert_ptr_equal(TAILQ_FIRST(&q), &items[2]);
	TAILQ_FOREACH(it, &q, qentry)
		n = it->key;
	assert_int_equal(n, 9);
	TAILQ_INIT(&q);
	assert_null(TAILQ_FIRST(&q));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_random),
		cmocka_unit_test(test_tree_in_order_and_sorted_input),
		cmocka_unit_test(test_queue),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
