/*
 * The control connection: framing over arbitrary read boundaries, reply
 * blocks matched FIFO with the triple checked, notifications delivered,
 * malformed and oversized input skipped without losing what follows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "control.h"
#include "testlib.h"

struct seen {
	struct buf	out[8];		/* decoded output per pane 0..7 */
	int		events[CTL_NTYPES];
	int		last_window;
	int		replies;
	int		ok[16];
	char		*body[16];
};

static void
on_event(struct ctl_client *c, struct ctl_event *ev, void *arg)
{
	struct seen	*s = arg;

	s->events[ev->type]++;
	s->last_window = ev->window;
}

static void
on_output(struct ctl_client *c, int pane, const char *data, size_t len,
    uint64_t age, void *arg)
{
	struct seen	*s = arg;

	assert_true(pane >= 0 && pane < 8);
	buf_add(&s->out[pane], data, len);
}

static void
on_reply(struct ctl_client *c, int ok, const char *body, size_t len,
    void *arg)
{
	struct seen	*s = arg;

	assert_true(s->replies < 16);
	s->ok[s->replies] = ok;
	s->body[s->replies] = strndup(body, len);
	s->replies++;
}

static const struct ctl_callbacks cbs = { on_event, on_output };

static struct ctl_client *
new_client(struct seen *s, int wfd)
{
	memset(s, 0, sizeof *s);
	return (ctl_client_new(-1, wfd, &cbs, s));
}

static void
free_seen(struct seen *s)
{
	int	i;

	for (i = 0; i < 8; i++)
		buf_free(&s->out[i]);
	for (i = 0; i < s->replies; i++)
		free(s->body[i]);
}

static void
feed(struct ctl_client *c, const char *text)
{
	ctl_client_feed(c, text, strlen(text));
}

static void
test_fifo_replies(void **state)
{
	struct ctl_client	*c;
	struct seen		 s;

	c = new_client(&s, -1);
	assert_int_equal(ctl_client_send(c, "list-panes", on_reply, &s), 0);
	assert_int_equal(ctl_client_send(c, "bad-command", on_reply, &s), 0);
	assert_int_equal(ctl_client_inflight(c), 2);
	/* The attach's own block (flags 0) belongs to nobody. */
	feed(c, "%begin 10 1 0\n%end 10 1 0\n");
	assert_int_equal(s.replies, 0);
	feed(c, "%begin 10 2 1\nline one\n\nline three\n%end 10 2 1\n");
	feed(c, "%begin 10 3 1\nparse error: unknown command\n%error 10 3 1\n");
	assert_int_equal(s.replies, 2);
	assert_int_equal(s.ok[0], 1);
	assert_string_equal(s.body[0], "line one\n\nline three");
	assert_int_equal(s.ok[1], 0);
	assert_string_equal(s.body[1], "parse error: unknown command");
	/* Leading and trailing empty lines are part of the body. */
	ctl_client_send(c, "capture-pane -p", on_reply, &s);
	feed(c, "%begin 10 4 1\n\nmiddle\n\n%end 10 4 1\n");
	assert_int_equal(s.replies, 3);
	assert_string_equal(s.body[2], "\nmiddle\n");
	assert_int_equal(ctl_client_inflight(c), 0);
	free_seen(&s);
	ctl_client_free(c);
}

/* A body line that looks like %end but with another triple is body. */
static void
test_triple_checked(void **state)
{
	struct ctl_client	*c;
	struct seen		 s;

	c = new_client(&s, -1);
	ctl_client_send(c, "capture-pane -p", on_reply, &s);
	feed(c, "%begin 5 7 1\n%end 5 6 1\n%error 5 7 0\n%output %1 x\n"
	    "%end 5 7 1\n");
	assert_int_equal(s.replies, 1);
	assert_string_equal(s.body[0], "%end 5 6 1\n%error 5 7 0\n%output %1 x");
	assert_int_equal(s.out[1].len, 0);
	free_seen(&s);
	ctl_client_free(c);
}

static void
test_stray_and_malformed(void **state)
{
	struct ctl_client	*c;
	struct seen		 s;
	const struct ctl_stats	*st;

	c = new_client(&s, -1);
	feed(c, "%end 1 2 1\n%error 1 3 1\ngarbage line\n%output nopane\n"
	    "%unknown-thing 1 2\n%window-add @4\n");
	/* A reply nobody asked for. */
	feed(c, "%begin 1 4 1\nx\n%end 1 4 1\n");
	st = ctl_client_stats(c);
	assert_int_equal(st->malformed, 4);
	assert_int_equal(st->unknown, 1);
	assert_int_equal(st->stray_replies, 1);
	assert_int_equal(s.events[CTL_WINDOW_ADD], 1);
	assert_int_equal(s.last_window, 4);
	free_seen(&s);
	ctl_client_free(c);
}

static void
test_notifications_delivered(void **state)
{
	struct ctl_client	*c;
	struct seen		 s;

	c = new_client(&s, -1);
	feed(c, "%sessions-changed\n%layout-change @1 aafd,80x24,0,0,3 "
	    "aafd,80x24,0,0,3 *\n%pause %2\n%exit\n");
	assert_int_equal(s.events[CTL_SESSIONS_CHANGED], 1);
	assert_int_equal(s.events[CTL_LAYOUT_CHANGE], 1);
	assert_int_equal(s.events[CTL_PAUSE], 1);
	assert_int_equal(s.events[CTL_EXIT], 1);
	free_seen(&s);
	ctl_client_free(c);
}

/* The stream of %output lines cut at random points decodes exactly. */
static void
test_output_stream_property(void **state)
{
	struct ctl_client	*c;
	struct seen		 s;
	struct buf		 stream, want[3];
	unsigned char		 chunk[512];
	size_t			 off, n, i, cut;
	int			 iter, pane;

	test_rng_init();
	c = new_client(&s, -1);
	buf_init(&stream);
	for (i = 0; i < 3; i++)
		buf_init(&want[i]);
	for (iter = 0; iter < 3000; iter++) {
		pane = (int)test_rng_below(3);
		n = 1 + test_rng_below(sizeof chunk);
		for (i = 0; i < n; i++)
			chunk[i] = (unsigned char)test_rng();
		buf_add(&want[pane], chunk, n);
		if (test_rng_below(2))
			buf_printf(&stream, "%%output %%%d ", pane);
		else
			buf_printf(&stream, "%%extended-output %%%d 12 : ",
			    pane);
		ctl_escape(chunk, n, &stream);
		buf_addc(&stream, '\n');
		if (test_rng_below(10) == 0)
			buf_adds(&stream, "%window-pane-changed @1 %2\n");
	}
	for (off = 0; off < stream.len; off += cut) {
		cut = 1 + test_rng_below(4096);
		if (cut > stream.len - off)
			cut = stream.len - off;
		ctl_client_feed(c, stream.data + off, cut);
	}
	for (i = 0; i < 3; i++) {
		assert_int_equal(s.out[i].len, want[i].len);
		assert_memory_equal(s.out[i].data, want[i].data, want[i].len);
		buf_free(&want[i]);
	}
	assert_int_equal(ctl_client_stats(c)->malformed, 0);
	buf_free(&stream);
	free_seen(&s);
	ctl_client_free(c);
}

/* 1 MB lines are handled; lines past the cap are dropped, not fatal. */
static void
test_long_lines(void **state)
{
	struct ctl_client	*c;
	struct seen		 s;
	struct buf		 b;
	size_t			 i;

	c = new_client(&s, -1);
	buf_init(&b);
	buf_adds(&b, "%output %1 ");
	for (i = 0; i < 1024 * 1024; i++)
		buf_addc(&b, (char)('a' + i % 26));
	buf_addc(&b, '\n');
	ctl_client_feed(c, b.data, b.len);
	assert_int_equal(s.out[1].len, 1024 * 1024);

	/* Over the cap: fed in pieces, dropped, and the next line is fine. */
	buf_reset(&b);
	for (i = 0; i < 1024 * 1024; i++)
		buf_addc(&b, 'z');
	feed(c, "%output %2 ");
	for (i = 0; i < (CTL_MAX_LINE / b.len) + 2; i++)
		ctl_client_feed(c, b.data, b.len);
	feed(c, "tail\n%output %3 ok\n");
	assert_int_equal(s.out[2].len, 0);
	assert_int_equal(s.out[3].len, 2);
	assert_int_equal(ctl_client_stats(c)->dropped_long, 1);
	buf_free(&b);
	free_seen(&s);
	ctl_client_free(c);
}

/* Lines that would get no reply block, or split into several, are refused. */
static void
test_send_refuses(void **state)
{
	struct ctl_client	*c;
	struct seen		 s;
	int			 p[2];
	char			 got[256];
	ssize_t			 n;

	assert_int_equal(pipe(p), 0);
	c = new_client(&s, p[1]);
	assert_int_equal(ctl_client_send(c, "", NULL, NULL), -1);
	assert_int_equal(ctl_client_send(c, "   ", NULL, NULL), -1);
	assert_int_equal(ctl_client_send(c, "# comment", NULL, NULL), -1);
	assert_int_equal(ctl_client_send(c, "a\nb", NULL, NULL), -1);
	assert_int_equal(ctl_client_send(c, "a\rb", NULL, NULL), -1);
	assert_int_equal(ctl_client_send(c, "a ; b", NULL, NULL), -1);
	assert_int_equal(ctl_client_send(c, "set @x \"unterminated", NULL,
	    NULL), -1);
	assert_int_equal(ctl_client_inflight(c), 0);
	assert_int_equal(ctl_client_send(c, "set @x \"a;b\"", NULL, NULL), 0);
	assert_int_equal(ctl_client_send(c, "set @x 'a;b'", NULL, NULL), 0);
	assert_int_equal(ctl_client_send(c, "set @x a\\;b", NULL, NULL), 0);
	assert_int_equal(ctl_client_flush(c), 0);
	n = read(p[0], got, sizeof got - 1);
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, "set @x \"a;b\"\nset @x 'a;b'\nset @x a\\;b\n");
	close(p[0]);
	close(p[1]);
	free_seen(&s);
	ctl_client_free(c);
}

/* A cancelled callback is not called; the FIFO stays in step. */
static void
test_cancel(void **state)
{
	struct ctl_client	*c;
	struct seen		 s, other;

	c = new_client(&s, -1);
	memset(&other, 0, sizeof other);
	ctl_client_send(c, "one", on_reply, &other);
	ctl_client_send(c, "two", on_reply, &s);
	ctl_client_cancel_arg(c, &other);
	feed(c, "%begin 1 1 1\na\n%end 1 1 1\n%begin 1 2 1\nb\n%end 1 2 1\n");
	assert_int_equal(other.replies, 0);
	assert_int_equal(s.replies, 1);
	assert_string_equal(s.body[0], "b");
	free_seen(&s);
	ctl_client_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_replies),
		cmocka_unit_test(test_triple_checked),
		cmocka_unit_test(test_stray_and_malformed),
		cmocka_unit_test(test_notifications_delivered),
		cmocka_unit_test(test_output_stream_property),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_send_refuses),
		cmocka_unit_test(test_cancel),
	};

	log_open(NULL, 0);
	return (cmocka_run_group_tests_name("control_client", tests, NULL,
	    NULL));
}
