import Testing

@testable import DeviceLink

@Suite struct FrameTests {
    @Test func encodesVersionTypeAndLengthBigEndian() {
        let frame = Frame(type: 0x0102_0304, payload: [0xAA, 0xBB])
        #expect(frame.encoded == [1, 0x01, 0x02, 0x03, 0x04, 0, 0, 0, 2, 0xAA, 0xBB])
    }

    @Test func decodesAFrameSplitOverManyReads() throws {
        let frame = Frame(.intent, payload: Array("{\"intent\":\"play\"}".utf8))
        var decoder = FrameDecoder()
        var out: [Frame] = []
        for byte in frame.encoded {
            decoder.append([byte])
            if let next = try decoder.next() { out.append(next) }
        }
        #expect(out == [frame])
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func decodesSeveralFramesMergedInOneRead() throws {
        let frames = [Frame(.heartbeat), Frame(.move, payload: [1, 2, 3]), Frame(type: 0xFFFF_FFFF, payload: Array(repeating: 7, count: 1000))]
        var decoder = FrameDecoder()
        decoder.append(frames.flatMap(\.encoded) + [1, 0, 0])  // and the start of a fourth
        var out: [Frame] = []
        while let next = try decoder.next() { out.append(next) }
        #expect(out == frames)
        #expect(decoder.bufferedByteCount == 3)
    }

    @Test func emptyPayloadIsAFrame() throws {
        var decoder = FrameDecoder()
        decoder.append(Frame(.goodbye).encoded)
        #expect(try decoder.next() == Frame(.goodbye))
    }

    @Test func refusesAnotherVersionAtTheFirstByte() {
        var decoder = FrameDecoder()
        decoder.append([2])
        #expect(throws: FrameError.unsupportedVersion(2)) { try decoder.next() }
        // The stream cannot be resynchronised: it keeps failing.
        decoder.append(Frame(.heartbeat).encoded)
        #expect(throws: FrameError.unsupportedVersion(2)) { try decoder.next() }
    }

    @Test func refusesAnOversizeFrameFromItsHeaderAlone() {
        var decoder = FrameDecoder(maximumPayload: 1024)
        decoder.append([1, 0, 0, 1, 0, 0, 0, 0x04, 0x01])  // 1025 bytes announced, none sent
        #expect(throws: FrameError.frameTooLarge(length: 1025, maximum: 1024)) { try decoder.next() }
    }

    @Test func acceptsAFrameOfExactlyTheMaximum() throws {
        var decoder = FrameDecoder(maximumPayload: 16)
        let frame = Frame(.move, payload: Array(repeating: 9, count: 16))
        decoder.append(frame.encoded)
        #expect(try decoder.next() == frame)
    }

    @Test func waitsForTheRestOfAHeader() throws {
        var decoder = FrameDecoder()
        decoder.append([1, 0, 0])
        #expect(try decoder.next() == nil)
    }

    @Test func errorsSayWhatWasWrong() {
        #expect(FrameError.unsupportedVersion(9).description.contains("version 9"))
        #expect(FrameError.frameTooLarge(length: 70000, maximum: 65536).description.contains("70000"))
    }
}

@Suite struct ByteQueueTests {
    @Test func aPeerThatFloodsUnreadBytesIsCutOff() async throws {
        let queue = ByteQueue(limit: 1000)
        await queue.push(Array(repeating: 1, count: 600))
        #expect(try await queue.pop()?.count == 600)  // read: does not count
        await queue.push(Array(repeating: 1, count: 600))
        await queue.push(Array(repeating: 1, count: 600))  // 1200 unread > 1000
        await #expect(throws: LinkClosed.transportAborted) { try await queue.pop() }
    }
}

@Suite struct TicTacToeTests {
    @Test func theTVOpensWhenThePhonePlaysOAndBlocksAndWins() throws {
        var game = TicTacToe()
        #expect(throws: TicTacToe.MoveError.noCharacter) { try game.move(0) }
        game.selectCharacter(.o)
        #expect(game.board.compactMap { $0 } == [.x])  // the TV (X) opened
        #expect(game.board[4] == .x)
        try game.move(0)  // O top left; X answers
        #expect(throws: TicTacToe.MoveError.notAnEmptySquare(0)) { try game.move(0) }
        #expect(throws: TicTacToe.MoveError.notAnEmptySquare(9)) { try game.move(9) }
        var phone = TicTacToe()
        phone.selectCharacter(.x)
        try phone.move(0)  // TV: centre
        try phone.move(1)  // TV must block 2
        #expect(phone.board[2] == .o)
        try phone.move(6)  // TV: O has 2 and 4, so it completes 2-4-6? 6 is taken by X; it blocks 3 (0-3-6)
        #expect(phone.board[3] == .o)
        // O now has 2, 3, 4: it takes 5 (3-4-5) and wins on its next turn unless X blocks.
        try phone.move(8)
        #expect(phone.outcome == .tvWins)
        #expect(throws: TicTacToe.MoveError.gameOver) { try phone.move(7) }
    }
}
