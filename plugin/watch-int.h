/*
 * Inside the watch: what watch.c (signals, classification) and
 * watch-proc.c (which agent runs in a pane, from /proc) share.
 */
#ifndef WATCH_INT_H
#define WATCH_INT_H

#define WATCH_MAX_PROCS	256
#define WATCH_CPU_BUSY	5	/* percent of a core since the last look */
#define WATCH_TOOL_AGE	500	/* ms a child lives before it is a tool */
#define WATCH_YOUNG_PANE 1000	/* ms: a pane this new may still exec */
#define WATCH_YOUNG_RESCAN 150
#define WATCH_EXIT_SETTLE 300	/* ms for a shell to report an agent's exit */

void	watch_touch(struct pane *);
void	watch_unwatch_agent(struct watch *);
void	watch_reset_run(struct watch *);
void	watch_shell_words(struct pane *, const char *, size_t);
void	watch_agent_gone(struct pane *);
void	watch_scan(struct pane *);

#endif
