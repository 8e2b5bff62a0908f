/*
 * Answering from the phone (issue 47, docs/phone.md): an ask pushed with
 * buttons is remembered here, each button a token (tap-token.c) bound to
 * the dialog the user read; a tap that comes back is carried out only
 * through answer.c, as lisa answer is, and at most once.
 *
 * The key is made once (32 random bytes, hex, 0600 in lisa's state
 * directory, never through a link); a key file that cannot be read as
 * one is replaced, which only ends the buttons already sent. An ask is
 * forgotten when a button of it is taken, when its dialog is over (the
 * pane no longer waits on it), or when the helper stops; an expired one
 * a while after it expired (TAP_LATE_S, at most its own life), so that a
 * tap just too late is told so. A tap on one forgotten is refused, and
 * told if the reply topic is still read.
 */
#include <sys/types.h>
#include <sys/wait.h>
#ifdef __APPLE__
#include <sys/random.h>
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lisad.h"
#include "fleet.h"
#include "tap.h"
#include "tell.h"
#include "watch.h"

struct tap_ask {
	uint32_t		 id;
	char			*host;		/* NULL: here; else its name */
	int			 pane;		/* (the host's id, if remote) */
	char			*asks;		/* what the push said it asks */
	char			 answer[ANSWER_TOKEN_LEN];
	int64_t			 expires;	/* unix s */
	int64_t			 forget;	/* unix s: a late tap is told */
	TAILQ_ENTRY(tap_ask)	 entry;
};
static TAILQ_HEAD(, tap_ask) tap_asks = TAILQ_HEAD_INITIALIZER(tap_asks);

/* A tap under way: what to tell, and to whom, when answer.c is done. */
struct tap_taking {
	tap_reply_cb		 reply;
	void			*arg;
	char			 choice;
	char			*asks;
};

struct tap_cfg	 tap_cfg = { 1, 0, TAP_EXPIRY_DEFAULT };
static unsigned long long tap_ntaken, tap_nrefused;
/* Why taps cannot come now (a refused token, a stalled stream), for doctor. */
static char		 tap_error[160];
static int64_t		 tap_error_at;
static unsigned char	 tap_key[TAP_KEY_LEN];
static int		 tap_key_ok;
static char		 tap_helper[TAP_HELPER_LEN + 1];	/* our name */
static uint32_t		 tap_next_id = 1;
static struct loop_timer tap_timer;
static int		 tap_timer_ready;

#define TAP_LATE_S	60
#define TAP_TELL_MAX	5	/* refusals told a minute, at most */

static int
tap_hex(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	return (-1);
}

/* The key from DATA (64 hex digits and maybe a newline); 0 if it is one. */
static int
tap_key_parse(const char *data, size_t len)
{
	int	i, hi, lo;

	if (len != TAP_KEY_LEN * 2 && !(len == TAP_KEY_LEN * 2 + 1 &&
	    data[len - 1] == '\n'))
		return (-1);
	for (i = 0; i < TAP_KEY_LEN; i++) {
		if ((hi = tap_hex(data[2 * i])) == -1 ||
		    (lo = tap_hex(data[2 * i + 1])) == -1)
			return (-1);
		tap_key[i] = (unsigned char)(hi << 4 | lo);
	}
	return (0);
}

/*
 * The key, read or made once: 0 if there is one. Asked at the first ask
 * with buttons, so a user without them never has a key file.
 */
static int
tap_key_load(void)
{
	char	*dir, *path, *cause, *data, hex[TAP_KEY_LEN * 2 + 2];
	size_t	 len;
	int	 i;

	if (tap_key_ok)
		return (0);
	if (runtime_state_dir("phone", &dir, &cause) != 0) {
		log_warnx("phone buttons: %s", cause);
		free(cause);
		return (-1);
	}
	xasprintf(&path, "%s/key", dir);
	free(dir);
	if (runtime_read_file(path, sizeof hex, &data, &len) == 0) {
		tap_key_ok = tap_key_parse(data, len) == 0;
		free(data);
		if (!tap_key_ok)
			log_warnx("phone buttons: %s is not a key: a new one "
			    "(buttons sent before are refused)", path);
	} else if (errno != ENOENT)
		log_warn("phone buttons: %s: a new key", path);
	if (!tap_key_ok) {
		if (getentropy(tap_key, sizeof tap_key) != 0) {
			log_warn("phone buttons: no random bytes for a key");
			free(path);
			return (-1);
		}
		for (i = 0; i < TAP_KEY_LEN; i++)
			snprintf(hex + 2 * i, 3, "%02x", tap_key[i]);
		hex[TAP_KEY_LEN * 2] = '\n';
		if (runtime_write_file(path, hex, TAP_KEY_LEN * 2 + 1) != 0) {
			log_warn("phone buttons: cannot write %s", path);
			free(path);
			return (-1);
		}
		tap_key_ok = 1;
	}
	free(path);
	tap_helper_id(tap_key, lisad.instance, tap_helper);
	return (0);
}

static void
tap_ask_free(struct tap_ask *a)
{
	TAILQ_REMOVE(&tap_asks, a, entry);
	free(a->host);
	free(a->asks);
	free(a);
}

/* The next expiry's deadline (no ask: no timer). */
static void
tap_timer_set(void)
{
	struct tap_ask	*a;
	int64_t		 first = -1, now = time_real_ms() / 1000;

	TAILQ_FOREACH(a, &tap_asks, entry) {
		if (first == -1 || a->forget < first)
			first = a->forget;
	}
	if (!tap_timer_ready)
		return;
	loop_timer_del(&tap_timer);
	if (first != -1)
		loop_timer_add(&tap_timer, (uint64_t)(first > now ?
		    first - now : 0) * 1000 + 500);
}

static void
tap_expire_cb(void *arg)
{
	struct tap_ask	*a, *a1;
	int64_t		 now = time_real_ms() / 1000;

	TAILQ_FOREACH_SAFE(a, &tap_asks, entry, a1) {
		if (now >= a->forget) {
			log_debug("phone: ask %u expired", a->id);
			tap_ask_free(a);
		}
	}
	tap_timer_set();
	tap_changed();
}

/*
 * A button's label from an option as drawn ("2. Option B"): its text,
 * cut on a character's edge, nothing in it that would end an ntfy
 * action's field (, ; quotes) or a line.
 */
static void
tap_label(const char *option, char *out, size_t len)
{
	const char	*s = option + strspn(option, "0123456789");
	size_t		 i = 0;

	if (s != option && *s == '.')
		s++;
	s += strspn(s, " ");
	for (; *s != '\0' && i + 1 < len; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f ||
		    strchr(",;\"'\\", *s) != NULL)
			out[i++] = ' ';
		else
			out[i++] = *s;
	}
	/* Cut: not half a character (its last one dropped whole). */
	if (*s != '\0') {
		while (i > 0 && ((unsigned char)out[i - 1] & 0xc0) == 0x80)
			i--;
		if (i > 0 && ((unsigned char)out[i - 1] & 0x80) != 0)
			i--;
	}
	out[i] = '\0';
}

/*
 * The buttons for Q (NULL: a permission): Allow, Deny and (if turned on)
 * Always; for a question of another kind, its first options by number.
 */
static void
tap_choices(const struct question *q, struct tap_buttons *b)
{
	int	i;

	if (q == NULL || strcmp(q->kind, "permission") == 0) {
		b->n = tap_cfg.always ? 3 : 2;
		b->choice[0] = TAP_ALLOW;
		b->choice[1] = TAP_DENY;
		b->choice[2] = TAP_ALWAYS;
		strlcpy(b->label[0], "Allow", sizeof b->label[0]);
		strlcpy(b->label[1], "Deny", sizeof b->label[1]);
		strlcpy(b->label[2], "Always", sizeof b->label[2]);
		return;
	}
	b->n = q->noptions < TAP_MAX_BUTTONS ? q->noptions : TAP_MAX_BUTTONS;
	for (i = 0; i < b->n; i++) {
		b->choice[i] = (char)('1' + i);
		tap_label(q->options[i], b->label[i], sizeof b->label[i]);
		if (b->label[i][0] == '\0')
			snprintf(b->label[i], sizeof b->label[i], "%d", i + 1);
	}
}

/*
 * Pane PANE's dialog (of HOST, NULL: here), its answer token ANSWER (the
 * host's), what the push says it asks (ASKS) and the dialog (Q, NULL for
 * a permission): remembered, its buttons into B. 0 if made (then B->n
 * buttons), -1 if buttons are off or cannot be made.
 */
int
tap_buttons(const char *host, int pane, const char *answer, const char *asks,
    const struct question *q, struct tap_buttons *b)
{
	struct tap_ask		*a;
	struct tap_token	 t;
	int			 i;

	b->n = 0;
	if (!tap_cfg.on || answer == NULL || *answer == '\0' ||
	    tap_key_load() != 0)
		return (-1);
	tap_choices(q, b);
	if (b->n == 0)
		return (-1);
	if (!tap_timer_ready) {
		loop_timer_init(&tap_timer, tap_expire_cb, NULL);
		tap_timer_ready = 1;
	}
	/* One ask per pane: a newer dialog there ends the older's buttons. */
	tap_pane_over(host, pane);
	a = xcalloc(1, sizeof *a);
	a->id = tap_next_id++;
	a->host = host != NULL ? xstrdup(host) : NULL;
	a->pane = pane;
	a->asks = xstrdup(asks != NULL ? asks : "");
	strlcpy(a->answer, answer, sizeof a->answer);
	a->expires = time_real_ms() / 1000 + tap_cfg.expiry_s;
	a->forget = a->expires + (tap_cfg.expiry_s < TAP_LATE_S ?
	    tap_cfg.expiry_s : TAP_LATE_S);
	strlcpy(t.helper, tap_helper, sizeof t.helper);
	for (i = 0; i < b->n; i++) {
		t.ask = a->id;
		t.choice = b->choice[i];
		t.expires = a->expires;
		if (tap_token_make(tap_key, &t, a->host, a->answer,
		    b->token[i]) != 0) {
			free(a->host);
			free(a->asks);
			free(a);
			b->n = 0;
			return (-1);
		}
	}
	TAILQ_INSERT_TAIL(&tap_asks, a, entry);
	log_debug("phone: ask %u for %%%d%s%s, %d buttons", a->id, pane,
	    host != NULL ? "@" : "", host != NULL ? host : "", b->n);
	tap_timer_set();
	tap_changed();
	return (0);
}

/*
 * Pane PANE's (of HOST, NULL: here) dialog is over (answered, or gone):
 * its buttons end.
 */
void
tap_pane_over(const char *host, int pane)
{
	struct tap_ask	*a, *a1;
	int		 n = 0;

	TAILQ_FOREACH_SAFE(a, &tap_asks, entry, a1) {
		if (a->pane == pane && (host == NULL ? a->host == NULL :
		    a->host != NULL && strcmp(host, a->host) == 0)) {
			tap_ask_free(a);
			n++;
		}
	}
	if (n != 0) {
		tap_timer_set();
		tap_changed();
	}
}

int
tap_pending(void)
{
	return (!TAILQ_EMPTY(&tap_asks));
}

static void
tap_done(void *arg, const char *refused, const char *chose)
{
	struct tap_taking	*tk = arg;
	char			 text[512];

	if (refused != NULL) {
		tap_nrefused++;
		snprintf(text, sizeof text, "not answered: %s", refused);
	} else {
		tap_ntaken++;
		snprintf(text, sizeof text, "%s%s%s%s",
		    tk->choice == TAP_DENY ? "denied" : tk->choice ==
		    TAP_ALWAYS ? "always allowed" : tk->choice == TAP_ALLOW ?
		    "allowed" : "answered",
		    *chose != '\0' ? " (" : "", chose, *chose != '\0' ? ")" : "");
	}
	if (refused == NULL && *tk->asks != '\0') {
		strlcat(text, ": ", sizeof text);
		strlcat(text, tk->asks, sizeof text);
	}
	tk->reply(tk->arg, refused == NULL, text);
	free(tk->asks);
	free(tk);
}

/* The host's lisa answer is done: 0, or its words why not. */
static void
tap_remote_done(void *arg, int rc, const char *out)
{
	char	why[256], *nl;
	const char *s = out;

	if (rc == 0) {
		tap_done(arg, NULL, "");
		return;
	}
	/* ("lisa: %3 not answered: the dialog changed": the reason) */
	if ((s = strstr(out, "not answered: ")) != NULL)
		s += strlen("not answered: ");
	else if (strncmp(out, "lisa: ", 6) == 0)
		s = out + 6;
	else
		s = out;
	strlcpy(why, *s != '\0' ? s : "the host did not answer", sizeof why);
	if ((nl = strchr(why, '\n')) != NULL)
		*nl = '\0';
	tap_done(arg, why, "");
}

/*
 * A remote ask's tap: lisa answer on its host, through the bridge, with
 * the host's token, so the host checks it as it checks its own user's.
 */
static void
tap_remote(struct tap_taking *tk, const char *host, int pane, char choice,
    const char *token)
{
	struct fleet_host	*h;
	char			*argv[5], id[16], *cause = NULL;

	if ((h = fleet_find(host)) == NULL) {
		tap_done(tk, "that host is not in @lisa-hosts now", "");
		return;
	}
	snprintf(id, sizeof id, "%%%d", pane);
	argv[0] = "answer";
	argv[1] = id;
	argv[2] = (char *)tap_choice_name(choice);
	argv[3] = "--expect";
	argv[4] = (char *)token;
	if (fleet_send_cb(h, argv, 5, tap_remote_done, tk, &cause) != 0) {
		tap_done(tk, cause, "");
		free(cause);
	}
}

/*
 * A tap refused before any ask was used: counted, and told at most
 * TAP_TELL_MAX times a minute (whoever can post to the reply topic could
 * make every post a push to the user's phone); the rest are logged.
 */
static void
tap_refuse(tap_reply_cb reply, void *arg, const char *text)
{
	static uint64_t	told[TAP_TELL_MAX];
	static int	next;
	uint64_t	now = time_mono_ms();

	tap_nrefused++;
	if (told[next] != 0 && now - told[next] < 60000) {
		log_debug("phone: %s (not told: %d told this minute)", text,
		    TAP_TELL_MAX);
		reply(arg, 0, NULL);
		return;
	}
	told[next] = now;
	next = (next + 1) % TAP_TELL_MAX;
	reply(arg, 0, text);
}

/*
 * A tap's TOKEN, as it came back: carried out if it is a button of an
 * ask still open, made by us for that dialog, not expired; REPLY is told
 * what came of it (now, or when answer.c is done), whatever that was.
 */
void
tap_take(const char *token, tap_reply_cb reply, void *arg)
{
	struct tap_ask		*a;
	struct tap_token	 t;
	struct tap_taking	*tk;
	struct pane		*p;
	const char		*why;
	char			 text[256];

	if ((why = tap_token_parse(token, &t)) == NULL && tap_key_ok &&
	    strcmp(t.helper, tap_helper) != 0) {
		/* (another tmux server's helper reads this topic too) */
		log_debug("phone: a tap for helper %s, not ours", t.helper);
		reply(arg, 0, NULL);
		return;
	}
	if (why != NULL) {
		log_debug("phone: a tap refused: %s", why);
		snprintf(text, sizeof text, "not answered: %s", why);
		tap_refuse(reply, arg, text);
		return;
	}
	TAILQ_FOREACH(a, &tap_asks, entry) {
		if (a->id == t.ask)
			break;
	}
	if (a == NULL) {
		/* (taken, expired, its dialog over, or another helper's) */
		tap_refuse(reply, arg, "not answered: the button is used, "
		    "expired or its dialog is over");
		return;
	}
	if (!tap_key_ok)
		why = "lisa has no key for its buttons";
	else
		why = tap_token_check(tap_key, token, a->host, a->answer,
		    time_real_ms() / 1000, &t);
	if (why != NULL) {
		/* (a forgery ends nothing: the ask stays for its own) */
		log_debug("phone: ask %u: a tap refused: %s", a->id, why);
		snprintf(text, sizeof text, "not answered: %s", why);
		tap_refuse(reply, arg, text);
		if (strcmp(why, "the button has expired") == 0) {
			tap_ask_free(a);
			tap_timer_set();
			tap_changed();
		}
		return;
	}
	/* Used once: whatever comes of it, no second tap is taken. */
	tk = xcalloc(1, sizeof *tk);
	tk->reply = reply;
	tk->arg = arg;
	tk->choice = t.choice;
	tk->asks = a->asks;
	a->asks = NULL;
	p = a->host == NULL ? pane_find(a->pane) : NULL;
	strlcpy(text, a->answer, sizeof text);
	log_debug("phone: ask %u: %s", a->id, tap_choice_name(t.choice));
	if (a->host != NULL) {
		tap_remote(tk, a->host, a->pane, t.choice, text);
		tap_ask_free(a);
		tap_timer_set();
		tap_changed();
		return;
	}
	tap_ask_free(a);
	tap_timer_set();
	tap_changed();
	if (p == NULL) {
		tap_done(tk, "the pane is gone", "");
		return;
	}
	answer_start_by(p, tap_choice_name(t.choice), text, "phone", tap_done,
	    tk);
}

/* Before the options are read again: lisa's defaults, each channel's. */
void
tap_reset(const char *curl)
{
	tap_cfg.on = 1;
	tap_cfg.always = 0;
	tap_cfg.expiry_s = TAP_EXPIRY_DEFAULT;
	tap_ntfy_reset(curl);
	tap_telegram_reset(curl);
}

/* An option: the buttons' own, or a channel's. */
void
tap_option(const char *name, const char *value)
{
	if (strcmp(name, "@lisa-notify-buttons") == 0)
		tap_cfg.on = options_flag(value) == 1;
	else if (strcmp(name, "@lisa-notify-always") == 0)
		tap_cfg.always = options_flag(value) == 1;
	else if (strcmp(name, "@lisa-notify-button-expiry") == 0)
		tap_cfg.expiry_s = atoi(value) > 0 ? atoi(value) :
		    TAP_EXPIRY_DEFAULT;
	tap_ntfy_option(name, value);
	tap_telegram_option(name, value);
}

/* The options were read again: each channel's reader as they say. */
void
tap_apply(void)
{
	tap_ntfy_apply();
	tap_telegram_apply();
}

/* The asks open changed: each channel reads taps while there are any. */
void
tap_changed(void)
{
	tap_ntfy_changed();
	tap_telegram_changed();
}

/*
 * The way taps come back failed (a channel's reader, tap-ntfy.c or
 * tap-telegram.c): said once in the log, kept for doctor until it works
 * again. Words of ours only: never what a server wrote.
 */
void
tap_failed(const char *fmt, ...)
{
	char	why[sizeof tap_error];
	va_list	ap;
	int	n;

	n = snprintf(why, sizeof why, "taps not read: ");
	va_start(ap, fmt);
	vsnprintf(why + n, sizeof why - n, fmt, ap);
	va_end(ap);
	if (strcmp(why, tap_error) != 0)
		log_warnx("phone: %s", why);
	strlcpy(tap_error, why, sizeof tap_error);
	tap_error_at = time_real_ms();
}

/*
 * A reader's curl ended with STATUS, not as it should: said by its exit
 * code. WHAT names the reader, STALL_S is how long it waits for a byte,
 * HINT the setting a refusal (-f: exit 22) points at. A signal is ours.
 */
void
tap_reader_failed(const char *what, int status, int stall_s,
    const char *hint)
{
	int	code;

	if (!WIFEXITED(status) || (code = WEXITSTATUS(status)) == 0)
		return;
	if (code == 28)
		tap_failed("%s stalled (nothing for %d s)", what, stall_s);
	else if (code == 22)
		tap_failed("the server refused %s (%s)", what, hint);
	else
		tap_failed("%s: %s (curl exit %d)", what,
		    notify_url_exit_text(code), code);
}

/* A reader heard its server again, or its settings changed: it is over. */
void
tap_working(void)
{
	if (tap_error[0] != '\0')
		log_debug("phone: over: %s", tap_error);
	tap_error[0] = '\0';
	tap_error_at = 0;
}

/* For lisa info and doctor: what is on, open, read, and what came. */
void
tap_json(struct buf *b)
{
	struct tap_ask	*a;
	int		 n = 0;

	TAILQ_FOREACH(a, &tap_asks, entry)
		n++;
	buf_printf(b, "{\"buttons\":%s,\"ntfy\":%s,\"telegram\":%s,"
	    "\"asks_open\":%d,\"reading\":%s,\"taps_taken\":%llu,"
	    "\"taps_refused\":%llu", tap_cfg.on ? "true" : "false",
	    tap_ntfy_on() ? "true" : "false",
	    tap_telegram_on() ? "true" : "false", n,
	    tap_ntfy_reading() || tap_telegram_reading() ? "true" : "false",
	    tap_ntaken, tap_nrefused);
	json_key(b, "error");
	json_cstr(b, tap_error[0] != '\0' ? tap_error : NULL);
	json_key(b, "error_at");
	json_int_or_null(b, tap_error_at != 0, (long long)tap_error_at);
	buf_addc(b, '}');
}

void
tap_close(void)
{
	struct tap_ask		*a;
	volatile unsigned char	*v;
	size_t			 i;

	while ((a = TAILQ_FIRST(&tap_asks)) != NULL)
		tap_ask_free(a);
	if (tap_timer_ready)
		loop_timer_del(&tap_timer);
	/* (volatile: kept, where explicit_bzero is not everywhere) */
	for (v = tap_key, i = 0; i < sizeof tap_key; i++)
		v[i] = 0;
	tap_key_ok = 0;
}
