/* The CLI, lisa: what the files of plugin/lisa share (one per command). */
#ifndef LISA_CLI_H
#define LISA_CLI_H

#include "shared.h"

struct lisa_ctx {
	struct server_id	 sid;
	char			*rundir;
	char			*sockpath;
	char			*lockpath;
	char			*instance;	/* client_instance's, cached */
	/*
	 * lisa key --to FILE --at 'PANE HEIGHT VERSION INSTANCE' (bindings,
	 * ui-install.c): the tmux command goes to FILE, which the pressing
	 * client sources; what tmux knows of the client came with the key.
	 */
	char			*key_to;
	char			 key_pane[32];
	int			 key_jump;	/* its window is a jump's */
	long			 key_height;
	char			 key_version[32];
};

/* args.c: the command line's words. */
struct args {
	const char	*label;
	const char	*path;
	int		 json;
	int		 verbose;
	int		 follow;
	int		 dry_run;
	const char	*agent;
	const char	*since;
	long long	 since_ms;	/* --since, epoch ms; 0 if none */
	const char	*until;
	const char	*timeout_s;
	double		 timeout;
	const char	*bytes_s;
	long long	 bytes;
	int		 wait;
	int		 force;
	int		 fallback;
	int		 all;
	int		 restored;	/* resume: into tmux-resurrect's panes */
	const char	*host;		/* resume: on this fleet host */
	const char	*expect;	/* nudge, kill: the pane's incarnation;
					   answer: its dialog's token */
	const char	*reply;		/* answer: a reply's text */
	const char	*to;		/* key: the file for its tmux command */
	const char	*at;		/* key: "PANE HEIGHT VERSION INSTANCE" */
	int		 help;
	int		 version;
	int		 argc;
	char		**argv;
	char		**opts;		/* every option given, to check */
	int		 nopts;
};
void	 args_parse(int, char **, struct args *);
struct lisa_cmd;
void	 args_check(const struct lisa_cmd *, struct args *);
__attribute__((noreturn)) void args_usage_error(const struct lisa_cmd *,
	    const char *, ...) printflike(2, 3);
long long args_since(const char *);

/* cmd.c: the command table. */
struct lisa_cmd {
	const char	*name;
	const char	*alias;
	const char	*args;		/* usage, after the name */
	const char	*what;		/* one line of help */
	int		 min_args;
	int		 max_args;	/* -1: any */
	int		 server;	/* needs a running tmux server */
};
const struct lisa_cmd *lisa_cmd_find(const char *);
void	 lisa_cmd_usage(FILE *, const struct lisa_cmd *);
void	 lisa_cmd_usage_all(FILE *);
const char *lisa_cmd_man(void);
void	 lisa_cmd_check(const struct lisa_cmd *, int);

int	 client_setup(struct lisa_ctx *, const char *, const char *, char **);
int	 client_server_up(struct lisa_ctx *);
int	 client_connect(const char *, char **);
int	 client_request(int, const char *, char **, char **);
int	 client_request_ms(int, const char *, char **, char **, int);
int	 client_call(struct lisa_ctx *, const char *, struct json_doc **,
	    char **);
int	 client_call_ms(struct lisa_ctx *, const char *, struct json_doc **,
	     char **, int);
#define CLIENT_TIMEOUT_MS	10000
#define CLIENT_KEY_MS		3000	/* lisa key --to: a client waits */
#define CLIENT_ANSWER_MS	30000	/* lisa answer: a reply waits its prompt */
int	 client_ask_pane(struct lisa_ctx *, const char *, const char *,
	    struct json_doc **, char **);
int	 client_tmux(struct lisa_ctx *, char **, const char *const *);
const char *client_instance(struct lisa_ctx *);
int	 client_tmux_all(struct lisa_ctx *, char **, const char *const *);
char	*client_tmux_find(struct lisa_ctx *, const char *const *, char,
	    const char *);
int	 client_capture(const char *, const char *const *, char **);
int	 client_capture_err(const char *, const char *const *, char **, int);
int	 client_feed(const char *, const char *const *, const char *);
char	*client_self(void);
void	 client_tmux_caps(struct lisa_ctx *, struct tmux_caps *);

/* cmd-status.c */
char	*client_resolve(struct lisa_ctx *, const char *);
int	 cmd_status(struct lisa_ctx *, const char *, int);
int	 cmd_explain(struct lisa_ctx *, const char *);
int	 cmd_wait(struct lisa_ctx *, const char *, const char *, double);

/* cmd-key-to.c */
int	 key_to_setup(struct lisa_ctx *, const char *, const char *);
int	 key_to_write(struct lisa_ctx *, char **, int);
int	 key_to_done(struct lisa_ctx *, const char *, int);

/* cmd-menu.c */
char	*menu_str(struct json_doc *, int, const char *);
char	*menu_client_pane(struct lisa_ctx *, const char *);
int	 menu_exec(struct lisa_ctx *, char **, int);
int	 menu_message(struct lisa_ctx *, const char *, const char *);
char	*menu_self(struct lisa_ctx *, const char *, const char *);
char	*menu_self2(struct lisa_ctx *, const char *, const char *,
	    const char *);
/* An agent as the menus show it (cmd-menu.c, cmd-menu-many.c). */
struct menu_agent {
	char	*pane;		/* "%N", or "%N@HOST" for a remote one */
	char	*host;		/* NULL: local */
	char	*target;	/* session:window.pane */
	char	*session;
	char	*window;	/* its name */
	long long window_index;
	long long pane_index;
	char	*where;		/* what the menu says: [session:]window */
	char	*agent;
	char	*detail;
	int	 group;
	int	 state;
	long long age_ms;
};
void	 menu_agent_free(struct menu_agent *);
struct menu_stale;
int	 menu_agents(struct lisa_ctx *, struct menu_agent **, size_t *,
	    struct menu_stale **, size_t *);
void	 menu_free(struct menu_agent *, size_t);
/* cmd-key-next.c */
int	 cmd_key_next(struct lisa_ctx *, const char *);
void	 menu_age(long long, char *, size_t);
struct menu_args {		/* a display-menu command, built up */
	char	**argv;
	int	  argc;
};
void	 menu_text(struct buf *, const char *);
char	*menu_run_shell(const char *);
void	 menu_run_lisa(struct lisa_ctx *, const char *const *, char *, size_t);
int	 cmd_key_act(struct lisa_ctx *, const char *, const char *);
char	*menu_buffer_take(struct lisa_ctx *, const char *);
#define MENU_OTHER_LINES 12	/* a menu's lines besides its agents' */
size_t	 menu_rows(struct lisa_ctx *, const char *);
size_t	 menu_cols(struct lisa_ctx *, const char *);
size_t	 menu_urgent(struct menu_agent *, size_t, size_t);
int	 menu_filter(struct lisa_ctx *, const char *, struct menu_agent *,
	    size_t *, char *, size_t);
void	 menu_groups_items(struct lisa_ctx *, const char *, struct menu_args *,
	    struct menu_agent *, size_t);
void	 menu_find_item(struct lisa_ctx *, const char *, struct menu_args *);
void	 menu_prompt_item(struct menu_args *, const char *, const char *,
	    const char *, const char *, const char *);
void	 menu_add(struct menu_args *, char *);
void	 menu_start(struct menu_args *, const char *, const char *);
void	 menu_item(struct menu_args *, const char *, const char *,
	    const char *);

/* cmd-tmux-hook.c: what tmux's hooks run; what a dead helper left. */
int	 cmd_hook(int, char **);
void	 stop_leftovers(struct lisa_ctx *);

/* cmd-escalate.c: a run out of retries, decided when the human wants. */
int	 cmd_key_escalate(struct lisa_ctx *, const char *, const char *);
void	 escalate_menu_items(struct lisa_ctx *, const char *,
	    struct menu_args *);
int	 escalate_next(struct lisa_ctx *, const char *);
int	 escalate_settle(struct lisa_ctx *, const char *);
int	 cmd_key(struct lisa_ctx *, const char *, const char *,
	    const char *);
/* cmd-details.c */
int	 cmd_details(struct lisa_ctx *, const char *, int);
int	 cmd_key_details(struct lisa_ctx *, const char *);

/* cmd-run.c */
void	 cmd_run_check(int, char **);
struct run;
int	 cmd_run(struct lisa_ctx *, int, char **);
int	 cmd_run_wrapper(struct lisa_ctx *, const char *);
int	 cmd_runs(struct lisa_ctx *, int);
int	 run_list(struct lisa_ctx *, struct run **, size_t *, int);
char	*run_launch(struct lisa_ctx *, const struct run *, const char *);

/* cmd-act.c */
int	 cmd_nudge(struct lisa_ctx *, const char *, const char *, int,
	    const char *);
int	 cmd_kill(struct lisa_ctx *, const char *, int, const char *);
void	 cmd_answer_check(const struct lisa_cmd *, const char *, const char *);
int	 cmd_answer(struct lisa_ctx *, const char *, const char *, const char *,
	    const char *);
int	 cmd_resume(struct lisa_ctx *, struct args *);
void	 resume_menu_items(struct lisa_ctx *, const char *,
	    struct menu_args *);
int	 cmd_key_resume(struct lisa_ctx *, const char *, const char *);
int	 resume_count(struct lisa_ctx *);
int	 act_has_agent(struct lisa_ctx *, const char *);
struct act_facts {
	int	 agent;		/* the helper sees one (alive or ended) */
	int	 ended;		/* crashed or completed */
	int	 run;		/* a `lisa run` record */
	int	 fallback;	/* with a fallback */
	int	 dialog;	/* it waits on anything but its prompt */
	char	 incarnation[64];	/* its process and agent, now */
	char	 token[256];	/* its dialog's answer token, if lisa read it */
	char	 asks[160];	/* "asks to run: touch x", "asks: ..." */
	char	 kind[16];	/* permission, question, ... */
	char	 options[QUESTION_MAX_OPTIONS][96]; /* a question's, drawn */
	int	 noptions;
};
void	 act_facts(struct lisa_ctx *, const char *, struct act_facts *);
struct json_doc *act_status(struct lisa_ctx *, const char *, int *);
int	 cmd_dismiss(struct lisa_ctx *, const char *);
int	 event_of_pane(struct lisa_ctx *, struct json_doc *, int, const char *,
	    const char *);
int	 cmd_retry(struct lisa_ctx *, const char *, int, int);

/* cmd-hooks.c */
int	 cmd_hooks(const char *, const char *, int);
char	*hooks_read_file(const char *, size_t *, int *);
int	 hooks_write_file(const char *, const char *, size_t);
int	 hooks_own_file(const char *, int (*)(const char *), const char *,
	     size_t, int, int, const char *);
int	 hooks_opencode(const char *, int, int);
int	 hooks_copilot(int, int);
const char *hooks_copilot_event(const char *);
int	 cmd_notify(struct lisa_ctx *, const char *, const char *);

/* cmd-fleet.c, cmd-bridge.c */
int	 fleet_is_target(const char *);
int	 cmd_remote(struct lisa_ctx *, const char *, const char *, char **,
	    int);
int	 cmd_hosts(struct lisa_ctx *, int);
/* cmd-events.c */
int	 cmd_events(struct lisa_ctx *, struct args *);
int	 cmd_bridge(struct lisa_ctx *);
int	 cmd_key_jump(struct lisa_ctx *, const char *, const char *);

/* cmd-info.c */
int	 cmd_info(struct lisa_ctx *, int);

/* cmd-doctor.c */
int	 cmd_doctor(struct lisa_ctx *, int);

#endif
