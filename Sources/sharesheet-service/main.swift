// sharesheet-service: what D-Bus activation starts for org.sharesheet.ShareSheet. It links GIO
// only, so it owns the name and answers the first call within milliseconds, while it starts
// `share --service` beside it; once `share` has taken the name over, the front hands it what it
// took meanwhile and ends (see ServiceFront).
import Glibc

if CommandLine.arguments.count > 1 {
    let usage = """
        usage: sharesheet-service
        The share service's front, started by the session bus for org.sharesheet.ShareSheet: it
        answers the first calls and hands them to `share --service`, which serves from then on.

        """
    let asked = ["--help", "-h"].contains(CommandLine.arguments[1])
    say(usage, to: asked ? STDOUT_FILENO : STDERR_FILENO)
    exit(asked ? 0 : 64)
}
exit(ServiceFront.run())
