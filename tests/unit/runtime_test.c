/*
 * The runtime directory is refused unless private and ours; the lock admits
 * one holder; server discovery follows tmux's rules.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "shared.h"

static char	tmpl[] = "/tmp/lisa-unit-XXXXXX";
static char	*base;

static int
setup(void **state)
{
	base = mkdtemp(tmpl);
	return (base == NULL);
}

static int
teardown(void **state)
{
	char	cmd[256];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	return (system(cmd) != 0);
}

static void
test_dir_created_private(void **state)
{
	char		*dir, *cause = NULL, *want;
	struct stat	 st;

	setenv("XDG_RUNTIME_DIR", base, 1);
	assert_int_equal(runtime_dir(&dir, &cause), 0);
	xasprintf(&want, "%s/lisa", base);
	assert_string_equal(dir, want);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	free(want);
	free(dir);
}

static void
test_dir_refused(void **state)
{
	char	*dir, *cause = NULL, *sub, *target;

	xasprintf(&sub, "%s/open", base);
	mkdir(sub, 0700);
	setenv("XDG_RUNTIME_DIR", sub, 1);
	/* World-readable lisa dir: refused. */
	xasprintf(&target, "%s/lisa", sub);
	mkdir(target, 0755);
	chmod(target, 0755);
	assert_int_equal(runtime_dir(&dir, &cause), -1);
	assert_non_null(strstr(cause, "mode"));
	free(cause);
	cause = NULL;
	/* A symlink planted where the dir should be: refused. */
	rmdir(target);
	assert_int_equal(symlink(base, target), 0);
	assert_int_equal(runtime_dir(&dir, &cause), -1);
	assert_non_null(strstr(cause, "not a directory"));
	free(cause);
	unlink(target);
	free(target);
	free(sub);
}

static void
test_lock_single_holder(void **state)
{
	char	*path, *cause = NULL;
	pid_t	 holder;
	int	 fd1, fd2;

	xasprintf(&path, "%s/x.lock", base);
	fd1 = runtime_lock(path, &holder, &cause);
	assert_true(fd1 >= 0);
	fd2 = runtime_lock(path, &holder, &cause);
	assert_int_equal(fd2, -1);
	assert_int_equal(holder, getpid());
	assert_non_null(strstr(cause, "already running"));
	free(cause);
	cause = NULL;
	close(fd1);
	/* Released with its fd (as at process death): no stale lock. */
	fd2 = runtime_lock(path, &holder, &cause);
	assert_true(fd2 >= 0);
	close(fd2);
	/* A symlink in place of the lock file is not followed. */
	unlink(path);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	assert_int_equal(runtime_lock(path, &holder, &cause), -1);
	free(cause);
	free(path);
}

static int	 lines_seen;
static void
count_line(const char *line, size_t len)
{
	assert_true(len > 0 && memchr(line, '\n', len) == NULL);
	lines_seen++;
}

/* State files: replaced whole, read back, never through a link. */
static void
test_state_files(void **state)
{
	char	path[256], link_path[256], *data;
	size_t	len;

	snprintf(path, sizeof path, "%s/x.live", base);
	assert_int_equal(runtime_write_file(path, "a\n\nb\nc", 6), 0);
	assert_int_equal(runtime_read_file(path, 4096, &data, &len), 0);
	assert_int_equal(len, 6);
	lines_seen = 0;
	assert_int_equal(runtime_lines(data, len, 100, count_line), 3);
	assert_int_equal(lines_seen, 3);
	assert_int_equal(runtime_lines(data, len, 2, count_line), 2);
	free(data);
	/* Bounded: at most MAX bytes. */
	assert_int_equal(runtime_read_file(path, 2, &data, &len), 0);
	assert_int_equal(len, 2);
	assert_string_equal(data, "a\n");
	free(data);
	/* Nothing to write: the file goes. */
	assert_int_equal(runtime_write_file(path, "", 0), 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(runtime_write_file(path, "", 0), 0);
	/* A file that cannot be made says why (not "disk full"). */
	snprintf(path, sizeof path, "%s/none/x.live", base);
	errno = 0;
	assert_int_equal(runtime_write_file(path, "a\n", 2), -1);
	assert_int_equal(errno, ENOENT);
	/* A link planted in its place is not read. */
	snprintf(link_path, sizeof link_path, "%s/y.live", base);
	assert_int_equal(symlink("/etc/passwd", link_path), 0);
	assert_int_equal(runtime_read_file(link_path, 4096, &data, &len), -1);
	assert_null(data);
	unlink(link_path);
}

static void
test_server_find(void **state)
{
	struct server_id	 sid;
	char			*cause = NULL, want[256];

	setenv("TMUX", "/tmp/tmux-5/weird name,123,4", 1);
	assert_int_equal(server_find(&sid, NULL, NULL, &cause), 0);
	assert_string_equal(sid.socket, "/tmp/tmux-5/weird name");
	assert_int_equal(strncmp(sid.key, "weird_name-", 11), 0);
	server_free(&sid);

	unsetenv("TMUX_TMPDIR");
	assert_int_equal(server_find(&sid, "work", NULL, &cause), 0);
	snprintf(want, sizeof want, "/tmp/tmux-%ld/work", (long)getuid());
	assert_string_equal(sid.socket, want);
	server_free(&sid);

	assert_int_equal(server_find(&sid, NULL, "/x/y", &cause), 0);
	assert_string_equal(sid.socket, "/x/y");
	server_free(&sid);

	assert_int_equal(server_find(&sid, "../evil", NULL, &cause), -1);
	free(cause);
	unsetenv("TMUX");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_created_private),
		cmocka_unit_test(test_dir_refused),
		cmocka_unit_test(test_state_files),
		cmocka_unit_test(test_lock_single_holder),
		cmocka_unit_test(test_server_find),
	};

	return (cmocka_run_group_tests_name("runtime", tests, setup,
	    teardown));
}
