#!/usr/bin/python3
"""A client of the share service (SPEC §8) for the service tests, run with /usr/bin/python3 (gi).

It talks to org.sharesheet.ShareSheet on the session bus of DBUS_SESSION_BUS_ADDRESS and prints
one JSON object a line on standard output, one per result:

  list  [ITEMS] [--option KEY=JSON]…            {"activities": [{…}, …]}
  suggestions [ITEMS] [--option KEY=JSON]…      {"suggestions": [{…}, …]} (ListSuggestions)
  share [ITEMS] [SHARE OPTIONS]                   {"handle", "token", "response", "results", "elapsed_ms"}
  close HANDLE                                    {"closed": HANDLE} (Close on any request)
  ping                                            {"ping": "ok", "microseconds": N} (Peer.Ping)
  pid [NAME]                                      {"name", "pid"} (GetConnectionUnixProcessID)
  call METHOD [GVARIANT-TUPLE]                    {"reply": […]} (any method, arguments as text)
  bench-list N                                    {"calls", "list": {"median_us", "p99_us"}, "ping": {…}}
  concurrent N [ITEMS] [SHARE OPTIONS]            one "share" object per client, with "client": I

ITEMS, in order, any number of each:
  --text T                  {"text": T}
  --uri U                   {"uri": U}
  --file PATH[:MIME]        {"fd": h, "name": basename, "mime-type": MIME} (opened read-only)
  --write-only PATH         an fd item the service cannot read (opened write-only)
  --pipe-held-open          an fd item that is a pipe whose writer this client keeps open, writing
                            nothing ("held.png", image/png)
  --slow-pipe SIZE:RATE[:NAME[:MIME]]
                            an fd item that is a pipe a thread fills with SIZE bytes (a PNG
                            signature, then pseudo-random bytes) at RATE bytes a second
                            (defaults "slow.png", image/png)
  --item GVARIANT           a raw a{sv} in GVariant text, e.g. "{'fd': <handle 7>}"

SHARE OPTIONS: --activity NAME, --interactive true|false, --field K=V…, --subject S, --exclude N…,
--custom-action ID:TITLE:ICON…, --token T (handle_token; default a random one), --parent WINDOW,
--timeout S (for the Response, default 60), --disconnect-after S (print {"handle",
"disconnected": true} and leave the bus abruptly after S seconds), --close-after S (call Close
on the request after S seconds, then wait for its Response), --announce (print {"handle", "token",
"pending": true} as soon as Share has returned, before the Response), --detach-writers LOG (each
--slow-pipe is filled by a process of its own that outlives this client and holds nothing else of
it, so leaving the bus does not end the pipe; it appends "wrote N bytes" or "stopped after N
bytes: REASON" to LOG; their PIDs are in "writer_pids").
Both commands take --option KEY=JSON (a string, boolean, number, list of strings, list of
three-string lists as a(sss), or object of strings as a{ss}) and --option-variant KEY=GVARIANT;
these two are applied last, so they replace what the flags above set.
In `concurrent`, "{i}" in texts, fields, the subject and the token becomes the client's index.

Exit status: 0 with a result; 2 for a usage error; 3 for a D-Bus error, printed as
{"error": NAME, "message": TEXT}; 4 when no Response came in time ({"handle", "timeout": true}).
"""
import argparse
import errno
import json
import os
import signal
import statistics
import sys
import threading
import time
import uuid

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

SERVICE = "org.sharesheet.ShareSheet"
OBJECT = "/org/sharesheet/ShareSheet"
INTERFACE = "org.sharesheet.ShareSheet1"
REQUEST = "org.sharesheet.Request1"
REQUEST_PREFIX = OBJECT + "/request/"

output_lock = threading.Lock()


def emit(value):
    with output_lock:
        sys.stdout.write(json.dumps(value, sort_keys=True, default=str) + "\n")
        sys.stdout.flush()


class Failed(Exception):
    """A D-Bus call failed: the error's name and message."""

    def __init__(self, error):
        if Gio.DBusError.is_remote_error(error):
            self.name = Gio.DBusError.get_remote_error(error)
            Gio.DBusError.strip_remote_error(error)
        else:
            self.name = "local:%s.%d" % (error.domain, error.code)
        self.message = error.message
        super().__init__(self.message)

    def json(self):
        return {"error": self.name, "message": self.message}


# MARK: - Items and options


def guess_variant(value):
    """A GVariant for a JSON value (see --option)."""
    if isinstance(value, bool):
        return GLib.Variant("b", value)
    if isinstance(value, int):
        return GLib.Variant("u" if value >= 0 else "i", value)
    if isinstance(value, float):
        return GLib.Variant("d", value)
    if isinstance(value, str):
        return GLib.Variant("s", value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return GLib.Variant("as", value)
    if isinstance(value, list) and all(isinstance(v, list) and len(v) == 3 for v in value):
        return GLib.Variant("a(sss)", [tuple(v) for v in value])
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return GLib.Variant("a{ss}", value)
    raise SystemExit("service-client: no D-Bus type for the JSON value %r" % (value,))


def pipe_writer(descriptor, size, rate, held):
    """Writes SIZE bytes at RATE bytes a second into the pipe, then closes it; records how far it got."""
    state = 0x9E3779B97F4A7C15
    written = 0
    chunk = 1 << 16
    started = time.monotonic()
    try:
        while written < size:
            count = min(chunk, size - written)
            state = (state * 6364136223846793005 + 1442695040888963407) & (2 ** 64 - 1)
            block = (state.to_bytes(8, "little") * (count // 8 + 1))[:count]
            if written == 0:
                block = (b"\x89PNG\r\n\x1a\n" + block[8:])[:count]
            view = memoryview(block)
            while view:
                view = view[os.write(descriptor, view):]
            written += count
            due = started + written / rate
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        held["result"] = "wrote %d bytes" % written
    except OSError as error:
        held["result"] = "stopped after %d bytes: %s" % (written, error.strerror)
    finally:
        os.close(descriptor)


def detached_writer(descriptor, size, rate, log):
    """Forks a process that fills the pipe (pipe_writer) and outlives this client, holding no
    other descriptor of ours (so not our bus connection); it appends how far it got to `log` and
    gives up SIZE/RATE + 15 seconds after it started. Returns its PID."""
    pid = os.fork()
    if pid:
        os.close(descriptor)
        return pid
    try:
        null = os.open(os.devnull, os.O_RDWR)
        for standard in (0, 1, 2):
            os.dup2(null, standard)
        os.closerange(3, descriptor)
        os.closerange(descriptor + 1, 1 << 16)

        def give_up(*_):
            raise OSError(errno.ETIMEDOUT, "gave up: the pipe was not read in time")
        signal.signal(signal.SIGALRM, give_up)
        signal.alarm(int(size / rate) + 15)
        state = {}
        pipe_writer(descriptor, size, rate, state)
        with open(log, "a", encoding="utf-8") as file:
            file.write(state["result"] + "\n")
    finally:
        os._exit(0)


class Items:
    """The items of one call and the descriptor list that goes with them."""

    def __init__(self, specs, index=None, detached_log=None):
        self.fds = Gio.UnixFDList()
        self.items = []
        self.held = []      # writers kept open (--pipe-held-open)
        self.writers = []   # threads filling pipes (--slow-pipe), started after the call
        self.detached_log = detached_log
        self.writer_pids = []  # processes filling pipes (--slow-pipe with --detach-writers)
        for kind, value in specs:
            if index is not None and isinstance(value, str):
                value = value.replace("{i}", str(index))
            getattr(self, "add_" + kind.replace("-", "_"))(value)

    def descriptor(self, fd, name, mime=None):
        position = self.fds.append(fd)
        os.close(fd)  # the list holds its own copy
        item = {"fd": GLib.Variant("h", position), "name": GLib.Variant("s", name)}
        if mime:
            item["mime-type"] = GLib.Variant("s", mime)
        self.items.append(item)

    def add_text(self, value):
        self.items.append({"text": GLib.Variant("s", value)})

    def add_uri(self, value):
        self.items.append({"uri": GLib.Variant("s", value)})

    def add_file(self, value):
        path, mime = value, None
        head, _, tail = value.rpartition(":")
        if head and "/" in tail and not os.path.exists(value):
            path, mime = head, tail
        self.descriptor(os.open(path, os.O_RDONLY), os.path.basename(path.rstrip("/")) or path, mime)

    def add_write_only(self, value):
        self.descriptor(os.open(value, os.O_WRONLY | os.O_CREAT, 0o600), os.path.basename(value))

    def add_pipe_held_open(self, _value):
        reader, writer = os.pipe()
        self.held.append(writer)
        self.descriptor(reader, "held.png", "image/png")

    def add_slow_pipe(self, value):
        parts = value.split(":")
        size, rate = int(parts[0]), float(parts[1])
        name = parts[2] if len(parts) > 2 and parts[2] else "slow.png"
        mime = parts[3] if len(parts) > 3 else "image/png"
        reader, writer = os.pipe()
        if self.detached_log:
            self.writer_pids.append(detached_writer(writer, size, rate, self.detached_log))
        else:
            state = {}
            thread = threading.Thread(target=pipe_writer, args=(writer, size, rate, state), daemon=True)
            self.writers.append((thread, state))
        self.descriptor(reader, name, mime)

    def add_item(self, value):
        self.items.append(parse_vardict(value))

    def variant(self):
        return [dict(item) for item in self.items]

    def start_writers(self):
        for thread, _ in self.writers:
            thread.start()

    def writer_report(self):
        return [state.get("result", "writing") for _, state in self.writers]


def parse_vardict(text):
    """An a{sv} in GVariant text as a dict of str to GLib.Variant (values kept typed)."""
    parsed = GLib.Variant.parse(GLib.VariantType.new("a{sv}"), text, None, None)
    result = {}
    for position in range(parsed.n_children()):
        entry = parsed.get_child_value(position)
        result[entry.get_child_value(0).get_string()] = entry.get_child_value(1).get_variant()
    return result


def options_from(args, index=None):
    def each(value):
        return value.replace("{i}", str(index)) if index is not None else value

    options = {}
    if getattr(args, "activity", None) is not None:
        options["activity"] = GLib.Variant("s", args.activity)
    if getattr(args, "interactive", None) is not None:
        options["interactive"] = GLib.Variant("b", args.interactive == "true")
    if getattr(args, "field", None):
        fields = {}
        for pair in args.field:
            key, _, value = pair.partition("=")
            fields[key] = each(value)
        options["fields"] = GLib.Variant("a{ss}", fields)
    if getattr(args, "subject", None) is not None:
        options["subject"] = GLib.Variant("s", each(args.subject))
    if getattr(args, "exclude", None):
        options["excluded-activities"] = GLib.Variant("as", args.exclude)
    if getattr(args, "custom_action", None):
        actions = [tuple((entry.split(":", 2) + ["", ""])[:3]) for entry in args.custom_action]
        options["custom-actions"] = GLib.Variant("a(sss)", actions)
    # Given last, so a raw option can replace what the flags above set.
    for pair in args.option or []:
        key, _, value = pair.partition("=")
        options[key] = guess_variant(json.loads(value))
    for pair in args.option_variant or []:
        key, _, value = pair.partition("=")
        options[key] = GLib.Variant.parse(None, value, None, None)
    return options


# MARK: - Calls


def connect(private=False):
    try:
        if private:
            address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
            flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
            return Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        return Gio.bus_get_sync(Gio.BusType.SESSION, None)
    except GLib.Error as error:
        raise Failed(error)


def call(connection, path, interface, method, arguments, reply_type, timeout, fds=None,
         destination=SERVICE):
    try:
        if fds is not None:
            reply, _ = connection.call_with_unix_fd_list_sync(
                destination, path, interface, method, arguments,
                GLib.VariantType.new(reply_type) if reply_type else None,
                Gio.DBusCallFlags.NONE, int(timeout * 1000), fds, None)
        else:
            reply = connection.call_sync(
                destination, path, interface, method, arguments,
                GLib.VariantType.new(reply_type) if reply_type else None,
                Gio.DBusCallFlags.NONE, int(timeout * 1000), None)
    except GLib.Error as error:
        raise Failed(error)
    return reply


def request_path(connection, token):
    """Where the service puts the request for `token` (the portal convention)."""
    return REQUEST_PREFIX + connection.get_unique_name()[1:].replace(".", "_") + "/" + token


def share(args, connection, context, index=None):
    """One Share call and its Response: the result object, or raises Failed."""
    token = args.token if args.token is not None else "client_" + uuid.uuid4().hex[:12]
    if index is not None:
        token = token.replace("{i}", str(index)) if "{i}" in token else token + "_" + str(index)
    items = Items(args.specs, index, args.detach_writers)
    options = options_from(args, index)
    options.setdefault("handle_token", GLib.Variant("s", token))
    response = {}
    subscriptions = []

    def received(_connection, _sender, path, _interface, _signal, parameters, *_):
        if "response" not in response:
            code, results = parameters.unpack()
            response.update(response=code, results=results, path=path)

    def subscribe(path):
        subscriptions.append(connection.signal_subscribe(
            None, REQUEST, "Response", path, None, Gio.DBusSignalFlags.NONE, received))

    # Subscribed before the call, so a Response sent at once is not missed.
    expected = request_path(connection, token)
    if GLib.Variant.is_object_path(expected):
        subscribe(expected)
    started = time.monotonic()
    arguments = GLib.Variant("(saa{sv}a{sv})", (args.parent, items.variant(), options))
    reply = call(connection, OBJECT, INTERFACE, "Share", arguments, "(o)", args.call_timeout, items.fds)
    items.fds = None
    handle = reply.unpack()[0]
    if handle != expected:
        subscribe(handle)
    items.start_writers()
    result = {"handle": handle, "token": token}
    if index is not None:
        result["client"] = index
    if items.writer_pids:
        result["writer_pids"] = items.writer_pids
    if args.announce:
        emit(dict(result, pending=True))
    if args.disconnect_after is not None:
        def leave():
            result["disconnected"] = True
            emit(result)
            os._exit(0)
        after(context, args.disconnect_after, leave)
    if args.close_after is not None:
        def close_it():
            try:
                call(connection, handle, REQUEST, "Close", None, None, args.call_timeout)
                result["close"] = "ok"
            except Failed as failure:
                result["close"] = failure.json()
        after(context, args.close_after, close_it)
    deadline = started + args.timeout
    after(context, args.timeout, lambda: None)  # wakes the loop at the deadline
    while "response" not in response and time.monotonic() < deadline:
        context.iteration(True)
    for subscription in subscriptions:
        connection.signal_unsubscribe(subscription)
    for writer in items.held:
        os.close(writer)
    result["elapsed_ms"] = round((time.monotonic() - started) * 1000, 1)
    if items.writers:
        result["writers"] = items.writer_report()
    if "response" not in response:
        result["timeout"] = True
        return result
    result.update(response=response["response"], results=response["results"])
    if response["path"] != handle:
        result["signal_path"] = response["path"]
    return result


def after(context, seconds, action):
    """Runs `action` once, `seconds` from now, in `context`."""
    source = GLib.timeout_source_new(int(seconds * 1000))
    source.set_callback(lambda *_: action() and False)
    source.attach(context)


def percentiles(samples):
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, max(0, -(-len(ordered) * 99 // 100) - 1))]
    return {"median_us": round(statistics.median(ordered), 1), "p99_us": round(p99, 1)}


# MARK: - Commands


def command_list(args):
    connection = connect()
    items = Items(args.specs)
    arguments = GLib.Variant("(aa{sv}a{sv})", (items.variant(), options_from(args)))
    reply = call(connection, OBJECT, INTERFACE, "ListActivities", arguments, "(aa{sv})", args.call_timeout, items.fds)
    emit({"activities": reply.unpack()[0]})
    return 0


def command_suggestions(args):
    connection = connect()
    items = Items(args.specs)
    arguments = GLib.Variant("(aa{sv}a{sv})", (items.variant(), options_from(args)))
    reply = call(connection, OBJECT, INTERFACE, "ListSuggestions", arguments, "(aa{sv})", args.call_timeout, items.fds)
    emit({"suggestions": reply.unpack()[0]})
    return 0


def command_share(args):
    connection = connect()
    result = share(args, connection, GLib.MainContext.default())
    emit(result)
    return 4 if result.get("timeout") else 0


def command_concurrent(args):
    results = [None] * args.count
    barrier = threading.Barrier(args.count)

    def client(index):
        context = GLib.MainContext.new()
        context.push_thread_default()
        try:
            connection = connect(private=True)
            barrier.wait(timeout=60)
            results[index] = share(args, connection, context, index)
            connection.close_sync(None)
        except Failed as failure:
            results[index] = dict(failure.json(), client=index)
        except threading.BrokenBarrierError:
            results[index] = {"client": index, "error": "barrier", "message": "another client failed to connect"}
        finally:
            context.pop_thread_default()

    threads = [threading.Thread(target=client, args=(index,)) for index in range(args.count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        emit(result)
    if any("error" in result for result in results):
        return 3
    return 4 if any(result.get("timeout") for result in results) else 0


def command_close(args):
    connection = connect()
    call(connection, args.handle, REQUEST, "Close", None, None, args.call_timeout)
    emit({"closed": args.handle})
    return 0


def command_ping(args):
    connection = connect()
    started = time.perf_counter_ns()
    call(connection, OBJECT, "org.freedesktop.DBus.Peer", "Ping", None, None, args.call_timeout)
    emit({"ping": "ok", "microseconds": round((time.perf_counter_ns() - started) / 1000, 1)})
    return 0


def command_pid(args):
    connection = connect()
    reply = call(connection, "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID",
                 GLib.Variant("(s)", (args.name,)), "(u)", args.call_timeout, destination="org.freedesktop.DBus")
    emit({"name": args.name, "pid": reply.unpack()[0]})
    return 0


def command_call(args):
    connection = connect()
    arguments = GLib.Variant.parse(None, args.arguments, None, None) if args.arguments else None
    reply = call(connection, args.path, args.interface, args.method, arguments, None, args.call_timeout,
                 Gio.UnixFDList())
    emit({"reply": list(reply.unpack()) if reply is not None else []})
    return 0


def command_bench_list(args):
    connection = connect()
    items = [{"text": GLib.Variant("s", "item %d" % index)} for index in range(10)]
    list_arguments = GLib.Variant("(aa{sv}a{sv})", (items, {}))
    measured = {"list": [], "ping": []}
    for name, method, interface, arguments in (
            ("list", "ListActivities", INTERFACE, list_arguments),
            ("ping", "Ping", "org.freedesktop.DBus.Peer", None)):
        call(connection, OBJECT, interface, method, arguments, None, args.call_timeout)  # warm up
        for _ in range(args.count):
            started = time.perf_counter_ns()
            call(connection, OBJECT, interface, method, arguments, None, args.call_timeout)
            measured[name].append((time.perf_counter_ns() - started) / 1000)
    emit({"calls": args.count, "list": percentiles(measured["list"]), "ping": percentiles(measured["ping"])})
    return 0


# MARK: - Arguments


class Spec(argparse.Action):
    """Keeps the item options in the order given."""

    def __call__(self, parser, namespace, values, option_string=None):
        specs = getattr(namespace, "specs", None) or []
        specs.append((option_string.lstrip("-"), values))
        namespace.specs = specs


def add_items(parser):
    parser.set_defaults(specs=[])
    for name in ("--text", "--uri", "--file", "--write-only", "--slow-pipe", "--item"):
        parser.add_argument(name, action=Spec)
    parser.add_argument("--pipe-held-open", action=Spec, nargs=0)
    parser.add_argument("--option", action="append", metavar="KEY=JSON")
    parser.add_argument("--option-variant", action="append", metavar="KEY=GVARIANT")


def add_share_options(parser):
    add_items(parser)
    parser.add_argument("--activity")
    parser.add_argument("--interactive", choices=["true", "false"])
    parser.add_argument("--field", action="append", metavar="K=V")
    parser.add_argument("--subject")
    parser.add_argument("--exclude", action="append")
    parser.add_argument("--custom-action", action="append", metavar="ID:TITLE:ICON")
    parser.add_argument("--token")
    parser.add_argument("--parent", default="")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--disconnect-after", type=float)
    parser.add_argument("--close-after", type=float)
    parser.add_argument("--announce", action="store_true")
    parser.add_argument("--detach-writers", metavar="LOG")


def main():
    parser = argparse.ArgumentParser(prog="service-client", description="A client of the share service.")
    parser.add_argument("--call-timeout", type=float, default=30, help="seconds a method call may take")
    commands = parser.add_subparsers(dest="command", required=True)
    add_items(commands.add_parser("list"))
    add_items(commands.add_parser("suggestions"))
    add_share_options(commands.add_parser("share"))
    concurrent = commands.add_parser("concurrent")
    concurrent.add_argument("count", type=int)
    add_share_options(concurrent)
    commands.add_parser("close").add_argument("handle")
    commands.add_parser("ping")
    commands.add_parser("pid").add_argument("name", nargs="?", default=SERVICE)
    raw = commands.add_parser("call")
    raw.add_argument("method")
    raw.add_argument("arguments", nargs="?")
    raw.add_argument("--path", default=OBJECT)
    raw.add_argument("--interface", default=INTERFACE)
    commands.add_parser("bench-list").add_argument("count", type=int)
    args = parser.parse_args()
    handler = globals()["command_" + args.command.replace("-", "_")]
    try:
        return handler(args)
    except Failed as failure:
        emit(failure.json())
        return 3


if __name__ == "__main__":
    sys.exit(main())
