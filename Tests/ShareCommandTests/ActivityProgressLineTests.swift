// The progress line's three forms (#14): bytes with rate and time left, pages, and a bare bar.
import Foundation
import ShareSheet
import ShareSheetTerminal
import Testing

@Suite("ActivityProgressLine: what one line says")
struct ActivityProgressLineTests {
    @Test("bytes (.file): how much of how much, the rate and the time left; no rate yet, none said")
    func bytes() {
        #expect(
            ActivityProgressLine.line(title: "Mail", kind: .file, completed: 7_500_000, total: 50_000_000, rate: 4_200_000)
                == "  Mail  [###-----------------] 15%  7.5 MB of 50 MB  4.2 MB/s  11 s left")
        #expect(
            ActivityProgressLine.line(title: "Mail 2 of 3", kind: .file, completed: 0, total: 812_000, rate: nil)
                == "  Mail 2 of 3  [--------------------] 0%  0 B of 812 kB")
    }

    @Test("pages (.page): the page being drawn, never past the last")
    func pages() {
        #expect(
            ActivityProgressLine.line(title: "Print", kind: .page, completed: 11, total: 40, rate: nil)
                == "  Print  [#####---------------] 27%  page 12 of 40")
        #expect(
            ActivityProgressLine.line(title: "Print", kind: .page, completed: 40, total: 40, rate: nil)
                == "  Print  [####################] 100%  page 40 of 40")
    }

    @Test("other work: the bar and the percentage alone; a long title is cut")
    func plain() {
        #expect(
            ActivityProgressLine.line(title: "Copy", kind: nil, completed: 1, total: 2, rate: nil)
                == "  Copy  [##########----------] 50%")
        let long = ActivityProgressLine.line(title: String(repeating: "x", count: 40), kind: nil, completed: 0, total: 1, rate: nil)
        #expect(long.hasPrefix("  " + String(repeating: "x", count: 23) + "…  ["), "\(long)")
    }
}
