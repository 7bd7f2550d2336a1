/// A minimal, deterministic XML builder: enough for JUnit reports that CI systems read.
///
/// ```swift
/// var xml = XMLWriter()
/// xml.open("testsuites", ["tests": "2", "failures": "1"])
/// xml.open("testsuite", ["name": "smoke", "tests": "2", "failures": "1", "time": "0.25"])
/// xml.element("testcase", ["classname": "smoke", "name": "seed 0x01", "time": "0.1"])
/// xml.open("testcase", ["classname": "smoke", "name": "seed 0x02", "time": "0.15"])
/// xml.element("failure", ["message": "task 3 ended twice", "type": "no-double-end"],
///             text: "bgsim replay Scenarios/smoke.json --seed 0x02")
/// print(xml.finish(), terminator: "")
/// // <?xml version="1.0" encoding="UTF-8"?>
/// // <testsuites tests="2" failures="1">
/// //   <testsuite name="smoke" tests="2" failures="1" time="0.25">
/// //     <testcase classname="smoke" name="seed 0x01" time="0.1"/>
/// //     <testcase classname="smoke" name="seed 0x02" time="0.15">
/// //       <failure message="task 3 ended twice" type="no-double-end">bgsim replay …</failure>
/// //     </testcase>
/// //   </testsuite>
/// // </testsuites>
/// ```
///
/// Contract:
/// - Output is UTF-8 XML 1.0 with a declaration line (unless disabled), two-space indentation,
///   attributes in the order given, `<name/>` for elements without content, and a final newline.
///   The same calls give the same bytes on every platform.
/// - Text and attribute values are escaped with ``escapeText(_:)`` and ``escapeAttribute(_:)``,
///   so any Swift string is safe to pass; characters XML 1.0 forbids become U+FFFD.
/// - Element and attribute names are written as given: pass valid XML names (constants).
/// - `close()` with nothing open does nothing; ``finish()`` closes what is still open.
package struct XMLWriter: Sendable {
    private var output: String
    private var openElements: [(name: String, hasChildren: Bool)] = []

    /// Creates a writer, starting with `<?xml version="1.0" encoding="UTF-8"?>` by default.
    ///
    /// ```swift
    /// var xml = XMLWriter(declaration: false)
    /// ```
    package init(declaration: Bool = true) {
        output = declaration ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : ""
    }

    /// The number of elements currently open.
    ///
    /// ```swift
    /// var xml = XMLWriter(); xml.open("a"); xml.depth   // 1
    /// ```
    package var depth: Int { openElements.count }

    /// Opens an element; its children follow until ``close()``.
    ///
    /// ```swift
    /// xml.open("testsuite", ["name": "smoke", "tests": "10"])
    /// ```
    package mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        open(name, attributes.map { ($0.key, $0.value) })
    }

    /// Opens an element with attributes built at run time.
    ///
    /// ```swift
    /// var attributes = [("name", "smoke")]
    /// if let time { attributes.append(("time", time)) }
    /// xml.open("testsuite", attributes)
    /// ```
    package mutating func open(_ name: String, _ attributes: [(String, String)]) {
        startTag(name, attributes)
        openElements.append((name, false))
    }

    /// Closes the innermost open element (does nothing if none is open).
    ///
    /// ```swift
    /// xml.close()
    /// ```
    package mutating func close() {
        guard let element = openElements.popLast() else { return }
        if element.hasChildren {
            indent()
            output += "</\(element.name)>\n"
        } else {
            output += "/>\n"
        }
    }

    /// Writes a complete element: `<name …/>`, or `<name …>text</name>` on one line.
    ///
    /// ```swift
    /// xml.element("failure", ["message": "ended twice", "type": "no-double-end"], text: trace)
    /// ```
    package mutating func element(
        _ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String? = nil
    ) {
        element(name, attributes.map { ($0.key, $0.value) }, text: text)
    }

    /// Writes a complete element with attributes built at run time.
    ///
    /// ```swift
    /// xml.element("property", [("name", key), ("value", value)])
    /// ```
    package mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
        startTag(name, attributes)
        if let text {
            output += ">\(Self.escapeText(text))</\(name)>\n"
        } else {
            output += "/>\n"
        }
    }

    /// Closes every open element and returns the document.
    ///
    /// ```swift
    /// try AtomicFile.write(xml.finish(), to: "Reports/junit.xml")
    /// ```
    package mutating func finish() -> String {
        while !openElements.isEmpty { close() }
        return output
    }

    /// Ends the parent's start tag if needed, then writes `<name attributes` (unterminated).
    private mutating func startTag(_ name: String, _ attributes: [(String, String)]) {
        if let last = openElements.indices.last, !openElements[last].hasChildren {
            openElements[last].hasChildren = true
            output += ">\n"
        }
        indent()
        output += "<\(name)"
        for (key, value) in attributes {
            output += " \(key)=\"\(Self.escapeAttribute(value))\""
        }
    }

    private mutating func indent() {
        output += String(repeating: "  ", count: openElements.count)
    }
}
