import Testing
@testable import CompassCore

/// The tables of members, schools and coaches answer as the dictionaries they replaced did,
/// whatever is added, replaced or removed, and equal hashes never merge two records.
@Suite struct IdTableTests {
    @Test func aTableAgreesWithADictionaryWhateverIsSetReplacedOrRemoved() {
        var table = IdTable<Int>()
        var reference: [String: Int] = [:]
        var rng = SplitMix64(seed: 77)
        for step in 0..<4_000 {
            let id = "s-\(rng.below(300))"
            let value: Int? = rng.below(5) == 0 ? nil : step  // one set in five removes
            table[id] = value
            reference[id] = value
            if step % 97 == 0 {
                #expect(table.count == reference.count && table.isEmpty == reference.isEmpty)
                #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == reference)
            }
        }
        for k in 0..<300 {
            let id = "s-\(k)"
            #expect(table[id] == reference[id])
            #expect(table.contains(id, hash: id.hashValue) == (reference[id] != nil))
            #expect(table.read(id, hash: id.hashValue) { $0.pointee } == reference[id])
        }
        #expect(Set(table.keys) == Set(reference.keys) && table.values.sorted() == reference.values.sorted())
    }

    @Test func recordsComeInTheOrderTheyWereAddedAndAReplacedOneKeepsItsPlace() {
        var table = IdTable<String>()
        table["c"] = "first"
        table["a"] = "second"
        table["b"] = "third"
        table["c"] = "again"
        #expect(table.keys == ["c", "a", "b"] && table.values == ["again", "second", "third"])
        table.update("a", hash: "a".hashValue) { $0 += "!" }
        table.update("zz", hash: "zz".hashValue) { $0 = "never" }  // no such id: nothing happens
        #expect(table["a"] == "second!" && table["zz"] == nil && table.count == 3)
    }

    @Test func equalHashesAreToldApartByTheId() {
        var table = IdTable<Int>()
        for n in 0..<500 { table.add("u-\(n)", n, hash: n % 3) }  // three hashes for 500 ids
        for n in 0..<500 {
            #expect(table.read("u-\(n)", hash: n % 3) { $0.pointee } == n)
            #expect(!table.contains("u-\(n)", hash: (n + 1) % 3))
        }
        #expect(!table.contains("u-500", hash: 0))
    }

    @Test func tablesAreEqualWhenTheyHoldTheSameRecordsInAnyOrder() {
        var a = IdTable<Int>(), b = IdTable<Int>()
        for n in 0..<50 { a["k-\(n)"] = n }
        for n in (0..<50).reversed() { b["k-\(n)"] = n }
        #expect(a == b)
        b["k-7"] = 8
        #expect(a != b)
        b["k-7"] = nil
        #expect(a != b && b.count == 49)
        b["k-7"] = 7
        #expect(a == b)
    }
}
