/// `--shard i/n`: this machine's part of the work (1-based index, as CI matrices count).
package struct Shard: Sendable, Equatable, Codable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses "i/n" with 1 ≤ i ≤ n.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n
        else { return nil }
        self.init(index: i, count: n)
    }

    /// The shard from CI variables when `--shard` is absent:
    /// - `FLIPBOOK_SHARD=i/n` (explicit, any CI);
    /// - GitLab's parallel jobs: `CI_NODE_INDEX` (1-based) and `CI_NODE_TOTAL`;
    /// - a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based) with the total in
    ///   `FLIPBOOK_SHARD_TOTAL` (the Job's `completions`; Kubernetes does not export it).
    /// GitHub Actions has no such variables: pass `--shard ${{ matrix.shard }}/N`.
    package static func fromEnvironment(_ env: [String: String]) -> Result<Shard?, ShardError> {
        if let text = env["FLIPBOOK_SHARD"], !text.isEmpty {
            guard let shard = Shard(parsing: text) else { return .failure(.badShard(text)) }
            return .success(shard)
        }
        if let i = env["CI_NODE_INDEX"], let n = env["CI_NODE_TOTAL"], !i.isEmpty, !n.isEmpty {
            guard let shard = Shard(parsing: "\(i)/\(n)") else {
                return .failure(.badNode(index: i, total: n))
            }
            return .success(shard)
        }
        if let i = env["JOB_COMPLETION_INDEX"], !i.isEmpty {
            guard let n = env["FLIPBOOK_SHARD_TOTAL"], let total = Int(n), let index = Int(i),
                let shard = Shard(parsing: "\(index + 1)/\(total)")
            else {
                return .failure(.badCompletionIndex(i, total: env["FLIPBOOK_SHARD_TOTAL"]))
            }
            return .success(shard)
        }
        return .success(nil)
    }

    package var description: String { "\(index)/\(count)" }
}

/// CI variables that do not name a shard, with the values read.
package enum ShardError: Error, CustomStringConvertible, Equatable {
    /// `FLIPBOOK_SHARD` is not i/n with 1 ≤ i ≤ n.
    case badShard(String)
    /// GitLab's `CI_NODE_INDEX` and `CI_NODE_TOTAL` are not 1 ≤ index ≤ total.
    case badNode(index: String, total: String)
    /// `JOB_COMPLETION_INDEX` without a usable `FLIPBOOK_SHARD_TOTAL` (nil: unset).
    case badCompletionIndex(String, total: String?)

    package var description: String {
        switch self {
        case .badShard(let text): "FLIPBOOK_SHARD=\(text): expected i/n with 1 ≤ i ≤ n"
        case .badNode(let i, let n):
            "CI_NODE_INDEX=\(i), CI_NODE_TOTAL=\(n): expected 1 ≤ index ≤ total"
        case .badCompletionIndex(let i, _):
            "JOB_COMPLETION_INDEX=\(i) needs FLIPBOOK_SHARD_TOTAL (the Job's completions) with 0 ≤ index < total"
        }
    }
}

/// A piece of work: frames `frames` of scene number `scene` (an index into the sorted
/// scene list).
package struct WorkUnit: Sendable, Equatable, Codable {
    package var scene: Int
    package var first: Int
    package var last: Int
    package var frames: ClosedRange<Int> { first...last }
    package var frameCount: Int { last - first + 1 }
}

/// Splits scenes into work units and deals them to shards.
///
/// Deterministic: it depends only on the scene list (sorted paths), each scene's frame
/// range and pixel count, and the shard count, so every machine computes the same plan
/// and the shards together cover every frame exactly once.
///
/// - A scene of more than ``splitFrames`` frames is cut into min(n, ⌈frames / splitFrames⌉)
///   contiguous, near-equal frame ranges (with n shards); other scenes are one unit.
/// - Units are dealt longest-processing-time first: sorted by cost (frames × pixels,
///   ties by scene then first frame), each goes to the shard with the least cost so far
///   (ties: the lowest shard).
package enum RenderPlan {
    package static let splitFrames = 60

    package struct SceneSize: Sendable {
        package var frames: ClosedRange<Int>
        package var pixels: Int
        package init(frames: ClosedRange<Int>, pixels: Int) {
            self.frames = frames
            self.pixels = pixels
        }
    }

    /// Every unit of every scene, each with the (0-based) shard it belongs to.
    package static func assign(_ scenes: [SceneSize], shards: Int) -> [(unit: WorkUnit, shard: Int)]
    {
        var units: [WorkUnit] = []
        for (i, s) in scenes.enumerated() {
            let count = s.frames.count
            let pieces =
                shards > 1 && count > splitFrames
                ? min(shards, (count + splitFrames - 1) / splitFrames) : 1
            for p in 0..<pieces {
                let a = s.frames.lowerBound + count * p / pieces
                let b = s.frames.lowerBound + count * (p + 1) / pieces - 1
                units.append(WorkUnit(scene: i, first: a, last: b))
            }
        }
        func cost(_ u: WorkUnit) -> Int { u.frameCount * max(1, scenes[u.scene].pixels) }
        let order = units.indices.sorted { x, y in
            let (a, b) = (units[x], units[y])
            if cost(a) != cost(b) { return cost(a) > cost(b) }
            if a.scene != b.scene { return a.scene < b.scene }
            return a.first < b.first
        }
        var load = [Int](repeating: 0, count: max(1, shards))
        var shardOf = [Int](repeating: 0, count: units.count)
        for u in order {
            var best = 0
            for s in 1..<load.count where load[s] < load[best] { best = s }
            shardOf[u] = best
            load[best] += cost(units[u])
        }
        return units.indices.map { (units[$0], shardOf[$0]) }
    }
}
