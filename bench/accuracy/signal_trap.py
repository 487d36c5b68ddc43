"""SIGTERM and SIGHUP turned into SystemExit while a target machine exists, so every `finally`
and `__exit__` runs and the target is removed; Ctrl-C already does so through KeyboardInterrupt."""
import signal
import sys


class SignalTrap:
    def __init__(self):
        self._handlers = {}

    def install(self):
        def leave(signum, _frame):
            sys.exit(128 + signum)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            self._handlers[sig] = signal.signal(sig, leave)

    def restore(self):
        for sig, handler in self._handlers.items():
            signal.signal(sig, handler)
        self._handlers = {}
