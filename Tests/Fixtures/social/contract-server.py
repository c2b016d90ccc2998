# The contract stand-ins for X, Facebook, Weibo, Flickr and Vimeo (ContractServer.swift says what each checks).
# Run by Tests/LocalTestSupport/PythonPeer.swift after prelude.py (which imports os, signal,
# sys and threading, and ends the program when the test's end of standard input closes).
import base64, hashlib, hmac, http.server, json, socket, time, urllib.parse
service, log_path, folder = sys.argv[1], sys.argv[2], sys.argv[3]
FLICKR_SECRETS = ("consumer-secret", "token-secret")
state = {"uploads": {}, "next": 1000, "dropped": 0}

def log(entry):
    with open(log_path, "a") as f:
        f.write(json.dumps(entry) + "\n")

def parse_multipart(content_type, body):
    boundary = content_type.split("boundary=", 1)[1].strip().strip('"').encode()
    fields, files = {}, {}
    for part in body.split(b"--" + boundary):
        part = part.strip(b"\r\n")
        if not part or part == b"--":
            continue
        head, _, value = part.partition(b"\r\n\r\n")
        headers = {}
        for line in head.split(b"\r\n"):
            name, _, v = line.decode().partition(":")
            headers[name.strip().lower()] = v.strip()
        disposition = headers.get("content-disposition", "")
        params = dict(p.strip().split("=", 1) for p in disposition.split(";")[1:] if "=" in p)
        name = params.get("name", "").strip('"')
        if "filename" in params:
            files[name] = {"filename": params["filename"].strip('"'), "type": headers.get("content-type"),
                           "size": len(value), "data": value}
        else:
            fields[name] = value.decode()
    return fields, files

def pct(s):
    return urllib.parse.quote(s, safe="-._~")

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body=None, headers=None, content_type="application/json"):
        data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if body is not None:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def read_request(self, limit=None):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length if limit is None else min(limit, length))
        ctype = self.headers.get("Content-Type", "")
        fields, files, obj = {}, {}, None
        if ctype.startswith("multipart/form-data"):
            fields, files = parse_multipart(ctype, body)
        elif ctype.startswith("application/x-www-form-urlencoded"):
            fields = {k: v[0] for k, v in urllib.parse.parse_qs(body.decode(), keep_blank_values=True).items()}
        elif ctype.startswith("application/json"):
            obj = json.loads(body or b"null")
        entry = {"method": self.command, "path": self.path,
                 "headers": {k.lower(): v for k, v in self.headers.items()},
                 "fields": fields, "json": obj,
                 "files": {k: {x: y for x, y in f.items() if x != "data"} for k, f in files.items()}}
        return body, fields, files, obj, entry

    def do_GET(self): self.route()
    def do_POST(self): self.route()
    def do_PATCH(self): self.route()
    def do_HEAD(self): self.route()

    def route(self):
        getattr(self, "serve_" + service)()

    def bearer(self, scheme="Bearer"):
        auth = self.headers.get("Authorization", "")
        return auth[len(scheme) + 1:] if auth.lower().startswith(scheme.lower() + " ") else None

    # X API v2: POST /2/media/upload, POST /2/tweets.
    def serve_twitter(self):
        body, fields, files, obj, entry = self.read_request()
        log(entry)
        token = self.bearer()
        if token is None or token == "expired":
            return self.answer(401, {"title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized"})
        if token == "limited":
            return self.answer(429, {"title": "Too Many Requests", "detail": "Too Many Requests", "status": 429},
                               {"x-rate-limit-limit": "100", "x-rate-limit-remaining": "0",
                                "x-rate-limit-reset": str(int(time.time()) + 3)})
        if self.command == "POST" and self.path == "/2/media/upload":
            if "media" not in files or fields.get("media_category") not in ("tweet_image", "tweet_gif", "tweet_video"):
                return self.answer(400, {"title": "Invalid Request", "detail": "media and media_category are required"})
            state["next"] += 1
            return self.answer(200, {"data": {"id": str(state["next"]), "media_key": "3_%d" % state["next"],
                                              "size": files["media"]["size"], "expires_after_secs": 86400}})
        if self.command == "POST" and self.path == "/2/tweets":
            if not self.headers.get("Content-Type", "").startswith("application/json") or not isinstance(obj, dict) \
                    or not isinstance(obj.get("text"), str):
                return self.answer(400, {"title": "Invalid Request", "detail": "text is required"})
            ids = (obj.get("media") or {}).get("media_ids", [])
            if not all(isinstance(i, str) for i in ids):
                return self.answer(400, {"title": "Invalid Request", "detail": "media_ids must be strings"})
            state["next"] += 1
            return self.answer(201, {"data": {"id": str(state["next"]), "text": obj["text"],
                                              "edit_history_tweet_ids": [str(state["next"])]}})
        self.answer(404, {"title": "Not Found Error", "detail": "no such endpoint"})

    # Graph API: POST /v21.0/{page}/feed, POST /v21.0/{page}/photos.
    def serve_facebook(self):
        body, fields, files, obj, entry = self.read_request()
        log(entry)
        token = fields.get("access_token")
        if token is None:
            return self.answer(400, {"error": {"message": "An access token is required", "type": "OAuthException", "code": 104}})
        if token == "expired":
            return self.answer(400, {"error": {"message": "Error validating access token: Session has expired",
                                               "type": "OAuthException", "code": 190, "error_subcode": 463}})
        if token == "limited":
            return self.answer(400, {"error": {"message": "(#32) Page request limit reached", "type": "OAuthException", "code": 32}})
        parts = self.path.split("?")[0].strip("/").split("/")
        if self.command == "POST" and len(parts) == 3 and parts[0] == "v21.0" and parts[2] == "feed":
            if not fields.get("message") and not fields.get("link"):
                return self.answer(400, {"error": {"message": "(#100) message or link is required", "type": "OAuthException", "code": 100}})
            state["next"] += 1
            return self.answer(200, {"id": "%s_%d" % (parts[1], state["next"])})
        if self.command == "POST" and len(parts) == 3 and parts[0] == "v21.0" and parts[2] == "photos":
            if "source" not in files:
                return self.answer(400, {"error": {"message": "(#324) Requires upload file", "type": "OAuthException", "code": 324}})
            state["next"] += 1
            photo = str(state["next"])
            if fields.get("published") == "false":
                return self.answer(200, {"id": photo})
            return self.answer(200, {"id": photo, "post_id": "%s_%s" % (parts[1], photo)})
        self.answer(400, {"error": {"message": "Unknown path components", "type": "OAuthException", "code": 2500}})

    # Weibo: POST /2/statuses/share.json.
    def serve_weibo(self):
        body, fields, files, obj, entry = self.read_request()
        log(entry)
        if self.command != "POST" or self.path != "/2/statuses/share.json":
            return self.answer(404, {"error": "Request Api not found!", "error_code": 10014, "request": self.path})
        token = fields.get("access_token")
        if token == "expired":
            return self.answer(400, {"error": "expired_token", "error_code": 21327, "request": self.path})
        if token is None:
            return self.answer(403, {"error": "auth faild!", "error_code": 21301, "request": self.path})
        if token == "limited":
            return self.answer(403, {"error": "User requests out of rate limit!", "error_code": 10023, "request": self.path})
        status = fields.get("status", "")
        if "http://" not in status and "https://" not in status:
            return self.answer(400, {"error": "text not find domain!", "error_code": 10017, "request": self.path})
        state["next"] += 1
        return self.answer(200, {"created_at": "Mon Nov 30 16:00:00 +0800 2026", "id": state["next"],
                                 "idstr": str(state["next"]), "text": status,
                                 "original_pic": "https://wx1.sinaimg.cn/large/x.jpg" if "pic" in files else None,
                                 "user": {"id": 1404376560, "idstr": "1404376560", "screen_name": "tester"}})

    # Flickr: POST /services/upload/, OAuth 1.0a signed over every field but the photo.
    def serve_flickr(self):
        body, fields, files, obj, entry = self.read_request()
        auth = self.headers.get("Authorization", "")
        params = {}
        if auth.startswith("OAuth "):
            for item in auth[6:].split(","):
                k, _, v = item.strip().partition("=")
                params[urllib.parse.unquote(k)] = urllib.parse.unquote(v.strip('"'))
        signature = params.pop("oauth_signature", None)
        params.pop("realm", None)
        pairs = sorted((pct(k), pct(v)) for k, v in list(params.items()) + list(fields.items()))
        normalized = "&".join("%s=%s" % p for p in pairs)
        url = "http://127.0.0.1:%d/services/upload/" % self.server.server_address[1]
        base = "&".join(pct(x) for x in ("POST", url, normalized))
        key = (pct(FLICKR_SECRETS[0]) + "&" + pct(FLICKR_SECRETS[1])).encode()
        expected = base64.b64encode(hmac.new(key, base.encode(), hashlib.sha1).digest()).decode()
        entry["signature_valid"] = signature == expected
        log(entry)
        def fail(code, msg):
            xml = '<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="fail">\n\t<err code="%d" msg="%s" />\n</rsp>\n' % (code, msg)
            return self.answer(200, xml.encode(), content_type="text/xml; charset=utf-8")
        if self.command != "POST" or self.path != "/services/upload/":
            return fail(112, "Method not found")
        if params.get("oauth_token") == "expired":
            return fail(98, "Invalid auth token")
        if signature is None or signature != expected:
            return fail(96, "Invalid signature")
        if "photo" not in files:
            return fail(2, "No photo specified")
        state["next"] += 1
        xml = '<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">\n<photoid>%d</photoid>\n</rsp>\n' % state["next"]
        self.answer(200, xml.encode(), content_type="text/xml; charset=utf-8")

    # Vimeo: POST /me/videos (tus approach), then tus 1.0.0 PATCH/HEAD on the upload link.
    def serve_vimeo(self):
        if self.command == "PATCH" and self.path.startswith("/tus/"):
            return self.tus_patch()
        body, fields, files, obj, entry = self.read_request()
        log(entry)
        if self.command == "HEAD" and self.path.startswith("/tus/"):
            upload = state["uploads"].get(self.path[5:])
            if upload is None or self.headers.get("Tus-Resumable") != "1.0.0":
                return self.answer(404 if upload is None else 412)
            return self.answer(200, None, {"Tus-Resumable": "1.0.0", "Upload-Offset": str(len(upload["data"])),
                                           "Upload-Length": str(upload["size"]), "Cache-Control": "no-store"})
        if self.command == "GET" and self.path.startswith("/_uploaded/"):
            upload = state["uploads"][self.path[len("/_uploaded/"):]]
            return self.answer(200, bytes(upload["data"]), content_type="application/octet-stream")
        token = self.bearer("bearer")
        if token is None or token == "expired":
            return self.answer(401, {"error": "You must provide a valid authenticated access token.", "error_code": 8003})
        if token == "limited":
            return self.answer(429, {"error": "Too many API requests"}, {"Retry-After": "4"})
        if self.command == "POST" and self.path == "/me/videos":
            if "version=3.4" not in self.headers.get("Accept", ""):
                return self.answer(400, {"error": "Accept must ask for version 3.4"})
            upload = (obj or {}).get("upload") or {}
            if upload.get("approach") != "tus" or not str(upload.get("size", "")).isdigit():
                return self.answer(400, {"error": "upload.approach must be tus with a size", "error_code": 2204})
            state["next"] += 1
            vid = str(state["next"])
            state["uploads"][vid] = {"size": int(upload["size"]), "data": bytearray(), "flaky": token == "flaky"}
            port = self.server.server_address[1]
            return self.answer(200, {"uri": "/videos/" + vid, "link": "https://vimeo.com/" + vid,
                                     "name": (obj or {}).get("name"),
                                     "upload": {"status": "in_progress", "approach": "tus", "size": upload["size"],
                                                "upload_link": "http://127.0.0.1:%d/tus/%s" % (port, vid)}})
        self.answer(404, {"error": "The requested page couldn't be found."})

    def tus_patch(self):
        vid = self.path[5:]
        upload = state["uploads"].get(vid)
        length = int(self.headers.get("Content-Length") or 0)
        entry = {"method": "PATCH", "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                 "fields": {}, "files": {}, "json": None}
        if upload is None:
            self.rfile.read(length)
            log(entry)
            return self.answer(404)
        if self.headers.get("Tus-Resumable") != "1.0.0" or \
                self.headers.get("Content-Type") != "application/offset+octet-stream":
            self.rfile.read(length)
            log(entry)
            return self.answer(412 if self.headers.get("Tus-Resumable") != "1.0.0" else 415)
        if int(self.headers.get("Upload-Offset", "-1")) != len(upload["data"]):
            self.rfile.read(length)
            entry["conflict"] = True
            log(entry)
            return self.answer(409, None, {"Tus-Resumable": "1.0.0"})
        if upload["flaky"] and state["dropped"] == 0 and length > 1:
            # Take half, then cut the connection without an answer.
            half = length // 2
            upload["data"] += self.rfile.read(half)
            state["dropped"] += 1
            entry["dropped_after"] = half
            log(entry)
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        upload["data"] += self.rfile.read(length)
        log(entry)
        self.answer(204, None, {"Tus-Resumable": "1.0.0", "Upload-Offset": str(len(upload["data"]))})

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
