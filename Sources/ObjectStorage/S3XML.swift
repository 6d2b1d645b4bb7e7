import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the few XML documents S3 answers with: errors, multipart uploads, and listings.
enum S3XML {
    /// The text of the first element named `name`, or `nil`.
    static func firstValue(of name: String, in data: Data) -> String? {
        guard !data.isEmpty else { return nil }
        let reader = ElementReader(wanted: [name])
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.parse()
        return reader.values.first?[name]
    }

    /// The objects of a `ListObjectsV2` page, and where the next page starts.
    static func listing(_ data: Data) -> (objects: [S3Client.ObjectInfo], truncated: Bool, nextToken: String?) {
        let reader = ElementReader(wanted: ["Key", "Size", "ETag"], record: "Contents")
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.parse()
        let objects = reader.values.compactMap { fields -> S3Client.ObjectInfo? in
            guard let key = fields["Key"] else { return nil }
            return S3Client.ObjectInfo(key: key, size: Int(fields["Size"] ?? "") ?? 0, etag: fields["ETag"], contentType: nil)
        }
        return (objects, reader.topLevel["IsTruncated"] == "true", reader.topLevel["NextContinuationToken"])
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Collects the text of wanted elements, grouped by `record` elements (or all in one group).
    final class ElementReader: NSObject, XMLParserDelegate {
        let wanted: Set<String>
        let record: String?
        var values: [[String: String]] = []
        var topLevel: [String: String] = [:]
        private var current: [String: String] = [:]
        private var inRecord = false
        private var text = ""

        init(wanted: Set<String>, record: String? = nil) {
            self.wanted = wanted
            self.record = record
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if name == record {
                inRecord = true
                current = [:]
            }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if let record {
                if name == record {
                    values.append(current)
                    inRecord = false
                } else if inRecord, wanted.contains(name) {
                    current[name] = text
                } else if !inRecord {
                    topLevel[name] = text
                }
            } else if wanted.contains(name), values.isEmpty {
                values.append([name: text])
            }
            text = ""
        }
    }
}
