/// Where each record of a CSV file begins, found by reading the file as RFC 4180 writes it, and
/// strictly. `CSVReader` (the CSV.swift package, which reads the cells) is lenient: it takes an
/// unclosed quote as one cell running to the end of the file, and drops the character after a stray
/// closing quote, so a malformed file would lose its later rows without a word. This reading finds
/// those mistakes first and names their line, and it numbers records by the file's lines, which a
/// cell that spans lines would otherwise shift.
///
/// ```swift
/// try CSVRecords.starts(of: "code,deepLink\n\nspring,\"readapp://books/1\"\n", limit: 10)
/// // [Start(record: 0, line: 1), Start(record: 2, line: 3)]
/// try CSVRecords.starts(of: "code,deepLink\nspring,\"readapp://books/1\n", limit: 10)
/// // throws invalidRequest: "Line 2: the quote that opens a cell there is never closed; …"
/// ```
enum CSVRecords {
    /// Where a record that is not a blank line begins: its place among the records `CSVReader`
    /// reads (the header is 0, and a blank line is a record of one empty cell) and its line.
    struct Start: Equatable {
        let record: Int
        let line: Int
    }

    /// Where each record but blank lines starts, the header's first. Records end where `CSVReader`
    /// ends them: at "\r\n", "\n" or "\r" outside quotes. Blank lines are left out so that a file
    /// of line breaks costs nothing.
    ///
    /// - Throws: ``LinkServiceError`` `invalidRequest` for a quote never closed or text after a
    ///   closing quote, naming the line, or for more than `limit` records after the header;
    ///   nothing of such a file is imported.
    static func starts(of text: String, limit: Int) throws(LinkServiceError) -> [Start] {
        var starts: [Start] = []
        var record = -1
        var line = 1
        var state = State.recordStart
        var scalars = text.unicodeScalars.makeIterator()
        var pushedBack: Unicode.Scalar?

        // Whether `scalar` breaks the line: "\r\n" (its "\n" taken here), "\n" or "\r", each one
        // break, counted.
        func takeLineBreak(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar == "\r" || scalar == "\n" else { return false }
            if scalar == "\r" {
                let next = scalars.next()
                if next != "\n" { pushedBack = next }
            }
            line += 1
            return true
        }

        while let scalar = pushedBack ?? scalars.next() {
            pushedBack = nil
            if case .recordStart = state {
                record += 1
                if scalar != "\r" && scalar != "\n" {
                    guard starts.count <= limit else { throw LinkImport.tooManyLinks(limit) }
                    starts.append(Start(record: record, line: line))
                }
            }
            switch state {
            case .recordStart, .fieldStart:
                if scalar == "\"" {
                    state = .quoted(openedOn: line)
                } else if takeLineBreak(scalar) {
                    state = .recordStart
                } else {
                    state = scalar == "," ? .fieldStart : .unquoted
                }
            case .unquoted:
                if takeLineBreak(scalar) {
                    state = .recordStart
                } else if scalar == "," {
                    state = .fieldStart
                }
            case .quoted(let opened):
                if scalar == "\"" {
                    state = .closingQuote(openedOn: opened)
                } else {
                    _ = takeLineBreak(scalar)
                }
            case .closingQuote(let opened):
                if scalar == "\"" {
                    state = .quoted(openedOn: opened)  // "" is one quote inside the cell
                } else if takeLineBreak(scalar) {
                    state = .recordStart
                } else if scalar == "," {
                    state = .fieldStart
                } else {
                    throw LinkServiceError(
                        .invalidRequest,
                        "Line \(line): '\(scalar.escaped(asASCII: true))' follows the quote that closes a cell; "
                            + #"a quote inside a cell is written twice ("") and the whole cell quoted. "#
                            + "Nothing was imported."
                    )
                }
            }
        }
        if case .quoted(let opened) = state {
            throw LinkServiceError(
                .invalidRequest,
                "Line \(opened): the quote that opens a cell there is never closed; close it, or write a quote "
                    + #"inside a cell twice (""). Nothing was imported."#
            )
        }
        return starts
    }

    private enum State {
        /// Before a record's first character: the next character begins a record.
        case recordStart
        case fieldStart
        case unquoted
        case quoted(openedOn: Int)
        /// A quote inside a quoted cell: the cell's end, or the first of two that mean one.
        case closingQuote(openedOn: Int)
    }
}
