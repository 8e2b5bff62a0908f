/*
 * The one place that knows how tmux versions differ: parse what tmux -V
 * and #{version} say, what lisa does differently on each, and the tmux
 * bugs that matter to lisa. docs/protocol.md has the same table in prose;
 * each entry was read in that version's source or seen running it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "tmux-version.h"

/*
 * "tmux 3.5a", "3.5a", "next-3.8" (master), "openbsd-7.6" (base system,
 * always a recent tmux: taken as the newest we know). 0, or -1 if it is
 * none of these.
 */
int
tmux_version_parse(const char *s, struct tmux_version *v)
{
	char	letter = '\0';
	int	major, minor;

	memset(v, 0, sizeof *v);
	if (strncmp(s, "tmux ", 5) == 0)
		s += 5;
	snprintf(v->text, sizeof v->text, "%.*s", (int)strcspn(s, " \n"), s);
	if (strncmp(s, "next-", 5) == 0) {
		v->next = 1;
		s += 5;
	} else if (strncmp(s, "openbsd-", 8) == 0) {
		v->major = TMUX_NEWEST_MAJOR;
		v->minor = TMUX_NEWEST_MINOR;
		v->next = 1;
		return (0);
	}
	if (sscanf(s, "%d.%d%c", &major, &minor, &letter) < 2 ||
	    major < 0 || minor < 0 || major > 99 || minor > 99)
		return (-1);
	v->major = major;
	v->minor = minor;
	v->letter = (letter >= 'a' && letter <= 'z') ? letter : '\0';
	return (0);
}

/* Is the version at least major.minor? */
int
tmux_version_ge(const struct tmux_version *v, int major, int minor)
{
	return (v->major > major || (v->major == major && v->minor >= minor));
}

void
tmux_caps_get(const struct tmux_version *v, struct tmux_caps *c)
{
	memset(c, 0, sizeof *c);
	c->supported = tmux_version_ge(v, 3, 2);
	/*
	 * Command output to control clients and plain clients went through
	 * utf8_stravisx() in 3.4 and 3.5 (\037 as four characters, 0x7f as
	 * \177, CR as \r); 3.6 made it raw again (5fd45b389). 3.4 also
	 * escaped '$' (692ce59bc, in 3.5, stopped that).
	 */
	c->reply_escaped = tmux_version_ge(v, 3, 4) && !tmux_version_ge(v, 3, 6);
	c->dollar_escaped = v->major == 3 && v->minor == 4;
	/* 3.2/3.2a can crash on a pane death with remain-on-exit and -C. */
	c->dead_hook = tmux_version_ge(v, 3, 3);
	/* display-message -c takes no argument on 3.2a's template. */
	c->display_client = tmux_version_ge(v, 3, 3);
	/* Notifications to a half-identified control client: fixed in 3.7. */
	c->identify_crash = !tmux_version_ge(v, 3, 7);
	/* tmux 3.6 took OpenBSD's new imsg: a 32-bit length, no flags. */
	c->imsg_len32 = tmux_version_ge(v, 3, 6);
	/*
	 * Before 3.7 the subscription timer of a control client whose
	 * session was just killed reads the session it no longer has
	 * (control_check_subs_timer, "if (s == NULL)" came in 3.7): every
	 * kill-session could crash the server while our client exits.
	 */
	c->subscriptions = tmux_version_ge(v, 3, 7);
	/* The list-keys rework in 3.7 (09bd68632); ui-install.c reads the table. */
	c->list_keys_quiet = tmux_version_ge(v, 3, 7);
	/* #{l:TEXT} gives TEXT unescaped ("##" as '#') since 3.4. */
	c->literal_unescapes = tmux_version_ge(v, 3, 4);
	/* display-popup's -T (and -b, -s, -S) came in 3.3. */
	c->popup_title = tmux_version_ge(v, 3, 3);
	/* (tmux ded695504: up to the cells used, not allocated) */
	c->capture_padded = !tmux_version_ge(v, 3, 3);
}

/* The known tmux bugs of a version that matter to lisa, and what to do. */
static const struct tmux_bug tmux_bug_list[] = {
	{ "identify", "a session or window made or closed while a control "
	  "client identifies itself crashes the server (tmux GitHub issue "
	  "4980, fixed in 3.7)", "lisa's control clients connect through "
	  "the helper, which hands tmux each identify in one piece: no "
	  "notification can fall inside it" },
	{ "sigchld", "built with utempter (Debian's and Ubuntu's are), "
	  "tmux before 3.6 drops the SIGCHLD of a pane process that dies "
	  "while tmux updates utmp, so the process stays a zombie and the "
	  "pane has no exit status and no pane-died hook (fixed in 3.6)",
	  "lisa reads the exit from the process itself (pidfd, or the "
	  "zombie's status when it next looks at the pane's processes) "
	  "and shows the agent as ended; kill the pane by hand if tmux "
	  "keeps it" },
	{ "subscriptions", "a control client's subscription timer reads "
	  "the session it was attached to after that session is killed "
	  "(fixed in 3.7)", "lisa subscribes to nothing here: deaths come "
	  "from the processes (pidfd) and, from 3.3, the pane-died hook; "
	  "a respawned pane is seen when it writes (or lisa retry says "
	  "so)" },
	{ "held-notification", "a window change and the kill of its "
	  "session in one command list (new-window \\; kill-session) "
	  "crashes the server while any control client is attached: "
	  "lisa's, or a terminal's tmux -CC (GitHub issue 5244, fixed "
	  "after 3.7c)", "run such commands as separate tmux commands; "
	  "no hook of lisa's holds tmux's notifications, so apart they "
	  "are safe" },
	{ "remain-on-exit", "a pane dying with remain-on-exit while a "
	  "control client is attached can crash the server (tmux #2828)",
	  "lisa installs no pane-died hook and keeps no agent's pane here; "
	  "deaths come from the processes (pidfd). A lisa run pane is kept "
	  "for its retries: its output to lisa is paused before it dies. "
	  "Upgrade to 3.3 or later for exit statuses of panes tmux keeps" },
};

size_t
tmux_bugs(const struct tmux_version *v, const struct tmux_bug **out,
    size_t max)
{
	size_t	n = 0;

	if (!tmux_version_ge(v, 3, 7) && n < max)
		out[n++] = &tmux_bug_list[0];
	if (!tmux_version_ge(v, 3, 6) && n < max)
		out[n++] = &tmux_bug_list[1];
	if (!tmux_version_ge(v, 3, 7) && n < max)
		out[n++] = &tmux_bug_list[2];
	if (!tmux_version_ge(v, 3, 8) && n < max)
		out[n++] = &tmux_bug_list[3];
	if (v->major == 3 && v->minor == 2 && n < max)
		out[n++] = &tmux_bug_list[4];
	return (n);
}
