/// The Tic-Tac-Toe sample game as a value: a phone picks a character (`selectedCharacter`)
/// and plays `move`s; the TV answers each move with its own. Pure logic, no I/O.
public struct TicTacToe: Sendable, Hashable, Codable {
    /// A player's character; X moves first.
    public enum Mark: String, Sendable, Codable, Hashable { case x, o }

    /// Whether the game goes on, and who won.
    public enum Outcome: String, Sendable, Codable, Hashable { case playing, phoneWins = "phone-wins", tvWins = "tv-wins", draw }

    /// Why a move was refused: no character picked yet, the game is over, or the square is taken or off the board.
    public enum MoveError: Error, Sendable, Hashable, CustomStringConvertible {
        case noCharacter, gameOver, notAnEmptySquare(Int)
        /// What the phone should do instead.
        public var description: String {
            switch self {
            case .noCharacter: "pick a character first (selectedCharacter)"
            case .gameOver: "the game is over; pick a character to play again"
            case .notAnEmptySquare(let index): "square \(index) is not an empty square (0–8)"
            }
        }
    }

    /// Nine squares, row by row; `nil` is empty.
    public private(set) var board: [Mark?] = Array(repeating: nil, count: 9)
    /// The phone's character; nil until it picks one.
    public private(set) var phone: Mark?
    /// Whether the game goes on, and who won.
    public private(set) var outcome: Outcome = .playing

    /// An empty board, no character picked.
    public init() {}

    /// The TV's character: the other one.
    public var tv: Mark? { phone.map { $0 == .x ? .o : .x } }

    /// Starts a new game with the phone playing `mark` (X moves first: the TV opens when the phone is O).
    public mutating func selectCharacter(_ mark: Mark) {
        board = Array(repeating: nil, count: 9)
        phone = mark
        outcome = .playing
        if mark == .o { playTV() }
    }

    /// The phone's move at `index` (0–8), then the TV's answer.
    public mutating func move(_ index: Int) throws(MoveError) {
        guard let phone else { throw .noCharacter }
        guard outcome == .playing else { throw .gameOver }
        guard board.indices.contains(index), board[index] == nil else { throw .notAnEmptySquare(index) }
        board[index] = phone
        if settle() { return }
        playTV()
    }

    private static let lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]

    private func winner() -> Mark? {
        for line in Self.lines {
            if let mark = board[line[0]], board[line[1]] == mark, board[line[2]] == mark { return mark }
        }
        return nil
    }

    /// Updates the outcome; true when the game is over.
    private mutating func settle() -> Bool {
        if let mark = winner() {
            outcome = mark == phone ? .phoneWins : .tvWins
            return true
        }
        if !board.contains(where: { $0 == nil }) {
            outcome = .draw
            return true
        }
        return false
    }

    /// The TV plays: win if it can, block if it must, else centre, corners, sides.
    private mutating func playTV() {
        guard let tv, let phone else { return }
        func completing(_ mark: Mark) -> Int? {
            for line in Self.lines {
                let marks = line.map { board[$0] }
                if marks.filter({ $0 == mark }).count == 2, let empty = line.first(where: { board[$0] == nil }) { return empty }
            }
            return nil
        }
        let choice = completing(tv) ?? completing(phone) ?? [4, 0, 2, 6, 8, 1, 3, 5, 7].first { board[$0] == nil }
        guard let choice else { return }
        board[choice] = tv
        _ = settle()
    }
}
