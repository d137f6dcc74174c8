import Waypoint

extension RoutePattern {
    /// A parameter of the pattern as the manifest's tools see it.
    struct TypedParameter {
        let name: String
        let type: ParameterType
        /// Whether every shape of the pattern has it (not only those with an optional group).
        let isInEveryShape: Bool
    }

    /// Every parameter, in the order written (read from the longest shape first), with its type and
    /// whether every shape has it: what typed route code, redirects and lint read of a pattern.
    var typedParameters: [TypedParameter] {
        var order: [String] = []
        var types: [String: ParameterType] = [:]
        var counts: [String: Int] = [:]
        for expansion in expansions.sorted(by: { $0.count > $1.count }) {
            for case .parameter(let name, let type) in expansion {
                if types[name] == nil {
                    order.append(name)
                    types[name] = type
                }
                counts[name, default: 0] += 1
            }
        }
        return order.map { name in
            TypedParameter(name: name, type: types[name] ?? .string, isInEveryShape: counts[name] == expansions.count)
        }
    }
}
