# A proxy that drops the answers to the first requests matching a prefix (DroppingProxy).
# Run by Tests/LocalTestSupport/PythonPeer.swift after prelude.py (which imports os, signal,
# sys and threading, and ends the program when the test's end of standard input closes).
import socket, threading
upstream_port, prefix, drops, log_path = int(sys.argv[1]), sys.argv[2].encode(), [int(sys.argv[3])], sys.argv[4]
lock = threading.Lock()

def log(line):
    with lock, open(log_path, "a") as f:
        f.write(line + "\n")

def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    lines = [l for l in head.split(b"\r\n") if not l.lower().startswith(b"connection:")]
    return b"\r\n".join(lines) + b"\r\nConnection: close\r\n\r\n" + body

def handle(conn):
    try:
        while True:
            request = read_request(conn)
            if request is None:
                return
            first = request.split(b"\r\n", 1)[0]
            up = socket.create_connection(("127.0.0.1", upstream_port))
            up.sendall(request)
            answer = b""
            while True:
                chunk = up.recv(65536)
                if not chunk:
                    break
                answer += chunk
            up.close()
            with lock:
                dropping = first.startswith(prefix) and drops[0] > 0
                if dropping:
                    drops[0] -= 1
            if dropping:
                log("DROPPED " + first.decode())
                conn.shutdown(socket.SHUT_RDWR)
                return
            log("PASSED " + first.decode())
            conn.sendall(answer)
            return
    finally:
        conn.close()

server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", 0))
server.listen(16)
print(server.getsockname()[1], flush=True)
while True:
    conn, _ = server.accept()
    threading.Thread(target=handle, args=(conn,), daemon=True).start()
