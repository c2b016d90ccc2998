# Python's email package reading one message for the tests (PythonEmail in
# Tests/LocalTestSupport/SMTPPeer.swift): python3 parse-email.py MESSAGE prints it as JSON.
import hashlib, json, sys
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses
with open(sys.argv[1], 'rb') as f:
    message = BytesParser(policy=policy.default).parse(f)
def names(field):
    return [f'{n} <{a}>' if n else a for n, a in getaddresses([str(v) for v in message.get_all(field, [])])]
parts = []
defects = [type(d).__name__ for d in message.defects]
for part in message.walk():
    defects += [type(d).__name__ for d in part.defects]
    if part.is_multipart():
        continue
    payload = part.get_payload(decode=True) or b''
    text = None
    if part.get_content_maintype() == 'text':
        text = part.get_content()
    parts.append({'contentType': part.get_content_type(), 'filename': part.get_filename(),
                  'disposition': part.get_content_disposition(),
                  'sha256': hashlib.sha256(payload).hexdigest(), 'size': len(payload), 'text': text})
headers = {}
for key, value in message.items():
    headers.setdefault(key.lower(), []).append(str(value))
print(json.dumps({'headers': headers, 'subject': str(message['subject'] or ''), 'from': names('from'),
                  'to': names('to'), 'cc': names('cc'), 'defects': defects,
                  'contentType': message.get_content_type(), 'parts': parts}))
