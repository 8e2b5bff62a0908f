/*
 * lisa resume: the records of the agents of ended tmux servers
 * (cmd-resume-list.c reads and lists them, cmd-resume.c brings them back).
 */
#ifndef LISA_CMD_RESUME_H
#define LISA_CMD_RESUME_H

#define RESUME_MAX_FILE		(1024 * 1024)
#define RESUME_MAX_AGENTS	1024
#define RESUME_KEEP_MS		(7LL * 24 * 3600 * 1000)	/* a week */
#define RESUME_VERSION		1

/* A bad record, said (not in a menu: the pane would show it). */
#define resume_bad(l, ...) do {						\
	if (!(l)->quiet)						\
		fprintf(stderr, __VA_ARGS__);				\
	(l)->bad++;							\
} while (0)

struct resume_agent {
	char			*file;		/* its record's */
	char			*line;		/* as written: to remove it */
	char			*agent;
	char			*id;		/* NULL: none known */
	char			*cwd;
	char			*model;		/* NULL: not known */
	char			*session;
	char			*window;
	char			*cwd_format;	/* cwd, as tmux's -c takes it */
	char			*exe;		/* the program it ran; NULL */
	int			 use_exe;	/* (its script runs exe) */
	int			 window_index;
	int			 pane_index;
	long long		 saved;		/* its server's file, ms */
	char			 server[64];	/* its socket's name */
};

struct resume_list {
	struct resume_agent	 a[RESUME_MAX_AGENTS];
	int			 n;
	int			 bad;		/* records skipped */
	int			 quiet;		/* a menu's: said nowhere */
};

/* An agent started by this run, to be seen back before its record goes. */
struct resume_started {
	struct resume_agent	*ra;
	char			 pane[16];
	long			 pid;		/* the pane's: its script's sh */
	int			 plain;		/* its plain command */
	int			 restored;	/* in resurrect's pane */
	int			 done;
};

struct resume_run {
	struct resume_started	*s;
	int			 n;
	char			**made;		/* sessions this run made */
	int			 nmade;
	int			 dry_run;
};

const char	*resume_command(struct resume_agent *, int *);
void		 resume_forget(struct resume_agent *);
void		 resume_ended_at(struct resume_agent *, const char *, char *,
		     size_t);
int		 resume_is_shell(const char *);
int		 resume_check(struct lisa_ctx *, struct resume_started *, int);
void		 resume_agent_free(struct resume_agent *);
int		 resume_pick(struct resume_list *, const char *);
void		 resume_print(struct resume_list *);
void		 resume_list_free(struct resume_list *);
struct resume_list *resume_list_read(struct lisa_ctx *, int);

#endif
