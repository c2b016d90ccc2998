#!/usr/bin/python3
# A share target (README, "Make your app a share target"): saves the files and text it is given
# in $SHARESHEET_EXAMPLE_TARGET_DIR, else ~/Downloads. The session bus starts it on the first call;
# it quits after 10 s without one. /usr/bin/python3: Debian's python3-gi is for that one only.
import io, os, shutil, tempfile
from gi.repository import Gio, GLib

XML = """<node><interface name="org.sharesheet.Target1"><method name="Share"><arg direction="in" type="aa{sv}"/>
<arg direction="in" type="a{sv}"/><arg direction="out" type="a{sv}"/></method></interface></node>"""
folder = os.environ.get("SHARESHEET_EXAMPLE_TARGET_DIR") or os.path.expanduser("~/Downloads")
loop = GLib.MainLoop()
idle = [GLib.timeout_add_seconds(10, loop.quit)]

def save(name, source):  # whole under a hidden name, then linked to a free one: never half a file, never a file replaced
    if name != os.path.basename(name) or name in ("", ".", ".."): raise ValueError("%r is not a file name" % name)
    with source, tempfile.NamedTemporaryFile(dir=folder, prefix=".part-", delete=False) as part: shutil.copyfileobj(source, part)
    stem, ext = os.path.splitext(name)
    for free in [name] + ["%s (%d)%s" % (stem, n, ext) for n in range(2, 100)]:
        try: os.link(part.name, os.path.join(folder, free)); os.unlink(part.name); return os.path.join(folder, free)
        except FileExistsError: pass
    os.unlink(part.name); raise FileExistsError("no free name for " + name)

def share(bus, sender, path, interface, method, parameters, invocation):
    GLib.source_remove(idle[0]); idle[0] = GLib.timeout_add_seconds(10, loop.quit)
    items, fds = parameters.unpack()[0], invocation.get_message().get_unix_fd_list()
    try:
        os.makedirs(folder, exist_ok=True)  # a file arrives as a descriptor: "fd" is its index in the message's list
        saved = [save(i["name"], os.fdopen(fds.get(i["fd"]), "rb")) if "fd" in i else save("Shared text.txt", io.BytesIO(i["text"].encode())) for i in items]
        result = {"completed": GLib.Variant("b", True), "disposition": GLib.Variant("s", "saved"),
                  "location": GLib.Variant("s", saved[0] if len(saved) == 1 else folder)}
    except Exception as error:
        result = {"completed": GLib.Variant("b", False), "error-message": GLib.Variant("s", "could not save: %s" % error)}
    invocation.return_value(GLib.Variant("(a{sv})", (result,)))

acquired = lambda bus, name: bus.register_object("/org/sharesheet/ExampleTarget", Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], share)
Gio.bus_own_name(Gio.BusType.SESSION, "org.sharesheet.ExampleTarget", Gio.BusNameOwnerFlags.NONE, acquired, None, lambda *_: loop.quit())
loop.run()
