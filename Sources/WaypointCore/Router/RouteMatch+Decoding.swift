extension RouteMatch {
    /// Decodes a `Decodable` value from the path parameters and the query; a path parameter wins
    /// over a query item of the same name.
    ///
    /// ```swift
    /// struct Payment: Decodable { let order_id: Int; let coupon: String? }
    /// try router.match("myapp:///pay?order_id=123")!.decode(Payment.self) // Payment(order_id: 123, coupon: nil)
    /// ```
    ///
    /// Numbers (by the router's rules for `int` and `double`: decimal and finite, so `nan`, `inf`,
    /// `0x1p3` and `1e999` are not numbers), booleans (`true` or `false`, in any case), strings, `UUID`s, string-backed enums,
    /// optionals and arrays of repeated query items (`?tag=a&tag=b`) are read; a value of the wrong
    /// type is a `DecodingError` naming the key.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        var values: [String: [String]] = [:]
        for item in queryItems { values[item.name, default: []].append(item.value ?? "") }
        for entry in parameters { values[entry.name] = [entry.value.stringValue] }
        return try T(from: MatchDecoder(values: values, codingPath: []))
    }
}

/// Reads a flat name → values table: each key decodes as one value, or as an array of all its values.
private struct MatchDecoder: Decoder {
    let values: [String: [String]]
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(values: values, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [String].self,
            .init(codingPath: codingPath, debugDescription: "A link's parameters decode into a struct, not an array.")
        )
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            String.self,
            .init(
                codingPath: codingPath,
                debugDescription: "A link's parameters decode into a struct, not a single value."
            )
        )
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [String: [String]]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { values.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool { values[key.stringValue] == nil }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let found = values[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(
                        codingPath: codingPath,
                        debugDescription: "The link has no parameter or query item '\(key.stringValue)'."
                    )
                )
            }
            return try T(from: ValueDecoder(values: found, codingPath: codingPath + [key]))
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(
                type,
                .init(codingPath: codingPath + [key], debugDescription: "Link parameters are flat; nothing nests.")
            )
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            ValueDecoder.Unkeyed(values: values[key.stringValue] ?? [], codingPath: codingPath + [key])
        }

        func superDecoder() throws -> any Decoder { MatchDecoder(values: values, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder() }
    }
}

/// Decodes one key's values: a single value from the first, an array from all of them.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let values: [String]
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw mismatch(type, "a nested object")
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(values: values, codingPath: codingPath) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    private var text: String { values.first ?? "" }

    private func mismatch(_ type: Any.Type, _ what: String) -> DecodingError {
        let key = codingPath.last?.stringValue ?? "value"
        return DecodingError.typeMismatch(
            type,
            .init(codingPath: codingPath, debugDescription: "'\(key)' is '\(text)', which is not \(what).")
        )
    }

    func decodeNil() -> Bool { values.isEmpty }
    func decode(_ type: String.Type) throws -> String { text }
    func decode(_ type: Bool.Type) throws -> Bool {
        guard let value = ParameterType.parseBool(text) else { throw mismatch(type, "a boolean (true or false)") }
        return value
    }
    func decode(_ type: Double.Type) throws -> Double {
        guard let value = ParameterType.parseDouble(text) else { throw mismatch(type, "a finite decimal number") }
        return value
    }
    func decode(_ type: Float.Type) throws -> Float {
        // The router's rule decides what is a number; `Float` reads it itself, rounding once.
        guard ParameterType.parseDouble(text) != nil, let value = Float(text), value.isFinite else {
            throw mismatch(type, "a finite decimal number")
        }
        return value
    }
    // Each integer type has its own requirement; they share two parses, so the optimiser does not
    // compile the generic `decode` once for each of them (5 KB of device code).
    func decode(_ type: Int.Type) throws -> Int { try value(signed.flatMap { Int(exactly: $0) }, type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(signed.flatMap { Int8(exactly: $0) }, type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(signed.flatMap { Int16(exactly: $0) }, type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(signed.flatMap { Int32(exactly: $0) }, type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(signed.flatMap { Int64(exactly: $0) }, type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(unsigned.flatMap { UInt(exactly: $0) }, type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(unsigned.flatMap { UInt8(exactly: $0) }, type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(unsigned.flatMap { UInt16(exactly: $0) }, type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(unsigned.flatMap { UInt32(exactly: $0) }, type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(unsigned.flatMap { UInt64(exactly: $0) }, type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    private var signed: Int64? { Int64(text, radix: 10) }
    private var unsigned: UInt64? { UInt64(text, radix: 10) }

    /// The integer, or a mismatch naming `type` when the text is not one or does not fit.
    private func value<Value>(_ value: Value?, _ type: Value.Type) throws -> Value {
        guard let value else { throw mismatch(type, "an integer of type \(type)") }
        return value
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let values: [String]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { values.count }
        var isAtEnd: Bool { currentIndex >= values.count }

        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type,
                    .init(codingPath: codingPath, debugDescription: "No more values.")
                )
            }
            defer { currentIndex += 1 }
            return try T(from: ValueDecoder(values: [values[currentIndex]], codingPath: codingPath))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Values are flat."))
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [String].self,
                .init(codingPath: codingPath, debugDescription: "Values are flat.")
            )
        }
        mutating func superDecoder() throws -> any Decoder { ValueDecoder(values: values, codingPath: codingPath) }
    }
}
