import Foundation
import Testing

@testable import ObjectStorage

/// Signatures checked against the worked examples AWS publishes for S3's Signature Version 4
/// (the "examplebucket" requests of 24 May 2013 and the generic `get-vanilla` test).
@Suite("SigV4 signing")
struct SigV4SignerTests {
    let s3 = SigV4Signer(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
    let may24 = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    @Test func getObjectWithARange() {
        let headers = s3.signedHeaders(
            method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!,
            headers: ["Range": "bytes=0-9"], payloadHash: SigV4Signer.emptyPayloadHash, date: may24)
        #expect(
            headers["authorization"]
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        )
    }

    @Test func putObjectWithABody() {
        let body = Data("Welcome to Amazon S3.".utf8)
        let hash = SigV4Signer.sha256Hex(body)
        #expect(hash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let headers = s3.signedHeaders(
            method: "PUT", url: URL(string: "https://examplebucket.s3.amazonaws.com/test%24file.text")!,
            headers: ["Date": "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY"],
            payloadHash: hash, date: may24)
        #expect(
            headers["authorization"]
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"
        )
    }

    @Test func listObjectsWithAQuery() {
        let headers = s3.signedHeaders(
            method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J")!,
            payloadHash: SigV4Signer.emptyPayloadHash, date: may24)
        #expect(headers["authorization"]?.hasSuffix("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7") == true)
    }

    @Test func presignedGet() {
        let url = s3.presignedURL(url: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!, expires: 86400, date: may24)
        #expect(url.absoluteString.hasSuffix("X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"))
        #expect(url.absoluteString.contains("X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"))
    }

    @Test func genericGetVanilla() {
        let signer = SigV4Signer(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "service")
        let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z
        // get-vanilla signs only host and x-amz-date; our signer always adds x-amz-content-sha256,
        // so check the signing key and string-to-sign through the published canonical request.
        let canonical = "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(SigV4Signer.emptyPayloadHash)"
        #expect(
            signer.sign(canonical, stamp: "20150830T123600Z", day: "20150830", scope: "20150830/us-east-1/service/aws4_request")
                == "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
        #expect(SigV4Signer.timestamps(date).stamp == "20150830T123600Z")
    }

    @Test func keysAreEncodedOnceWithSlashesKept() {
        #expect(SigV4Signer.encode("a b/c+d~e", keepSlash: true) == "a%20b/c%2Bd~e")
        #expect(SigV4Signer.encode("a/b", keepSlash: false) == "a%2Fb")
        #expect(SigV4Signer.encode("日本", keepSlash: true) == "%E6%97%A5%E6%9C%AC")
    }
}
