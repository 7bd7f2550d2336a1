import BGSimCommands

// The package's own bgsim: its demonstration workloads. A user's bgsim passes theirs
// (`BGSim.main(workloads:)`; README, "Your own workloads on the command line").
BGSim.main()
