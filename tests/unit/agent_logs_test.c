/*
 * OpenCode's and Copilot CLI's files as lisa reads them for lisa resume:
 * OpenCode's "created" log line (top-level sessions only), Copilot's log
 * name, the session its log names and its workspace.yaml's cwd. Lines
 * in the forms OpenCode 1.18.33 and Copilot 1.0.102 write.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "shared.h"
#include "copilot-file.h"
#include "opencode-file.h"

#define OC_HEAD "timestamp=2026-11-20T09:14:02.112Z level=INFO run=a1b2 " \
	"service=session message=created id="

static void
test_opencode_created(void **state)
{
	char	id[64], dir[64];
	int64_t	at;

	(void)state;
	assert_int_equal(opencode_created_line(OC_HEAD "ses_3f1c slug=brave "
	    "version=1.18.33 projectID=global directory=/home/u/my project "
	    "path=x parentID=undefined title=New session", id, sizeof id,
	    dir, sizeof dir, &at), 0);
	assert_string_equal(id, "ses_3f1c");
	/* A directory's spaces are its own; "name=" ends it. */
	assert_string_equal(dir, "/home/u/my project");
	/* When: its timestamp, to the millisecond (2026-11-20T09:14:02.112Z). */
	assert_true(at == 1795166042112LL);
	/* A line without a timestamp says no time. */
	assert_int_equal(opencode_created_line("level=INFO message=created "
	    "id=ses_2 directory=/w parentID=undefined", id, sizeof id, dir,
	    sizeof dir, &at), 0);
	assert_true(at == 0);
	/* A subagent's session names its parent: not the pane's. */
	assert_int_equal(opencode_created_line(OC_HEAD "ses_9 directory=/w "
	    "parentID=ses_3f1c title=x", id, sizeof id, dir, sizeof dir, &at), -1);
	/* Other messages, ids that are not sessions, relative directories. */
	assert_int_equal(opencode_created_line("level=INFO message=updated "
	    "id=ses_1 directory=/w parentID=undefined", id, sizeof id, dir,
	    sizeof dir, &at), -1);
	assert_int_equal(opencode_created_line(OC_HEAD "prj_1 directory=/w "
	    "parentID=undefined", id, sizeof id, dir, sizeof dir, &at), -1);
	assert_int_equal(opencode_created_line(OC_HEAD "ses_1 directory=w "
	    "parentID=undefined", id, sizeof id, dir, sizeof dir, &at), -1);
	/* No parentID at all, or an empty value: not taken. */
	assert_int_equal(opencode_created_line(OC_HEAD "ses_1 directory=/w",
	    id, sizeof id, dir, sizeof dir, &at), -1);
	assert_int_equal(opencode_created_line(OC_HEAD "ses_1 directory= "
	    "parentID=undefined", id, sizeof id, dir, sizeof dir, &at), -1);
	/* "xid=" is not "id=". */
	assert_int_equal(opencode_created_line("a message=created xid=ses_1 "
	    "directory=/w parentID=undefined", id, sizeof id, dir,
	    sizeof dir, &at), -1);
	/* A value longer than its room is refused, not cut. */
	assert_int_equal(opencode_created_line(OC_HEAD "ses_1 directory="
	    "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "
	    "parentID=undefined", id, sizeof id, dir, sizeof dir, &at), -1);
}

static void
test_copilot_log_pid(void **state)
{
	(void)state;
	assert_int_equal(copilot_log_pid("process-1795793286000-4242.log"),
	    4242);
	assert_int_equal(copilot_log_pid("process-1-7.log"), 7);
	assert_int_equal(copilot_log_pid("process-1795793286000-.log"), -1);
	assert_int_equal(copilot_log_pid("process-1795793286000--4.log"), -1);
	assert_int_equal(copilot_log_pid("process-1795793286000-4.log.1"), -1);
	assert_int_equal(copilot_log_pid("session-1795793286000-4.log"), -1);
	assert_int_equal(copilot_log_pid("process-1795793286000-0.log"), -1);
	assert_int_equal(copilot_log_pid("process-4x.log"), -1);
}

static void
test_copilot_log_session(void **state)
{
	char	id[64];

	(void)state;
	assert_int_equal(copilot_log_session("2026-11-20T09:14:02.112Z [INFO] "
	    "Starting\n2026-11-20T09:14:02.300Z [INFO] Workspace initialized: "
	    "0b7c5a52-6d0e-4f5e-9d7a-3c1e2f4a5b6c (checkpoints: 0)\n", id,
	    sizeof id), 0);
	assert_string_equal(id, "0b7c5a52-6d0e-4f5e-9d7a-3c1e2f4a5b6c");
	/* /clear: a second session in the same log; the last one counts,
	 * and a mark whose id is cut does not hide the one before. */
	assert_int_equal(copilot_log_session("Workspace initialized: "
	    "9f638030-c8df-4813-8de0-51d8ee81a262 (checkpoints: 0)\n"
	    "Workspace initialized: 7d7e13d1-a452-4eb0-b9d6-5f129722b23c "
	    "(checkpoints: 0)\nWorkspace initialized: 7d7e", id, sizeof id),
	    0);
	assert_string_equal(id, "7d7e13d1-a452-4eb0-b9d6-5f129722b23c");
	/* Cut short, too long, not hex, or no room: none. */
	assert_int_equal(copilot_log_session("Workspace initialized: "
	    "0b7c5a52-6d0e-4f5e", id, sizeof id), -1);
	assert_int_equal(copilot_log_session("Workspace initialized: "
	    "0b7c5a52-6d0e-4f5e-9d7a-3c1e2f4a5b6c0", id, sizeof id), -1);
	assert_int_equal(copilot_log_session("Workspace initialized: "
	    "0b7c5a52-6d0e-4f5e-9d7a-3c1e2f4a5bZZ", id, sizeof id), -1);
	assert_int_equal(copilot_log_session("Workspace initialized: "
	    "0b7c5a52-6d0e-4f5e-9d7a-3c1e2f4a5b6c", id, 36), -1);
	assert_int_equal(copilot_log_session("", id, sizeof id), -1);
}

static void
test_copilot_workspace_cwd(void **state)
{
	char		 cwd[32];
	const char	*y;

	(void)state;
	y = "id: 0b7c\ncwd: /home/u/w\nclient_name: github/cli\n";
	assert_int_equal(copilot_workspace_cwd(y, strlen(y), cwd, sizeof cwd),
	    0);
	assert_string_equal(cwd, "/home/u/w");
	y = "cwd: '/home/u/my w'\r\n";
	assert_int_equal(copilot_workspace_cwd(y, strlen(y), cwd, sizeof cwd),
	    0);
	assert_string_equal(cwd, "/home/u/my w");
	/* YAML escapes are not undone: such a directory is not taken. */
	y = "cwd: '/home/u/it''s'\n";
	assert_int_equal(copilot_workspace_cwd(y, strlen(y), cwd, sizeof cwd),
	    -1);
	y = "cwd: \"/home/u/a\\tb\"\n";
	assert_int_equal(copilot_workspace_cwd(y, strlen(y), cwd, sizeof cwd),
	    -1);
	/* Relative, empty, too long, or only the first "cwd:" counts. */
	y = "cwd: home\ncwd: /w\n";
	assert_int_equal(copilot_workspace_cwd(y, strlen(y), cwd, sizeof cwd),
	    -1);
	y = "cwd: \n";
	assert_int_equal(copilot_workspace_cwd(y, strlen(y), cwd, sizeof cwd),
	    -1);
	y = "cwd: /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n";
	assert_int_equal(copilot_workspace_cwd(y, strlen(y), cwd, sizeof cwd),
	    -1);
	/* A NUL inside the value, and text without a newline at its end. */
	y = "cwd: /w\0x\n";
	assert_int_equal(copilot_workspace_cwd(y, 10, cwd, sizeof cwd), -1);
	y = "xcwd: /a\ncwd: /b";
	assert_int_equal(copilot_workspace_cwd(y, strlen(y), cwd, sizeof cwd),
	    0);
	assert_string_equal(cwd, "/b");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opencode_created),
		cmocka_unit_test(test_copilot_log_pid),
		cmocka_unit_test(test_copilot_log_session),
		cmocka_unit_test(test_copilot_workspace_cwd),
	};

	return (cmocka_run_group_tests_name("agent_logs", tests, NULL, NULL));
}
