import Testing

@testable import Waypoint
@testable import WaypointCore

@Suite("The one open-addressing table: probes end, equal keys keep their order, growth keeps every entry")
struct ProbingTableTests {
    @Test("Sized for its entries: a power of two, at least twice as many slots, at least 8")
    func sizing() {
        #expect(ProbingTable<UInt32>(capacityFor: 0).slots.count == 8)
        #expect(ProbingTable<UInt32>(capacityFor: 4).slots.count == 8)
        #expect(ProbingTable<UInt32>(capacityFor: 5).slots.count == 16)
        #expect(ProbingTable<UInt32>(capacityFor: 1_000).slots.count == 2_048)
    }

    @Test("Entries with one key are found in the order they went in, past the slots of other keys")
    func equalKeysInOrder() {
        var table = ProbingTable<UInt32>(capacityFor: 4)
        let key: UInt64 = 0xFFFF_FFFF_FFFF_FFFF  // the last slot: probes wrap to slot 0
        for entry: UInt32 in [1, 2, 3] { table.append(entry, key: key) }
        #expect(table.slots == [2, 3, 0, 0, 0, 0, 0, 1])
        #expect(table.find(key) { $0 == 3 } == (1, true))
        #expect(table.find(key) { $0 == 4 } == (2, false))
        #expect(table.reaches(1, from: key))
        #expect(!table.reaches(5, from: key))
    }

    @Test("Inserting past half full doubles the table and every entry stays findable by its key")
    func growth() {
        var table = ProbingTable<UInt32>(capacityFor: 1)
        func key(_ entry: UInt32) -> UInt64 { UInt64(entry) &* 0x9E37_79B9_7F4A_7C15 }
        for entry: UInt32 in 1...100 {
            let (slot, found) = table.find(key(entry)) { $0 == entry }
            #expect(!found)
            table.insert(entry, at: slot, rehashing: key)
        }
        #expect(table.count == 100)
        #expect(table.slots.count == 256)
        for entry: UInt32 in 1...100 { #expect(table.find(key(entry)) { $0 == entry }.found) }
    }

    @Test("Names and long literals that differ in their last bytes start their probes all over the table")
    func fnvKeysSpread() {
        // FNV-1a alone leaves `r1` and `r2` differing below bit 49, so a 4,096-slot table (top 12
        // bits) put 2,048 such names in 71 slots and building 10,000 routes took twice as long.
        let table = ProbingTable<UInt32>(capacityFor: 2_048)
        func spread(_ texts: [String], key: (String) -> UInt64) -> Int {
            Set(texts.map { table.firstSlot(key($0)) }).count
        }
        let names = (0..<2_048).map { "r\($0)" }
        let nameSlots = spread(names) { name in
            var hash = FNV1a()
            for byte in name.utf8 { hash.add(byte) }
            return hash.tableKey
        }
        let literals = (0..<2_048).map { "section-\($0)" }
        let literalSlots = spread(literals) { literal in
            let bytes = Array(literal.utf8)
            return bytes.withUnsafeBufferPointer { buffer in
                SegmentMatching.hash(parent: 1, DecodedBytes(buffer, 0..<buffer.count, decoding: false))
            }
        }
        // 2,048 keys thrown at random into 4,096 slots land on about 1,610 distinct ones.
        #expect(nameSlots > 1_400)
        #expect(literalSlots > 1_400)
    }
}
