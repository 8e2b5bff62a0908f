/*
 * What answer.c and answer-keys.c share: an answer under way, its phases,
 * and the keys and reads that move it on.
 */
#ifndef ANSWER_INT_H
#define ANSWER_INT_H

#define ANSWER_REPLY_MS		5000	/* tmux's answer to a screen read */
#define ANSWER_RECHECK_MS	300	/* between reads after the key */
/*
 * A dialog is answered once two reads this far apart show it: a TUI takes
 * keys a moment after it draws (Claude Code lost a key sent sooner). One
 * still drawn ANSWER_AGAIN_MS after its key, with nothing at all moved in
 * the pane since, did not take it: the key goes once more.
 */
#define ANSWER_SETTLE_MS	400
#define ANSWER_AGAIN_MS		1500
#define ANSWER_GONE_MS		4000	/* the dialog must have gone by then */
#define ANSWER_NEXT_MS		3000	/* then, the verdict's move */
#define ANSWER_PROMPT_MS	10000	/* a reply: its prompt back by then */

/*
 * The pane as the key left: its output, the agent's own signals, its
 * screen. Nothing of it moved, and the dialog is still drawn: the key
 * was not taken.
 */
struct answer_mark {
	uint64_t	 out_bytes;
	int		 muted;
	uint64_t	 hook_at;
	uint64_t	 session_at;
	uint64_t	 transcript_at;
	uint64_t	 title_at;
	uint64_t	 codex_at;
	char		*screen;
};

enum answer_phase {
	ANSWER_READ,		/* the first read: check, then the key */
	ANSWER_POINTED,		/* answer_enter: the pointer moved? Enter */
	ANSWER_SENT,		/* the key is in: has the dialog gone? */
	ANSWER_NEXT,		/* it has: what does the agent do now? */
	ANSWER_FORM,		/* a deny: waiting for its reject form */
	ANSWER_PROMPT,		/* a reply: waiting for the prompt */
	ANSWER_TYPING,		/* a reply: act_nudge types it */
};

struct answer {
	uint64_t		 id;
	struct act_who		 who;
	char			 what[16];	/* allow, deny, always, N */
	char			*text;		/* a reply's */
	char			 token[ANSWER_TOKEN_LEN];	/* the one seen */
	char			 key[64];
	struct question		 q;		/* the dialog answered */
	char			 chose[96];
	int			 pick;		/* its option's index */
	int			 buttons;	/* OpenCode's: read with colour */
	int			 list;		/* ... and moved Up or Down */
	int			 shown;		/* the list's selection last read */
	int			 settled;	/* read twice, ANSWER_SETTLE_MS apart */
	int			 reread;	/* one that did not match, again */
	int			 again;		/* its key sent a second time */
	int			 history;	/* this read: with the history */
	char			 kind[16];	/* ... of this kind of dialog */
	enum answer_phase	 phase;
	uint64_t		 sent_at;
	uint64_t		 still_since;	/* a read put off since */
	struct answer_mark	 mark;		/* the pane when the key went */
	struct listener_conn	*lc;
	answer_done_cb		 done;		/* or a caller of ours */
	void			*done_arg;
	const char		*by;		/* user, phone: the event's */
	struct loop_timer	 timer;
	struct loop_timer	 deadline;
	TAILQ_ENTRY(answer)	 entry;
};

void	answer_finish(struct answer *, const char *);
void	answer_send(struct answer *, struct pane *);
int	answer_needs_enter(struct answer *, struct pane *);
void	answer_enter(struct answer *, struct pane *);
void	answer_button(struct answer *, struct pane *, const struct question *,
	    const char *);
void	answer_mark_set(struct answer_mark *, struct pane *, const char *,
	    size_t);
int	answer_mark_still(const struct answer_mark *, struct pane *,
	    const char *, size_t);
void	answer_form(struct answer *, struct pane *, const char *, size_t);
void	answer_move(struct answer *, struct pane *, const char *);
char	*answer_plain(const char *);

#endif
