/*
 * What lisa makes of the system's process facts (osdep-*.c), the same on
 * every system: a pane's process tree, a zombie's exit, a shell's reaped
 * children, and the pidfd route (LISAD_NO_PIDFD turns it off).
 */
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisad.h"

int
proc_pidfd(pid_t pid)
{
	/* LISAD_NO_PIDFD: tests of the other routes, and valgrind. */
	if (pid <= 0 || !lisad.use_pidfd)
		return (-1);
	return (proc_exitfd(pid));
}

/*
 * A count that grows whenever the process reaps a child that ran a
 * program: the children's page faults (cminflt + cmajflt), which every
 * exec adds to. A shell's count moves when it has run a command.
 */
int
proc_reaped(pid_t pid, uint64_t *count)
{
	struct proc_node	n;

	if (proc_read(pid, &n) != 0)
		return (-1);
	*count = n.reaped;
	return (0);
}

/*
 * The exit of a pid that has not been reaped yet: status or signal (the
 * other is -1). Returns -1 if it is not a zombie (running, or reaped).
 */
int
proc_exit_status(pid_t pid, int *status, int *sig)
{
	struct proc_node	n;

	if (proc_read(pid, &n) != 0 || n.state != 'Z' || n.exit_code < 0)
		return (-1);
	*status = *sig = -1;
	if (WIFSIGNALED(n.exit_code))
		*sig = WTERMSIG(n.exit_code);
	else
		*status = WEXITSTATUS(n.exit_code);
	return (0);
}

/*
 * The process tree under root, breadth first (a parent always before its
 * children). Returns the number of nodes, or -1 if root cannot be read.
 */
int
proc_tree(pid_t root, struct proc_node *nodes, int max)
{
	pid_t	kids[256];
	int	head = 0, n = 0, k, i;

	if (max < 1 || proc_read(root, &nodes[0]) != 0)
		return (-1);
	nodes[0].depth = 0;
	n = 1;
	while (head < n && n < max) {
		if (nodes[head].depth >= PROC_MAX_DEPTH) {
			head++;
			continue;
		}
		k = proc_children(nodes[head].pid, kids, 256);
		for (i = 0; i < k && n < max; i++) {
			if (proc_read(kids[i], &nodes[n]) != 0)
				continue;
			nodes[n].depth = nodes[head].depth + 1;
			n++;
		}
		head++;
	}
	return (n);
}
