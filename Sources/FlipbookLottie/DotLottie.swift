import Foundation
import ZIPFoundation

/// A dotLottie archive: a zip holding `manifest.json`, `animations/<id>.json` (the first
/// animation the manifest lists is the one opened) and `images/…`.
struct DotLottie {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var animation: Data
    /// Image bytes by file name and by path in the archive.
    var images: [String: [UInt8]] = [:]

    init(data: Data, limit: Int) throws {
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw Failure(description: "not a zip archive")
        }
        func read(_ entry: Entry) throws -> Data {
            guard entry.uncompressedSize <= UInt64(limit) else {
                throw Failure(description: "`\(entry.path)` expands to more than \(limit) bytes")
            }
            var out = Data()
            _ = try archive.extract(entry) { chunk in
                out.append(chunk)
                if out.count > limit { throw Failure(description: "`\(entry.path)` expands to more than \(limit) bytes") }
            }
            return out
        }
        let entries = Array(archive)
        var chosen: Entry?
        if let manifest = entries.first(where: { $0.path == "manifest.json" }),
           let object = try? JSONSerialization.jsonObject(with: read(manifest)) as? [String: Any],
           let animations = object["animations"] as? [[String: Any]], let id = animations.first?["id"] as? String {
            chosen = entries.first { $0.path == "animations/\(id).json" || $0.path == "a/\(id).json" }
        }
        chosen = chosen ?? entries.filter { ($0.path.hasPrefix("animations/") || $0.path.hasPrefix("a/"))
            && $0.path.hasSuffix(".json") }.sorted { $0.path < $1.path }.first
        guard let chosen else { throw Failure(description: "no animations/*.json inside") }
        animation = try read(chosen)
        for entry in entries where entry.type == .file
            && (entry.path.hasPrefix("images/") || entry.path.hasPrefix("i/")) {
            let bytes = [UInt8](try read(entry))
            images[entry.path] = bytes
            images[(entry.path as NSString).lastPathComponent] = bytes
        }
    }
}
