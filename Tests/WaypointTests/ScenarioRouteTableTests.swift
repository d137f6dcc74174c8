import Testing

@testable import Waypoint

/// The route tables of the five scenarios, as an app would declare them.
@Suite("Scenario route tables")
struct ScenarioRouteTableTests {
    @Test("1: apartment booking: chats, requests, quick-action targets")
    func apartments() throws {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "deeplinkTutorial"))
        try builder.add("activity", "/activity", value: "Recent activity")
        try builder.add("messages", "/messages", value: "Messages")
        try builder.add("messages.detail", "/messages/{id:int}", value: "Chat")
        try builder.add("request.detail", "/request/{id:int}", value: "Request")
        try builder.add("listing.new", "/listings/new", value: "New listing")
        let resolver = LinkResolver(router: try builder.build(), policy: LinkPolicy(schemes: ["deeplinkTutorial"]))

        let chat = try #require(resolver.resolve("deeplinkTutorial://messages/1").match)
        #expect(chat.route.value == "Chat")
        #expect(chat.parameters.int("id") == 1)
        let request = try #require(resolver.resolve("deeplinkTutorial://request/1").match)
        #expect(request.route.value == "Request")
        #expect(resolver.resolve("deeplinktutorial://MESSAGES").match?.route.value == "Messages")
        #expect(resolver.resolve("deeplinkTutorial://messages/one").status == .notFound)
        #expect(try resolver.router.link(for: "messages.detail", ["id": 1]).string == "deeplinkTutorial://messages/1")
    }

    @Test("2: a payment link, in both custom-scheme forms")
    func payment() throws {
        var builder = RouterBuilder<String>()
        try builder.add("pay", "/pay", value: "Pay")
        let resolver = LinkResolver(router: try builder.build(), policy: LinkPolicy(schemes: ["app"]))
        for text in ["app:///pay?order_id=123", "app://pay?order_id=123"] {
            let match = try #require(resolver.resolve(text).match)
            #expect(match.link.queryValue("order_id") == "123")
        }
    }

    @Test("3: a reading app: custom scheme and own-domain https in the app, other https outside, chat-typed links")
    func readingApp() throws {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "readapp"))
        try builder.add("book", "/books/{book_id:int}", value: "Book")
        try builder.add("book.chapter", "/books/{book_id:int}/chapters/{chapter}", value: "Chapter")
        try builder.add("tab", "/tab/{tab}", value: "Tab")
        try builder.add("search", "/search", value: "Search")
        try builder.add("web.book", "https://read.example.com/b/{book_id:int}", value: "Book (web)")
        let resolver = LinkResolver(
            router: try builder.build(),
            policy: LinkPolicy(schemes: ["readapp"], associatedDomains: ["read.example.com"])
        )
        #expect(resolver.resolve("readapp://books/42").match?.parameters.int("book_id") == 42)
        #expect(resolver.resolve("https://read.example.com/b/42").match?.route.value == "Book (web)")
        #expect(resolver.resolve("https://read.example.com/books/42").match?.route.value == "Book")
        #expect(resolver.resolve("https://news.example.org/article").status == .passThrough)
        let typed = try #require(resolver.resolve(text: "readapp://search?q=三体 第二部").match)
        #expect(typed.link.queryValue("q") == "三体 第二部")
        let chapter = try #require(resolver.resolve(text: "readapp://books/7/chapters/第一章 开始").match)
        #expect(chapter.parameters.string("chapter") == "第一章 开始")
        #expect(resolver.resolve("readapp://tab/library").match?.parameters.string("tab") == "library")
    }

    @Test("4: a tutoring app: order detail from a push on a killed app, and the home screen")
    func tutoring() throws {
        var builder = RouterBuilder<String>()
        try builder.add("home", "/", value: "Home")
        try builder.add("order.detail", "/order_detail", value: "Order")
        let resolver = LinkResolver(router: try builder.build(), policy: LinkPolicy(schemes: ["wenxiaoyou"]))
        let match = try #require(resolver.resolve("wenxiaoyou://order_detail?order_id=1234").match)
        #expect(match.route.value == "Order")
        struct Order: Decodable { let order_id: Int }
        #expect(try match.decode(Order.self).order_id == 1234)
        #expect(resolver.resolve("wenxiaoyou://").match?.route.value == "Home")
    }
}
