import Foundation

/// A private D-Bus session bus with gnome-keyring's Secret Service on it, unlocked, kept in a
/// sandbox home: what a desktop session offers libsecret. One Python process starts both
/// daemons, prints the bus address, and stops them when it is stopped (by its pid) or when its
/// standard input closes.
final class KeyringSession: @unchecked Sendable {
    let peer: PythonPeer

    private static let script = #"""
        import subprocess, atexit
        home = sys.argv[1]
        env = dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/.local/share", XDG_RUNTIME_DIR=home + "/runtime",
                   XDG_CONFIG_HOME=home + "/.config")
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
        """#

    init(home: URL) throws {
        peer = try PythonPeer(script: Self.script, arguments: [home.path], printsPort: false)
    }

    /// `DBUS_SESSION_BUS_ADDRESS` of the private bus.
    var address: String { peer.firstLine }

    func stop() { peer.stop() }
}
