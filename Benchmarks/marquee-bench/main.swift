let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "resource-loader" {
    try await ResourceLoaderBenchmark.run(Array(arguments.dropFirst()))
} else {
    print("bench")
}
