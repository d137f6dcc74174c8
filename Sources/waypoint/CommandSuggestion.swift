import ArgumentParser
import WaypointManifest

/// "Did you mean": a misspelled subcommand is named as such, with the nearest command, instead of
/// ArgumentParser's report about whatever option follows it.
enum CommandSuggestion {
    /// The message for the first word that should name a subcommand and names none, or `nil`.
    ///
    /// ```swift
    /// CommandSuggestion.unknownCommand(in: ["reslove", "x"], under: WaypointCommand.self)
    /// // "'reslove' is not a waypoint command. Did you mean 'resolve'? …"
    /// ```
    static func unknownCommand(in arguments: [String], under root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root._commandName]
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !argument.hasPrefix("-"), argument != "help" else { return nil }
            guard let next = subcommands.first(where: { $0._commandName == argument }) else {
                let names = subcommands.map { $0._commandName }
                // A word that names a command one level down ("generate" is `aasa generate`), or
                // `codegen`'s own word for what it does, is named with where it lives.
                let nested = subcommands.flatMap { parent in
                    parent.configuration.subcommands.filter { $0._commandName == argument }.map {
                        "'\(parent._commandName) \($0._commandName)'"
                    }
                }
                let meant = Spelling.nearest(to: argument, in: names).map { ["'\($0)'"] } ?? []
                let typedRoutes =
                    argument == "generate" && names.contains("codegen") ? ["'codegen' (typed routes)"] : []
                let candidates = meant + typedRoutes + nested
                let suggestion =
                    switch candidates.count {
                    case 0: ""
                    case 1: " Did you mean \(candidates[0])?"
                    default:
                        " Did you mean \(candidates.dropLast().joined(separator: ", ")) or \(candidates[candidates.count - 1])?"
                    }
                return "'\(argument)' is not a \(path.joined(separator: " ")) command.\(suggestion) "
                    + "The commands are: \(names.joined(separator: ", "))."
            }
            command = next
            path.append(next._commandName)
        }
        return nil
    }
}
