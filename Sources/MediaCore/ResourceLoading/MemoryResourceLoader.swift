/// A resource loader over bytes held in memory.
public struct MemoryResourceLoader: ResourceLoader {
    public let bytes: [UInt8]
    public let resourceDescription: String
    public var entireLengthAvailableOnDemand: Bool { true }

    public init(bytes: [UInt8], description: String = "memory") {
        self.bytes = bytes
        self.resourceDescription = description
    }

    public func contentLength() async throws -> Int64 { Int64(bytes.count) }

    public func read(offset: Int64, length: Int) async throws -> [UInt8] {
        guard offset >= 0, offset < Int64(bytes.count), length > 0 else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + length)])
    }
}
