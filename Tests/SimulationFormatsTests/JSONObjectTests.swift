import Testing
import SimulationFormats

@Suite("JSONObject and JSONValue")
struct JSONObjectTests {
    @Test("members keep insertion order; set replaces in place; remove keeps the rest in order")
    func order() {
        var object = JSONObject()
        object.append("c", 1)
        object.append("a", 2)
        object.append("b", 3)
        object.set(20, forKey: "a")
        object["d"] = 4
        #expect(object.keys == ["c", "a", "b", "d"])
        #expect(object.values == [1, 20, 3, 4])
        #expect(object.removeValue(forKey: "a") == 20)
        #expect(object.removeValue(forKey: "zzz") == nil)
        object["c"] = nil
        #expect(object.keys == ["b", "d"])
        #expect(object["d"] == 4)
        #expect(object["a"] == nil)
        #expect(object.count == 2)
        #expect(object.contains("b"))
        object.append("a", 5)
        #expect(object.keys == ["b", "d", "a"])
        #expect(object["a"] == 5)
    }

    @Test("equality and hashing depend on member order")
    func orderSensitiveEquality() {
        let ab: JSONObject = ["a": 1, "b": 2]
        let ba: JSONObject = ["b": 2, "a": 1]
        #expect(ab != ba)
        #expect(ab == JSONObject(uniqueMembers: [("a", 1), ("b", 2)]))
        #expect(Set([ab, ab, ba]).count == 2)
    }

    @Test("literals build the value they spell, in order")
    func literals() {
        let value: JSONValue = ["n": nil, "t": true, "i": 7, "d": 0.5, "s": "x", "a": [1], "o": ["k": "v"]]
        #expect(value.objectValue?.keys == ["n", "t", "i", "d", "s", "a", "o"])
        #expect(value["n"] == .null)
        #expect(value["n"]?.isNull == true)
        #expect(value["t"]?.boolValue == true)
        #expect(value["i"]?.intValue == 7)
        #expect(value["i"]?.doubleValue == 7)
        #expect(value["d"]?.doubleValue == 0.5)
        #expect(value["d"]?.intValue == nil)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value["o"]?["k"] == "v")
        #expect(value["missing"] == nil)
        #expect(JSONValue(3) == .int(3))
        #expect(JSONValue(3.0) == .double(3))
        #expect(JSONValue("x") == .string("x"))
        #expect(JSONValue(false) == .bool(false))
    }

    @Test("an integer and the equal double are different values")
    func intIsNotDouble() {
        #expect(JSONValue.int(1) != JSONValue.double(1))
    }
}
