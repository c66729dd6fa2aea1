#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The caches that carry computed geometry from one frame to the next on a thread
/// (``CoverageCache``, ``OutlineCache``, ``GradientTables``, ``ImageCache``, the
/// renderer's vector artwork): each hands back exactly what it would compute, so they
/// change speed, never bytes.
public enum GeometryCaches {
    /// False when the environment sets FLIPBOOK_COVERAGE_CACHE=0 (to measure without them).
    public static let isEnabled: Bool = {
        guard let raw = getenv("FLIPBOOK_COVERAGE_CACHE") else { return true }
        return String(cString: raw) != "0"
    }()
}
