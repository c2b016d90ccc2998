/// What a photo should look like when it leaves the machine: its size, whether its location and
/// camera serial numbers go with it, and whether it must be a JPEG any receiver can read.
public struct PhotoOptions: Sendable, Hashable {
    /// The longest side in pixels, as displayed: the photo is fitted inside `longEdge`×`longEdge`
    /// and never enlarged. Nil keeps the original pixel size.
    public var longEdge: Int?
    /// Removes the location (the Exif GPS IFD and the XMP GPS properties) and the camera's and
    /// lens's serial numbers (Exif, maker notes and XMP).
    public var removesLocation: Bool
    /// Turns HEIC/HEIF, WebP, AVIF, TIFF (every format but JPEG, PNG and GIF) into a JPEG.
    public var convertsToJPEG: Bool

    /// Options for one photo; by default the original size, without location, in its own format.
    public init(longEdge: Int? = nil, removesLocation: Bool = true, convertsToJPEG: Bool = false) {
        self.longEdge = longEdge
        self.removesLocation = removesLocation
        self.convertsToJPEG = convertsToJPEG
    }
}
