/*
 * What lisa asks the operating system, one backend per system: Linux
 * (osdep-linux.c: /proc, pidfd, inotify, signalfd) and any other POSIX
 * system (osdep-generic.c: ps(1), stat(2), a self-pipe). `make OSDEP=`
 * picks one. Nothing else in lisa calls a system-specific interface.
 */
#ifndef OSDEP_H
#define OSDEP_H

#include <sys/types.h>

#include <signal.h>
#include <stdint.h>

extern const char	*osdep_name;
extern const int	 osdep_start_ticks;	/* start as Claude's procStart */

/* A process, as far as the system tells. */
#define PROC_MAX_DEPTH 8
struct proc_node {
	pid_t		 pid;
	pid_t		 ppid;
	char		 comm[17];
	char		 state;		/* 'Z' a zombie, else anything */
	int		 depth;
	uint64_t	 ticks;		/* CPU used, in clock ticks */
	uint64_t	 start;		/* when it started, the backend's unit
					   (Linux: ticks since boot, as Claude
					   Code's procStart) */
	int		 exit_code;	/* wait status of a zombie, else -1 */
	uint64_t	 reaped;	/* page faults of children it reaped */
};

/* Process facts. Each returns -1 (or 0 items) where the system does not say. */
uint64_t	 proc_boot_ms(void);
uint64_t	 proc_start_ms(const struct proc_node *);
int		 proc_read(pid_t, struct proc_node *);
int		 proc_children(pid_t, pid_t *, int);
int		 proc_argv(pid_t, char *, size_t, char **, int);
int		 proc_cwd(pid_t, char *, size_t);
int		 osdep_cwd(pid_t, char *, size_t);	/* generic: per system */
ssize_t		 proc_environ(pid_t, char *, size_t);
int		 proc_written(pid_t, uint64_t *);
int		 proc_exitfd(pid_t);
/*
 * The same start, as two helpers saw it (lisa restarted): Linux's are
 * exact; ps's are whole seconds from the wall clock, a second apart at
 * most for one process.
 */
int		 proc_start_same(uint64_t, uint64_t);
/* Something new may run (a title came): the next look asks afresh. */
void		 proc_forget(void);
/* How many ms old the processes the last look read are (ps: a snapshot). */
uint64_t	 proc_read_age(void);

/*
 * Signals as events: those in set arrive on the returned descriptor
 * (nonblocking, close-on-exec), read one at a time by osdep_signal_next
 * (0: none left). old gets the mask a child should have.
 */
int		 osdep_signal_fd(const sigset_t *, sigset_t *);
int		 osdep_signal_next(int);

/*
 * The wall clock stepped (set by hand or by NTP) or the machine slept and
 * woke, as an event on a descriptor (Linux: a timerfd cancelled when the
 * clock is set, which a resume from suspend does too); -1 where there is
 * none (then only the helper's own SIGCONT says it slept).
 * osdep_clock_changed reads it and watches again: 1 if it changed.
 */
int		 osdep_clock_watch(void);
int		 osdep_clock_changed(int);

/*
 * Directories watched for entries made, written, moved or removed, as
 * events on a descriptor (Linux: inotify). -1 where the system has no
 * such thing: then lisa looks at the files when it wakes for other reasons.
 * osdep_fwatch_next gives the next event's watch and entry name (0: none
 * left; the name lasts until the next call).
 */
int		 osdep_fwatch_open(void);
int		 osdep_fwatch_add(int, const char *);
int		 osdep_fwatch_next(int, int *, const char **);

/* This process and its peers. */
void		 osdep_set_argv0(const char *);
int		 osdep_self_exe(char *, size_t);
long		 osdep_self_rss_kb(void);
long long	 osdep_heap_bytes(void);
int		 osdep_peer_uid(int, uid_t *);

/* A file's modification time in ns (macOS names the field its own way). */
#ifdef __APPLE__
#define OSDEP_MTIME_NS(st)						\
	((int64_t)(st)->st_mtimespec.tv_sec * 1000000000 +		\
	    (st)->st_mtimespec.tv_nsec)
#else
#define OSDEP_MTIME_NS(st)						\
	((int64_t)(st)->st_mtim.tv_sec * 1000000000 + (st)->st_mtim.tv_nsec)
#endif

/*
 * A child that must not outlive us (a tmux control client), even when we
 * die by SIGKILL: a control client whose output tmux could not write stays
 * forever, EOF on its input or not. Linux sends it SIG (prctl); elsewhere
 * osdep_guard_children, called once by the parent before any such child,
 * starts a guard that sends SIG to the children when we are gone.
 */
void		 osdep_guard_children(int);
void		 osdep_die_with_parent(int);

/* compat.c: close-on-exec descriptors, the same on every system. */
void		 compat_closefrom(int);
int		 compat_fd_flags(int, int);
int		 compat_pipe(int[2]);
int		 compat_socket_unix(int);
int		 compat_accept(int, int);

#endif
