"""Checks that standard input is JSON in ShareSheet's one style, and prints its value.

    json-style.py compact|pretty

Every object's keys must come in sorted order. `compact` output must be exactly what Python
writes with sorted keys and no spaces, on one line ending in a newline; `pretty` output must be
indented, one member per line. On success the value is printed back with sorted keys (so a
test can compare the two forms); otherwise the reason goes to standard error, exit 1.
"""
import json
import sys

text = sys.stdin.read()


def sorted_members(pairs):
    keys = [key for key, _ in pairs]
    if keys != sorted(keys):
        sys.exit("keys not sorted: %s" % keys)
    return dict(pairs)


value = json.loads(text, object_pairs_hook=sorted_members)
if sys.argv[1] == "compact":
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    if text != expected:
        sys.exit("not compact:\n%s\nexpected:\n%s" % (text, expected))
else:
    lines = text.rstrip("\n").split("\n")
    nested = isinstance(value, (dict, list)) and len(value) > 0
    if not text.endswith("\n") or (nested and (len(lines) < 3 or not any(l.startswith("  ") for l in lines))):
        sys.exit("not indented:\n%s" % text)
print(json.dumps(value, sort_keys=True))
