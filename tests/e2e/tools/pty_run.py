#!/usr/bin/env python3
"""Runs a command with its stdout on a pseudo-terminal of COLS columns, as a user's terminal.

usage: pty_run.py [--stderr] COLS TERMINAL_FILE OTHER_FILE COMMAND...

The command's stdin and stdout (with --stderr: stdin and stderr) are the pty, so isatty() is
true and TIOCGWINSZ says COLS; the other stream goes to OTHER_FILE. COLUMNS is removed from
its environment, so the width it uses can only come from the terminal. What it wrote to the
terminal (its "\r\n" as "\n") goes to TERMINAL_FILE; the exit status is the command's.
"""
import fcntl
import os
import pty
import struct
import sys
import termios


def main():
    args = sys.argv[1:]
    on_stderr = args[0] == "--stderr"
    if on_stderr:
        args = args[1:]
    cols, out_path, other_path, argv = int(args[0]), args[1], args[2], args[3:]
    pid, master = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
        other = os.open(other_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(other, 1 if on_stderr else 2)
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
