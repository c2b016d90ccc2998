@_exported import Foundation
@_exported import ShareSheet
@_exported import UniformTypes

// UIKit's names for the ShareSheet types, so share code written for iOS ports by changing its
// `import UIKit` to `import ShareSheetUIKit`. Each is the same type, not a copy.

/// UIKit's name for `ActivityViewController`.
public typealias UIActivityViewController = ActivityViewController
/// UIKit's name for `Activity`.
public typealias UIActivity = Activity
/// UIKit's name for `ActivityItemSource`.
public typealias UIActivityItemSource = ActivityItemSource
/// UIKit's name for `ActivityItemProvider`.
public typealias UIActivityItemProvider = ActivityItemProvider
/// UIKit's pre-iOS 10 name for `ActivityType`.
public typealias UIActivityType = ActivityType
/// UIKit's name for `Activity.Category`.
public typealias UIActivityCategory = Activity.Category
/// UIKit's name for `Image`.
public typealias UIImage = Image
/// UIKit's name for `Color`.
public typealias UIColor = Color
/// UIKit's name for `PrintInfo`.
public typealias UIPrintInfo = PrintInfo
/// UIKit's name for `PrintFormatter`.
public typealias UIPrintFormatter = PrintFormatter
/// UIKit's name for `PrintPageRenderer`.
public typealias UIPrintPageRenderer = PrintPageRenderer
/// LinkPresentation's name for `LinkMetadata`.
public typealias LPLinkMetadata = LinkMetadata
