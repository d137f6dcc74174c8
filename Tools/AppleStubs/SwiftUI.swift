// Stub of the SwiftUI API used by Waypoint's adapters and the example app. See README.md.
//
// Availability is simulated for the deployment target the check compiles for: below iOS 16
// (no IOS_16 flag) what iOS 16 introduced is unavailable, and from iOS 17 (IOS_17) what iOS 17
// deprecated warns. Linux enforces no `@available(iOS …)`, so these conditions stand in for it.

import Combine
@_exported import UIKit

// Since the iOS 18 SDK (Xcode 16) `View` and `ViewModifier` are isolated to the main actor as a whole.
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { self }
}

@resultBuilder public enum ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

public struct Text: View {
    public init(_ text: String) {}
    public var body: Never { preconditionFailure("stub") }
}

public struct Button<Label: View>: View {
    public init(_ title: String, action: @escaping () -> Void) where Label == Text {}
    public var body: Never { preconditionFailure("stub") }
}

@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = ModifiedContent
    @ViewBuilder func body(content: Content) -> Body
}

public struct ModifiedContent: View {
    public var body: Never { preconditionFailure("stub") }
}

public enum ScenePhase: Sendable, Equatable {
    case active, inactive, background
}

public struct EnvironmentValues {
    public var scenePhase: ScenePhase { .active }
}

@propertyWrapper public struct Environment<Value>: Sendable {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { preconditionFailure("stub") }
}

@dynamicMemberLookup public struct Binding<Value> {
    public var wrappedValue: Value {
        get { preconditionFailure("stub") }
        nonmutating set {}
    }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        preconditionFailure("stub")
    }
}

@propertyWrapper public struct SceneStorage<Value> {
    public init(wrappedValue: Value, _ key: String) where Value == String {}
    public var wrappedValue: Value {
        get { preconditionFailure("stub") }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { preconditionFailure("stub") }
}

@propertyWrapper public struct ObservedObject<ObjectType: ObservableObject> {
    public init(wrappedValue: ObjectType) {}
    @MainActor public var wrappedValue: ObjectType { preconditionFailure("stub") }
}

@propertyWrapper public struct StateObject<ObjectType: ObservableObject> {
    public init(wrappedValue: @autoclosure @escaping () -> ObjectType) {}
    @MainActor public var wrappedValue: ObjectType { preconditionFailure("stub") }
    @MainActor public var projectedValue: Binding<ObjectType> { preconditionFailure("stub") }
}

#if !IOS_16
@available(*, unavailable, message: "introduced in iOS 16.0")
#endif
public struct NavigationStack<Root: View>: View {
    public init<Data: Hashable>(path: Binding<[Data]>, @ViewBuilder root: () -> Root) {}
    public var body: Never { preconditionFailure("stub") }
}

public struct AnyView: View {
    public init<V: View>(_ view: V) {}
    public var body: Never { preconditionFailure("stub") }
}

extension View {
    public func modifier<Modifier: ViewModifier>(_ modifier: Modifier) -> ModifiedContent { ModifiedContent() }
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> ModifiedContent { ModifiedContent() }
    public func onContinueUserActivity(
        _ activityType: String,
        perform action: @escaping (NSUserActivity) -> Void
    ) -> ModifiedContent {
        ModifiedContent()
    }
    public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedContent { ModifiedContent() }
    public func onDisappear(perform action: (() -> Void)? = nil) -> ModifiedContent { ModifiedContent() }
    #if IOS_17
    @available(*, deprecated, message: "deprecated in iOS 17.0: use onChange(of:initial:_:)")
    #endif
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> ModifiedContent {
        ModifiedContent()
    }
    #if !IOS_17
    @available(*, unavailable, message: "introduced in iOS 17.0")
    #endif
    public func onChange<V: Equatable>(
        of value: V,
        initial: Bool = false,
        _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> ModifiedContent {
        ModifiedContent()
    }
    #if !IOS_16
    @available(*, unavailable, message: "introduced in iOS 16.0")
    #endif
    public func navigationDestination<D: Hashable, C: View>(
        for data: D.Type,
        @ViewBuilder destination: @escaping (D) -> C
    ) -> ModifiedContent {
        ModifiedContent()
    }
    public func task(_ action: @escaping @Sendable () async -> Void) -> ModifiedContent { ModifiedContent() }
    public func task<T: Equatable>(
        id value: T,
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> ModifiedContent {
        ModifiedContent()
    }
}

public protocol Scene {}

public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
}

@resultBuilder public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

@MainActor public protocol App {
    associatedtype Body: Scene
    init()
    @SceneBuilder var body: Body { get }
}

extension App {
    public static func main() {}
}
