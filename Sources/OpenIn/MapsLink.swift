import Foundation

/// An Apple-style maps link (`maps:?q=…`, `maps://?ll=…`, `https://maps.apple.com/?q=…`) or a
/// `geo:` URI (RFC 5870), turned into what a Linux desktop can open: a `geo:` URI for the
/// registered map application, and an OpenStreetMap page as the web fallback.
public struct MapsLink: Sendable, Equatable {
    /// Latitude and longitude in degrees, when the link has them.
    public var coordinate: (latitude: Double, longitude: Double)?
    /// The place or address searched for, when the link has one.
    public var query: String?
    /// The zoom level, when given.
    public var zoom: Int?

    public static func == (lhs: MapsLink, rhs: MapsLink) -> Bool {
        lhs.coordinate?.latitude == rhs.coordinate?.latitude && lhs.coordinate?.longitude == rhs.coordinate?.longitude
            && lhs.query == rhs.query && lhs.zoom == rhs.zoom
    }

    /// Reads a maps or geo link; nil for any other URL or one that names no place.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        if scheme == "geo" {
            self.init(geo: url.absoluteString)
        } else if Self.isAppleMaps(url) {
            self.init(appleMaps: url)
        } else {
            return nil
        }
    }

    /// True for `maps:` links and Apple's web maps (`maps.apple.com`).
    public static func isAppleMaps(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased() ?? ""
        if scheme == "maps" { return true }
        return (scheme == "http" || scheme == "https") && url.host?.lowercased() == "maps.apple.com"
    }

    private init?(appleMaps url: URL) {
        // `maps:?q=x` has no authority; parse the part after the first "?" as a query.
        let text = url.absoluteString
        guard let mark = text.firstIndex(of: "?") else { return nil }
        var components = URLComponents()
        components.percentEncodedQuery = String(text[text.index(after: mark)...]).replacingOccurrences(of: "+", with: "%20")
        var values: [String: String] = [:]
        for item in components.queryItems ?? [] where values[item.name] == nil {
            if let value = item.value, !value.isEmpty { values[item.name] = value }
        }
        let place = values["q"] ?? values["address"] ?? values["daddr"]
        coordinate = (values["ll"] ?? values["sll"]).flatMap(Self.coordinate(from:))
        query = place
        zoom = values["z"].flatMap { Int($0) }
        if coordinate == nil && query == nil { return nil }
    }

    private init?(geo text: String) {
        // geo:LAT,LON[,ALT][;params][?q=QUERY]
        var body = Substring(text.dropFirst("geo:".count))
        var queryPart: Substring?
        if let mark = body.firstIndex(of: "?") {
            queryPart = body[body.index(after: mark)...]
            body = body[..<mark]
        }
        let location = body.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        coordinate = Self.coordinate(from: location)
        if let coordinate, coordinate.latitude == 0, coordinate.longitude == 0, queryPart != nil { self.coordinate = nil }
        if let queryPart {
            var components = URLComponents()
            components.percentEncodedQuery = String(queryPart).replacingOccurrences(of: "+", with: "%20")
            query = components.queryItems?.first { $0.name == "q" }?.value
            zoom = components.queryItems?.first { $0.name == "z" }?.value.flatMap { Int($0) }
        }
        if coordinate == nil && query == nil { return nil }
    }

    private static func coordinate(from text: String) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    private static let queryAllowed: CharacterSet = {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~,")
        return allowed
    }()

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }

    private static func number(_ value: Double) -> String {
        var text = String(value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The `geo:` URI: `geo:LAT,LON` (with `?q=` when a query is given too), or `geo:0,0?q=…`
    /// for a search, the form map applications on Linux and Android understand.
    public var geoURL: URL {
        var text = "geo:"
        if let coordinate {
            text += Self.number(coordinate.latitude) + "," + Self.number(coordinate.longitude)
        } else {
            text += "0,0"
        }
        var parameters: [String] = []
        if let query { parameters.append("q=" + Self.encoded(query)) }
        if let zoom { parameters.append("z=\(zoom)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return URL(string: text)!
    }

    /// The same place on OpenStreetMap's web site.
    public var webURL: URL {
        if let coordinate {
            let latitude = Self.number(coordinate.latitude)
            let longitude = Self.number(coordinate.longitude)
            return URL(string: "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=\(zoom ?? 15)/\(latitude)/\(longitude)")!
        }
        return URL(string: "https://www.openstreetmap.org/search?query=" + Self.encoded(query ?? ""))!
    }
}
