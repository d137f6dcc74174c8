/// Size limits applied while a link is parsed.
///
/// Every limit is checked before anything is allocated for the part it guards; exceeding one is a
/// ``WaypointError``, never a crash and never a silent truncation.
///
/// ```swift
/// let limits = LinkLimits(maxLength: 1024)
/// try DeepLink(String(repeating: "a", count: 2000), limits: limits) // throws WaypointError.Code.tooLong
/// ```
public struct LinkLimits: Sendable, Hashable {
    /// The longest link accepted, in UTF-8 bytes after lenient encoding. Default 4096.
    public var maxLength: Int
    /// The most path segments accepted, counting the host of a custom-scheme link. Default 32.
    public var maxSegments: Int
    /// The most query items accepted. Default 64.
    public var maxQueryItems: Int

    /// Limits with every value defaulted.
    public init(maxLength: Int = 4096, maxSegments: Int = 32, maxQueryItems: Int = 64) {
        self.maxLength = maxLength
        self.maxSegments = maxSegments
        self.maxQueryItems = maxQueryItems
    }

    /// 4 KB, 32 segments, 64 query items. (Computed: a stored static would cost a lazy-init check on
    /// every parse that uses the default argument.)
    public static var `default`: LinkLimits { LinkLimits() }
}
