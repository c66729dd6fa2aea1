import FlipbookLottie
import FlipbookScene

/// Opens any scene file Flipbook reads: Flipbook scenes (YAML or JSON) and Lottie
/// animations (`.json` with Lottie's top-level keys, `.lottie`, `.tgs`). Every command
/// and the testing library load through here, so each takes both.
public enum SceneFile {
    /// With `options.strict`, a scene with warnings is an error listing them.
    public static func load(path: String, options: SceneLoader.Options = SceneLoader.Options())
        throws(SceneError) -> Scene
    {
        let scene =
            LottieLoader.isLottie(path: path)
            ? try LottieLoader.load(path: path, options: options)
            : try SceneLoader.load(path: path, options: options)
        if options.strict, !scene.warnings.isEmpty {
            throw SceneError(diagnostics: [
                Diagnostic(
                    file: path, line: nil, column: nil, keyPath: "",
                    message: "unsupported features (--strict): " + warningText(scene))
            ])
        }
        return scene
    }

    /// The scene's warnings as one line: `layer `a`: expressions; layer `b`: 3D layer`.
    public static func warningText(_ scene: Scene) -> String {
        scene.warnings.map(\.message).joined(separator: "; ")
    }

    /// The one warning line a command prints for a scene (nil without warnings).
    public static func warningLine(path: String, _ scene: Scene) -> String? {
        scene.warnings.isEmpty
            ? nil : "warning: \(path): rendered without unsupported features: \(warningText(scene))"
    }

    /// Whether the file is a Lottie animation.
    public static func isLottie(path: String) -> Bool { LottieLoader.isLottie(path: path) }
}
