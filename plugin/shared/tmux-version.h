/* tmux versions: parsing, what differs, known bugs (tmux-version.c). */
#ifndef LISA_TMUX_VERSION_H
#define LISA_TMUX_VERSION_H

#include <stddef.h>

/* What an unrecognisable but working tmux (openbsd-N) is taken as. */
#define TMUX_NEWEST_MAJOR 3
#define TMUX_NEWEST_MINOR 7

struct tmux_version {
	int	 major;
	int	 minor;
	char	 letter;	/* 'a' in 3.5a, or '\0' */
	int	 next;		/* a development build (next-3.8) */
	char	 text[32];	/* as tmux says it */
};

struct tmux_caps {
	int	 supported;	/* 3.2 or later */
	int	 reply_escaped;	/* command output escaped (3.4, 3.5) */
	int	 dollar_escaped; /* and '$' as "\$" (3.4) */
	int	 dead_hook;	/* pane-died + remain-on-exit are safe */
	int	 display_client; /* display-message -c CLIENT */
	int	 identify_crash; /* tmux GitHub issue 4980 (< 3.7) */
	int	 imsg_len32;	/* the client protocol's 32-bit length (3.6+) */
	int	 subscriptions;	/* refresh-client -B is safe (3.7+) */
	int	 list_keys_quiet; /* list-keys -T T KEY prints nothing (3.7+) */
	int	 popup_title;	/* display-popup -T TITLE (3.3+) */
	int	 capture_padded; /* capture-pane -J pads lines (< 3.3) */
	int	 literal_unescapes; /* #{l:} halves "##" (3.4+) */
};

struct tmux_bug {
	const char	*id;
	const char	*what;
	const char	*todo;
};

int	 tmux_version_parse(const char *, struct tmux_version *);
int	 tmux_version_ge(const struct tmux_version *, int, int);
void	 tmux_caps_get(const struct tmux_version *, struct tmux_caps *);
size_t	 tmux_bugs(const struct tmux_version *, const struct tmux_bug **,
	    size_t);

#endif
