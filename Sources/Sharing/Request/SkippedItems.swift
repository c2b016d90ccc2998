import ShareSheet

extension ShareHost {
    /// What a built-in leaves out of a share: each item of a kind it does not take, as a line
    /// naming the item and why ("Save to Photos: skipped notes.txt (text file (public.plain-text)):
    /// it takes images, image or video files only"). The sheet hands a built-in only the items
    /// it takes, so without this the rest would vanish without a word.
    /// - Parameters:
    ///   - type: the activity that runs; nothing is said for one that is not a built-in.
    ///   - sheet: the sheet of `items`, whose kinds it knows.
    ///   - labels: each item's label, in the sheet's order.
    public func skippedItems(by type: ActivityType, on sheet: ActivitySheet, labels: [String]) -> [String] {
        guard let descriptor = registry.descriptor(for: type) else { return [] }
        let acceptance = descriptor.acceptance
        // When nothing fits, the activity is not offered at all, and that error says why.
        guard sheet.itemKinds.contains(where: acceptance.accepts) else { return [] }
        return zip(labels, sheet.itemKinds).filter { !acceptance.accepts($0.1) }.map { label, kind in
            "\(descriptor.title): skipped \(label) (\(kind.description)): it takes \(acceptance.summary)"
        }
    }
}
