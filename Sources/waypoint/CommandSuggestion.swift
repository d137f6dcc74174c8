import ArgumentParser

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
                let nearest = names.min { distance(argument, $0) < distance(argument, $1) }
                let suggestion =
                    nearest.flatMap { distance(argument, $0) <= max(2, $0.count / 3) ? " Did you mean '\($0)'?" : nil }
                    ?? ""
                return "'\(argument)' is not a \(path.joined(separator: " ")) command.\(suggestion) "
                    + "The commands are: \(names.joined(separator: ", "))."
            }
            command = next
            path.append(next._commandName)
        }
        return nil
    }

    /// The Levenshtein distance: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
