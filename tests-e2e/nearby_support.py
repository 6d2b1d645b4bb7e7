"""Helpers for the nearby-device tests: a `marquee remote` process driven line by line."""
import queue
import re
import subprocess
import threading
import time


class RemoteProcess:
    """`marquee remote` with its stdin and stdout as pipes; stdout lines are read on a thread."""

    def __init__(self, argv, env=None):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, bufsize=1, env=env)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, pattern, timeout=20):
        """Waits for a line matching `pattern`; returns the match."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                line = self.lines.get(timeout=max(0.05, deadline - time.time()))
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            match = re.search(pattern, line)
            if match:
                return match
        raise AssertionError(f"no line matching {pattern!r}; output so far:\n" + "\n".join(self.seen))

    def say(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def finish(self, timeout=15):
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.process.wait(timeout=timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
