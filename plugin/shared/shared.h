/*
 * What plugin/shared offers the two programs, the helper (plugin/lisad)
 * and the CLI (plugin/lisa): they include this header and nothing else of
 * this folder. Declared here: which server, the runtime directory, JSON;
 * each subsystem with more to say has its own header, included below.
 */
#ifndef LISA_SHARED_H
#define LISA_SHARED_H

#include <sys/types.h>

#include <poll.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"
#include "control.h"

#define LISA_VERSION "0.1.0"

/* Index under which lisa's hooks live in tmux's hook arrays. */
#define LISA_HOOK_INDEX 5472

/* server-find.c: which tmux server, and where its helper's files go. */
struct server_id {
	char	*socket;	/* tmux socket path */
	char	*key;		/* basename-hash, names our runtime files */
};
int	 server_find(struct server_id *, const char *label, const char *path,
	    char **cause);
void	 server_free(struct server_id *);

/* runtime.c */
int	 runtime_dir(char **path, char **cause);
int	 runtime_state_dir(const char *, char **, char **);
char	*runtime_path(const char *dir, const char *key, const char *suffix);
struct sockaddr_un;
int	 runtime_sockaddr(const char *, struct sockaddr_un *, char **);
int	 runtime_lock(const char *path, pid_t *holder, char **cause);
int	 runtime_read_pid(const char *path, pid_t *);
int	 runtime_lock_held(const char *);
int	 runtime_write_file(const char *, const char *, size_t);
int	 runtime_dir_writable(const char *, size_t, char **);
int	 runtime_read_file(const char *, size_t, char **, size_t *);
int	 runtime_lines(const char *, size_t, int,
	    void (*)(const char *, size_t));

/* rfc3339.c: "2026-11-27T09:14:02.112Z" as epoch ms, 0 if none; back. */
int64_t	 rfc3339_ms(const char *);
void	 rfc3339(int64_t, char *, size_t);

/* markup.c: a notification body's text, its markup escaped. */
char	*markup_escape(const char *);

/* utf8-width.c: text in terminal columns (wide, combining characters). */
void	 utf8_locale(void);
size_t	 utf8_width(const char *);
size_t	 utf8_fit(const char *, size_t);
void	 utf8_column(FILE *, const char *, size_t);

/* which.c: a program on PATH, or NULL. */
char	*path_which(const char *);
char	*path_which_in(const char *, const char *, int);

/* json.c: writing and reading (jsmn) JSON. */
size_t	 json_utf8_len(const unsigned char *, size_t);
void	 json_str(struct buf *, const char *, size_t);
void	 json_cstr(struct buf *, const char *);
void	 json_key(struct buf *, const char *);
void	 json_int_or_null(struct buf *, int has, long long);

struct json_doc;
struct json_doc *json_parse(const char *, size_t, char **cause);
void	 json_free(struct json_doc *);
int	 json_get(struct json_doc *, int obj, const char *key);
char	*json_get_str(struct json_doc *, int obj, const char *key);
int	 json_get_int(struct json_doc *, int obj, const char *key,
	    long long *);
int	 json_get_bool(struct json_doc *, int obj, const char *key, int *);
int	 json_type(struct json_doc *, int tok);
int	 json_array_size(struct json_doc *, int tok);
int	 json_array_item(struct json_doc *, int tok, int i);
int	 json_skip(struct json_doc *, int tok);
int	 json_ntoks(struct json_doc *);
int	 json_tok_str(struct json_doc *, int tok, char **);
int	 json_tok_int(struct json_doc *, int tok, long long *);
void	 json_dump(struct json_doc *, int tok, FILE *);
char	*json_tok_text(struct json_doc *, int tok);

/* json-edit.c: a JSON tree for editing settings files. */
enum jv_type { JV_OBJECT, JV_ARRAY, JV_STRING, JV_PRIMITIVE };
struct jv {
	enum jv_type	 type;
	char		*key;		/* in an object */
	char		*raw;		/* strings: escaped body; primitives */
	struct jv	*first;		/* children */
	struct jv	*next;
};
struct jv	*jv_parse(const char *, size_t, char **);
void		 jv_free(struct jv *);
void		 jv_append(struct jv *, struct jv *);
void		 jv_remove(struct jv *, struct jv *);
struct jv	*jv_get(struct jv *, const char *);
struct jv	*jv_get_or_add(struct jv *, const char *, enum jv_type);
struct jv	*jv_string(const char *, const char *);
struct jv	*jv_container(const char *, enum jv_type);
void		 jv_dump(const struct jv *, struct buf *);
char		*jv_text(const struct jv *);

#define JSON_T_OBJECT 1
#define JSON_T_ARRAY 2
#define JSON_T_STRING 3
#define JSON_T_PRIMITIVE 4

/* The subsystems: each header alone is enough for its own file and test. */
#include "agent.h"		/* agent profiles: process, title, screen */
#include "bgtasks.h"		/* work an agent left running */
#include "classify.h"		/* the classifier: signals in, a state out */
#include "claude-file.h"	/* Claude Code's own files */
#include "cline-file.h"		/* Cline CLI's session files */
#include "copilot-file.h"	/* Copilot CLI's log and workspace */
#include "gemini-file.h"	/* Gemini CLI's own files */
#include "guard.h"		/* dialogs on screen: where keys never go */
#include "opencode-file.h"	/* OpenCode's log */
#include "osc.h"		/* the output-stream scanner */
#include "osc-notify.h"		/* a terminal's own desktop notifications */
#include "options.h"		/* the @lisa-* options and their values */
#include "osdep.h"		/* the operating system's calls */
#include "pi-file.h"		/* pi's session files */
#include "question.h"		/* what a waiting agent asks, as data */
#include "run-record.h"		/* lisa run's records (runs/ID.json) */
#include "run-stderr.h"		/* an agent's stderr, head and tail */
#include "sha256.h"		/* SHA-256 and HMAC: fingerprints, tokens */
#include "tap-token.h"		/* the tokens a phone's buttons carry */
#include "tmux-version.h"	/* what differs between tmux versions */
#include "ui-format.h"		/* formats for the status line and borders */
#include "usage.h"		/* tokens and context window */

#endif
