// sharesheet-clipboard-owner: owns the X11 CLIPBOARD selection with several targets at once.
//
// Reads the representations from standard input (records of: UInt32 big-endian name length,
// name, UInt64 big-endian data length, data), takes the selection on the display given with
// --display (or DISPLAY), prints "ready" (or the reason it cannot) on standard output, then
// answers requests until another program takes the selection or the display goes away.
//
// With --keep FOLDER, FOLDER holds private copies of the files on the clipboard: they are
// removed when another program takes the selection. The lock on FOLDER/.lock comes inherited
// as descriptor 3 and stays held, open, for as long as this process lives, so a later copy
// that finds the lock free (this process was killed) removes the folder instead.
import CX11
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
var displayName = ProcessInfo.processInfo.environment["DISPLAY"]
if let index = arguments.firstIndex(of: "--display"), index + 1 < arguments.count { displayName = arguments[index + 1] }
var keptFolder: String?
if let index = arguments.firstIndex(of: "--keep"), index + 1 < arguments.count { keptFolder = arguments[index + 1] }

func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ reason: String) -> Never {
    answer(reason)
    exit(1)
}

guard let payload = try? FileHandle.standardInput.readToEnd() ?? Data() else { fail("cannot read the representations") }
guard let representations = Payload.decode(payload), !representations.isEmpty else { fail("no representations given") }
guard let displayName, !displayName.isEmpty else { fail("no DISPLAY") }
guard let display = XOpenDisplay(displayName) else { fail("cannot open display \(displayName)") }

var owner = SelectionOwner(display: display, representations: representations)
guard owner.acquire() else { fail("another program kept the clipboard") }
answer("ready")
// Nothing more to say: standard output and error go to /dev/null so the copying process sees
// the end of its pipe and no later write can raise SIGPIPE.
let null = open("/dev/null", O_RDWR)
dup2(null, 1)
dup2(null, 2)
owner.run()
// The clipboard holds other contents now: the copies made for this one are no longer named.
if let keptFolder { try? FileManager.default.removeItem(atPath: keptFolder) }
exit(0)
