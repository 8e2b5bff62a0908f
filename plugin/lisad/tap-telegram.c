/*
 * Telegram's side of answering from the phone (docs/phone.md): with a
 * bot (@lisa-telegram-token) and a chat (@lisa-telegram-chat), each push
 * also goes to that chat (sendMessage), an ask's with an inline keyboard
 * whose buttons carry tap.c's tokens as their callback data. A tap is a
 * callback query, fetched by a long poll (getUpdates) that runs only
 * while an ask is open: no webhook, no port. A tap from another chat is
 * refused; every tap is answered (answerCallbackQuery) and what came of
 * it said in the chat.
 *
 * The token is the bot's whole authority: it goes into URLs that reach
 * curl on its standard input, never a command line or a log.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "tap.h"
#include "tell.h"

#define TG_POLL_S		50	/* getUpdates' timeout */
#define TG_REPLY_MAX		(1024 * 1024)
#define TG_BACKOFF_MIN		1000
#define TG_BACKOFF_MAX		60000

static struct {
	char		*curl;
	char		*token;		/* @lisa-telegram-token: secret */
	char		*chat;		/* @lisa-telegram-chat */
	char		*api;		/* @lisa-telegram-api */
} tg;

static struct {
	pid_t		 pid;
	int		 fd;
	struct loop_fd	*lf;
	struct buf	 in;
	int		 eof;
	int		 exited;
	int		 status;
	long long	 offset;	/* the next update wanted */
	uint64_t	 backoff;
	struct loop_timer retry;
	int		 retry_ready;
	int		 retrying;
	char		*url;		/* polled with (holds the token) */
} tg_poll = { .pid = -1, .fd = -1 };

/* A tap under way: whom to answer when tap.c says what came of it. */
struct tg_tap {
	char	*query;		/* the callback query's id */
};

static void	tg_poll_start(void);

/*
 * Only what a token or a chat can hold: letters, digits and EXTRA, so
 * nothing in it changes a URL or a JSON string.
 */
static int
tg_word_ok(const char *s, const char *extra)
{
	static const char	 alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t			 n = strlen(s), i;

	if (n == 0 || n > 255)
		return (0);
	for (i = 0; i < n; i++) {
		if (strchr(alnum, s[i]) == NULL && strchr(extra, s[i]) == NULL)
			return (0);
	}
	return (1);
}

void
tap_telegram_reset(const char *curl)
{
	free(tg.curl);
	free(tg.token);
	free(tg.chat);
	free(tg.api);
	memset(&tg, 0, sizeof tg);
	tg.curl = curl != NULL ? xstrdup(curl) : NULL;
}

void
tap_telegram_option(const char *name, const char *value)
{
	char	**to = NULL;

	if (strcmp(name, "@lisa-telegram-token") == 0) {
		to = &tg.token;
		if (*value != '\0' && !tg_word_ok(value, ":_-")) {
			log_warnx("@lisa-telegram-token: not a bot's token: off");
			value = "";
		}
	} else if (strcmp(name, "@lisa-telegram-chat") == 0) {
		to = &tg.chat;
		if (*value != '\0' && !tg_word_ok(value, "-@_")) {
			log_warnx("@lisa-telegram-chat: not a chat's id or "
			    "@name: off");
			value = "";
		}
	} else if (strcmp(name, "@lisa-telegram-api") == 0)
		to = &tg.api;
	if (to == NULL)
		return;
	free(*to);
	*to = *value != '\0' ? xstrdup(value) : NULL;
}

/* The bot is there to push to. */
int
tap_telegram_on(void)
{
	return (tg.curl != NULL && tg.token != NULL && tg.chat != NULL);
}

/* The URL of the bot's METHOD (it holds the token: curl's stdin only). */
static char *
tg_url(const char *method)
{
	char		*u;
	const char	*api = tg.api != NULL ? tg.api : "https://api.telegram.org";
	size_t		 n = strlen(api);

	while (n > 0 && api[n - 1] == '/')
		n--;
	xasprintf(&u, "%.*s/bot%s/%s", (int)n, api, tg.token, method);
	return (u);
}

static void
tg_call(const char *method, const char *body)
{
	char	*u = tg_url(method);

	notify_url_send(tg.curl, u, body, "telegram");
	free(u);
}

/* A message to the chat; B: an ask's buttons, an inline keyboard. */
static void
tg_send(const char *text, const struct tap_buttons *bt)
{
	struct buf	b;
	int		i;

	buf_init(&b);
	buf_addc(&b, '{');
	json_key(&b, "chat_id");
	json_cstr(&b, tg.chat);
	json_key(&b, "text");
	json_cstr(&b, text);
	if (bt != NULL && bt->n > 0) {
		json_key(&b, "reply_markup");
		buf_adds(&b, "{\"inline_keyboard\":[[");
		for (i = 0; i < bt->n; i++) {
			buf_adds(&b, i != 0 ? ",{" : "{");
			json_key(&b, "text");
			json_cstr(&b, bt->label[i]);
			json_key(&b, "callback_data");
			json_cstr(&b, bt->token[i]);
			buf_addc(&b, '}');
		}
		buf_adds(&b, "]]}");
	}
	buf_addc(&b, '}');
	tg_call("sendMessage", b.data);
	buf_free(&b);
}

/* A push to the chat, an ask's with its buttons (BT: NULL if none). */
void
tap_telegram_push(const char *title, const char *text,
    const struct tap_buttons *bt)
{
	char	*m;

	if (!tap_telegram_on())
		return;
	xasprintf(&m, "%s\n%s", title, text);
	tg_send(m, bt);
	free(m);
}

/* What came of a tap: to the one who tapped, and in the chat. */
static void
tg_told(void *arg, int ok, const char *text)
{
	struct tg_tap	*t = arg;
	struct buf	 b;

	if (text != NULL)
		log_debug("phone (telegram): %s", text);
	if (text != NULL && tap_telegram_on()) {
		buf_init(&b);
		buf_addc(&b, '{');
		json_key(&b, "callback_query_id");
		json_cstr(&b, t->query);
		json_key(&b, "text");
		json_cstr(&b, text);
		buf_addc(&b, '}');
		tg_call("answerCallbackQuery", b.data);
		buf_free(&b);
		tg_send(text, NULL);
	}
	free(t->query);
	free(t);
}

/* Is CHAT (the callback's message's chat) the one lisa asks in? */
static int
tg_our_chat(struct json_doc *d, int chat)
{
	long long	 id;
	char		*name, num[32];
	int		 ok;

	if (chat == -1)
		return (0);
	if (*tg.chat == '@') {
		name = json_get_str(d, chat, "username");
		ok = name != NULL && strcmp(name, tg.chat + 1) == 0;
		free(name);
		return (ok);
	}
	if (json_get_int(d, chat, "id", &id) != 0)
		return (0);
	snprintf(num, sizeof num, "%lld", id);
	return (strcmp(num, tg.chat) == 0);
}

/* One update: a callback query is a tap. */
static void
tg_update(struct json_doc *d, int u)
{
	struct tg_tap	*t;
	long long	 id;
	int		 q, msg;
	char		*qid, *data;

	if (json_get_int(d, u, "update_id", &id) == 0 && id >= tg_poll.offset)
		tg_poll.offset = id + 1;
	if ((q = json_get(d, u, "callback_query")) == -1 ||
	    json_type(d, q) != JSON_T_OBJECT)
		return;
	if ((qid = json_get_str(d, q, "id")) == NULL)
		return;
	t = xcalloc(1, sizeof *t);
	t->query = qid;
	msg = json_get(d, q, "message");
	data = json_get_str(d, q, "data");
	if (msg == -1 || !tg_our_chat(d, json_get(d, msg, "chat")))
		tg_told(t, 0, "not answered: the tap came from another chat");
	else
		tap_take(data != NULL ? data : "", tg_told, t);
	free(data);
}

/*
 * getUpdates' answer, whole: {"ok":true,"result":[update, ...]}; 0 if it
 * was one. A refusal ({"ok":false,"error_code":401}) comes at once, so
 * the next poll must wait (a bad token was a curl a few ms, for ever).
 */
static int
tg_poll_answer(void)
{
	struct json_doc	*d;
	char		*cause, why[128];
	long long	 code = 0;
	int		 ok = 0, r, i, n;

	if ((d = json_parse(tg_poll.in.data != NULL ? tg_poll.in.data : "",
	    tg_poll.in.len, &cause)) == NULL) {
		log_debug("phone (telegram): getUpdates: %s", cause);
		free(cause);
		tap_failed("Telegram's getUpdates answered no JSON "
		    "(@lisa-telegram-api?)");
		return (-1);
	}
	if (json_get_bool(d, 0, "ok", &ok) != 0 || !ok) {
		json_get_int(d, 0, "error_code", &code);
		notify_url_http_text(why, sizeof why, "telegram",
		    code > 0 && code < 1000 ? (int)code : 0);
		tap_failed("%s", why);
		json_free(d);
		return (-1);
	}
	if ((r = json_get(d, 0, "result")) != -1 &&
	    json_type(d, r) == JSON_T_ARRAY) {
		n = json_array_size(d, r);
		for (i = 0; i < n; i++)
			tg_update(d, json_array_item(d, r, i));
		tg_poll.backoff = TG_BACKOFF_MIN;
		tap_working();
	}
	json_free(d);
	return (0);
}

static void
tg_retry_cb(void *arg)
{
	tg_poll.retrying = 0;
	tap_telegram_changed();
}

/* Both ends of a poll in (its output, its exit): the next, or a pause. */
static void
tg_poll_done(void)
{
	int	good;

	if (!tg_poll.eof || !tg_poll.exited)
		return;
	good = WIFEXITED(tg_poll.status) && WEXITSTATUS(tg_poll.status) == 0;
	if (good)
		good = tg_poll_answer() == 0;
	else
		tap_reader_failed("Telegram's getUpdates", tg_poll.status,
		    TG_POLL_S + 15, "@lisa-telegram-api");
	buf_free(&tg_poll.in);
	buf_init(&tg_poll.in);
	tg_poll.eof = tg_poll.exited = 0;
	if (!tap_pending() || !tap_telegram_on())
		return;
	if (good && tg_poll.backoff <= TG_BACKOFF_MIN) {
		tg_poll_start();
		return;
	}
	if (!tg_poll.retry_ready) {
		loop_timer_init(&tg_poll.retry, tg_retry_cb, NULL);
		tg_poll.retry_ready = 1;
	}
	log_debug("phone (telegram): getUpdates again in %llu ms",
	    (unsigned long long)tg_poll.backoff);
	tg_poll.retrying = 1;
	loop_timer_add(&tg_poll.retry, tg_poll.backoff);
	tg_poll.backoff = tg_poll.backoff * 2 > TG_BACKOFF_MAX ?
	    TG_BACKOFF_MAX : tg_poll.backoff * 2;
}

static void
tg_poll_read(int fd, short revents, void *arg)
{
	char	tmp[8192];
	ssize_t	n;

	n = read(fd, tmp, sizeof tmp);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0 && tg_poll.in.len + (size_t)n <= TG_REPLY_MAX) {
		buf_add(&tg_poll.in, tmp, (size_t)n);
		return;
	}
	if (n > 0)
		return;		/* (too long: dropped at its end) */
	loop_del(tg_poll.lf);
	tg_poll.lf = NULL;
	close(tg_poll.fd);
	tg_poll.fd = -1;
	tg_poll.eof = 1;
	tg_poll_done();
}

void
tap_telegram_reaped(pid_t pid, int status)
{
	if (pid != tg_poll.pid)
		return;
	tg_poll.pid = -1;
	tg_poll.exited = 1;
	tg_poll.status = status;
	tg_poll_done();
}

/* One long poll: getUpdates, callback queries only, from the offset. */
static void
tg_poll_start(void)
{
	static char	*argv[] = { "curl", "-s", "-K", "-", NULL };
	struct buf	 cfg;
	char		*u;
	pid_t		 pid;

	u = tg_url("getUpdates");
	buf_init(&cfg);
	buf_printf(&cfg, "url = \"%s?timeout=%d&allowed_updates="
	    "%%5B%%22callback_query%%22%%5D", u, TG_POLL_S);
	if (tg_poll.offset > 0)
		buf_printf(&cfg, "&offset=%lld", tg_poll.offset);
	buf_printf(&cfg, "\"\nmax-time = %d\n", TG_POLL_S + 15);
	free(tg_poll.url);
	tg_poll.url = u;
	pid = notify_url_reader(tg.curl, argv, &cfg, &tg_poll.fd);
	buf_free(&cfg);
	if (pid == -1) {
		log_warn("phone (telegram): cannot poll");
		return;
	}
	tg_poll.pid = pid;
	tg_poll.eof = tg_poll.exited = 0;
	tg_poll.lf = loop_add(tg_poll.fd, POLLIN, tg_poll_read, NULL);
	log_debug("phone (telegram): getUpdates (curl %ld)", (long)pid);
}

static void
tg_poll_stop(void)
{
	if (tg_poll.pid > 0)
		kill(tg_poll.pid, SIGTERM);
	if (tg_poll.lf != NULL) {
		loop_del(tg_poll.lf);
		tg_poll.lf = NULL;
		close(tg_poll.fd);
		tg_poll.fd = -1;
	}
	/* (its exit is reaped and finds nothing open: no next poll) */
	tg_poll.eof = 1;
	if (tg_poll.retry_ready)
		loop_timer_del(&tg_poll.retry);
	tg_poll.retrying = 0;
	tg_poll.backoff = TG_BACKOFF_MIN;
	buf_free(&tg_poll.in);
	buf_init(&tg_poll.in);
}

/* The asks open changed: the long poll runs while there are any. */
void
tap_telegram_changed(void)
{
	int	want = tap_pending() && tap_telegram_on();

	if (want && tg_poll.pid == -1 && tg_poll.fd == -1 &&
	    !tg_poll.retrying) {
		if (tg_poll.backoff == 0)
			tg_poll.backoff = TG_BACKOFF_MIN;
		tg_poll_start();
	} else if (!want && (tg_poll.pid != -1 || tg_poll.retrying))
		tg_poll_stop();
}

/* A long poll runs now. */
int
tap_telegram_reading(void)
{
	return (tg_poll.pid != -1);
}

/*
 * The options were read again: a poll made with another token or API
 * goes (lisa reload after a token was fixed), the next one at once.
 */
void
tap_telegram_apply(void)
{
	char	*u = tap_telegram_on() ? tg_url("getUpdates") : NULL;

	if (tg_poll.url != NULL && (u == NULL || strcmp(u, tg_poll.url) != 0) &&
	    (tg_poll.pid != -1 || tg_poll.retrying)) {
		log_debug("phone (telegram): the bot's settings changed");
		tg_poll_stop();
		tap_working();	/* (what failed was the old settings') */
	}
	free(u);
	tap_telegram_changed();
}

void
tap_telegram_close(void)
{
	tg_poll_stop();
	free(tg_poll.url);
	tg_poll.url = NULL;
	tap_telegram_reset(NULL);
}
