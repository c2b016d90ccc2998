import Foundation

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
    /// The renderer that holds this formatter, while it is laid out or drawn.
    open weak var printPageRenderer: PrintPageRenderer?

    /// How many pages the content takes, once the printing module has laid it out; 0 before.
    open var pageCount: Int { 0 }

    /// Where the content goes on the page at `pageIndex` (counted within the formatter).
    open func rectForPage(at pageIndex: Int) -> CGRect { .zero }

    /// Draws the part of the content that falls on `pageIndex` into `rect`, through the
    /// renderer's current context. The printing module's formatters override it.
    open func draw(in rect: CGRect, forPageAt pageIndex: Int) {}

    /// Makes a formatter.
    public init() {}
}

/// A font for printed text, by family name (as fontconfig knows it) and size in points.
public struct PrintFont: Sendable, Hashable {
    /// The family: "Sans", "Serif", "Monospace", "DejaVu Sans"…
    public var family: String
    /// The size in points.
    public var size: Double
    /// True for a bold face.
    public var isBold: Bool
    /// True for an italic face.
    public var isItalic: Bool

    /// Describes a font.
    public init(family: String = "Sans", size: Double = 12, isBold: Bool = false, isItalic: Bool = false) {
        self.family = family
        self.size = size
        self.isBold = isBold
        self.isItalic = isItalic
    }

    /// The system's sans-serif font at `size`.
    public static func systemFont(ofSize size: Double) -> PrintFont { PrintFont(size: size) }
    /// The system's bold sans-serif font at `size`.
    public static func boldSystemFont(ofSize size: Double) -> PrintFont { PrintFont(size: size, isBold: true) }
}

/// How lines of printed text line up: the NSTextAlignment equivalent.
public enum PrintTextAlignment: Int, Sendable {
    case left, center, right, justified, natural
}

/// The drawing target of one printed page, handed to `PrintPageRenderer` while it draws: the
/// stand-in for UIKit's current graphics context. The printing module implements it (with Cairo).
///
/// Coordinates are in points with the origin at the page's top-left corner. An implementation
/// must draw immediately into the current page and keep no reference to the arguments.
public protocol PrintContext: AnyObject {
    /// The whole page, in points.
    var paperRect: CGRect { get }
    /// Draws `text` wrapped into `rect` (clipped to it).
    func drawText(_ text: String, in rect: CGRect, font: PrintFont, color: Color, alignment: PrintTextAlignment)
    /// Fills `rect` with `color`.
    func fill(_ rect: CGRect, color: Color)
    /// Draws a straight line.
    func strokeLine(from start: CGPoint, to end: CGPoint, color: Color, lineWidth: Double)
    /// Draws `image` scaled to fit `rect`, keeping its aspect ratio.
    /// - Throws: when the image cannot be decoded.
    func drawImage(_ image: Image, in rect: CGRect) throws
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

    /// The whole sheet of paper, in points; set by the printing module before drawing.
    open var paperRect: CGRect = .zero
    /// The part of the paper the content may use, in points; set by the printing module.
    open var printableRect: CGRect = .zero
    /// The page being drawn's context, while `drawPage(at:in:)` runs (UIKit's current graphics
    /// context); nil otherwise.
    public var currentContext: (any PrintContext)?

    /// Adds a formatter that starts on the given page.
    open func addPrintFormatter(_ formatter: PrintFormatter, startingAtPageAt pageIndex: Int) {
        formatter.startPage = pageIndex
        formatter.printPageRenderer = self
        printFormatters = (printFormatters ?? []) + [formatter]
    }

    /// The formatters that start on `pageIndex`.
    open func printFormattersForPage(at pageIndex: Int) -> [PrintFormatter]? {
        let starting = (printFormatters ?? []).filter { $0.startPage == pageIndex }
        return starting.isEmpty ? nil : starting
    }

    /// How many pages the job has, known before anything is printed. By default the last page
    /// any formatter reaches; override it for pages drawn without formatters.
    open var numberOfPages: Int {
        (printFormatters ?? []).map { $0.startPage + $0.pageCount }.max() ?? 0
    }

    /// Called once before the pages in `range` are drawn. Defaults to nothing.
    open func prepare(forDrawingPages range: Range<Int>) {}

    /// Draws one page: header, content, every formatter that reaches the page, then footer.
    open func drawPage(at pageIndex: Int, in printableRect: CGRect) {
        if headerHeight > 0 {
            drawHeaderForPage(
                at: pageIndex,
                in: CGRect(x: printableRect.minX, y: printableRect.minY, width: printableRect.width, height: headerHeight))
        }
        let content = CGRect(
            x: printableRect.minX, y: printableRect.minY + headerHeight, width: printableRect.width,
            height: max(0, printableRect.height - headerHeight - footerHeight))
        drawContentForPage(at: pageIndex, in: content)
        for formatter in printFormatters ?? [] where pageIndex >= formatter.startPage
            && pageIndex < formatter.startPage + formatter.pageCount
        {
            drawPrintFormatter(formatter, forPageAt: pageIndex)
        }
        if footerHeight > 0 {
            drawFooterForPage(
                at: pageIndex,
                in: CGRect(
                    x: printableRect.minX, y: printableRect.maxY - footerHeight, width: printableRect.width,
                    height: footerHeight))
        }
    }

    /// Draws the header of `pageIndex` into `headerRect`. Defaults to nothing.
    open func drawHeaderForPage(at pageIndex: Int, in headerRect: CGRect) {}
    /// Draws the content of `pageIndex` between header and footer. Defaults to nothing.
    open func drawContentForPage(at pageIndex: Int, in contentRect: CGRect) {}
    /// Draws the footer of `pageIndex` into `footerRect`. Defaults to nothing.
    open func drawFooterForPage(at pageIndex: Int, in footerRect: CGRect) {}
    /// Draws the part of `formatter` that falls on `pageIndex` (a page of the whole job).
    open func drawPrintFormatter(_ formatter: PrintFormatter, forPageAt pageIndex: Int) {
        let local = pageIndex - formatter.startPage
        formatter.draw(in: formatter.rectForPage(at: local), forPageAt: local)
    }
}
