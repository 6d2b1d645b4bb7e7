import ArgumentParser
@main struct Marquee: AsyncParsableCommand { func run() async throws {} }
