import Foundation
import Testing

@testable import Waypoint

@Suite("One error type: every refusal keeps what caused it, its kind, and the kind underneath")
struct WaypointErrorTests {
    enum Screen: Hashable, Sendable { case home }

    static func setupError(_ routes: [LinkRoute<Screen>]) -> WaypointError? {
        do {
            _ = try LinkDispatcher(routes: routes, policy: LinkPolicy(schemes: ["myapp"]), barriers: [])
            return nil
        } catch {
            return error
        }
    }

    @Test("A setup error wrapping a pattern's or a table's error names the routes and keeps the code underneath")
    func setupKeepsTheCodeUnderneath() {
        let pattern = Self.setupError([LinkRoute("a", "/a/**/b") { _ in .push(.home) }])
        #expect(pattern?.code == .invalidPattern)
        #expect(pattern?.underlyingCode == .catchAllNotLast)
        #expect(pattern?.names == ["a"])
        #expect(pattern?.input == "/a/**/b")
        #expect(pattern?.offset == 3)

        let table = Self.setupError([
            LinkRoute("a", "/users/{id}") { _ in .push(.home) },
            LinkRoute("b", "/users/{name}") { _ in .push(.home) },
        ])
        #expect(table?.code == .invalidRouteTable)
        #expect(table?.underlyingCode == .duplicateRoute)
        #expect(table?.names == ["a", "b"])
    }

    @Test("Intake keeps the link's own code under invalidLink, and a link's byte offset")
    func intakeKeepsTheLinkCode() {
        let intake = LinkIntake(policy: LinkPolicy(schemes: ["myapp"]))
        let error = intake.url("myapp://a b").error
        #expect(error?.code == .invalidLink)
        #expect(error?.underlyingCode == .invalidCharacter)
        #expect(error?.input == "myapp://a b")
        #expect(error?.offset == 9)
    }

    @Test("A refused resource name keeps the parameter's name and the value as decoded")
    func resourceNameKeepsNameAndValue() throws {
        var builder = RouterBuilder<Void>()
        try builder.add("file", "/files/{file}")
        let match = try #require(try builder.build().match("myapp://files/..%2Fsecrets"))
        #expect(throws: WaypointError.self) { try match.parameters.resourceName("file") }
        do {
            _ = try match.parameters.resourceName("file")
        } catch {
            #expect(error.code == .unsafeName)
            #expect(error.names == ["file"])
            #expect(error.input == "../secrets")
        }
        do {
            _ = try match.parameters.resourceName("other")
            Issue.record("a parameter the route does not have gave a name")
        } catch {
            #expect(error.code == .missingParameter)
            #expect(error.names == ["other"])
        }
    }

    @Test("A code's description is its name, one name per code, for logs and JSON")
    func codeNames() {
        let codes: [WaypointError.Code] = [
            .invalidCharacter, .invalidLink, .catchAllNotLast, .duplicateRoute, .unknownBarrier, .unsafeName,
            .storeFailed, .invalidKey,
        ]
        #expect(
            codes.map(\.description) == [
                "invalidCharacter", "invalidLink", "catchAllNotLast", "duplicateRoute", "unknownBarrier", "unsafeName",
                "storeFailed", "invalidKey",
            ]
        )
        #expect(Set(codes).count == codes.count)
        #expect(WaypointError(.storeFailed, message: "The Keychain said no.").description == "The Keychain said no.")
    }

    @Test("Two errors are equal, and hash alike, exactly when all six fields are")
    func equalityIsByFields() {
        func error(
            _ code: WaypointError.Code = .invalidLink,
            input: String = "myapp://a b",
            offset: Int? = 9,
            names: [String] = ["a"],
            underlyingCode: WaypointError.Code? = .invalidCharacter,
            message: String = "m"
        ) -> WaypointError {
            WaypointError(
                code,
                input: input,
                offset: offset,
                names: names,
                underlyingCode: underlyingCode,
                message: message
            )
        }
        let original = error()
        #expect(original == error())
        #expect(Set([original, error()]).count == 1)
        let changed = [
            error(.storeFailed), error(input: "myapp://a"), error(offset: nil), error(names: ["b"]),
            error(underlyingCode: nil), error(message: "n"),
        ]
        for other in changed { #expect(other != original) }
        #expect(Set(changed + [original]).count == changed.count + 1)
    }

    @Test("dump and test failures show an error's six fields, not the box that holds them")
    func mirrorShowsTheFields() {
        let error = WaypointError(.invalidLink, input: "myapp://a b", offset: 9, names: ["a"], message: "m")
        let children = Mirror(reflecting: error).children
        #expect(children.map(\.label) == ["code", "input", "offset", "names", "underlyingCode", "message"])
        #expect(children.first?.value as? WaypointError.Code == .invalidLink)
        var dumped = ""
        dump(error, to: &dumped)
        #expect(dumped.contains("myapp://a b"))
        #expect(!dumped.contains("storage"))
    }
}
