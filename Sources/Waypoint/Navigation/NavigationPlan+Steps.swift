// `indirect`: the values of each case live in one box, so code that copies or switches over a step
// moves one word, whatever the payload's layout (3 KB less machine code for a device; Scripts/measure-core.sh).
/// One thing a UIKit navigator does to carry out a plan, in order.
///
/// ```swift
/// NavigationPlan.present(Screen.order(1)).steps   // [.present(.order(1))]
/// ```
public indirect enum NavigationStep<Destination: Hashable & Sendable>: Sendable, Hashable {
    /// Select the tab with this identifier.
    case selectTab(String)
    /// Dismiss whatever is presented modally, so the plan acts on the tab's stack.
    case dismissPresented
    /// Pop the selected stack to its root.
    case popToRoot
    /// Push a screen onto the selected stack.
    case push(Destination)
    /// Present a screen modally over what is shown, as a sheet.
    case present(Destination)
    /// Present a screen modally, covering the whole screen.
    case presentFullScreen(Destination)
    /// Make these screens the whole stack.
    case setStack([Destination])
}

extension NavigationPlan {
    /// The plan as steps for a tab bar and navigation controllers, so every adapter carries out
    /// plans the same way and the order is tested where the core is.
    ///
    /// ```swift
    /// NavigationPlan.pushOverRoot(Screen.order(1234), tab: "home").steps
    /// // [.dismissPresented, .selectTab("home"), .popToRoot, .push(.order(1234))]
    /// ```
    public var steps: [NavigationStep<Destination>] {
        var steps: [NavigationStep<Destination>] = []
        if presentation != .present && presentation != .fullScreenCover { steps.append(.dismissPresented) }
        if let tab { steps.append(.selectTab(tab)) }
        switch presentation {
        case .push:
            steps += (via + [destination]).map(NavigationStep.push)
        case .pushOverRoot:
            steps.append(.popToRoot)
            steps += (via + [destination]).map(NavigationStep.push)
        case .present:
            steps += via.map(NavigationStep.push)
            steps.append(.present(destination))
        case .fullScreenCover:
            steps += via.map(NavigationStep.push)
            steps.append(.presentFullScreen(destination))
        case .replaceStack:
            steps.append(.setStack(via + [destination]))
        }
        return steps
    }
}
