#!/usr/bin/env python3
"""A terminal for a tmux client: runs COMMAND on a new pty (100x30) and
appends every byte the client writes to it to LOG. Answers tmux's
XTVERSION query (CSI > q) with NAME, as iTerm2, kitty or a tmux in between
would, when NAME is given. Exits when the command does. TTYCLIENT_SIZE
(COLSxROWS) sizes the pty otherwise.

    ttyclient.py LOG NAME COMMAND...
"""
import fcntl
import os
import select
import signal
import struct
import sys
import termios


def main():
    log, name, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
    pid, fd = os.forkpty()
    if pid == 0:
        os.execvp(argv[0], argv)
    cols, rows = (int(n) for n in
                  os.environ.get("TTYCLIENT_SIZE", "100x30").split("x"))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    signal.signal(signal.SIGTERM, lambda *_: os.kill(pid, signal.SIGTERM))
    seen = b""
    with open(log, "ab", buffering=0) as out:
        while True:
            try:
                r, _, _ = select.select([fd], [], [], 1.0)
            except InterruptedError:
                continue
            if not r:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    return
                continue
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out.write(data)
            # What may hold a query: this read and the end of the last.
            seen = seen[-8:] + data
            # A terminal answers the secondary device attributes (as
            # xterm 390 would) and XTVERSION.
            if b"\033[>c" in seen:
                seen = seen.replace(b"\033[>c", b"")
                os.write(fd, b"\033[>41;390;0c")
            if name and b"\033[>q" in seen:
                seen = seen.replace(b"\033[>q", b"")
                os.write(fd, b"\033P>|" + name.encode() + b"\033\\")
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


if __name__ == "__main__":
    main()
