import Foundation

/// The sheet is a small window of labels and icons; GTK's cairo renderer draws it well, while
/// setting GL up first costs more than building the whole window (about 90 ms with Mesa's
/// software GL under Xvfb; BENCHMARKS.md, "Window startup"). Unless the person chose a GL or
/// Vulkan renderer (`GSK_RENDERER`) or GDK debug flags (`GDK_DEBUG`), GL is skipped for this
/// process's display.
/// The variable is set only while GTK opens the display and put back after, so programs the
/// activities start (Open In, a mail program) inherit the environment they would have had.
enum Renderer {
    /// Runs `open` (GTK's initialization) with GL turned off, unless the environment says otherwise.
    static func withoutGL<T>(_ open: () -> T) -> T {
        let environment = ProcessInfo.processInfo.environment
        guard environment["GDK_DEBUG"] == nil, environment["GSK_RENDERER"].map({ $0 == "cairo" }) ?? true else {
            return open()
        }
        setenv("GDK_DEBUG", "gl-disable", 1)
        defer { unsetenv("GDK_DEBUG") }
        return open()
    }
}
