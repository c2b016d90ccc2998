import ShareSheet

/// A failure inside the printing backend: which C call failed and why, before the layer above
/// turns it into a `ShareError` a person can act on.
struct PrintFailure: Error, CustomStringConvertible {
    /// The C call or step that failed (`cairo_pdf_surface_create`, `cupsCreateJob`).
    var call: String
    /// The library's own words.
    var reason: String

    var description: String { "\(call): \(reason)" }
}

/// Wraps a value that crosses to the rendering thread but is only ever used by one thread at a
/// time (the caller hands it over and waits).
struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
