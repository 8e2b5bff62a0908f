/*
 * Inside the watch: what watch.c (signals, classification) and
 * watch-proc.c (which agent runs in a pane, from /proc) share.
 */
#ifndef WATCH_INT_H
#define WATCH_INT_H

#define WATCH_MAX_PROCS	256
#define WATCH_RESCAN	1000	/* ms between tree looks while output flows */
#define WATCH_CPU_BUSY	5	/* percent of a core since the last look */
#define WATCH_TOOL_AGE	500	/* ms a child lives before it is a tool */
#define WATCH_YOUNG_PANE 1000	/* ms: a pane this new may still exec */
#define WATCH_YOUNG_RESCAN 150
#define WATCH_START_WINDOW 10000 /* ms: an agent this new is starting */
#define WATCH_EXEC_RESCAN 50	/* ms: a process mid-exec looked at again */
#define WATCH_EXE_TRIES	5	/* looks for an agent's program, at most */
/* tmux's own word of a death (pane-died) gets this long before ours. */
#define WATCH_ZOMBIE_GRACE 500
#define WATCH_EXIT_SETTLE 300	/* ms for a shell to report an agent's exit */
#define WATCH_EXIT_ALIVE 2000	/* ms Codex's goodbye waits for its exit */
/*
 * After an agent's death, its shell's report ("Killed") refines the
 * verdict: looked for in the first WATCH_SHELL_BYTES the pane writes, by
 * bytes rather than time, since a loaded machine may take seconds to run
 * the shell (seen: two CPU hogs and a test suite); and not after 30 s.
 */
#define WATCH_SHELL_BYTES 256
#define WATCH_SHELL_WORDS 30000

void	watch_touch(struct pane *);
void	watch_title_told(struct pane *);
void	watch_unwatch_agent(struct watch *);
void	watch_reset_run(struct watch *);
void	watch_shell_words(struct pane *, const char *, size_t);
void	watch_agent_gone(struct pane *);
void	watch_scan(struct pane *);
void	watch_scan_later(struct pane *);
void	watch_capture(struct pane *);
void	watch_capture_timer(void *);
void	watch_run(void *);

#endif
