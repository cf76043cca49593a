#!/usr/bin/env python3
"""Runs a daemon with everything it sends held back a while: a loaded machine, as an editor sees it.

Usage: slow_daemon.py SECONDS COMMAND [ARG ...]
The editor's messages reach the daemon at once; each chunk the daemon writes reaches the editor
SECONDS after it was written (late, not slower: chunks are not queued behind each other's delay).
"""
import os
import queue
import subprocess
import sys
import threading
import time


def main():
    delay = float(sys.argv[1])
    daemon = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    held = queue.Queue()

    def to_daemon():
        while True:
            data = os.read(0, 65536)
            if not data:
                daemon.stdin.close()
                return
            daemon.stdin.write(data)

    def from_daemon():
        while True:
            data = os.read(daemon.stdout.fileno(), 65536)
            held.put((time.monotonic() + delay, data))
            if not data:
                return

    threading.Thread(target=to_daemon, daemon=True).start()
    threading.Thread(target=from_daemon, daemon=True).start()
    while True:
        due, data = held.get()
        time.sleep(max(0.0, due - time.monotonic()))
        if not data:
            break
        os.write(1, data)
    return daemon.wait()


if __name__ == '__main__':
    sys.exit(main())
