/*
 * The @lisa-* options: each kind's check, and the table in options.c held
 * to docs/ui.md's "Every option" table (a row in one and not the other
 * fails here, so a new option cannot go unchecked or undocumented).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "options.h"

static void
want(const char *name, const char *value, enum option_check rc,
    const char *why)
{
	char			got_why[160];
	enum option_check	got;

	got = options_check(name, value, got_why, sizeof got_why);
	if (got != rc || (why != NULL && strstr(got_why, why) == NULL))
		fail_msg("%s \"%s\": %d (%s), want %d (%s)", name, value, got,
		    got_why, rc, why != NULL ? why : "-");
}

static void
test_kinds(void **state)
{
	uint64_t	ms;

	want("@lisa-debounce", "1.5", OPTION_OK, NULL);
	want("@lisa-debounce", "0", OPTION_OK, NULL);
	want("@lisa-debounce", "abc", OPTION_BAD, "seconds");
	want("@lisa-debounce", "1.5s", OPTION_BAD, "seconds");
	want("@lisa-debounce", "", OPTION_BAD, "seconds");
	want("@lisa-debounce", "inf", OPTION_BAD, "seconds");
	want("@lisa-debounce", "nan", OPTION_BAD, "seconds");
	want("@lisa-debounce", "0x10", OPTION_BAD, "seconds");
	want("@lisa-debounce", "1e99", OPTION_BAD, "seconds");
	want("@lisa-stale", "-5", OPTION_BAD, "above 0");
	want("@lisa-stale", "0", OPTION_BAD, "above 0");
	want("@lisa-stale", "30", OPTION_OK, NULL);
	assert_int_equal(options_seconds("1.5", &ms), 0);
	assert_int_equal(ms, 1500);
	assert_int_equal(options_seconds(" 2 ", &ms), 0);
	assert_int_equal(ms, 2000);
	assert_int_equal(options_seconds("-1", &ms), -1);

	want("@lisa-notify-waiting", "on", OPTION_OK, NULL);
	want("@lisa-notify-waiting", "no", OPTION_OK, NULL);
	want("@lisa-notify-waiting", "maybe", OPTION_BAD, "on or off");
	want("@lisa-notify-waiting", "On", OPTION_BAD, "on or off");
	assert_int_equal(options_flag("yes"), 1);
	assert_int_equal(options_flag("0"), 0);
	assert_int_equal(options_flag(""), -1);

	want("@lisa-notify-url-format", "json", OPTION_OK, NULL);
	want("@lisa-notify-url-format", "xml", OPTION_BAD, "ntfy,json");
	want("@lisa-notify-url-format", "ntfy json", OPTION_BAD, NULL);
	want("@lisa-notify-url-format", "js", OPTION_BAD, NULL);
	want("@lisa-notify-terminal", "osc99", OPTION_OK, NULL);
	want("@lisa-notify-terminal", "osc", OPTION_BAD, NULL);

	want("@lisa-events-max-lines", "100", OPTION_OK, NULL);
	want("@lisa-events-max-lines", "-5", OPTION_BAD, "whole number");
	want("@lisa-events-max-lines", "0", OPTION_BAD, NULL);
	want("@lisa-events-max-lines", "12k", OPTION_BAD, NULL);

	want("@lisa-notify-url", "https://ntfy.sh/x", OPTION_OK, NULL);
	want("@lisa-notify-url", "", OPTION_OK, NULL);
	want("@lisa-notify-url", "ftp://x", OPTION_BAD, "URL");
	want("@lisa-notify-url", "http://", OPTION_BAD, NULL);
	want("@lisa-notify-url", "http://a b", OPTION_BAD, NULL);

	want("@lisa-color-asks", "#ff0000", OPTION_OK, NULL);
	want("@lisa-colour-stuck", "colour12", OPTION_OK, NULL);
	want("@lisa-color-asks", "red,bold", OPTION_BAD, "colour");
	want("@lisa-color-nope", "red", OPTION_UNKNOWN, NULL);
	want("@lisa-icon-done", "ok", OPTION_OK, NULL);
	want("@lisa-icon-done",
	    "0123456789012345678901234567890123", OPTION_BAD, "32 bytes");
	want("@lisa-status-order", "asks done", OPTION_OK, NULL);
	want("@lisa-status-order", "asks bogus", OPTION_BAD, "group");
	want("@lisa-status-separator", " | ", OPTION_OK, NULL);
	want("@lisa-status-separator", "01234567890123456", OPTION_BAD,
	    "16 bytes");

	want("@lisa-menu-key", "C-a", OPTION_OK, NULL);
	want("@lisa-menu-key", "none", OPTION_OK, NULL);
	want("@lisa-menu-key", "two words", OPTION_BAD, "key");
	want("@lisa-menu-key", "", OPTION_BAD, "key");

	want("@lisa-hosts", "a user@b c/work", OPTION_OK, NULL);
	want("@lisa-hosts", "a -oProxyCommand=x", OPTION_PARTLY, "ssh option");
	want("@lisa-hosts", "/etc/passwd", OPTION_PARTLY, "a path");
	want("@lisa-context-windows", "gpt-9=400000 x=1", OPTION_OK, NULL);
	want("@lisa-context-windows", "gpt-9=lots", OPTION_PARTLY,
	    "gpt-9=lots");
	want("@lisa-context-windows", "=5", OPTION_PARTLY, NULL);

	want("@lisa-on-transition", "anything #(at) all", OPTION_OK, NULL);
	want("@lisa-debunce", "1", OPTION_UNKNOWN, "not an option");
	want("@lisa-", "1", OPTION_UNKNOWN, NULL);
}

/* docs/ui.md's table, "| `NAME` | DEFAULT | TAKES |" rows, one by one. */
static void
test_docs_table(void **state)
{
	const struct option_def	*o;
	FILE			*f;
	char			 line[1024], name[128], dflt[128], takes[256];
	char			 want_takes[256], want_dflt[128], *p, *q;
	int			 in = 0, rows = 0, i, seen[256] = { 0 };
	size_t			 n, j;

	if ((f = fopen("docs/ui.md", "r")) == NULL)
		fail_msg("docs/ui.md: run from the top of the tree");
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, "| option | default | takes |") == 0) {
			in = 1;
			continue;
		}
		if (!in || strncmp(line, "| ---", 5) == 0)
			continue;
		if (line[0] != '|')
			break;
		/* | `name` | default | takes | */
		if (sscanf(line, "| `%127[^`]` | %127[^|]| %255[^|]|", name,
		    dflt, takes) != 3)
			fail_msg("docs/ui.md: not a row: %s", line);
		for (n = strlen(dflt); n > 0 && dflt[n - 1] == ' '; n--)
			dflt[n - 1] = '\0';
		for (n = strlen(takes); n > 0 && takes[n - 1] == ' '; n--)
			takes[n - 1] = '\0';
		for (j = 0; j < options_count(); j++) {
			if (strcmp(options_get(j)->name, name) == 0)
				break;
		}
		if (j == options_count())
			fail_msg("docs/ui.md has %s, options.c not", name);
		o = options_get(j);
		seen[j] = 1;
		rows++;
		if (o->kind == OPTION_CHOICE) {
			snprintf(want_takes, sizeof want_takes, "one of ");
			q = xstrdup(o->values);
			for (i = 0, p = strtok(q, " "); p != NULL;
			    p = strtok(NULL, " "), i++) {
				n = strlen(want_takes);
				snprintf(want_takes + n, sizeof want_takes - n,
				    "%s`%s`", i == 0 ? "" : ", ", p);
			}
			free(q);
		} else
			strlcpy(want_takes, options_kind_name(o->kind),
			    sizeof want_takes);
		if (strcmp(takes, want_takes) != 0)
			fail_msg("%s takes \"%s\" in docs/ui.md, \"%s\" in "
			    "options.c", name, takes, want_takes);
		if (*o->dflt == '\0')
			strlcpy(want_dflt, "(none)", sizeof want_dflt);
		else if (*o->dflt == '(')
			strlcpy(want_dflt, o->dflt, sizeof want_dflt);
		else
			snprintf(want_dflt, sizeof want_dflt, "`%s`", o->dflt);
		if (strcmp(dflt, want_dflt) != 0)
			fail_msg("%s: default %s in docs/ui.md, %s in options.c",
			    name, dflt, want_dflt);
	}
	fclose(f);
	for (j = 0; j < options_count(); j++) {
		if (!seen[j])
			fail_msg("options.c has %s, docs/ui.md's table not",
			    options_get(j)->name);
	}
	assert_int_equal(rows, (int)options_count());
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_docs_table),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
