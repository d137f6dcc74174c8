/// Reed–Solomon error correction over GF(2⁸) with the QR code's polynomial, x⁸ + x⁴ + x³ + x² + 1
/// (0x11D): the codewords a block appends so a reader can restore damaged ones.
///
/// ```swift
/// let code = ReedSolomon(degree: 10)
/// code.remainder(of: [0x40, 0xD2, 0x75])  // 10 codewords
/// ```
struct ReedSolomon: Sendable {
    /// The generator polynomial (x − α⁰)(x − α¹)…(x − αᵈ⁻¹), highest power first, its leading 1 left out.
    let generator: [UInt8]

    init(degree: Int) {
        var generator = [UInt8](repeating: 0, count: degree)
        generator[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            // Multiply by (x − root): each coefficient times root, plus the next one.
            for index in 0..<degree {
                generator[index] = Self.multiply(generator[index], root)
                if index + 1 < degree { generator[index] ^= generator[index + 1] }
            }
            root = Self.multiply(root, 2)
        }
        self.generator = generator
    }

    /// The error correction codewords for `data`: the remainder of data·xᵈ divided by the generator.
    func remainder(of data: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in remainder.indices { remainder[index] ^= Self.multiply(generator[index], factor) }
        }
        return remainder
    }

    /// Multiplication in GF(2⁸) modulo 0x11D.
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var product: UInt16 = 0
        for bit in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= UInt16((y >> UInt8(bit)) & 1) * UInt16(x)
        }
        return UInt8(truncatingIfNeeded: product)
    }
}
