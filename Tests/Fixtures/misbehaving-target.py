#!/usr/bin/python3
# A share target that goes wrong on purpose, for the tests of what the sheet does then.
#   misbehaving-target.py crash NAME    exits without answering Share
#   misbehaving-target.py silent NAME   takes Share and never answers
#   misbehaving-target.py refuse NAME   answers Share with error-message
#   misbehaving-target.py malformed NAME   answers Share with completed as a string
#   misbehaving-target.py record NAME   writes what it got (items, names, bytes, options) as JSON to
#                                       $TARGET_RECORD, then answers completed/sent
import base64, json, os, sys
from gi.repository import Gio, GLib

mode, name = sys.argv[1], sys.argv[2]
XML = """<node><interface name="org.sharesheet.Target1"><method name="Share"><arg direction="in" type="aa{sv}"/>
<arg direction="in" type="a{sv}"/><arg direction="out" type="a{sv}"/></method></interface></node>"""
loop = GLib.MainLoop()


def share(bus, sender, path, interface, method, parameters, invocation):
    items, options = parameters.unpack()
    if mode == "crash":
        os._exit(3)
    if mode == "silent":
        return  # the call is never answered; the bus gives up on it only when the caller does
    if mode == "refuse":
        invocation.return_value(GLib.Variant("(a{sv})", ({"error-message": GLib.Variant("s", "the archive is full")},)))
        return
    if mode == "malformed":
        invocation.return_value(GLib.Variant("(a{sv})", ({"completed": GLib.Variant("s", "yes")},)))
        return
    fds = invocation.get_message().get_unix_fd_list()
    record = []
    for item in items:
        entry = {key: value for key, value in item.items() if key != "fd"}
        if "fd" in item:
            with os.fdopen(fds.get(item["fd"]), "rb") as source:
                entry["bytes"] = base64.b64encode(source.read()).decode()
        record.append(entry)
    with open(os.environ["TARGET_RECORD"] + ".part", "w") as out:
        json.dump({"items": record, "options": options}, out)
    os.rename(os.environ["TARGET_RECORD"] + ".part", os.environ["TARGET_RECORD"])
    result = {"completed": GLib.Variant("b", True), "disposition": GLib.Variant("s", "sent"),
              "location": GLib.Variant("s", "archive:42")}
    invocation.return_value(GLib.Variant("(a{sv})", (result,)))


def acquired(bus, _):
    path = "/" + name.replace(".", "/")
    bus.register_object(path, Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], share)


Gio.bus_own_name(Gio.BusType.SESSION, name, Gio.BusNameOwnerFlags.NONE, acquired, None, lambda *_: loop.quit())
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
