#!/usr/bin/python3
"""A tiny GTK 4 window for the desktop harness's self-test (DesktopHarnessTests).

A "Copy" button prints `clicked Copy`, an entry named "Subject" prints `Subject: TEXT` on each
change, and Escape closes the window, after which the process exits with status 0.
Run it with the environment of a DesktopSession; it needs python3-gi and gir1.2-gtk-4.0.
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, Gtk  # noqa: E402


def say(line):
    print(line, flush=True)


def build(app):
    window = Gtk.ApplicationWindow(application=app, title="Probe")
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    button = Gtk.Button(label="Copy")
    button.connect("clicked", lambda _button: say("clicked Copy"))
    entry = Gtk.Entry()
    entry.update_property([Gtk.AccessibleProperty.LABEL], ["Subject"])
    entry.connect("changed", lambda field: say("Subject: " + field.get_text()))
    box.append(button)
    box.append(entry)
    window.set_child(box)

    keys = Gtk.EventControllerKey()
    keys.set_propagation_phase(Gtk.PropagationPhase.CAPTURE)

    def pressed(_controller, keyval, _keycode, _state):
        if keyval == 0xFF1B:  # Escape
            say("escape")
            window.close()
            return True
        return False

    keys.connect("key-pressed", pressed)
    window.add_controller(keys)
    window.present()
    say("shown")


# NON_UNIQUE: a second probe on the same bus opens its own window instead of handing over.
app = Gtk.Application(application_id="org.sharesheet.ProbeWindow", flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", build)
sys.exit(app.run([sys.argv[0]]))
