/* Pane ids from tmux layout strings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "control.h"

static void
test_layouts(void **state)
{
	int	ids[8];

	assert_int_equal(ctl_layout_panes("aafd,120x40,0,0,0", ids, 8), 1);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ctl_layout_panes(
	    "b25f,80x24,0,0{40x24,0,0,1,39x24,41,0,2}", ids, 8), 2);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 2);
	assert_int_equal(ctl_layout_panes("1234,200x50,0,0[200x25,0,0,7,"
	    "200x24,0,26{100x24,0,26,8,99x24,101,26,12}]", ids, 8), 3);
	assert_int_equal(ids[0], 7);
	assert_int_equal(ids[1], 8);
	assert_int_equal(ids[2], 12);
	/* More panes than room: the count is still right. */
	assert_int_equal(ctl_layout_panes(
	    "b25f,80x24,0,0{40x24,0,0,1,39x24,41,0,2}", ids, 1), 2);
}

static void
test_bad_layouts(void **state)
{
	static const char *bad[] = {
		"", "aafd", "aafd,", "aafd,120x40", "aafd,120x40,0,0",
		"aafd,120x40,0,0{", "aafd,120x40,0,0{40x24,0,0,1",
		"aafd,120x40,0,0{40x24,0,0,1]", "aafdd,120x40,0,0,1",
		"aafd,x40,0,0,1", "aafd,120x40,0,0,1junk",
		"aafd,120x40,0,0,-1",
	};
	int	ids[8];
	size_t	i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (ctl_layout_panes(bad[i], ids, 8) != -1)
			fail_msg("accepted bad layout: %s", bad[i]);
	}
}

/* Deep nesting is refused, not a stack overflow. */
static void
test_deep_layout(void **state)
{
	struct buf	b;
	int		ids[8], i;

	buf_init(&b);
	buf_adds(&b, "aafd,1x1,0,0");
	for (i = 0; i < 100000; i++)
		buf_adds(&b, "{1x1,0,0");
	assert_int_equal(ctl_layout_panes(b.data, ids, 8), -1);
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_bad_layouts),
		cmocka_unit_test(test_deep_layout),
	};

	return (cmocka_run_group_tests_name("control_layout", tests, NULL,
	    NULL));
}
