import MainLoop
import ShareCommand

// The `share` executable: everything happens in `ShareCommand`, on the main actor, inside GLib's
// main loop (the window and the desktop's services deliver their events there).
GLibMainLoop.run {
    let raw = RawArguments.withLabels()
    return await ShareCommand.main(raw.arguments, labels: raw.labels)
}
