import Foundation
import Hummingbird
import Library

/// An asset as the REST API shows it: display metadata with overrides applied, playback
/// links, and the latest ingest job.
public struct AssetResource: ResponseEncodable, Decodable, Sendable, Hashable {
    public struct JobSummary: Codable, Sendable, Hashable {
        public var id: Int64?
        public var state: String
        public var progress: Double
        public var message: String?
    }

    public var id: String
    public var title: String
    public var subtitle: String?
    public var description: String?
    public var artworkURL: String?
    public var duration: Double?
    public var width: Int?
    public var height: Int?
    public var portrait: Bool
    public var status: String
    public var role: String
    public var badges: [String]
    public var sourceMissing: Bool
    public var createdAt: Date
    public var playerURL: String
    public var manifestURL: String
    public var job: JobSummary?

    init(_ shown: DisplayedAsset, job: IngestJob?) {
        let asset = shown.asset
        id = asset.id
        title = shown.title
        subtitle = shown.subtitle
        description = shown.summary
        artworkURL = shown.artworkURL
        duration = asset.duration
        width = asset.width
        height = asset.height
        portrait = asset.isPortrait
        status = asset.status.rawValue
        role = asset.role.rawValue
        badges = asset.badges
        sourceMissing = asset.sourceMissing
        createdAt = asset.createdAt
        playerURL = "/watch/\(asset.id)"
        manifestURL = "/api/assets/\(asset.id)/manifest.json"
        self.job = job.map { JobSummary(id: $0.id, state: $0.state.rawValue, progress: $0.progress, message: $0.message) }
    }
}

/// A list response: `{"assets": [...]}`.
struct AssetList: ResponseEncodable, Decodable {
    var assets: [AssetResource]
}

/// The body of `POST /api/assets`.
struct AddAssetsRequest: Decodable {
    var paths: [String]
}

/// The body of `PUT /api/assets/{id}/metadata`; `null` or missing fields clear an override.
struct MetadataOverrideRequest: Decodable {
    var title: String?
    var subtitle: String?
    var description: String?
    var artworkURL: String?
}

/// An override as the API shows it.
struct MetadataOverrideResource: ResponseEncodable {
    var assetID: String
    var title: String?
    var subtitle: String?
    var description: String?
    var artworkURL: String?

    init(_ override: MetadataOverride?, assetID: String) {
        self.assetID = assetID
        title = override?.title
        subtitle = override?.subtitle
        description = override?.summary
        artworkURL = override?.artworkURL
    }
}

extension IngestJob: ResponseEncodable {}
extension PlayerSettings: ResponseEncodable {}

struct JobList: ResponseEncodable {
    var jobs: [IngestJob]
}
