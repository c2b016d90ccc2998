#!/usr/bin/python3
# Share a file through the share service: dbus-client.py FILE [ACTIVITY] (no ACTIVITY: the sheet
# opens and you pick). The file goes as a descriptor. Share returns at once; the outcome is the
# request's Response signal, subscribed to before the call. Exit status: 0 done, 1 dismissed, 2 failed.
import os, sys
from gi.repository import Gio, GLib

bus, loop, token = Gio.bus_get_sync(Gio.BusType.SESSION), GLib.MainLoop(), "example%d" % os.getpid()
path = "/org/sharesheet/ShareSheet/request/%s/%s" % (bus.get_unique_name()[1:].replace(".", "_"), token)
def on_response(bus, sender, path, interface, signal, parameters):  # Response(u response, a{sv} results)
    global response; response, results = parameters.unpack(); print(response, results); loop.quit()
bus.signal_subscribe("org.sharesheet.ShareSheet", "org.sharesheet.Request1", "Response", path, None, 0, on_response)
fds = Gio.UnixFDList.new_from_array([os.open(sys.argv[1], os.O_RDONLY)])  # the list owns the descriptor
item = {"fd": GLib.Variant("h", 0), "name": GLib.Variant("s", os.path.basename(sys.argv[1]))}
options = {"handle_token": GLib.Variant("s", token)}
if len(sys.argv) > 2: options.update(activity=GLib.Variant("s", sys.argv[2]), interactive=GLib.Variant("b", False))
bus.call_with_unix_fd_list_sync("org.sharesheet.ShareSheet", "/org/sharesheet/ShareSheet", "org.sharesheet.ShareSheet1",
    "Share", GLib.Variant("(saa{sv}a{sv})", ("", [item], options)), GLib.VariantType("(o)"), 0, -1, fds, None)
loop.run(); sys.exit(response)
