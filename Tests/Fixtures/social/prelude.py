# What every Social test peer starts with: SIGTERM unblocked (the test runner's threads block it,
# and children inherit the mask), and an exit as soon as standard input closes.
import os, signal, sys, threading
signal.pthread_sigmask(signal.SIG_SETMASK, [])
_cleanups = []
def _exit_with_parent():
    sys.stdin.buffer.read()
    for cleanup in _cleanups:
        try:
            cleanup()
        except Exception:
            pass
    os._exit(0)
threading.Thread(target=_exit_with_parent, daemon=True).start()
