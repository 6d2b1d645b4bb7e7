import Accounts
import Downloads
import Foundation
import HLS
import Library
import MediaCore
import NIOCore
import PostgreSQLStores

extension CommandFailure {
    /// The documented exit status for an error thrown by one of Marquee's modules: input that
    /// cannot be used is 2, work that failed is 1, a service that did not answer is 3.
    init(classifying error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case is CancellationError:
            self.init(.interrupted, "cancelled")
        case let media as MediaError:
            switch media.kind {
            case .decode, .encode, .write, .export, .packaging, .noFrame, .seek:
                self.init(.failed, media.description)
            default:
                self.init(.unusableInput, media.description)
            }
        case let library as LibraryError:
            switch library {
            case .toolFailed, .mediaFailed: self.init(.failed, library.description)
            default: self.init(.unusableInput, library.description)
            }
        case let download as DownloadError:
            switch download {
            case .gaveUp: self.init(.unavailable, download.description)
            case .io: self.init(.failed, download.description)
            default: self.init(.unusableInput, download.description)
            }
        case let predicate as PredicateFormatError:
            self.init(.unusableInput, "bad predicate: \(predicate)")
        case let account as AccountError:
            self.init(.unusableInput, account.description)
        case let newer as NewerSchemaError:
            self.init(.unavailable, newer.description)
        case let database as PostgreSQLStoreError:
            self.init(database.isUnreachable ? .unavailable : .failed, database.description)
        case let timedOut as PostgreSQLStoreError.TimedOut:
            self.init(.unavailable, "PostgreSQL: \(timedOut.description)")
        case let io as IOError:
            self.init(.unavailable, io.description)
        default:
            self.init(.failed, String(describing: error))
        }
    }
}
