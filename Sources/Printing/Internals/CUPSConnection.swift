import CCups
import Foundation

/// A printer as CUPS lists it.
public struct Printer: Sendable, Hashable {
    /// The queue name (`--printer` / `printer=`).
    public let name: String
    /// The description people see, when the queue has one.
    public let info: String?
    /// True for the system's or user's default.
    public let isDefault: Bool
}

/// What a printer says about itself.
struct PrinterStatus {
    var isAcceptingJobs: Bool
    /// `printer-state`: 3 idle, 4 processing, 5 stopped.
    var state: Int32
    var message: String
    var reasons: [String]
}

/// What a job's state is.
struct JobStatus {
    /// `job-state`: 3 pending … 7 canceled, 8 aborted, 9 completed.
    var state: Int32
    var message: String
    var reasons: [String]

    var isFinal: Bool { state >= Int32(IPP_JSTATE_CANCELED.rawValue) }
    var isCompleted: Bool { state == Int32(IPP_JSTATE_COMPLETED.rawValue) }
}

/// One connection to a CUPS scheduler; every libcups call of the printing module goes through
/// it. libcups keeps its last error per thread and an `http_t` must not be shared, so a
/// connection belongs to the thread that made it.
final class CUPSConnection {
    private let http: OpaquePointer
    /// The server as `host:port` or a socket path, for messages.
    let server: String

    /// The server a connection goes to when the host names none: libcups's own choice
    /// (`client.conf`, then the local socket). `PrintService` takes `CUPS_SERVER` from its host.
    static func defaultServer() -> String {
        let host = String(cString: cupsServer())
        return host.hasPrefix("/") ? host : "\(host):\(ippPort())"
    }

    /// Connects to `server` (`host:port`, `host`, or a socket path).
    /// - Throws: `PrintFailure` when nothing answers there.
    init(server: String) throws {
        self.server = server
        var host = server
        var port = Int32(631)
        if !server.hasPrefix("/"), let colon = server.lastIndex(of: ":"), !server.hasSuffix("]"),
            let parsed = Int32(server[server.index(after: colon)...])
        {
            host = String(server[..<colon])
            port = parsed
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let http = httpConnect2(host, port, nil, AF_UNSPEC, HTTP_ENCRYPTION_IF_REQUESTED, 1, 5000, nil) else {
            throw PrintFailure(call: "httpConnect2", reason: "no CUPS scheduler answers at \(server)")
        }
        self.http = http
    }

    deinit { httpClose(http) }

    /// The printers, default first.
    func printers() -> [Printer] {
        var dests: UnsafeMutablePointer<cups_dest_t>?
        let count = cupsGetDests2(http, &dests)
        guard count > 0, let dests else { return [] }
        defer { cupsFreeDests(count, dests) }
        var printers: [Printer] = []
        for index in 0..<Int(count) {
            let dest = dests[index]
            guard dest.instance == nil, let name = dest.name else { continue }
            let info = cupsGetOption("printer-info", dest.num_options, dest.options).map { String(cString: $0) }
            printers.append(Printer(name: String(cString: name), info: info?.isEmpty == false ? info : nil, isDefault: dest.is_default != 0))
        }
        return printers.sorted { $0.isDefault && !$1.isDefault }
    }

    private static func printerURI(_ name: String) -> String {
        let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
        return "ipp://localhost/printers/\(escaped)"
    }

    private func request(_ operation: ipp_op_t, printer: String) -> OpaquePointer {
        let request = ippNewRequest(operation)!
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, Self.printerURI(printer))
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
        return request
    }

    /// `printer-is-accepting-jobs`, `printer-state`, its message and reasons.
    func status(ofPrinter name: String) -> PrinterStatus? {
        guard let response = cupsDoRequest(http, request(IPP_OP_GET_PRINTER_ATTRIBUTES, printer: name), "/") else { return nil }
        defer { ippDelete(response) }
        guard ippGetStatusCode(response).rawValue < 0x0400 else { return nil }
        let accepting = ippFindAttribute(response, "printer-is-accepting-jobs", IPP_TAG_BOOLEAN).map { ippGetBoolean($0, 0) != 0 } ?? true
        let state = ippFindAttribute(response, "printer-state", IPP_TAG_ENUM).map { ippGetInteger($0, 0) } ?? 3
        return PrinterStatus(
            isAcceptingJobs: accepting, state: state, message: Self.string(response, "printer-state-message") ?? "",
            reasons: Self.strings(response, "printer-state-reasons"))
    }

    /// The paper names `printer` takes (`media-supported`) and the one it uses unless told
    /// (`media-default`), as PWG names; empty when the printer does not say.
    func media(ofPrinter name: String) -> (supported: [String], preferred: String?) {
        guard let response = cupsDoRequest(http, request(IPP_OP_GET_PRINTER_ATTRIBUTES, printer: name), "/") else { return ([], nil) }
        defer { ippDelete(response) }
        guard ippGetStatusCode(response).rawValue < 0x0400 else { return ([], nil) }
        return (Self.strings(response, "media-supported"), Self.string(response, "media-default"))
    }

    /// Creates a job on `printer` with `options` (an IPP Create-Job); returns its id.
    func createJob(printer: String, title: String, options: [(String, String)]) throws -> Int32 {
        var count: Int32 = 0
        var list: UnsafeMutablePointer<cups_option_t>?
        for (name, value) in options { count = cupsAddOption(name, value, count, &list) }
        defer { cupsFreeOptions(count, list) }
        let request = request(IPP_OP_CREATE_JOB, printer: printer)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "job-name", nil, title)
        cupsEncodeOptions2(request, count, list, IPP_TAG_OPERATION)
        cupsEncodeOptions2(request, count, list, IPP_TAG_JOB)
        guard let response = cupsDoRequest(http, request, Self.resource(printer)) else { throw lastError("Create-Job") }
        defer { ippDelete(response) }
        guard ippGetStatusCode(response).rawValue < 0x0400,
            let id = ippFindAttribute(response, "job-id", IPP_TAG_INTEGER).map({ ippGetInteger($0, 0) }), id > 0
        else { throw lastError("Create-Job") }
        return id
    }

    private static func resource(_ printer: String) -> String {
        "/printers/" + (printer.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? printer)
    }

    /// Sends one document of job `id`, reporting bytes as they go; `last` closes the job.
    func sendDocument(
        _ url: URL, name: String, printer: String, job id: Int32, last: Bool,
        onBytes: (Int64) -> Void, isCancelled: () -> Bool
    ) throws {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw PrintFailure(call: "open", reason: "\(url.lastPathComponent) cannot be read")
        }
        defer { try? handle.close() }
        guard cupsStartDocument(http, printer, id, name, "application/pdf", last ? 1 : 0) == HTTP_STATUS_CONTINUE else {
            throw lastError("cupsStartDocument")
        }
        var sent: Int64 = 0
        while true {
            if isCancelled() { throw CancellationError() }
            let chunk = (try? handle.read(upToCount: 64 * 1024)) ?? Data()
            if chunk.isEmpty { break }
            let status = chunk.withUnsafeBytes { buffer in
                cupsWriteRequestData(http, buffer.bindMemory(to: CChar.self).baseAddress, buffer.count)
            }
            guard status == HTTP_STATUS_CONTINUE else { throw lastError("cupsWriteRequestData") }
            sent += Int64(chunk.count)
            onBytes(sent)
        }
        let finished = cupsFinishDocument(http, printer)
        guard finished.rawValue < 0x0400 else { throw lastError("cupsFinishDocument") }
    }

    /// Where job `id` is.
    func status(ofJob id: Int32, printer: String) -> JobStatus? {
        let request = request(IPP_OP_GET_JOB_ATTRIBUTES, printer: printer)
        ippAddInteger(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", id)
        guard let response = cupsDoRequest(http, request, "/") else { return nil }
        defer { ippDelete(response) }
        guard ippGetStatusCode(response).rawValue < 0x0400,
            let state = ippFindAttribute(response, "job-state", IPP_TAG_ENUM).map({ ippGetInteger($0, 0) })
        else { return nil }
        let message = Self.string(response, "job-state-message") ?? Self.string(response, "job-printer-state-message") ?? ""
        return JobStatus(state: state, message: message, reasons: Self.strings(response, "job-state-reasons"))
    }

    /// Cancels job `id`.
    @discardableResult
    func cancelJob(_ id: Int32, printer: String) -> Bool {
        cupsCancelJob2(http, printer, id, 0).rawValue < 0x0400
    }

    private func lastError(_ call: String) -> PrintFailure {
        PrintFailure(call: call, reason: String(cString: cupsLastErrorString()))
    }

    var lastErrorIsNotAcceptingJobs: Bool { cupsLastError() == IPP_STATUS_ERROR_NOT_ACCEPTING_JOBS }

    private static func string(_ response: OpaquePointer, _ name: String) -> String? {
        guard let attribute = ippFindAttribute(response, name, IPP_TAG_ZERO), let value = ippGetString(attribute, 0, nil)
        else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private static func strings(_ response: OpaquePointer, _ name: String) -> [String] {
        guard let attribute = ippFindAttribute(response, name, IPP_TAG_ZERO) else { return [] }
        return (0..<ippGetCount(attribute)).compactMap { ippGetString(attribute, $0, nil).map { String(cString: $0) } }
    }
}
