# The hostile sender of ReceiverTests.hostileSender: plain Python, TLS without verification,
# talking LocalSend directly (odd names, wrong tokens, a second session, a wrong length).
import hashlib, http.client, json, ssl, sys
phase, host, outside = sys.argv[1], sys.argv[2], sys.argv[3]
ctx = ssl._create_unverified_context()
def post(path, body=b"", ctype="application/json", length=None):
    c = http.client.HTTPSConnection(host, 53317, context=ctx, timeout=20)
    headers = {"Content-Type": ctype}
    if length is not None:
        headers["Content-Length"] = str(length)
    c.request("POST", path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data
info = {"alias": "Mallory", "version": "2.1", "fingerprint": "MALLORY", "port": 53317, "protocol": "https"}
payload = b"not where you think"
digest = hashlib.sha256(payload).hexdigest()
names = {"up": "../escape.txt", "abs": outside + "/abs.txt", "nul": "sub/../x\u0000y.txt", "dots": ".."}
if phase == "names":
    files = {k: {"id": k, "fileName": v, "size": len(payload), "fileType": "text/plain", "sha256": digest} for k, v in names.items()}
    status, data = post("/api/localsend/v2/prepare-upload", json.dumps({"info": info, "files": files}).encode())
    print("prepare", status)
    answer = json.loads(data)
    sid, tokens = answer["sessionId"], answer["files"]
    s, _ = post(f"/api/localsend/v2/upload?sessionId={sid}&fileId=up&token=wrong", payload, "application/octet-stream")
    print("wrong-token", s)
    s, _ = post("/api/localsend/v2/prepare-upload", json.dumps({"info": info, "files": files}).encode())
    print("second-session", s)
    s, _ = post(f"/api/localsend/v2/upload?sessionId={sid}&fileId=up&token={tokens['up']}", payload + b"extra", "application/octet-stream")
    print("wrong-length", s)
    s, _ = post(f"/api/localsend/v2/upload?sessionId={sid}&fileId=up&token={tokens['up']}", payload, "application/octet-stream")
    print("reused-token", s)
    s, _ = post("/api/localsend/v2/cancel?sessionId=not-the-session")
    print("foreign-cancel", s)
    print("SESSION", json.dumps(answer))
else:
    line = [l for l in sys.argv[4].splitlines() if l.startswith("SESSION ")][0]
    answer = json.loads(line[len("SESSION "):])
    sid, tokens = answer["sessionId"], answer["files"]
    if phase == "address":
        s, _ = post(f"/api/localsend/v2/upload?sessionId={sid}&fileId=abs&token={tokens['abs']}", payload, "application/octet-stream")
        print("other-address-upload", s)
        s, _ = post(f"/api/localsend/v2/cancel?sessionId={sid}")
        print("other-address-cancel", s)
    else:
        # "up" spent its token on the wrong length: a fresh session carries the names again.
        files = {k: {"id": k, "fileName": v, "size": len(payload), "fileType": "text/plain", "sha256": digest} for k, v in names.items()}
        codes = []
        for k in ["abs", "nul", "dots"]:
            s, _ = post(f"/api/localsend/v2/upload?sessionId={sid}&fileId={k}&token={tokens[k]}", payload, "application/octet-stream")
            codes.append(s)
        status, data = post("/api/localsend/v2/prepare-upload", json.dumps({"info": info, "files": {"up": files["up"]}}).encode())
        again = json.loads(data)
        s, _ = post(f"/api/localsend/v2/upload?sessionId={again['sessionId']}&fileId=up&token={again['files']['up']}", payload, "application/octet-stream")
        codes.append(s)
        print("finish", *codes)
