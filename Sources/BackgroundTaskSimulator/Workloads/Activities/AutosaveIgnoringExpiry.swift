import BackgroundTaskKit

/// ``SketchAutosave`` whose block returns from the expired call without stopping the write, as
/// code that treats `expired == true` as "the block did not get to run" does: the first call is
/// still waiting for the write, which goes on after the assertion is released, so the app is
/// suspended mid-write (A9.1).
///
/// Expected: `background-work-held`.
enum AutosaveIgnoringExpiry {
    static func make() -> SketchAutosave { SketchAutosave(cancelsOnExpiry: false) }
}
