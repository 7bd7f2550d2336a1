@_spi(Reflection) import Swift
internal import SimulationRuntimeShims

/// The stored property of a Swift class instance at an address, by name: what a data race on
/// plain state is about when neither access was made in the property's own accessor (the
/// compiler accesses a `final` class's stored property directly, from the method that uses it).
///
/// ```swift
/// final class Tally { var rendered = 0 }            // app code
/// StoredPropertyNames.name(at: address)              // "Tally.rendered", for &tally.rendered
/// ```
///
/// How: the instance's first word is its class metadata, the address of a `$s…CN` symbol of the
/// main executable (the shim's `bgsim_class_instance_at_or_below`, which walks down from the
/// address word by word, reading each without faulting); Swift's reflection lists that class's
/// stored properties (its superclasses' too) with their offsets, and the property is the one at
/// the address's offset in the instance. A word below the instance that happens to hold a
/// metadata address (a stored metatype) is passed over when no property of that class sits at
/// the offset.
///
/// Contract: nil when no class instance of the main executable with a stored property exactly
/// there is found within `reach` bytes below (a generic class, whose metadata is made at run
/// time; a closure's captured variable, in a box; off Linux). Call it only while the instance is
/// alive (inside the access being reported).
package enum StoredPropertyNames {
    /// The most bytes below `address` an instance's start is looked for (a class with a few
    /// dozen stored properties before the one accessed).
    package static let reach = 1_024

    /// "Type.property" for the stored property at `address`, if one is found.
    package static func name(at address: UInt) -> String? {
        guard var from = UnsafeRawPointer(bitPattern: address) else { return nil }
        while true {
            var metadata: UnsafeRawPointer?
            let left = Int(address - UInt(bitPattern: from))
            guard left <= reach,
                  let instance = bgsim_class_instance_at_or_below(from, reach - left, &metadata),
                  let metadata else { return nil }
            let type = unsafeBitCast(metadata, to: Any.Type.self)
            if let property = storedProperty(of: type, at: Int(address - UInt(bitPattern: instance))) {
                return "\(_typeName(type, qualified: false)).\(property)"
            }
            guard UInt(bitPattern: instance) >= 16, let below = UnsafeRawPointer(bitPattern: UInt(bitPattern: instance) - 16)
            else { return nil }
            from = below
        }
    }

    /// `_EachFieldOptions.classType` (a `static var` of the standard library's, which strict
    /// concurrency will not let us read): the type is a class, list its instance's fields.
    private static let classType = _EachFieldOptions(rawValue: 1 << 0)

    /// The name of `type`'s stored property at byte `offset` of an instance, if one starts there,
    /// as the app wrote it: a `lazy var palette` is stored in a field Swift names
    /// `$__lazy_storage_$_palette`, named `palette` here.
    private static func storedProperty(of type: Any.Type, at offset: Int) -> String? {
        var found: String?
        _ = _forEachField(of: type, options: classType) { name, fieldOffset, _, _ in
            if fieldOffset == offset { found = String(cString: name) }
            return found == nil
        }
        guard let found, found.hasPrefix(lazyStorage) else { return found }
        return String(found.dropFirst(lazyStorage.count))
    }

    /// The prefix of the field that stores a `lazy var`.
    private static let lazyStorage = "$__lazy_storage_$_"
}
