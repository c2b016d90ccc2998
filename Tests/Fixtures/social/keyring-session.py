# A private session bus with gnome-keyring's Secret Service on it (KeyringSession).
# Run by Tests/LocalTestSupport/PythonPeer.swift after prelude.py (which imports os, signal,
# sys and threading, and ends the program when the test's end of standard input closes).
import subprocess, atexit
home = sys.argv[1]
env = dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/.local/share", XDG_RUNTIME_DIR=home + "/runtime",
           XDG_CONFIG_HOME=home + "/.config")
# No display: a prompt to unlock (gcr-prompter, started by the bus) fails at once
# instead of waiting on the tester's screen.
for name in ("DISPLAY", "WAYLAND_DISPLAY"):
    env.pop(name, None)
os.makedirs(home + "/runtime", mode=0o700, exist_ok=True)
bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE, env=env)
address = bus.stdout.readline().decode().strip()
env["DBUS_SESSION_BUS_ADDRESS"] = address
keyring = subprocess.Popen(["gnome-keyring-daemon", "--unlock", "--components=secrets", "--foreground"],
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
keyring.stdin.write(b"\n")
keyring.stdin.close()
def kill_children():
    for child in (keyring, bus):
        child.kill()
        child.wait()
def stop(*_):
    kill_children()
    os._exit(0)
_cleanups.append(kill_children)
signal.signal(signal.SIGTERM, stop)
# Wait until the Secret Service name is owned on the bus.
import time
for _ in range(100):
    probe = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                            "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                            "string:org.freedesktop.secrets"], env=env, capture_output=True, text=True)
    if "boolean true" in probe.stdout:
        break
    time.sleep(0.1)
print(address, flush=True)
while True:
    signal.pause()
