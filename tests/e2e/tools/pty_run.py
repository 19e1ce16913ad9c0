#!/usr/bin/env python3
"""Runs a command with its stdout on a pseudo-terminal of COLS columns, as a user's terminal.

usage: pty_run.py COLS STDOUT_FILE STDERR_FILE COMMAND...

The command's stdout and stdin are the pty (so isatty() is true and TIOCGWINSZ says COLS);
its stderr goes to STDERR_FILE. COLUMNS is removed from its environment, so the width it
uses can only come from the terminal. What it printed (the terminal's "\r\n" as "\n") goes
to STDOUT_FILE; the exit status is the command's.
"""
import fcntl
import os
import pty
import struct
import sys
import termios


def main():
    cols, out_path, err_path, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    pid, master = pty.fork()
    if pid == 0:
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
        err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(err, 2)
        env = dict(os.environ)
        env.pop("COLUMNS", None)
        os.execvpe(argv[0], argv, env)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    _, status = os.waitpid(pid, 0)
    with open(out_path, "wb") as f:
        f.write(b"".join(chunks).replace(b"\r\n", b"\n"))
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
