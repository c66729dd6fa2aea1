import Foundation
import FlipbookRaster
import FlipbookRender

/// The environment variables that switch a rendering feature off, for measuring without it,
/// mapped onto the library's explicit options (the library reads no environment). One rule
/// for all: unset or anything but `0`, `off`, `false` or `no` (any case) leaves the feature on.
enum EnvironmentSwitches {
    /// `FLIPBOOK_FRAME_REUSE` → ``FrameReuse/isEnabled``; `FLIPBOOK_COVERAGE_CACHE` →
    /// ``GeometryCaches/isEnabled``. Called once, before any command runs.
    static func apply(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        FrameReuse.isEnabled = isOn(environment["FLIPBOOK_FRAME_REUSE"])
        GeometryCaches.isEnabled = isOn(environment["FLIPBOOK_COVERAGE_CACHE"])
    }

    static func isOn(_ value: String?) -> Bool {
        guard let value else { return true }
        return !["0", "off", "false", "no"].contains(value.lowercased())
    }
}
