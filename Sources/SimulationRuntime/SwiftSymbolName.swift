/// A Swift function's name as a report shows it: demangled and shortened (no module names, no
/// closure signatures, no return type), and for a property's accessor, the property.
///
/// ```swift
/// let name = SwiftSymbolName(
///     mangled: "$s7MyTests8UploaderC5startyyFyycfU_",
///     demangled: "closure #1 @Sendable () -> () in MyTests.Uploader.start() -> ()")
/// name.short              // "closure #1 in Uploader.start()"
/// name.function           // "Uploader.start()"
/// SwiftSymbolName(mangled: "$s7MyTests4FlagC5isSetSbvs",
///                 demangled: "MyTests.Flag.isSet.setter : Swift.Bool").accessedVariable   // "Flag.isSet"
/// ```
///
/// Contract: pure text work on the two names, the same in every process; a name that is not a
/// Swift symbol's (no module in it) is kept as it is.
package struct SwiftSymbolName: Equatable, Sendable {
    /// The demangled name, shortened.
    package let short: String
    /// The named function the code belongs to: ``short`` without the closures around it.
    package let function: String
    /// The stored property or global whose accessor this is; nil for other code (a closure or a
    /// method that accesses it directly).
    package let accessedVariable: String?

    /// The accessors the compiler emits for a stored property, as the demangler names them
    /// (the coroutine ones also with a leading underscore).
    private static let accessors = ["getter", "setter", "modify", "read", "unsafeMutableAddressor", "unsafeAddressor"]

    /// Module qualifiers always left out, beside the symbol's own module.
    private static let commonModules = ["Swift", "_Concurrency", "Foundation", "FoundationEssentials", "Dispatch"]

    package init(mangled: String, demangled: String, hiddenModules: [String] = []) {
        var text = demangled
        let modules = (Self.module(ofMangled: mangled).map { [$0] } ?? []) + hiddenModules + Self.commonModules
        for module in modules { text = Self.removingQualifier(module, from: text) }
        accessedVariable = Self.variable(ofAccessor: text)
        text = Self.withoutPrivateDiscriminators(text)
        text = Self.withoutAsyncPartial(text)
        text = Self.withoutClosureSignatures(text)
        text = Self.withoutReturnType(text)
        short = text
        var function = Substring(text)
        while function.hasPrefix("closure #") || function.hasPrefix("implicit closure #"),
              let range = function.firstRange(of: " in ") {
            function = function[range.upperBound...]
        }
        self.function = String(function)
    }

    /// "Flag.isSet.setter : Bool" as "Flag.isSet"; nil for a name that is not an accessor's.
    private static func variable(ofAccessor text: String) -> String? {
        guard !text.hasPrefix("closure "), let colon = text.firstRange(of: " : ") else { return nil }
        let name = text[..<colon.lowerBound]
        guard let dot = name.lastIndex(of: ".") else { return nil }
        var accessor = name[name.index(after: dot)...]
        if accessor.first == "_" { accessor = accessor.dropFirst() }
        return accessors.contains(String(accessor)) ? String(name[..<dot]) : nil
    }

    /// The module a mangled Swift name (`$s`, the module name's length, the name) belongs to.
    package static func module(ofMangled name: String) -> String? {
        guard name.hasPrefix("$s") else { return nil }
        let rest = name.utf8.dropFirst(2)
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard let length = Int(String(decoding: digits, as: UTF8.self)), length > 0, digits.first != UInt8(ascii: "0")
        else { return nil }
        let module = rest.dropFirst(digits.count).prefix(length)
        return module.count == length ? String(decoding: module, as: UTF8.self) : nil
    }

    /// `text` without `module.` where it qualifies a name (not inside another identifier).
    private static func removingQualifier(_ module: String, from text: String) -> String {
        let qualifier = module + "."
        var result = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: qualifier) {
            let before = rest[..<range.lowerBound]
            result += before
            let previous = before.last ?? result.last
            if let previous, previous.isLetter || previous.isNumber || previous == "_" || previous == "." {
                result += qualifier  // part of a longer name
            }
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// "(Uploader in _ED2394D8AC57A39879E86BC78FE396D3)" (a `private` type) as "Uploader".
    private static func withoutPrivateDiscriminators(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let marker = rest.firstRange(of: " in _") {
            let before = rest[..<marker.lowerBound]
            guard let open = before.lastIndex(of: "("),
                  let close = rest[marker.upperBound...].firstIndex(of: ")"),
                  rest[marker.upperBound..<close].allSatisfy({ $0.isHexDigit }) else {
                result += rest[..<marker.upperBound]
                rest = rest[marker.upperBound...]
                continue
            }
            result += rest[..<open]
            result += rest[rest.index(after: open)..<marker.lowerBound]
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// "(3) suspend resume partial function for f() async" as "f() async" (a part of an async
    /// function, between two suspension points), and "partial apply forwarder for closure #1 in
    /// f()" (the thunk an optimized closure is called through) as "closure #1 in f()".
    private static func withoutAsyncPartial(_ text: String) -> String {
        for prefix in ["partial apply forwarder for ", "merged "] where text.hasPrefix(prefix) {
            return String(text.dropFirst(prefix.count))
        }
        guard text.hasPrefix("("), let marker = text.firstRange(of: " partial function for ") else { return text }
        return String(text[marker.upperBound...])
    }

    /// "closure #1 @Sendable () -> () in f()" as "closure #1 in f()".
    private static func withoutClosureSignatures(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "closure #") {
            result += rest[..<start.upperBound]
            rest = rest[start.upperBound...]
            let number = rest.prefix { $0.isNumber }
            result += number
            rest = rest.dropFirst(number.count)
            guard let end = rest.firstRange(of: " in ") else { break }
            rest = rest[end.lowerBound...]
        }
        return result + rest
    }

    /// `text` up to its first " -> " outside parentheses and brackets (the function's result).
    private static func withoutReturnType(_ text: String) -> String {
        var depth = 0
        var index = text.startIndex
        var previous: Character = " "
        while index < text.endIndex {
            switch text[index] {
            case "(", "[", "<": depth += 1
            case ">" where previous == "-": break  // an arrow inside a parameter's function type
            case ")", "]", ">": depth -= 1
            case " " where depth == 0 && text[index...].hasPrefix(" -> "): return String(text[..<index])
            default: break
            }
            previous = text[index]
            index = text.index(after: index)
        }
        return text
    }
}
