import ShareSheet

/// What `prepare` does to one photo, decided from the photo and the options alone.
struct PreparationPlan {
    enum Action: Equatable {
        /// Nothing has to change: the source itself is the result.
        case keep
        /// Only metadata goes: a copy with its metadata rewritten, the image data untouched.
        case rewriteMetadata
        /// Decoded upright, fitted inside `box`×`box`, and encoded again as `format`.
        case reencode(box: Int, format: OutputFormat)
    }

    let action: Action

    /// - Throws: `ShareError(.badData)` when the photo must be resized or converted but libvips
    ///   cannot read its picture.
    init(photo: SourcePhoto, options: PhotoOptions) throws {
        let displayedLongEdge = max(photo.width, photo.height)
        let target = options.longEdge.map { max(1, $0) }
        let converts = options.convertsToJPEG && !photo.format.isWidelyReadable
        let strips = options.removesLocation && !photo.privateKeys.isEmpty
        guard photo.decodes else {
            if target != nil || converts {
                throw ShareError(
                    .badData, "\(photo.name): not an image this can read, so it cannot be made \(converts ? "into a JPEG" : "smaller")",
                    path: photo.url.path)
            }
            // A file no image tool reads (one that only starts like an image) has no location
            // anyone could read either: it goes as it is. One whose metadata reads but cannot be
            // written does not go with its location.
            if strips && !photo.format.hasWritableMetadata {
                throw ShareError(
                    .badData, "\(photo.name): not an image this can read, so its location cannot be removed", path: photo.url.path)
            }
            action = strips ? .rewriteMetadata : .keep
            return
        }
        let resizes = target.map { displayedLongEdge > $0 } ?? false

        if !resizes && !converts && !strips {
            action = .keep
        } else if !resizes && !converts && photo.format.hasWritableMetadata {
            action = .rewriteMetadata
        } else {
            // PNG stays PNG (it is widely read and lossless); WebP stays WebP unless converted;
            // everything else becomes JPEG, HEIF and AVIF included, whose metadata exiv2 cannot write.
            let format: OutputFormat =
                switch photo.format {
                case .png: .png
                case .webp where !options.convertsToJPEG: .webp
                default: .jpeg
                }
            // Without resizing, the box is the photo's own size: libvips then only turns it upright.
            action = .reencode(box: resizes ? target ?? photo.storedLongEdge : photo.storedLongEdge, format: format)
        }
    }
}
