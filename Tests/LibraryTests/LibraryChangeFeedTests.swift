import EventFeed
import Testing

@testable import Library

@Suite("The library's change feed")
struct LibraryChangeFeedTests {
    /// Reads `count` changes from a stream that only the returned task holds.
    static func read(_ count: Int, from stream: AsyncStream<LibraryChange>) -> Task<[LibraryChange], Never> {
        Task {
            var received: [LibraryChange] = []
            for await change in stream {
                received.append(change)
                if received.count == count { break }
            }
            return received
        }
    }

    @Test("Every subscriber gets every change in order; a slow one keeps only the newest; one that is gone is forgotten")
    func fanOut() async throws {
        let feed = LibraryChangeFeed()
        let (first, slow) = (feed.subscribe(), feed.subscribe(buffer: 2))
        #expect(feed.subscriberCount == 2)
        for id in ["a", "b", "c"] { feed.publish(.assetChanged(id)) }
        feed.publish(.assetRemoved("a"))

        let all = Self.read(4, from: first)
        let newest = Self.read(2, from: slow)
        #expect(await all.value == [.assetChanged("a"), .assetChanged("b"), .assetChanged("c"), .assetRemoved("a")])
        #expect(await newest.value == [.assetChanged("c"), .assetRemoved("a")], "the two newest, the older ones dropped")

        // A consumer whose task is cancelled (a page's event stream closing) is forgotten at once.
        let page = Self.read(1, from: feed.subscribe())
        #expect(feed.subscriberCount == 3)
        page.cancel()
        #expect(await page.value.isEmpty)
        #expect(feed.subscriberCount == 2)
    }
}
