#!/usr/bin/python3
# A share target (SPEC §9): saves what it is given into $SHARESHEET_EXAMPLE_TARGET_DIR, else the Downloads
# folder. The session bus starts it on the first call; it quits after 10 s idle and the bus starts it again.
# /usr/bin/python3, not the python3 on PATH: Debian installs python3-gi for its own interpreter only.
import io, os, shutil, tempfile
from gi.repository import Gio, GLib

XML = """<node><interface name="org.sharesheet.Target1"><method name="Share"><arg direction="in" type="aa{sv}"/>
<arg direction="in" type="a{sv}"/><arg direction="out" type="a{sv}"/></method></interface></node>"""
folder = (os.environ.get("SHARESHEET_EXAMPLE_TARGET_DIR") or GLib.get_user_special_dir(GLib.UserDirectory.DIRECTORY_DOWNLOAD)
          or os.path.expanduser("~/Downloads"))
loop, umask = GLib.MainLoop(), os.umask(0o022); os.umask(umask)  # read the umask: there is no getter

def receive(item, fds):  # into a hidden temporary file first, so nobody ever sees half a file under its name
    if "text" in item: name, source = "Shared text.txt", io.BytesIO(item["text"].encode())
    elif "fd" in item:
        name = item.get("name", "")
        if "/" in name or name in ("", ".", ".."): raise ValueError("%r is not a plain file name" % name)
        source = os.fdopen(fds.get(item["fd"]), "rb")  # h is an index into the message's descriptor list
    else: raise ValueError("only files and text can be saved")
    part = tempfile.NamedTemporaryFile(dir=folder, prefix=".part-", delete=False)
    try:
        with source, part: shutil.copyfileobj(source, part); os.fchmod(part.fileno(), 0o666 & ~umask)  # not mkstemp's 0600
    except BaseException: os.unlink(part.name); raise
    return part.name, name

def place(part, name):  # link() is a rename that refuses to replace a file already there ("a.png" → "a (2).png")
    stem, ext = os.path.splitext(name)
    for target in [os.path.join(folder, name)] + [os.path.join(folder, "%s (%d)%s" % (stem, n, ext)) for n in range(2, 100)]:
        try: os.link(part, target); os.unlink(part); return target
        except FileExistsError: continue
        except OSError:  # no hard links (FAT, some FUSE): check, then rename
            if not os.path.lexists(target): os.rename(part, target); return target
    raise FileExistsError("no free name for %s" % name)

def share(bus, sender, path, interface, method, parameters, invocation):
    global idle; GLib.source_remove(idle); idle = GLib.timeout_add_seconds(10, loop.quit)
    parts, fds = [], invocation.get_message().get_unix_fd_list() or Gio.UnixFDList()
    try:
        os.makedirs(folder, exist_ok=True)
        for item in parameters.unpack()[0]: parts.append(receive(item, fds))
        saved = [place(*part) for part in parts]  # only once every item has arrived whole
        result = {"completed": GLib.Variant("b", True), "disposition": GLib.Variant("s", "saved"),
                  "location": GLib.Variant("s", saved[0] if len(saved) == 1 else folder)}
    except Exception as error:
        for part, _ in parts: os.path.exists(part) and os.unlink(part)
        result = {"completed": GLib.Variant("b", False), "disposition": GLib.Variant("s", "failed"),
                  "error-message": GLib.Variant("s", "Could not save: %s" % error)}
    invocation.return_value(GLib.Variant("(a{sv})", (result,)))

acquired = lambda bus, name: bus.register_object("/org/sharesheet/ExampleTarget", Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], share)
idle = GLib.timeout_add_seconds(10, loop.quit)
Gio.bus_own_name(Gio.BusType.SESSION, "org.sharesheet.ExampleTarget", Gio.BusNameOwnerFlags.NONE, acquired, None, lambda *_: loop.quit())
loop.run()
