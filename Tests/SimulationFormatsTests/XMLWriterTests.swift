import Testing
import SimulationFormats

@Suite("XMLWriter")
struct XMLWriterTests {
    @Test("a JUnit report is written with escaping, indentation and attribute order as given")
    func junitGolden() {
        var xml = XMLWriter()
        xml.open("testsuites", ["name": "bgsim", "tests": "3", "failures": "1", "time": "0.25"])
        xml.open("testsuite", ["name": "smoke & <friends>", "tests": "3", "failures": "1", "time": "0.25"])
        xml.element("testcase", ["classname": "smoke", "name": "seed 0x0000000000000001", "time": "0.1"])
        xml.open("testcase", [("classname", "smoke"), ("name", "seed 0x0000000000000002"), ("time", "0.15")])
        xml.element("failure", ["message": "task 7 ended \"twice\"\nat t=12.5", "type": "no-double-end"],
                    text: "bgsim replay Scenarios/smoke.json --seed 0x0000000000000002\n  t=12.5 end <7> & 'done'")
        xml.close()
        xml.open("testcase", ["classname": "smoke", "name": "empty"])
        let document = xml.finish()
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="bgsim" tests="3" failures="1" time="0.25">
              <testsuite name="smoke &amp; &lt;friends&gt;" tests="3" failures="1" time="0.25">
                <testcase classname="smoke" name="seed 0x0000000000000001" time="0.1"/>
                <testcase classname="smoke" name="seed 0x0000000000000002" time="0.15">
                  <failure message="task 7 ended &quot;twice&quot;&#10;at t=12.5" type="no-double-end">bgsim replay Scenarios/smoke.json --seed 0x0000000000000002
              t=12.5 end &lt;7&gt; &amp; 'done'</failure>
                </testcase>
                <testcase classname="smoke" name="empty"/>
              </testsuite>
            </testsuites>

            """
        #expect(document == expected)
        #expect(xml.depth == 0)
    }

    @Test("text escaping covers &, <, > and carriage returns and keeps quotes, tabs and line feeds")
    func textEscaping() {
        #expect(XMLWriter.escapeText(#"a < b && c > "d" 'e'"#) == #"a &lt; b &amp;&amp; c &gt; "d" 'e'"#)
        #expect(XMLWriter.escapeText("]]>") == "]]&gt;")
        #expect(XMLWriter.escapeText("tab\tlf\ncr\r") == "tab\tlf\ncr&#13;")
        #expect(XMLWriter.escapeText("é 😀 中") == "é 😀 中")
    }

    @Test("attribute escaping covers all five entities and whitespace that normalization would eat")
    func attributeEscaping() {
        #expect(XMLWriter.escapeAttribute(#"<a href="x">'y' & z</a>"#)
            == "&lt;a href=&quot;x&quot;&gt;&apos;y&apos; &amp; z&lt;/a&gt;")
        #expect(XMLWriter.escapeAttribute("a\tb\nc\rd") == "a&#9;b&#10;c&#13;d")
    }

    @Test("characters XML 1.0 forbids become U+FFFD in text and attributes")
    func forbiddenCharacters() {
        let text = "nul\u{0} bell\u{7} esc\u{1B}[31m vt\u{B} ff\u{C} fffe\u{FFFE} ffff\u{FFFF} ok\u{7F}\u{85}"
        let cleaned = "nul\u{FFFD} bell\u{FFFD} esc\u{FFFD}[31m vt\u{FFFD} ff\u{FFFD} fffe\u{FFFD} ffff\u{FFFD} ok\u{7F}\u{85}"
        #expect(XMLWriter.escapeText(text) == cleaned)
        #expect(XMLWriter.escapeAttribute(text) == cleaned)
        #expect(!XMLWriter.isAllowed("\u{0}"))
        #expect(XMLWriter.isAllowed("\u{9}"))
        #expect(XMLWriter.isAllowed("\u{10FFFF}"))
    }

    @Test("finish closes open elements; extra closes are ignored; no declaration when disabled")
    func structure() {
        var xml = XMLWriter(declaration: false)
        xml.close()
        xml.open("a")
        xml.open("b", ["k": "v"])
        xml.element("c", text: "")
        #expect(xml.depth == 2)
        #expect(xml.finish() == "<a>\n  <b k=\"v\">\n    <c></c>\n  </b>\n</a>\n")
    }

    @Test("the same calls give the same bytes")
    func deterministic() {
        func build() -> String {
            var xml = XMLWriter()
            for index in 0..<50 {
                xml.element("testcase", ["name": "run \(index)", "time": "\(Double(index) / 8)"])
            }
            return xml.finish()
        }
        #expect(build() == build())
    }
}
