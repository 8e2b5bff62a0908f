/*
 * agentlet: the smallest agent for the fleet benches (F2): it draws a
 * "> " prompt and waits; each SIGUSR1 is a turn: a line of work every
 * 100 ms for WORK_MS (1000), then the prompt again. One signal to all of
 * them (pkill) makes every agent of every host change state at once, as
 * no round of send-keys could. Known to lisa by a profile of its own
 * (agents.json: comm "agentlet", screen prompt "^> *$").
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t	agentlet_turns;

static void
agentlet_signal(int sig)
{
	(void)sig;
	agentlet_turns++;
}

static void
agentlet_say(const char *s)
{
	size_t	len = strlen(s);
	ssize_t	n;

	while (len > 0 && (n = write(1, s, len)) > 0) {
		s += n;
		len -= (size_t)n;
	}
}

int
main(void)
{
	struct timespec		 tick = { 0, 100 * 1000 * 1000 };
	struct sigaction	 sa;
	sigset_t		 block, old;
	const char		*e;
	char			 line[128];
	long			 ms, i;

	ms = (e = getenv("WORK_MS")) != NULL ? strtol(e, NULL, 10) : 1000;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = agentlet_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);

	agentlet_say("agentlet\r\n> ");
	for (;;) {
		while (agentlet_turns == 0)
			sigsuspend(&old);
		agentlet_turns = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
		agentlet_say("\r\n");
		for (i = 0; i * 100 < ms; i++) {
			snprintf(line, sizeof line, "\033[2K\r\342\240\202 "
			    "Working on step %ld (esc to interrupt)\r\n", i);
			agentlet_say(line);
			nanosleep(&tick, NULL);
		}
		agentlet_say("done\r\n> ");
		sigprocmask(SIG_BLOCK, &block, NULL);
	}
}
