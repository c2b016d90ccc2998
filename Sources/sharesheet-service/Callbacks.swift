import CGIO

// GLib's timer callbacks into the front (its D-Bus callbacks go through the DBus module). The
// user data is the front itself, which lives until the process ends.

private func front(_ data: UnsafeMutableRawPointer?) -> ServiceFront {
    Unmanaged<ServiceFront>.fromOpaque(data!).takeUnretainedValue()
}

let takeOverDeadline: GSourceFunc = { data in
    front(data).takeOverDeadlinePassed()
    return 0
}

let quitLoop: GSourceFunc = { data in
    front(data).quit()
    return 0
}
