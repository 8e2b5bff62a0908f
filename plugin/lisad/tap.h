/*
 * Answering from the phone (issue 47, docs/phone.md): tap.c keeps the
 * asks sent with buttons and takes the taps; tap-ntfy.c is ntfy's side
 * (the buttons on a push, the reply topic read while an ask is open),
 * tap-telegram.c a bot's (an inline keyboard, a long poll meanwhile).
 */
#ifndef LISA_TAP_H
#define LISA_TAP_H

#define TAP_EXPIRY_DEFAULT	900	/* s: @lisa-notify-button-expiry */

struct tap_cfg {
	int	 on;		/* @lisa-notify-buttons */
	int	 always;	/* @lisa-notify-always: a third button */
	int	 expiry_s;
};
extern struct tap_cfg	 tap_cfg;

/* An ask's buttons (ntfy takes three at most): choice, label, token. */
#define TAP_MAX_BUTTONS		3
#define TAP_LABEL_LEN		40
struct tap_buttons {
	int	 n;
	char	 choice[TAP_MAX_BUTTONS];
	char	 label[TAP_MAX_BUTTONS][TAP_LABEL_LEN];
	char	 token[TAP_MAX_BUTTONS][TAP_TOKEN_LEN];
};

/*
 * What came of a tap (OK: carried out), in words for the phone; NULL: a
 * tap of another helper's, to leave alone (said to nobody).
 */
typedef void	(*tap_reply_cb)(void *, int, const char *);

/* tap.c */
int	 tap_buttons(const char *, int, const char *, const char *,
	     const struct question *, struct tap_buttons *);
void	 tap_pane_over(const char *, int);
int	 tap_pending(void);
void	 tap_take(const char *, tap_reply_cb, void *);
void	 tap_reset(const char *);
void	 tap_option(const char *, const char *);
void	 tap_changed(void);
void	 tap_apply(void);
void	 tap_json(struct buf *);
void	 tap_failed(const char *, ...)
	     __attribute__((format(printf, 1, 2)));
void	 tap_reader_failed(const char *, int, int, const char *);
void	 tap_working(void);
void	 tap_close(void);

/* tap-ntfy.c */
void	 tap_ntfy_reset(const char *);
void	 tap_ntfy_option(const char *, const char *);
int	 tap_ntfy_on(void);
int	 tap_ntfy_actions(struct buf *, const struct tap_buttons *);
void	 tap_ntfy_changed(void);
void	 tap_ntfy_apply(void);
int	 tap_ntfy_reading(void);
void	 tap_ntfy_reaped(pid_t, int);
void	 tap_ntfy_close(void);

/* tap-telegram.c */
void	 tap_telegram_reset(const char *);
void	 tap_telegram_option(const char *, const char *);
int	 tap_telegram_on(void);
void	 tap_telegram_push(const char *, const char *,
	     const struct tap_buttons *);
void	 tap_telegram_changed(void);
void	 tap_telegram_apply(void);
int	 tap_telegram_reading(void);
void	 tap_telegram_reaped(pid_t, int);
void	 tap_telegram_close(void);

#endif
