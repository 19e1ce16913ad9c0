#!/usr/bin/env python3
"""A pseudo-terminal with a board on the other end, for tests/e2e/test_serial.sh.

  pty_relay.py LINK SOCKET FAULT

Opens a pty pair, makes LINK a symlink to its slave (fathom opens it as --port: the real
termios path) and listens on the Unix socket SOCKET. Each connection is one boot of a board:
its bytes (fake_board.py reset, or QEMU's serial output) are written to the pty master, changed
by FAULT first:

  clean      unchanged
  drop       bytes removed at a few places inside records
  flip       one bit flipped in a few bytes
  duplicate  a few ranges of bytes sent twice
  stall      60% of the stream, then silence for 4 s (longer than idle_timeout_seconds), then
             the rest
  reset      half the stream, then the whole stream again (the board restarted: second HELLO)
  hangup     70% of the stream, then the pty master closes (the adapter was unplugged)

Positions come from a fixed seed, so a case is the same on every run. Runs until killed.
"""
import os
import random
import socket
import sys
import time
import tty


def faulty(data, fault):
    """[(bytes, pause seconds after them)] for `fault`; None as bytes closes the master."""
    rng = random.Random(14)
    n = len(data)
    if fault == "clean":
        return [(data, 0)]
    if fault in ("drop", "flip", "duplicate"):
        out = bytearray()
        # Positions in the middle two quarters: inside CAL/KAT/SAMPLE records, not the HELLO.
        cuts = sorted(rng.sample(range(n // 4, 3 * n // 4), 3))
        last = 0
        for at in cuts:
            out += data[last:at]
            if fault == "drop":
                last = at + 1
            elif fault == "flip":
                out.append(data[at] ^ (1 << rng.randrange(8)))
                last = at + 1
            else:
                length = rng.randrange(5, 60)
                out += data[at:at + length] + data[at:at + length]
                last = at + length
        out += data[last:]
        return [(bytes(out), 0)]
    if fault == "stall":
        return [(data[:n * 6 // 10], 4.0), (data[n * 6 // 10:], 0)]
    if fault == "reset":
        return [(data[:n // 2], 0.2), (data, 0)]
    if fault == "hangup":
        return [(data[:n * 7 // 10], 0.5), (None, 0)]
    sys.exit(f"pty_relay: unknown fault {fault}")


def main():
    link, sock_path, fault = sys.argv[1:4]
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo back into the master before fathom opens the port
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(slave), link)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(sock_path)
    server.listen(4)
    while True:
        conn, _ = server.accept()
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
        conn.close()
        for part, pause in faulty(data, fault):
            if part is None:
                os.close(master)
                os.close(slave)
                time.sleep(3600)  # keep the link dangling until the test kills us
            # Small writes, as a UART delivers bytes, so records arrive in pieces.
            for at in range(0, len(part), 61):
                os.write(master, part[at:at + 61])
            time.sleep(pause)


if __name__ == "__main__":
    main()
