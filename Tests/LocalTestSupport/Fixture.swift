// Where the test peers' programs live: Python servers and readers are files in Tests/Fixtures,
// not Swift strings, so they can be read, linted and run by hand.
import Foundation

/// The files in `Tests/Fixtures` of this repository: the Python programs the tests run
/// (`social/` holds the social services' stand-ins).
public enum Fixture {
    /// The folder.
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The fixture `name` (`social/prelude.py`, say).
    public static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// The path of the fixture `name` (`smtp-peer.py`, say).
    public static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
