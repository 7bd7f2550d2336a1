import DeterministicSimulation
import SimulationFormats

/// A small JSON Schema checker over our `JSONValue`, enough for `Reports/report.schema.json`:
/// `type`, `required`, `properties`, `additionalProperties`, `items`, `$ref` (to `#/$defs/…`),
/// `const`, `enum`, `minimum` and `pattern`. Returns one line per problem, with its path.
struct SchemaChecker {
    let root: JSONValue

    func problems(_ value: JSONValue) -> [String] {
        var found: [String] = []
        check(value, against: root, path: "$", into: &found)
        return found
    }

    private func check(_ value: JSONValue, against schema: JSONValue, path: String, into found: inout [String]) {
        if let ref = schema["$ref"]?.stringValue {
            let name = String(ref.dropFirst("#/$defs/".count))
            guard let target = root["$defs"]?[name] else { return found.append("\(path): unknown $ref \(ref)") }
            return check(value, against: target, path: path, into: &found)
        }
        if let types = schema["type"], !matches(value, types) {
            return found.append("\(path): \(value) is not of type \(types)")
        }
        if let constant = schema["const"], constant != value { found.append("\(path): must be \(constant)") }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) { found.append("\(path): not one of \(options)") }
        if let minimum = schema["minimum"]?.doubleValue, let number = value.doubleValue, number < minimum {
            found.append("\(path): \(number) < \(minimum)")
        }
        if let pattern = schema["pattern"]?.stringValue, let text = value.stringValue,
           !Self.matches(text, pattern) {
            found.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if let object = value.objectValue {
            for key in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !object.contains(key) {
                found.append("\(path): missing required field \(key)")
            }
            let properties = schema["properties"]?.objectValue
            for member in object.members {
                if let sub = properties?[member.key] {
                    check(member.value, against: sub, path: "\(path).\(member.key)", into: &found)
                } else if let additional = schema["additionalProperties"], additional.objectValue != nil {
                    check(member.value, against: additional, path: "\(path).\(member.key)", into: &found)
                }
            }
        }
        if let items = schema["items"], let elements = value.arrayValue {
            for (index, element) in elements.enumerated() {
                check(element, against: items, path: "\(path)[\(index)]", into: &found)
            }
        }
    }

    private static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return text.firstMatch(of: regex) != nil
    }

    private func matches(_ value: JSONValue, _ types: JSONValue) -> Bool {
        let names = types.arrayValue?.compactMap(\.stringValue) ?? [types.stringValue ?? ""]
        return names.contains { name in
            switch (name, value) {
            case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
                 ("integer", .int), ("number", .int), ("number", .double):
                true
            default:
                false
            }
        }
    }
}
