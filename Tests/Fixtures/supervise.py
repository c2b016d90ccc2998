# Runs one test peer in its own process group; stops the group on SIGTERM or when
# standard input closes.
import os, signal, sys, threading, time
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
child = os.fork()
if child == 0:
    os.setpgid(0, 0)
    os.execvp(sys.argv[1], sys.argv[1:])
stopping = threading.Event()
def stop_group(*_):
    if stopping.is_set():
        return
    stopping.set()
    try:
        os.killpg(child, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(40):
        time.sleep(0.05)
        try:
            if os.waitpid(child, os.WNOHANG)[0] != 0:
                break
        except ChildProcessError:
            break
    try:
        os.killpg(child, signal.SIGKILL)
    except ProcessLookupError:
        pass
def watch_stdin():
    sys.stdin.buffer.read()
    stop_group()
    os._exit(0)
signal.signal(signal.SIGTERM, lambda *_: (stop_group(), os._exit(0)))
threading.Thread(target=watch_stdin, daemon=True).start()
try:
    os.waitpid(child, 0)
except ChildProcessError:
    pass
