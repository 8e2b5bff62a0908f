/* Every notification tmux 3.2-3.7 sends, parsed; malformed lines refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "control.h"

struct parse_case {
	const char	*line;
	enum ctl_type	 type;
	int		 session;
	int		 window;
	int		 pane;
	const char	*name;	/* name or client, NULL = not checked */
	const char	*text;	/* text/layout, NULL = not checked */
};

static const struct parse_case cases[] = {
	{ "%output %3 hello world", CTL_OUTPUT, -1, -1, 3, NULL, "hello world" },
	{ "%output %0 ", CTL_OUTPUT, -1, -1, 0, NULL, "" },
	{ "%output %12 a\\033[0m b", CTL_OUTPUT, -1, -1, 12, NULL,
	  "a\\033[0m b" },
	{ "%extended-output %4 1500 : data : more", CTL_OUTPUT, -1, -1, 4,
	  NULL, "data : more" },
	{ "%extended-output %4 0 future args : x", CTL_OUTPUT, -1, -1, 4, NULL,
	  "x" },
	{ "%extended-output %4 0 :", CTL_OUTPUT, -1, -1, 4, NULL, "" },
	{ "%pause %7", CTL_PAUSE, -1, -1, 7, NULL, NULL },
	{ "%continue %7", CTL_CONTINUE, -1, -1, 7, NULL, NULL },
	{ "%window-add @2", CTL_WINDOW_ADD, -1, 2, -1, NULL, NULL },
	{ "%window-close @2", CTL_WINDOW_CLOSE, -1, 2, -1, NULL, NULL },
	{ "%window-renamed @2 my window", CTL_WINDOW_RENAMED, -1, 2, -1,
	  "my window", NULL },
	{ "%unlinked-window-add @9", CTL_UNLINKED_WINDOW_ADD, -1, 9, -1, NULL,
	  NULL },
	{ "%unlinked-window-close @9", CTL_UNLINKED_WINDOW_CLOSE, -1, 9, -1,
	  NULL, NULL },
	{ "%unlinked-window-renamed @9 x y", CTL_UNLINKED_WINDOW_RENAMED, -1, 9,
	  -1, "x y", NULL },
	{ "%layout-change @0 aafd,120x40,0,0,0 aafd,120x40,0,0,0 *",
	  CTL_LAYOUT_CHANGE, -1, 0, -1, NULL, NULL },
	{ "%window-pane-changed @0 %5", CTL_WINDOW_PANE_CHANGED, -1, 0, 5,
	  NULL, NULL },
	{ "%session-changed $1 work", CTL_SESSION_CHANGED, 1, -1, -1, "work",
	  NULL },
	{ "%client-session-changed /dev/pts/3 $2 other name",
	  CTL_CLIENT_SESSION_CHANGED, 2, -1, -1, "other name", NULL },
	{ "%session-renamed $3 new name", CTL_SESSION_RENAMED, 3, -1, -1,
	  "new name", NULL },
	{ "%sessions-changed", CTL_SESSIONS_CHANGED, -1, -1, -1, NULL, NULL },
	{ "%session-window-changed $1 @4", CTL_SESSION_WINDOW_CHANGED, 1, 4, -1,
	  NULL, NULL },
	{ "%pane-mode-changed %8", CTL_PANE_MODE_CHANGED, -1, -1, 8, NULL,
	  NULL },
	{ "%client-detached client-123", CTL_CLIENT_DETACHED, -1, -1, -1,
	  NULL, NULL },
	{ "%subscription-changed lisa $0 @1 2 %3 : a : b", CTL_SUBSCRIPTION_CHANGED,
	  0, 1, 3, "lisa", "a : b" },
	{ "%subscription-changed s $0 - - - : v", CTL_SUBSCRIPTION_CHANGED, 0,
	  -1, -1, "s", "v" },
	{ "%subscription-changed s $0 @1 2 - : ", CTL_SUBSCRIPTION_CHANGED, 0,
	  1, -1, "s", "" },
	{ "%config-error /x:1: bad", CTL_CONFIG_ERROR, -1, -1, -1, NULL,
	  "/x:1: bad" },
	{ "%message hello there", CTL_MESSAGE, -1, -1, -1, NULL,
	  "hello there" },
	{ "%paste-buffer-changed buffer0", CTL_PASTE_BUFFER_CHANGED, -1, -1, -1,
	  "buffer0", NULL },
	{ "%paste-buffer-deleted buffer0", CTL_PASTE_BUFFER_DELETED, -1, -1, -1,
	  "buffer0", NULL },
	{ "%exit", CTL_EXIT, -1, -1, -1, NULL, "" },
	{ "%exit too far behind", CTL_EXIT, -1, -1, -1, NULL,
	  "too far behind" },
	{ "%begin 1795306295 277 1", CTL_BEGIN, -1, -1, -1, NULL, NULL },
	{ "%end 1795306295 277 1", CTL_END, -1, -1, -1, NULL, NULL },
	{ "%error 1795306295 277 0", CTL_ERROR, -1, -1, -1, NULL, NULL },
	{ "%some-future-thing @1 x", CTL_UNKNOWN, -1, -1, -1, NULL, NULL },
	{ "%window-add @2 extra", CTL_WINDOW_ADD, -1, 2, -1, NULL, NULL },
};

static const char *malformed[] = {
	"",
	"no percent",
	"%output",
	"%output 3 x",
	"%output %x data",
	"%output %99999999999 x",
	"%extended-output %1 notanage : x",
	"%extended-output %1 5 no separator",
	"%pause",
	"%pause @1",
	"%window-add",
	"%window-add %1",
	"%layout-change @1",
	"%session-changed 1 name",
	"%window-pane-changed @1",
	"%session-window-changed $1",
	"%subscription-changed name",
	"%subscription-changed name $x @1 2 %3 : v",
	"%begin 1 2",
	"%begin a b c",
	"%end 1 2 3 4",
	"%client-detached",
	"%paste-buffer-changed",
};

static void
test_parse_table(void **state)
{
	struct ctl_event	ev;
	char			line[256];
	size_t			i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		strcpy(line, cases[i].line);
		if (ctl_parse(line, strlen(line), &ev) != 0 ||
		    ev.type != cases[i].type)
			fail_msg("did not parse as expected: %s", cases[i].line);
		assert_int_equal(ev.session, cases[i].session);
		assert_int_equal(ev.window, cases[i].window);
		assert_int_equal(ev.pane, cases[i].pane);
		if (cases[i].name != NULL) {
			if (ev.type == CTL_CLIENT_SESSION_CHANGED)
				assert_string_equal(ev.client, "/dev/pts/3");
			assert_non_null(ev.name);
			assert_string_equal(ev.name, cases[i].name);
		}
		if (cases[i].text != NULL) {
			assert_int_equal(ev.textlen, strlen(cases[i].text));
			assert_memory_equal(ev.text, cases[i].text, ev.textlen);
		}
	}
}

static void
test_parse_fields(void **state)
{
	struct ctl_event	ev;
	char			line[256];

	strcpy(line, "%layout-change @3 b25f,80x24,0,0{40x24,0,0,1,39x24,41,0,2} "
	    "b25f,80x24,0,0{40x24,0,0,1,39x24,41,0,2} *Z");
	assert_int_equal(ctl_parse(line, strlen(line), &ev), 0);
	assert_string_equal(ev.layout,
	    "b25f,80x24,0,0{40x24,0,0,1,39x24,41,0,2}");
	assert_string_equal(ev.flags, "*Z");

	strcpy(line, "%begin 1795306295 277 1");
	assert_int_equal(ctl_parse(line, strlen(line), &ev), 0);
	assert_int_equal(ev.time, 1795306295LL);
	assert_int_equal(ev.number, 277);
	assert_int_equal(ev.cmdflags, 1);

	strcpy(line, "%extended-output %4 1500 : x");
	assert_int_equal(ctl_parse(line, strlen(line), &ev), 0);
	assert_int_equal(ev.age, 1500);

	strcpy(line, "%subscription-changed lisa $0 @1 2 %3 : v");
	assert_int_equal(ctl_parse(line, strlen(line), &ev), 0);
	assert_int_equal(ev.index, 2);
}

static void
test_parse_malformed(void **state)
{
	struct ctl_event	ev;
	char			line[256];
	size_t			i;

	for (i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
		strcpy(line, malformed[i]);
		if (ctl_parse(line, strlen(line), &ev) != -1)
			fail_msg("accepted malformed line: %s", malformed[i]);
	}
}

/* Every prefix of every valid line either parses or is refused: no crash. */
static void
test_parse_truncated(void **state)
{
	struct ctl_event	ev;
	char			line[256];
	size_t			i, n;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (n = 0; n <= strlen(cases[i].line); n++) {
			memcpy(line, cases[i].line, n);
			line[n] = '\0';
			(void)ctl_parse(line, n, &ev);
		}
	}
}

static void
test_type_names(void **state)
{
	int	t;

	for (t = 0; t < CTL_NTYPES; t++)
		assert_non_null(ctl_type_name(t));
	assert_string_equal(ctl_type_name(CTL_LAYOUT_CHANGE), "layout-change");
	assert_string_equal(ctl_type_name(CTL_NTYPES), "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_table),
		cmocka_unit_test(test_parse_fields),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_parse_truncated),
		cmocka_unit_test(test_type_names),
	};

	return (cmocka_run_group_tests_name("control_parse", tests, NULL,
	    NULL));
}
