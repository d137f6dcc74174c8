import Testing

@testable import Waypoint

@Suite("Catalogs and navigation plans")
struct CatalogAndPlanTests {
    enum Profile: Sendable { case guest, host }

    let quickActions = QuickActionCatalog<Profile>([
        QuickAction(type: "activity", title: "Recent activity", iconName: "clock", link: "/activity"),
        QuickAction(type: "messages", title: "Messages", link: "/messages"),
        QuickAction(type: "listing.new", title: "New listing", link: "/listings/new") { $0 == .host },
    ])

    @Test("Quick actions follow the profile, in order")
    func quickActionsPerProfile() {
        #expect(quickActions.items(for: .guest).map(\.type) == ["activity", "messages"])
        #expect(quickActions.items(for: .host).map(\.type) == ["activity", "messages", "listing.new"])
        #expect(quickActions.items(for: .guest).first?.iconName == "clock")
        #expect(quickActions.linkTemplates["listing.new"] == "/listings/new")
    }

    @Test("At most four are installed by default")
    func atMostFour() {
        let many = QuickActionCatalog<Void>((0..<6).map { QuickAction(type: "t\($0)", title: "T\($0)", link: "/t") })
        #expect(many.items(for: ()).map(\.type) == ["t0", "t1", "t2", "t3"])
        #expect(QuickActionCatalog<Void>(many.actions, maximumVisible: 2).items(for: ()).count == 2)
    }

    @Test("Notification categories find actions by category, or by id alone")
    func categories() {
        let catalog = NotificationCategoryCatalog([
            NotificationCategory(
                id: "post",
                actions: [NotificationAction(id: "like", title: "Like", target: .handler)]
            ),
            NotificationCategory(
                id: "message",
                actions: [
                    NotificationAction(
                        id: "reply",
                        title: "Reply",
                        options: [.foreground, .authenticationRequired],
                        target: .payloadLink
                    )
                ]
            ),
        ])
        #expect(catalog.action("like", in: "post")?.target == .handler)
        #expect(catalog.action("like", in: "message") == nil)
        #expect(catalog.action("reply", in: "")?.options == [.foreground, .authenticationRequired])
    }

    enum Screen: Hashable, Sendable {
        case home, list
        case order(Int)
        case detail
    }

    @Test("Plans read as a NavigationStack path")
    func paths() {
        let current: [Screen] = [.list, .detail]
        #expect(NavigationPlan.push(Screen.order(1)).path(from: current) == [.list, .detail, .order(1)])
        #expect(NavigationPlan.pushOverRoot(Screen.order(1234), tab: "home").path(from: current) == [.order(1234)])
        #expect(NavigationPlan.pushOverRoot(Screen.order(1), via: [.list]).path(from: current) == [.list, .order(1)])
        #expect(NavigationPlan.present(Screen.order(1)).path(from: current) == current)
        #expect(NavigationPlan.replaceStack(Screen.order(1)).path(from: current) == [.order(1)])
        #expect(NavigationPlan.pushOverRoot(Screen.order(1), tab: "home").tab == "home")
        // The path is what the steps push, for every presentation (SwiftUI reads the one, UIKit the other).
        let presentations: [NavigationPlan<Screen>.Presentation] = [
            .push, .pushOverRoot, .present, .fullScreenCover, .replaceStack,
        ]
        for presentation in presentations {
            for via in [[], [Screen.detail], [.list, .detail]] {
                let plan = NavigationPlan(destination: Screen.order(2), presentation: presentation, tab: "t", via: via)
                var stack = current
                for step in plan.steps {
                    switch step {
                    case .popToRoot: stack = []
                    case .push(let screen): stack.append(screen)
                    case .setStack(let screens): stack = screens
                    case .selectTab, .dismissPresented, .present, .presentFullScreen: break
                    }
                }
                #expect(plan.path(from: current) == stack, "\(presentation) via \(via)")
            }
        }
    }

    @Test("A plan is a value: a changed copy leaves the original, and equal plans are equal and hash alike")
    func planIsAValue() {
        let original = NavigationPlan.pushOverRoot("order", tab: "home", via: ["orders"])
        var changed = original
        changed.destination = "receipt"
        changed.tab = nil
        changed.via.append("order")
        changed.presentation = .present
        #expect(original.destination == "order" && original.tab == "home" && original.via == ["orders"])
        #expect(original.presentation == .pushOverRoot)
        #expect(changed == NavigationPlan(destination: "receipt", presentation: .present, via: ["orders", "order"]))
        let twin = NavigationPlan.pushOverRoot("order", tab: "home", via: ["orders"])
        #expect(twin == original && twin.hashValue == original.hashValue)
        #expect(Set([original, twin, changed]).count == 2)
        // Printed by its values, as before it kept them behind a reference.
        let printed = "\(original)"
        #expect(printed.contains(#"destination: "order""#) && printed.contains(#"via: ["orders"]"#))
    }
}
