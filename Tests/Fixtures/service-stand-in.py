#!/usr/bin/python3
"""A stand-in for the share service, only for the service harness's self-test (ServiceBusHarnessTests).

It owns org.sharesheet.ShareSheet on the session bus and serves the real interface file
(Resources/dbus/org.sharesheet.ShareSheet1.xml), so GDBus checks the calls' signatures as it
would for the real service. It shares nothing: ListActivities answers "echo" (available) and
"never" (unavailable); Share reads every item and answers Response 0 with, in returned-items,
"text:T", "uri:U" or "fd:NAME:SIZE:SHA256" for each (descriptors are read off the main thread),
or Response 2 when an item cannot be read. Close is allowed to the request's caller only.
On standard error it says "stand-in: started pid=… XDG_CONFIG_HOME=… TMPDIR=…" and
"stand-in: caller NAME left" when a caller with a request leaves the bus.
"""
import hashlib
import os
import sys
import threading

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "org.sharesheet.ShareSheet"
OBJECT = "/org/sharesheet/ShareSheet"
XML = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Resources", "dbus",
                   "org.sharesheet.ShareSheet1.xml")

node = Gio.DBusNodeInfo.new_for_xml(open(XML, encoding="utf-8").read())
loop = GLib.MainLoop()
requests = {}   # path → (sender, registration id)
watched = {}    # sender → watch id


def say(line):
    sys.stderr.write("stand-in: " + line + "\n")
    sys.stderr.flush()


def read_descriptor(fd):
    digest = hashlib.sha256()
    size = 0
    try:
        while True:
            block = os.read(fd, 1 << 20)
            if not block:
                break
            digest.update(block)
            size += len(block)
    finally:
        os.close(fd)
    return size, digest.hexdigest()


def describe(items, fds):
    """What each item held; raises ValueError for one that cannot be read."""
    described = []
    for item in items:
        if "text" in item:
            described.append("text:" + item["text"])
        elif "uri" in item:
            described.append("uri:" + item["uri"])
        elif "fd" in item:
            index = item["fd"]
            if fds is None or not 0 <= index < fds.get_length():
                raise ValueError("descriptor index %d is not in the message" % index)
            try:
                size, digest = read_descriptor(fds.get(index))
            except OSError as error:
                raise ValueError("descriptor %d cannot be read: %s" % (index, error.strerror))
            described.append("fd:%s:%d:%s" % (item.get("name", ""), size, digest))
        else:
            raise ValueError("an item has none of text, uri and fd")
    return described


def respond(connection, path, code, results):
    if path not in requests:
        return
    sender, registration = requests.pop(path)
    connection.emit_signal(sender, path, "org.sharesheet.Request1", "Response",
                           GLib.Variant("(ua{sv})", (code, results)))
    connection.unregister_object(registration)


def request_call(connection, sender, path, _interface, method, _parameters, invocation):
    owner = requests.get(path, (None,))[0]
    if method != "Close":
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)
    elif owner != sender:
        invocation.return_dbus_error("org.freedesktop.DBus.Error.AccessDenied", "not your request")
    else:
        invocation.return_value(None)
        respond(connection, path, 1, {"completed": GLib.Variant("b", False)})


def caller_left(_connection, name):
    say("caller %s left" % name)
    Gio.bus_unwatch_name(watched.pop(name))


def share(connection, sender, parameters, invocation):
    _parent, items, options = parameters.unpack()
    token = options.get("handle_token", "t%d" % len(requests))
    path = "%s/request/%s/%s" % (OBJECT, sender[1:].replace(".", "_"), token)
    registration = connection.register_object(path, node.lookup_interface("org.sharesheet.Request1"),
                                              request_call, None, None)
    requests[path] = (sender, registration)
    if sender not in watched:
        watched[sender] = Gio.bus_watch_name_on_connection(
            connection, sender, Gio.BusNameWatcherFlags.NONE, None, caller_left)
    fds = invocation.get_message().get_unix_fd_list()
    invocation.return_value(GLib.Variant("(o)", (path,)))
    activity = options.get("activity", "echo")

    def work():
        try:
            described = describe(items, fds)
            results = {"activity": GLib.Variant("s", activity), "completed": GLib.Variant("b", True),
                       "disposition": GLib.Variant("s", "copied"), "returned-items": GLib.Variant("as", described)}
            code = 0
        except ValueError as error:
            results = {"error-message": GLib.Variant("s", str(error))}
            code = 2
        GLib.idle_add(lambda: respond(connection, path, code, results) and False)

    threading.Thread(target=work, daemon=True).start()


def main_call(connection, sender, _path, _interface, method, parameters, invocation):
    if method == "ListActivities":
        def activity(name, available, reason=None):
            entry = {"activity": GLib.Variant("s", name), "activity-type": GLib.Variant("s", "test." + name),
                     "title": GLib.Variant("s", name.title()), "icon-name": GLib.Variant("s", "edit-copy"),
                     "category": GLib.Variant("s", "action"), "available": GLib.Variant("b", available)}
            if reason:
                entry["reason"] = GLib.Variant("s", reason)
            return entry
        invocation.return_value(GLib.Variant("(aa{sv})", (
            [activity("echo", True), activity("never", False, "the stand-in offers nothing real")],)))
    elif method == "Share":
        share(connection, sender, parameters, invocation)
    else:
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def acquired(connection, _name):
    connection.register_object(OBJECT, node.lookup_interface("org.sharesheet.ShareSheet1"), main_call, None, None)


say("started pid=%d XDG_CONFIG_HOME=%s TMPDIR=%s" % (
    os.getpid(), os.environ.get("XDG_CONFIG_HOME", ""), os.environ.get("TMPDIR", "")))
Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.DO_NOT_QUEUE, acquired, None,
                 lambda *_: (say("lost the name"), loop.quit()))
loop.run()
