# mastodon-mock on a loopback port, which it prints first: the one given as the first argument
# (a server that comes up where a post was sent while it was down), else a free one.
# Run by Tests/LocalTestSupport/PythonPeer.swift after prelude.py (which imports os, signal,
# sys and threading, and ends the program when the test's end of standard input closes).
import socket
if len(sys.argv) > 1:
    port = int(sys.argv[1])
else:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
print(port, flush=True)
from mastodon_mock.cli import main
sys.argv = ["mastodon_mock", "serve", "--in-memory", "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "warning"]
main()
