# A LocalSend sender that misbehaves on purpose, for the Nearby receiver tests
# (Tests/NearbyTests/ReceiverAbuseTests.swift). Plain Python: TLS without verification, the
# protocol spoken by hand. Prints one line per answer, "NAME STATUS".
#
#   localsend-abuser.py stall HOST            offer one file, send half its body, then go silent
#   localsend-abuser.py big HOST PATH BYTES   POST BYTES of zeros (Content-Length) to PATH
#   localsend-abuser.py chunked HOST PATH BYTES   the same, chunked
#   localsend-abuser.py controls HOST         alias and file name full of control characters
#   localsend-abuser.py idle HOST COUNT       COUNT connections that close without a request
import hashlib, http.client, json, socket, ssl, sys, time

PORT = 53317
ctx = ssl._create_unverified_context()
mode, host = sys.argv[1], sys.argv[2]


def connect():
    return http.client.HTTPSConnection(host, PORT, context=ctx, timeout=120)


def post(path, body=b"", ctype="application/json"):
    c = connect()
    c.request("POST", path, body=body, headers={"Content-Type": ctype})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


def info(alias):
    return {"alias": alias, "version": "2.1", "deviceModel": "Abuser", "deviceType": "desktop",
            "fingerprint": "ABUSER-" + mode, "port": PORT, "protocol": "https"}


def offer(alias, name, payload):
    files = {"f": {"id": "f", "fileName": name, "size": len(payload), "fileType": "application/octet-stream",
                   "sha256": hashlib.sha256(payload).hexdigest()}}
    status, data = post("/api/localsend/v2/prepare-upload", json.dumps({"info": info(alias), "files": files}).encode())
    print("prepare", status, flush=True)
    return json.loads(data) if status == 200 else None


def zeros(total, block=1 << 20):
    chunk = bytes(block)
    while total > 0:
        n = min(block, total)
        yield chunk[:n]
        total -= n


if mode == "stall":
    payload = bytes(range(256)) * 4096  # 1 MiB
    answer = offer("Staller", "stalled.bin", payload)
    path = f"/api/localsend/v2/upload?sessionId={answer['sessionId']}&fileId=f&token={answer['files']['f']}"
    c = connect()
    c.putrequest("POST", path)
    c.putheader("Content-Type", "application/octet-stream")
    c.putheader("Content-Length", str(len(payload)))
    c.endheaders()
    c.send(payload[: len(payload) // 2])
    print("stalled", flush=True)
    time.sleep(600)
elif mode in ("big", "chunked"):
    path, size = sys.argv[3], int(sys.argv[4])
    c = connect()
    c.putrequest("POST", path)
    c.putheader("Content-Type", "application/json")
    if mode == "big":
        c.putheader("Content-Length", str(size))
    else:
        c.putheader("Transfer-Encoding", "chunked")
    c.endheaders()
    try:
        for piece in zeros(size):
            c.send(piece if mode == "big" else b"%x\r\n%s\r\n" % (len(piece), piece))
        if mode == "chunked":
            c.send(b"0\r\n\r\n")
        r = c.getresponse()
        r.read()
        print(mode, r.status, flush=True)
    except OSError as error:
        # The receiver may cut off a body it will never use.
        print(mode, "cut", type(error).__name__, flush=True)
elif mode == "controls":
    # ESC sequences (colour, clear screen, a title, cursor moves), BEL, BS, CR, DEL, C1 CSI and
    # NEL, and a right-to-left override.
    nasty = "\x1b[31mred\x1b[0m\x1b]0;owned\x07\x1b[2J\x08\r\x7f\u009b1m\u0085\u202etxt.exe"
    payload = b"controlled"
    answer = offer("Evil\x1b[2J\x1b[HAlias\x07\u009b", nasty + ".txt", payload)
    path = f"/api/localsend/v2/upload?sessionId={answer['sessionId']}&fileId=f&token={answer['files']['f']}"
    status, _ = post(path, payload, "application/octet-stream")
    print("upload", status, flush=True)
elif mode == "idle":
    count = int(sys.argv[3])
    for index in range(count):
        raw = socket.create_connection((host, PORT), timeout=20)
        if index % 2:
            # A TLS handshake, then nothing.
            tls = ctx.wrap_socket(raw, server_hostname=host)
            tls.close()
        else:
            raw.close()
    print("idle", count, flush=True)
else:
    sys.exit(f"unknown mode {mode}")
