import Foundation
import ShareCommand

/// The `share` executable: everything happens in `ShareCommand`, on the main actor.
@main
struct Share {
    static func main() async {
        let status = await ShareCommand.main(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }
}
