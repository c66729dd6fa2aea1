import Foundation
import ZIPFoundation

/// A dotLottie archive: a zip holding `manifest.json`, `animations/<id>.json` (the first
/// animation the manifest lists is the one opened) and `images/…`.
struct DotLottie {
    /// Why the archive could not be opened.
    enum Failure: Error, CustomStringConvertible, Equatable {
        case notZip
        /// An entry (its path) expands to more than the limit.
        case entryTooLarge(path: String, limit: Int)
        case noAnimation
        /// The animation and its images together expand to more than the limit.
        case archiveTooLarge(limit: Int)

        var description: String {
            switch self {
            case .notZip: "not a zip archive"
            case .entryTooLarge(let path, let limit):
                "`\(path)` expands to more than \(limit) bytes"
            case .noAnimation: "no animations/*.json inside"
            case .archiveTooLarge(let limit):
                "the animation and its images expand to more than \(limit) bytes"
            }
        }
    }

    var animation: Data
    /// Image bytes by file name and by path in the archive.
    var images: [String: [UInt8]] = [:]
    /// What a player would open anyway but the archive gets wrong (no manifest, a manifest
    /// naming a missing animation, image entries that are links), one line each.
    var warnings: [String] = []

    init(data: Data, limit: Int) throws {
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw Failure.notZip
        }
        func read(_ entry: Entry) throws -> Data {
            guard entry.uncompressedSize <= UInt64(limit) else {
                throw Failure.entryTooLarge(path: entry.path, limit: limit)
            }
            var out = Data()
            _ = try archive.extract(entry) { chunk in
                out.append(chunk)
                if out.count > limit {
                    throw Failure.entryTooLarge(path: entry.path, limit: limit)
                }
            }
            return out
        }
        let entries = Array(archive)
        var chosen: Entry?
        if let manifest = entries.first(where: { $0.path == "manifest.json" }) {
            let id =
                (try? JSONParser.parse(read(manifest), limits: JSONLimits(memoryBytes: 16 << 20)))
                .flatMap { JSONNode($0, index: 0, path: "")["animations"][0]["id"].string }
            if let id {
                chosen = entries.first {
                    $0.path == "animations/\(id).json" || $0.path == "a/\(id).json"
                }
                if chosen == nil {
                    warnings.append(
                        "dotLottie: the manifest names animation `\(id)`, which the archive lacks")
                }
            } else {
                warnings.append(
                    "dotLottie: manifest.json does not name an animation (`animations[0].id`)")
            }
        } else {
            warnings.append("dotLottie: no manifest.json")
        }
        if chosen == nil {
            chosen =
                entries.filter {
                    ($0.path.hasPrefix("animations/") || $0.path.hasPrefix("a/"))
                        && $0.path.hasSuffix(".json") && $0.type == .file
                }.sorted { $0.path < $1.path }.first
            if let chosen, !warnings.isEmpty {
                warnings[warnings.count - 1] += "; opened `\(chosen.path)`"
            }
        }
        guard let chosen else { throw Failure.noAnimation }
        animation = try read(chosen)
        var total = animation.count
        for entry in entries where entry.path.hasPrefix("images/") || entry.path.hasPrefix("i/") {
            guard entry.type == .file else {
                // A link could name any file on the machine once extracted; it is never followed.
                if entry.type == .symlink {
                    warnings.append(
                        "dotLottie: image entry `\(entry.path)` is a symbolic link, which is not followed"
                    )
                }
                continue
            }
            let bytes = [UInt8](try read(entry))
            total += bytes.count
            if total > limit {
                throw Failure.archiveTooLarge(limit: limit)
            }
            images[entry.path] = bytes
            images[(entry.path as NSString).lastPathComponent] = bytes
        }
    }
}
