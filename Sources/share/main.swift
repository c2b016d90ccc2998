import Foundation
import ShareCommand

/// The `share` executable: everything happens in `ShareCommand`, on the main actor.
@main
struct Share {
    static func main() async {
        let status = await ShareCommand.main(Array(CommandLine.arguments.dropFirst()))
        // After a dismissal an activity's worker threads may still be unwinding (an upload
        // inside OpenSSL, say). `exit` would run the C libraries' exit handlers underneath them
        // and can crash; everything the command writes is already on disk or flushed here, so
        // leave without running them.
        fflush(nil)
        _exit(status)
    }
}
