/*
 * A run: one launch of an agent by `lisa run`, recorded in the per-user
 * runtime directory (runs/ID.json, 0600, replaced atomically) by the CLI
 * and by the wrapper in the pane (`lisa _run ID`), read by the helper and
 * by `lisa runs`.
 */
#ifndef LISA_RUN_RECORD_H
#define LISA_RUN_RECORD_H

#include <stddef.h>

struct buf;

struct run {
	char		 id[32];
	char		*name;		/* window name: "claude", "claude-r2" */
	char		*base;		/* the name without -rN */
	char		*server;	/* tmux socket path */
	char		*instance;	/* that server's "PID-START": a new
					   server at the same path is not it */
	char		**argv;
	int		 argc;
	char		*cwd;
	char		*fallback;	/* sh -c command, or NULL */
	int		 retries;	/* allowed crash retries */
	int		 attempt;	/* 1, 2, ... for this command */
	int		 on_fallback;	/* argv is the fallback */
	char		*prev;		/* the run this one retries */
	int		 crashes;	/* in this chain: signals, codes >= 128 */
	int		 failures;	/* other non-zero exits */
	char		*lifecycle;	/* launching, running, finished */
	char		 pane[16];
	long long	 pid;
	long long	 created;	/* ms */
	long long	 started;
	long long	 ended;
	int		 exit_code;	/* -1: none */
	int		 signal;	/* -1: none */
	char		*termination;	/* a JSON object, once finished */
	int		 escalated;	/* out of retries: ID.escalate, the
					   human's decision awaited */
	int		 current;	/* of the server running now
					   (run_list's finding) */
};

char	*run_dir(const char *, char **);
void	 run_init(struct run *);
void	 run_free(struct run *);
void	 run_new_id(char *, size_t);
int	 run_write(const char *, const struct run *, char **);
int		 run_id_valid(const char *);
int		 run_pane_valid(const char *);
int	 run_read(const char *, const char *, struct run *, char **);
int	 run_parse(const char *, size_t, struct run *, char **);
void	 run_json(struct buf *, const struct run *);
void	 run_termination(struct buf *, int, int, const char *,
	    const char *);
const char *run_outcome(int, int, const char *);
int	 run_next(const struct run *, int, struct run *);
char	*run_escalate_path(const char *, const char *);

#endif
