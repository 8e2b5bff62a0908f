#!/usr/bin/env python3
"""Hold a process still until a file appears, where SIGSTOP cannot: tmux
sends SIGCONT to a pane's process that stops (server_child_stopped), so a
test that needs a pane's process to stay put a while holds it as a
debugger would (Linux ptrace: seize, interrupt; detach lets it go).
Prints "held" once it is, then waits; a minute at most (a test that
failed meanwhile leaves no process held, nor this one). Exits 2 (and
prints why) if it cannot trace the process (another user's, or
ptrace_scope).

    hold.py PID FILE
"""
import ctypes
import os
import sys
import time

PTRACE_DETACH = 17
PTRACE_SEIZE = 0x4206
PTRACE_INTERRUPT = 0x4207
WALL = 0x40000000


def main():
    pid, release = int(sys.argv[1]), sys.argv[2]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                            ctypes.c_void_p]
    if libc.ptrace(PTRACE_SEIZE, pid, None, None) != 0:
        print("cannot trace %d: %s" % (pid, os.strerror(ctypes.get_errno())),
              flush=True)
        sys.exit(2)
    libc.ptrace(PTRACE_INTERRUPT, pid, None, None)
    os.waitpid(pid, WALL)
    print("held", flush=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(release) and time.monotonic() < deadline:
        time.sleep(0.02)
    libc.ptrace(PTRACE_DETACH, pid, None, None)


if __name__ == "__main__":
    main()
