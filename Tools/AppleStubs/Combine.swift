// Stub of the Combine API used by Waypoint's adapters and the example app. See README.md.
//
// As in the real SDK, Combine owns `ObservableObject` and `Published`; Foundation only names them
// (typealiases, stood in for by UIKit.swift). With MemberImportVisibility, a file that conforms to
// `ObservableObject` or writes `@Published` must therefore `import Combine` itself: the default
// `objectWillChange` and `Published.init(wrappedValue:)` are members declared here.

public final class ObservableObjectPublisher: @unchecked Sendable {
    public init() {}
    public func send() {}
}

public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

@propertyWrapper public struct Published<Value> {
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public var wrappedValue: Value
}
