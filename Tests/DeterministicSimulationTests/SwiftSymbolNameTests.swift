import SimulationRuntime
import Testing

/// How a race on plain state names the code that touched it: demangled Swift names shortened to
/// what a reader needs, the same in every process.
@Suite struct SwiftSymbolNameTests {
    @Test("a closure in a method: no module, no closure signature, no return type; the function is the method")
    func closureInAMethod() {
        let name = SwiftSymbolName(
            mangled: "$s7MyTests8UploaderC5startyyFyycfU_",
            demangled: "closure #2 @Sendable () -> () in closure #1 @Sendable () -> () in "
                + "MyTests.Uploader.start(BackgroundTaskSimulator.WorkloadContext) -> ()",
            hiddenModules: ["BackgroundTaskSimulator"])
        #expect(name.short == "closure #2 in closure #1 in Uploader.start(WorkloadContext)")
        #expect(name.function == "Uploader.start(WorkloadContext)")
        #expect(name.accessedVariable == nil)
    }

    @Test("a property's accessor names the property, with or without the coroutine's underscore",
          arguments: ["getter", "setter", "modify", "_modify", "read", "unsafeMutableAddressor"])
    func accessorNamesItsProperty(_ accessor: String) {
        let name = SwiftSymbolName(mangled: "$s7MyTests4FlagC5isSetSbvs",
                                   demangled: "MyTests.Flag.isSet.\(accessor) : Swift.Bool")
        #expect(name.accessedVariable == "Flag.isSet")
    }

    @Test("a private type's discriminator and an async function's part are left out")
    func privateTypesAndAsyncParts() {
        let name = SwiftSymbolName(
            mangled: "$s7MyTests5StoreC4saveyyYaFTY2_",
            demangled: "(3) suspend resume partial function for "
                + "(Store in _ED2394D8AC57A39879E86BC78FE396D3).save(MyTests.Item) async -> ()")
        #expect(name.short == "Store.save(Item) async")
        let thunk = SwiftSymbolName(mangled: "$s9UploadKit5QueueC4sendyySSFyycfU_TA",
                                    demangled: "partial apply forwarder for closure #1 () -> () in UploadKit.Queue.send(Swift.String) -> ()")
        #expect(thunk.short == "closure #1 in Queue.send(String)")
    }

    @Test("a parameter of function type keeps its arrow; the result after it goes")
    func functionTypedParameter() {
        let name = SwiftSymbolName(
            mangled: "$s23BackgroundTaskSimulator15WorkloadContextC",
            demangled: "closure #1 @Sendable () -> () in BackgroundTaskSimulator.WorkloadContext.onDidEnterBackground"
                + "(@Sendable () -> ()) -> BackgroundTaskSimulator.LifecycleObservation")
        #expect(name.short == "closure #1 in WorkloadContext.onDidEnterBackground(@Sendable () -> ())")
    }

    @Test("a qualifier inside a longer identifier stays; a name that is not Swift's is kept")
    func onlyWholeQualifiersGo() {
        let name = SwiftSymbolName(mangled: "$s4Test3fooyyF", demangled: "Test.foo(MyTest.Bar, Test.Baz) -> ()")
        #expect(name.short == "foo(MyTest.Bar, Baz)")
        #expect(SwiftSymbolName(mangled: "main", demangled: "main").short == "main")
        #expect(SwiftSymbolName.module(ofMangled: "$s23BackgroundTaskSimulator4FlagC") == "BackgroundTaskSimulator")
        #expect(SwiftSymbolName.module(ofMangled: "$ss5print") == nil)
    }
}
