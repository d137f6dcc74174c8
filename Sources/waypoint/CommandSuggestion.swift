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
                let suggestion = Spelling.nearest(to: argument, in: names).map { " Did you mean '\($0)'?" } ?? ""
                return "'\(argument)' is not a \(path.joined(separator: " ")) command.\(suggestion) "
                    + "The commands are: \(names.joined(separator: ", "))."
            }
            command = next
            path.append(next._commandName)
        }
        return nil
    }
}
