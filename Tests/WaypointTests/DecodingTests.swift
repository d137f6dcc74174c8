import Foundation
import Testing

@testable import Waypoint

@Suite("A match decodes into the app's own Decodable types")
struct DecodingTests {
    struct Payment: Decodable, Equatable {
        let order_id: Int
        let coupon: String?
    }

    enum Tab: String, Decodable { case home, library }

    struct Book: Decodable, Equatable {
        let id: Int
        let tab: Tab
        let tags: [String]
        let preview: Bool
        let session: UUID?
        let ratio: Double
    }

    @Test("Query values decode into typed fields; optionals may be absent")
    func payment() throws {
        let router = try makeRouter([("pay", "/pay")])
        let match = try #require(try router.match("myapp:///pay?order_id=123"))
        #expect(try match.decode(Payment.self) == Payment(order_id: 123, coupon: nil))
    }

    @Test("Path parameters, enums, arrays of repeated items, booleans, UUIDs")
    func book() throws {
        let router = try makeRouter([("book", "/books/{id:int}")])
        let match = try #require(
            try router.match(
                "myapp://books/42?tab=library&tags=a&tags=b&preview=TRUE&ratio=0.5&session=9F3C2B4E-1D2A-4C3B-8E4F-5A6B7C8D9E0F&id=7"
            )
        )
        let book = try match.decode(Book.self)
        #expect(book.id == 42)  // the path wins over ?id=7
        #expect(book.tab == .library)
        #expect(book.tags == ["a", "b"])
        #expect(book.preview)
        #expect(book.session == UUID(uuidString: "9F3C2B4E-1D2A-4C3B-8E4F-5A6B7C8D9E0F"))
        #expect(book.ratio == 0.5)
    }

    @Test("A wrong type or a missing key is a DecodingError naming the key")
    func errors() throws {
        let router = try makeRouter([("pay", "/pay")])
        let wrong = try #require(try router.match("myapp://pay?order_id=abc"))
        do {
            _ = try wrong.decode(Payment.self)
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["order_id"])
            #expect(context.debugDescription == "'order_id' is 'abc', which is not an integer of type Int.")
        }
        // One rule for a bool everywhere a link's text becomes one: true or false, in any case.
        struct Flag: Decodable { let preview: Bool }
        let yes = try #require(try makeRouter([("book", "/books/{id:int}")]).match("myapp://books/1?preview=yes"))
        do {
            _ = try yes.decode(Flag.self)
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.debugDescription == "'preview' is 'yes', which is not a boolean (true or false).")
        }
        #expect(ParameterValue.string("yes").boolValue == nil)
        #expect(ParameterValue.string("False").boolValue == false)
        let missing = try #require(try router.match("myapp://pay"))
        #expect(throws: DecodingError.self) { try missing.decode(Payment.self) }
    }

    @Test("A number in the query is read by the router's rule: decimal and finite")
    func finiteNumbers() throws {
        struct Amount: Decodable { let amount: Double }
        struct Ratio: Decodable { let amount: Float }
        let router = try makeRouter([("pay", "/pay")])
        for text in ["nan", "inf", "-infinity", "0x1p3", "1e999"] {
            let match = try #require(try router.match("myapp://pay?amount=\(text)"))
            do {
                let amount = try match.decode(Amount.self).amount
                Issue.record("'\(text)' decoded as \(amount)")
            } catch DecodingError.typeMismatch(_, let context) {
                #expect(context.debugDescription == "'amount' is '\(text)', which is not a finite decimal number.")
            }
        }
        // A Double's range is wider than a Float's: 1e300 is a Double and no Float.
        let wide = try #require(try router.match("myapp://pay?amount=1e300"))
        #expect(try wide.decode(Amount.self).amount == 1e300)
        #expect(throws: DecodingError.self) { try wide.decode(Ratio.self) }
        let plain = try #require(try router.match("myapp://pay?amount=-2.5e1"))
        #expect(try plain.decode(Amount.self).amount == -25)
        #expect(try plain.decode(Ratio.self).amount == -25)
        // A Float is read from the text, not through a Double: one rounding.
        let fine = "1.0000000596046447753906251"
        let close = try #require(try router.match("myapp://pay?amount=\(fine)"))
        #expect(try close.decode(Ratio.self).amount == Float(fine))
    }
}
