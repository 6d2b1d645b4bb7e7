import Foundation

/// Recognises the errors that mean "the disk is full", whichever layer raised them: a write
/// through Foundation (`CocoaError.fileWriteOutOfSpace`, or the POSIX `ENOSPC`/`EDQUOT` it
/// wraps), a system call (`POSIXError`), or SQLite (`SQLITE_FULL`, as GRDB reports it).
enum StorageFailure {
    static func isOutOfSpace(_ error: any Error) -> Bool {
        if let error = error as? CocoaError, error.code == .fileWriteOutOfSpace { return true }
        if let error = error as? POSIXError, error.code == .ENOSPC || error.code == .EDQUOT { return true }
        let error = error as NSError
        switch error.domain {
        case NSCocoaErrorDomain:
            if error.code == CocoaError.fileWriteOutOfSpace.rawValue { return true }
        case NSPOSIXErrorDomain:
            if error.code == Int(ENOSPC) || error.code == Int(EDQUOT) { return true }
        // GRDB's DatabaseError: the code is SQLite's extended result code; its low byte is the primary.
        case "GRDB.DatabaseError":
            if error.code & 0xFF == 13 { return true }  // SQLITE_FULL
        default:
            break
        }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying !== error {
            return isOutOfSpace(underlying)
        }
        return false
    }
}
