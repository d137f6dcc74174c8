/// The release these sources are: `waypoint --version` prints it, and CHANGELOG.md's newest
/// release is it (a test checks both).
///
/// ```swift
/// WaypointRelease.version  // "0.1.0"
/// ```
public enum WaypointRelease {
    /// The release, as `MAJOR.MINOR.PATCH`.
    public static let version = "0.1.0"
}
