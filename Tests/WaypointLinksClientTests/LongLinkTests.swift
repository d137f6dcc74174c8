import Foundation
import Testing
import Waypoint
import WaypointLinksClient

/// A long Firebase Dynamic Link that opened the app: read as the service reads it, with no request.
/// In the short-link suite, whose service stub counts requests: run alongside, a count could move.
extension ShortLinkTests {
    @Test("A long link's deep link is its 'link' with its campaign, as Firebase read it")
    func longLinkReading() throws {
        let cases: [(String, String)] = [
            ("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7", "readapp://books/7"),
            // Campaign items join the link's query, as they came; the link's own win.
            (
                "https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7&utm_source=news&isi=123&utm_medium=mail",
                "readapp://books/7?utm_source=news&utm_medium=mail"
            ),
            (
                "https://links.example.com/?utm_source=news&link=readapp%3A%2F%2Fbooks%2F7%3Futm_source%3Dapp",
                "readapp://books/7?utm_source=app"
            ),
            // `ct` names the campaign where nothing else does.
            (
                "https://links.example.com/?link=readapp://books/7&ct=spring%20sale",
                "readapp://books/7?utm_campaign=spring%20sale"
            ),
            (
                "https://links.example.com/?link=readapp://books/7&ct=x&utm_campaign=y",
                "readapp://books/7?utm_campaign=y"
            ),
            // The first `link` counts; a fragment left unescaped belongs to the deep link.
            ("https://links.example.com/?link=readapp://books/7&link=readapp://books/8", "readapp://books/7"),
            (
                "https://links.example.com/?link=https://read.example.com/b/42#ch2&utm_source=a",
                "https://read.example.com/b/42?utm_source=a#ch2"
            ),
            // A `+` is a space, as a form writes it; a stray `%` is itself.
            ("https://links.example.com/?link=readapp://search?q%3Dred+shoes", "readapp://search?q=red shoes"),
            ("https://links.example.com/?link=readapp://sale/50%off", "readapp://sale/50%off"),
        ]
        for (text, deepLink) in cases {
            #expect(try LongDynamicLink(text).deepLink == deepLink, "\(text)")
        }
        let read = try LongDynamicLink(
            "https://x.page.link/?link=readapp://b&st=Spring+sale&isi=1&isi=2&efr=1&ct=c&utm_campaign=u"
        )
        #expect(read.parameters["st"] == "Spring sale")
        #expect(read.parameters["isi"] == "1")
        #expect(read.parameterNames == ["st", "isi", "isi", "efr", "ct"])
        #expect(read.campaignTokenPassedOver)

        #expect(throws: LongDynamicLinkError.self) { try LongDynamicLink("https://links.example.com/?isi=123") }
        do {
            _ = try LongDynamicLink("https://links.example.com/?link=&isi=123")
            Issue.record("an empty link was read")
        } catch {
            #expect(error.message.contains("has no 'link' parameter"))
        }
        do {
            _ = try LongDynamicLink("no link at all")
            Issue.record("text with no scheme was read")
        } catch {
            #expect(error.message == "'no link at all' is not a URL.")
        }
    }

    @Test("Only the root of the service's own host with a 'link' is a long link of it")
    func longLinkRecognised() {
        let link = "link=readapp%3A%2F%2Fbooks%2F7"
        let cases: [(String, String?)] = [
            ("https://links.example.com/?\(link)", "readapp://books/7"),
            ("https://links.example.com?\(link)", "readapp://books/7"),
            ("HTTP://Links.Example.com.:80/?\(link)", "readapp://books/7"),
            ("https://links.example.com/?isi=123", nil),
            ("https://links.example.com/", nil),
            ("https://links.example.com/?", nil),
            ("https://links.example.com/link/?\(link)", nil),
            ("https://links.example.com/spring?\(link)", nil),
            ("https://links.example.com:8443/?\(link)", nil),
            ("https://user@links.example.com/?\(link)", nil),
            ("https://go.example.com/?\(link)", nil),
            ("readapp://links.example.com/?\(link)", nil),
        ]
        for (text, deepLink) in cases {
            #expect(service.deepLink(inLongLink: text) == deepLink, "\(text)")
        }
    }

    @Test("A long link opens its deep link with no request, by the redirect rule; the app's own route on '/' wins")
    func longLinkOpened() async throws {
        let opening = try opening()
        let before = CannedService.requestCount
        let tapped = intake.url("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7&utm_source=news&isi=1")
        guard case .link(let longLink, let tappedIdentity) = tapped,
            case .link(let link, let identity) = await opening.resolved(tapped)
        else {
            Issue.record("no link")
            return
        }
        #expect(link.string == "readapp://books/7?utm_source=news")
        #expect(link.source == longLink.source)
        #expect(identity == tappedIdentity)

        // In a push: the push's source, payload and target stay.
        let pushed = intake.notification(
            NotificationResponseSnapshot(
                userInfo: [
                    "aps": ["target-content-id": "inbox"],
                    "url": "https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F8", "id": "7",
                ]
            )
        )
        let fromPush = await opening.resolved(pushed).link
        #expect(fromPush?.string == "readapp://books/8")
        #expect(fromPush?.source == .notification)
        #expect(fromPush?.targetContentIdentifier == "inbox")
        #expect(fromPush?.payload?["id"]?.text == "7")

        // Only the app's own destinations are followed; a deep link that does not parse is named.
        let foreign = await opening.resolved(
            intake.url("https://links.example.com/?link=https%3A%2F%2Fevil.example%2F")
        )
        #expect(foreign.error?.code == .providerFailed)
        #expect(foreign.error?.input == "https://links.example.com/?link=https%3A%2F%2Fevil.example%2F")
        #expect(foreign.error?.message.contains("The long link") == true)
        let broken = await opening.resolved(intake.url("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F4%202"))
        #expect(broken.error?.code == .invalidLink)
        #expect(broken.error?.message.contains("leads to 'readapp://books/4 2', which is not a link") == true)
        #expect(CannedService.requestCount == before)

        // A route of the app at the domain's root takes the link itself.
        let home = try LinkDispatcher<String>(
            routes: [LinkRoute("home", "https://links.example.com/") { _ in .pushOverRoot("home") }],
            policy: Self.policy
        )
        let withHome = ShortLinkResolvingDispatcher(home, service: service, retries: 0)
        #expect(await withHome.resolved(tapped).link == longLink)
    }
}
