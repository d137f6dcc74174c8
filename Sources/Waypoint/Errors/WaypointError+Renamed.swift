// The error types Waypoint had before one error type replaced them (CHANGELOG.md, Unreleased). They
// stay one release so `catch let error as LinkError` keeps compiling, with a warning that names
// the replacement; their codes are `WaypointError.Code`'s.

@available(*, deprecated, renamed: "WaypointError")
public typealias LinkError = WaypointError
@available(*, deprecated, renamed: "WaypointError")
public typealias IntakeError = WaypointError
@available(*, deprecated, renamed: "WaypointError")
public typealias RoutePatternError = WaypointError
@available(*, deprecated, renamed: "WaypointError")
public typealias RouterBuildError = WaypointError
@available(*, deprecated, renamed: "WaypointError")
public typealias LinkBuildError = WaypointError
@available(*, deprecated, renamed: "WaypointError")
public typealias LinkSetupError = WaypointError
@available(*, deprecated, renamed: "WaypointError")
public typealias UnsafeParameterError = WaypointError
@available(*, deprecated, renamed: "WaypointError")
public typealias PendingLinkStoreError = WaypointError

extension WaypointError {
    /// A store's error, as `PendingLinkStoreError(message:)` made it.
    @available(*, deprecated, message: "Use WaypointError(.storeFailed, message:)")
    public init(message: String) { self.init(.storeFailed, message: message) }
}
