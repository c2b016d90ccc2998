import CGtk
import Foundation

/// The sheet is a small window of labels and icons; GTK's cairo renderer draws it well, while
/// setting GL up first costs more than building the whole window (about 90 ms with Mesa's
/// software GL under Xvfb; BENCHMARKS.md, "Window startup"). Unless the person chose a GL or
/// Vulkan renderer (`GSK_RENDERER`) or GDK debug flags (`GDK_DEBUG`), GL is skipped for this
/// process's display and the windows draw with cairo.
///
/// The variables are set only while GTK reads them — opening the display, realizing a window —
/// and put back at once, so programs the activities start (Open In, a mail program) inherit the
/// environment they would have had.
@MainActor
enum Renderer {
    /// True once the display was opened without GL.
    private static var choseCairo = false

    /// Runs `open` (GTK's initialization) with GL turned off, unless the environment says otherwise.
    static func withoutGL<T>(_ open: () -> T) -> T {
        let environment = ProcessInfo.processInfo.environment
        guard environment["GDK_DEBUG"] == nil, environment["GSK_RENDERER"].map({ $0 == "cairo" }) ?? true else {
            return open()
        }
        choseCairo = true
        return with("GDK_DEBUG", "gl-disable", open)
    }

    /// Realizes `window` with the renderer chosen at `withoutGL`: cairo, without GSK first
    /// trying GL (and saying on standard error that it could not).
    static func realize(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard choseCairo, ProcessInfo.processInfo.environment["GSK_RENDERER"] == nil else {
            return gtk_widget_realize(window)
        }
        with("GSK_RENDERER", "cairo") { gtk_widget_realize(window) }
    }

    private static func with<T>(_ name: String, _ value: String, _ body: () -> T) -> T {
        setenv(name, value, 1)
        defer { unsetenv(name) }
        return body()
    }
}
