import BackgroundTaskSimulator
import Testing

/// A profile named after an iOS version with no profile of its own ("ios18") is answered with its
/// family's profile, not with the nearest spelling ("ios12" is one edit away and models iOS 7-12).
@Suite("Profile family names")
struct ProfileFamilyNameTests {
    static func message(profile: String) -> String {
        let text = #"{"name": "t", "workload": "token", "variant": "correct", "profile": \#(profile)}"#
        do {
            _ = try ScenarioLoader.parse(Array(text.utf8), file: "t.json")
            return ""
        } catch {
            return error.description
        }
    }

    @Test("ios18 points to the ios17 family, as a name and as a base", arguments: [
        #""ios18""#, #"{"base": "ios18"}"#,
    ])
    func ios18IsTheIOS17Family(profile: String) {
        let message = Self.message(profile: profile)
        #expect(message.contains(#"found "ios18""#), "\(message)")
        #expect(message.contains(#"iOS 18 has no profile of its own: it is modelled by the "ios17" family; write "ios17"."#),
                "\(message)")
        #expect(!message.contains(#"Did you mean "ios12""#), "\(message)")
    }

    @Test("each version maps to the family whose range holds it")
    func versionsMapToFamilies() {
        let cases: [(String, String)] = [("ios5", "ios6"), ("ios7", "ios12"), ("ios13", "ios17"), ("ios25", "ios17"),
                                         ("ios27", "ios26")]
        for (name, family) in cases {
            #expect(OSProfile.family(ofVersionNamed: name)?.name == family, "\(name)")
        }
        #expect(OSProfile.family(ofVersionNamed: "android14") == nil)
        #expect(OSProfile.family(ofVersionNamed: "ios71") == nil)
    }

    @Test("a misspelt name still gets the nearest spelling")
    func misspellingStillSuggests() {
        #expect(Self.message(profile: #""ios71""#).contains(#"Did you mean "ios17"?"#))
        #expect(Self.message(profile: #""iso17""#).contains(#"Did you mean "ios17"?"#))
    }
}
