# Runs a program (argv[1:]) in a process group of its own inside a test's network namespace, and
# kills the group when the test's end of standard input closes or on SIGTERM (NamespacedProcess).
import os, signal, subprocess, sys
unblock = lambda: signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
unblock()
# SIGTERM ends the read below, so the program's group is killed in `finally`.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
# Its own process group, so whatever it starts (wrappers, children) goes with it.
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, preexec_fn=unblock, start_new_session=True)
try:
    sys.stdin.buffer.read()
finally:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    child.wait()
