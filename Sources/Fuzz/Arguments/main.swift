// The command-line parsers on arbitrary argument vectors (the input cut at NUL bytes, as argv
// is). Invariants: nothing traps; every refusal is a usage error (exit 64) with a message; a
// parsed command line has no more items or operands than arguments, and no empty recipient or
// setting name.
import FuzzSupport
import ShareCommand
import ShareSheet

enum ArgumentsTarget {
    static func checkRefusal(_ error: any Error, _ arguments: [String]) {
        guard let error = error as? ShareError else { preconditionFailure("\(arguments) threw \(error)") }
        precondition(error.kind == .usage, "\(arguments) threw a \(error.kind) error: \(error.message)")
        precondition(!error.message.isEmpty, "\(arguments) was refused without a message")
    }

    @MainActor
    static func check(_ bytes: [UInt8]) {
        let arguments = bytes.isEmpty ? [] : nulSeparatedStrings(bytes)
        let reading = CommandLineParsers.readShare(arguments)
        if let error = reading.error {
            checkRefusal(error, arguments)
        } else {
            precondition(reading.items <= arguments.count, "\(reading.items) items from \(arguments.count) arguments")
            precondition(!reading.recipients.contains(where: \.isEmpty), "an empty recipient from \(arguments)")
            precondition(!reading.settingFields.contains(where: \.isEmpty), "an empty --set field from \(arguments)")
        }
        for result in CommandLineParsers.readSubcommands(arguments) {
            switch result {
            case .success(let operands): precondition(operands <= arguments.count)
            case .failure(let error): checkRefusal(error, arguments)
            }
        }
    }
}

/// One input, on the main thread; the name is libFuzzer's (its own `main`, unused here, refers to it).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    MainActor.assumeIsolated { ArgumentsTarget.check(bytes) }
    return 0
}

runFuzzTarget(testOneInput)
