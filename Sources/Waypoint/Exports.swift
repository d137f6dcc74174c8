// `import Waypoint` is the whole library: the links, patterns, router and policy of WaypointCore,
// and what this module builds on them. An app that only resolves links imports WaypointCore alone
// and does not pay for the dispatcher, the stores or the catalogs.
@_exported import WaypointCore
