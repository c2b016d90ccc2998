import CX11
import Foundation

/// Serves the CLIPBOARD selection per ICCCM: TARGETS, TIMESTAMP, every representation, and
/// INCR transfers for those larger than one request may carry.
struct SelectionOwner {
    private let display: OpaquePointer
    private let window: Window
    private let clipboard: Atom
    private let targetsAtom: Atom
    private let timestampAtom: Atom
    private let incrAtom: Atom
    private let atomType: Atom = 4  // XA_ATOM
    private let integerType: Atom = 19  // XA_INTEGER
    /// Data by target atom; text also under UTF8_STRING, TEXT and (when Latin-1 fits) STRING.
    private var targets: [(atom: Atom, data: Data)] = []
    private var acquiredAt: Time = 0
    /// Bytes above which a reply goes in INCR chunks of this size.
    private let chunkSize: Int

    /// An INCR transfer in progress: the rest of `data` goes to `property` of `requestor`.
    private struct Transfer {
        var requestor: Window
        var property: Atom
        var type: Atom
        var data: Data
        var offset: Int
    }
    private var transfers: [Transfer] = []

    init(display: OpaquePointer, representations: [(type: String, data: Data)]) {
        self.display = display
        XSetErrorHandler(ignoreError)
        let root = XDefaultRootWindow(display)
        window = XCreateSimpleWindow(display, root, 0, 0, 1, 1, 0, 0, 0)
        XSelectInput(display, window, PropertyChangeMask)
        clipboard = XInternAtom(display, "CLIPBOARD", 0)
        targetsAtom = XInternAtom(display, "TARGETS", 0)
        timestampAtom = XInternAtom(display, "TIMESTAMP", 0)
        incrAtom = XInternAtom(display, "INCR", 0)
        let maximum = max(XExtendedMaxRequestSize(display), XMaxRequestSize(display)) * 4
        chunkSize = min(max(maximum - 1024, 4096), 256 * 1024)
        var seen = Set<Atom>()
        func add(_ name: String, _ data: Data) {
            let atom = XInternAtom(display, name, 0)
            if seen.insert(atom).inserted { targets.append((atom, data)) }
        }
        for representation in representations { add(representation.type, representation.data) }
        if let text = representations.first(where: { $0.type.hasPrefix("text/plain") })?.data {
            add("UTF8_STRING", text)
            add("TEXT", text)
            let string = String(decoding: text, as: UTF8.self)
            if let latin1 = string.data(using: .isoLatin1) { add("STRING", latin1) }
        }
    }

    /// Takes the selection with a real timestamp (from a property change on our window, as
    /// ICCCM asks) and checks that it got it.
    mutating func acquire() -> Bool {
        var zero: UInt8 = 0
        XChangeProperty(display, window, targetsAtom, atomType, 8, PropModeAppend, &zero, 0)
        var event = XEvent()
        repeat { XNextEvent(display, &event) } while event.type != PropertyNotify
        acquiredAt = event.xproperty.time
        XSetSelectionOwner(display, clipboard, window, acquiredAt)
        XFlush(display)
        return XGetSelectionOwner(display, clipboard) == window
    }

    /// Answers requests until another program takes the selection (a paste of a large target
    /// still in progress then ends early, rather than this process waiting on a requestor that
    /// may be gone). Xlib ends the process when the display connection breaks.
    mutating func run() {
        while true {
            var event = XEvent()
            XNextEvent(display, &event)
            switch event.type {
            case SelectionRequest: answer(event.xselectionrequest)
            case SelectionClear: return
            case PropertyNotify: continueTransfer(event.xproperty)
            default: break
            }
        }
    }

    /// Sets `data` as 8-bit items of `type` on the requestor's property.
    private func setBytes(_ data: Data, on requestor: Window, property: Atom, type: Atom) {
        var bytes = [UInt8](data)
        let count = Int32(bytes.count)
        if bytes.isEmpty { bytes = [0] }
        XChangeProperty(display, requestor, property, type, 8, PropModeReplace, &bytes, count)
    }

    private mutating func answer(_ request: XSelectionRequestEvent) {
        let property = request.property == 0 ? request.target : request.property
        var delivered = true
        if request.selection != clipboard || request.time != 0 && request.time < acquiredAt {
            delivered = false
        } else if request.target == targetsAtom {
            var atoms: [Int] = [Int(targetsAtom), Int(timestampAtom)] + targets.map { Int($0.atom) }
            XChangeProperty(display, request.requestor, property, atomType, 32, PropModeReplace, &atoms, Int32(atoms.count))
        } else if request.target == timestampAtom {
            var time = [Int(acquiredAt)]
            XChangeProperty(display, request.requestor, property, integerType, 32, PropModeReplace, &time, 1)
        } else if let target = targets.first(where: { $0.atom == request.target }) {
            if target.data.count <= chunkSize {
                setBytes(target.data, on: request.requestor, property: property, type: target.atom)
            } else {
                // Too big for one request: announce INCR and send chunks as the requestor deletes them.
                XSelectInput(display, request.requestor, PropertyChangeMask)
                var size = [target.data.count]
                XChangeProperty(display, request.requestor, property, incrAtom, 32, PropModeReplace, &size, 1)
                transfers.removeAll { $0.requestor == request.requestor && $0.property == property }
                transfers.append(Transfer(requestor: request.requestor, property: property, type: target.atom, data: target.data, offset: 0))
            }
        } else {
            delivered = false
        }
        var reply = XEvent()
        reply.xselection = XSelectionEvent(
            type: SelectionNotify, serial: 0, send_event: 1, display: display, requestor: request.requestor,
            selection: request.selection, target: request.target, property: delivered ? property : 0, time: request.time)
        XSendEvent(display, request.requestor, 0, 0, &reply)
        XFlush(display)
    }

    private mutating func continueTransfer(_ event: XPropertyEvent) {
        guard event.state == PropertyDelete,
            let index = transfers.firstIndex(where: { $0.requestor == event.window && $0.property == event.atom })
        else { return }
        let transfer = transfers[index]
        let end = min(transfer.offset + chunkSize, transfer.data.count)
        let chunk = transfer.data[transfer.offset..<end]
        setBytes(chunk, on: transfer.requestor, property: transfer.property, type: transfer.type)
        if chunk.isEmpty {
            // The empty chunk ends the transfer.
            transfers.remove(at: index)
            XSelectInput(display, transfer.requestor, NoEventMask)
        } else {
            transfers[index].offset = end
        }
        XFlush(display)
    }
}

/// Xlib's default error handler ends the process, and an owner meets errors it cannot avoid: a
/// requestor may be gone before its answer is written (a GTK program asks for TARGETS as soon as
/// the clipboard changes hands, and may exit at once), and the answer to a window that no longer
/// exists is a BadWindow. Such an error concerns one paste, never the selection: ignore it and
/// keep serving. (A broken connection goes to the I/O error handler, which still ends the process.)
private func ignoreError(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    0
}
