// The error types Waypoint had before one error type replaced them (CHANGELOG.md, Unreleased). They
// stay one release so `catch let error as LinkError` keeps compiling, with a warning that names
// the replacement; their codes are `WaypointError.Code`'s.

/// Renamed ``WaypointError``: one error type with a ``WaypointError/code`` replaces the error types of the same shape.
@available(*, deprecated, renamed: "WaypointError")
public typealias LinkError = WaypointError
/// Renamed ``WaypointError``.
@available(*, deprecated, renamed: "WaypointError")
public typealias IntakeError = WaypointError
/// Renamed ``WaypointError``.
@available(*, deprecated, renamed: "WaypointError")
public typealias RoutePatternError = WaypointError
/// Renamed ``WaypointError``.
@available(*, deprecated, renamed: "WaypointError")
public typealias RouterBuildError = WaypointError
/// Renamed ``WaypointError``.
@available(*, deprecated, renamed: "WaypointError")
public typealias LinkBuildError = WaypointError
/// Renamed ``WaypointError``.
@available(*, deprecated, renamed: "WaypointError")
public typealias LinkSetupError = WaypointError
/// Renamed ``WaypointError``.
@available(*, deprecated, renamed: "WaypointError")
public typealias UnsafeParameterError = WaypointError
/// Renamed ``WaypointError``.
@available(*, deprecated, renamed: "WaypointError")
public typealias PendingLinkStoreError = WaypointError

extension WaypointError {
    /// A store's error, as `PendingLinkStoreError(message:)` made it.
    @available(*, deprecated, message: "Use WaypointError(.storeFailed, message:)")
    public init(message: String) { self.init(.storeFailed, message: message) }
}
