/// Options for one print job: the UIPrintInfo equivalent.
open class PrintInfo {
    /// What the job contains, which picks paper and quality.
    public enum OutputType: Int, Sendable { case general, photo, grayscale, photoGrayscale }
    /// How the page is turned.
    public enum Orientation: Int, Sendable { case portrait, landscape }
    /// Which sides of the paper get printed.
    public enum Duplex: Int, Sendable { case none, longEdge, shortEdge }

    /// The job's name, shown in print queues and used for a saved PDF's file name.
    open var jobName: String = "ShareSheet"
    open var outputType: OutputType = .general
    open var orientation: Orientation = .portrait
    open var duplex: Duplex = .none
    /// The printer to use, by name; nil for the default.
    open var printerID: String?

    /// Makes print options with the defaults.
    public init() {}

    /// Makes print options with the defaults, as UIKit's factory does.
    public class func printInfo() -> PrintInfo { PrintInfo() }
}

/// Lays out content across pages: the UIPrintFormatter equivalent. The printing module
/// supplies the concrete formatters.
open class PrintFormatter {
    /// Space kept free on each page, in points: top, left, bottom, right.
    open var perPageContentInsets: (top: Double, left: Double, bottom: Double, right: Double) = (72, 72, 72, 72)
    /// The widest the content may be, in points; 0 means the page's printable width.
    open var maximumContentWidth: Double = 0
    /// The tallest the content may be on a page, in points; 0 means the printable height.
    open var maximumContentHeight: Double = 0
    /// The page the formatter starts on, when a page renderer holds several.
    open var startPage: Int = 0

    /// Makes a formatter.
    public init() {}
}

/// Draws pages with a header and footer around formatted content: the UIPrintPageRenderer
/// equivalent. The printing module does the drawing.
open class PrintPageRenderer {
    /// The header's height on every page, in points.
    open var headerHeight: Double = 0
    /// The footer's height on every page, in points.
    open var footerHeight: Double = 0
    /// The formatters whose content the pages show.
    open var printFormatters: [PrintFormatter]?

    /// Makes a renderer with no header, footer or content.
    public init() {}

    /// Adds a formatter that starts on the given page.
    open func addPrintFormatter(_ formatter: PrintFormatter, startingAtPageAt pageIndex: Int) {
        formatter.startPage = pageIndex
        printFormatters = (printFormatters ?? []) + [formatter]
    }
}
