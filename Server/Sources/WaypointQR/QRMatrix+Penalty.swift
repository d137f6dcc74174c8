extension QRMatrix {
    /// How hard the masked code is to read, by the standard's four rules: long runs of one colour,
    /// 2×2 blocks of one colour, patterns a reader could take for a finder, and a balance of dark
    /// and light away from half. The mask with the lowest score is used.
    var penalty: Int {
        var score = 0
        // Rows and columns alike: read each as a line.
        for line in 0..<size {
            let row = (0..<size).map { self[$0, line] }
            let column = (0..<size).map { self[line, $0] }
            score += Self.runPenalty(row) + Self.finderPenalty(row)
            score += Self.runPenalty(column) + Self.finderPenalty(column)
        }
        // Rule 2: 3 for each 2×2 block of one colour (overlapping blocks each count).
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = self[x, y]
                if self[x + 1, y] == colour && self[x, y + 1] == colour && self[x + 1, y + 1] == colour { score += 3 }
            }
        }
        // Rule 4: 10 for each full 5% the dark share is away from 50%.
        let darkCount = dark.reduce(0) { $0 + ($1 ? 1 : 0) }
        let percent = darkCount * 100 / dark.count
        score += abs(percent - 50) / 5 * 10
        return score
    }

    /// Rule 1: a run of five or more modules of one colour costs 3, plus 1 for each module past five.
    static func runPenalty(_ line: [Bool]) -> Int {
        var score = 0
        var run = 1
        for index in 1...line.count {
            if index < line.count && line[index] == line[index - 1] {
                run += 1
            } else {
                if run >= 5 { score += run - 2 }
                run = 1
            }
        }
        return score
    }

    /// Rule 3: 40 for each dark-light-dark-dark-dark-light-dark (1:1:3:1:1) with four light modules
    /// on one side, the shape of a finder pattern.
    static func finderPenalty(_ line: [Bool]) -> Int {
        let finder: [Bool] = [true, false, true, true, true, false, true]
        let light = [Bool](repeating: false, count: 4)
        let before = light + finder
        let after = finder + light
        guard line.count >= before.count else { return 0 }
        var score = 0
        for start in 0...(line.count - before.count) {
            let window = line[start..<(start + before.count)]
            if window.elementsEqual(before) { score += 40 }
            if window.elementsEqual(after) { score += 40 }
        }
        return score
    }
}
