// Scenario 1 of Examples/README.md: an apartment-booking app's route table, resolving the links it receives.
//
//     swift run waypoint-example                                  # the scenario's sample links
//     swift run waypoint-example "deeplinkTutorial://request/7"   # your own
//
// With no arguments the sample links are checked against the outcome each should have (exit 1 on a
// difference); with arguments, exit status 0 when every link matched a route, 1 otherwise.

import WaypointCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Screen: String, Sendable {
    case recentActivity, messages, chat, request, newListing
}

func makeResolver() throws -> LinkResolver<Screen> {
    var builder = RouterBuilder<Screen>(configuration: RouterConfiguration(linkScheme: "deeplinkTutorial"))
    try builder.add("activity", "/activity", value: .recentActivity)
    try builder.add("messages", "/messages", value: .messages)
    try builder.add("messages.detail", "/messages/{id:int}", value: .chat)
    try builder.add("request.detail", "/request/{id:int}", value: .request)
    try builder.add("listing.new", "/listings/new", value: .newListing)
    let policy = LinkPolicy(schemes: ["deeplinkTutorial"], associatedDomains: ["apartments.example.com"])
    return LinkResolver(router: try builder.build(), policy: policy)
}

func describe(_ resolution: Resolution<Screen>) -> String {
    switch resolution {
    case .matched(let match):
        let parameters = match.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        return "matched  \(match.route.name) → \(match.value) \(parameters)"
    case .notFound: return "notFound no route"
    case .forbidden(_, let reason): return "forbidden \(reason)"
    case .passThrough: return "passThrough (the system opens it)"
    case .invalid(let error): return "invalid  \(error)"
    }
}

/// Each sample link with the outcome it must have.
let samples: [(link: String, status: ResolutionStatus)] = [
    ("deeplinkTutorial://messages/1", .matched),
    ("deeplinkTutorial://request/1", .matched),
    ("deeplinkTutorial:///activity", .matched),
    ("https://apartments.example.com/listings/new", .matched),
    ("deeplinkTutorial://messages/one", .notFound),
    ("https://elsewhere.example.org/", .passThrough),
    ("otherapp://messages/1", .forbidden),
    ("deeplinkTutorial://messages/1 2", .invalid),
]

do {
    let resolver = try makeResolver()
    let arguments = Array(CommandLine.arguments.dropFirst())
    var succeeded = true
    if arguments.isEmpty {
        for (link, expected) in samples {
            let resolution = resolver.resolve(link)
            let verdict = resolution.status == expected ? "" : "   ✗ expected \(expected)"
            if !verdict.isEmpty { succeeded = false }
            print("\(link)\n    \(describe(resolution))\(verdict)")
        }
        let share = try resolver.router.link(for: "messages.detail", ["id": 1])
        print("share link for chat 1: \(share)")
        print(succeeded ? "all \(samples.count) sample links resolved as expected" : "some sample links did not")
    } else {
        for link in arguments {
            let resolution = resolver.resolve(link)
            if resolution.match == nil { succeeded = false }
            print("\(link)\n    \(describe(resolution))")
        }
    }
    exit(succeeded ? 0 : 1)
} catch {
    print("error: \(error)")
    exit(2)
}
