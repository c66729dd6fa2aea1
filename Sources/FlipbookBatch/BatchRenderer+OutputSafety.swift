import Flipbook
import Foundation

extension BatchRenderer {
    /// The first output of the batch (or `options.report`) that is the same file as an
    /// input of any scene or as another output, as a message; checked once every scene is
    /// loaded and before anything is written.
    static func outputConflict(
        _ prepared: [Prepared], targets: [SceneTarget], options: BatchOptions
    ) -> String? {
        var inputs: [OutputSafety.File] = []
        var loaded: Set<String> = []
        for p in prepared {
            inputs += OutputSafety.inputs(of: p.renderer.scene, scenePath: p.target.scenePath)
            loaded.insert(p.target.scenePath)
        }
        // Scenes that did not load are still inputs.
        for target in targets where !loaded.contains(target.scenePath) {
            inputs.append(OutputSafety.File(target.scenePath, role: "the scene"))
        }
        var outputs: [OutputSafety.File] = []
        var folders: [OutputSafety.Folder] = []
        let sharded = options.shard != nil
        for p in prepared {
            let name = p.target.scenePath
            switch (options.format, sharded) {
            case (.gif, false):
                outputs.append(OutputSafety.File(p.target.output, role: "the GIF of \(name)"))
            case (.webp, false):
                outputs.append(OutputSafety.File(p.target.output, role: "the WebP of \(name)"))
            case (.gif, true), (.apng, true), (.webp, true):
                let frames = OutputSafety.frameFiles(p.range)
                folders.append(
                    OutputSafety.Folder(p.target.framesFolder, role: "the frames of \(name)") {
                        file in
                        file == FrameManifest.fileName || frames(file)
                    })
            case (.apng, false):
                outputs.append(OutputSafety.File(p.target.output, role: "the APNG of \(name)"))
            case (.png, _) where PNGFramePattern(p.target.output) != nil:
                let pattern = PNGFramePattern(p.target.output)!, range = p.range
                folders.append(
                    OutputSafety.Folder(pattern.folder, role: "the frames of \(name)") {
                        pattern.names($0, in: range)
                    })
            case (.png, _):
                folders.append(
                    OutputSafety.Folder(
                        p.target.output, role: "the frames of \(name)",
                        writes: OutputSafety.frameFiles(p.range)))
            }
            if options.contactSheet && !sharded {
                outputs.append(
                    OutputSafety.File(p.target.sheetPath, role: "the contact sheet of \(name)"))
            }
        }
        if let report = options.report {
            outputs.append(OutputSafety.File(report, role: "--report"))
        }
        return OutputSafety.conflict(inputs: inputs, outputs: outputs, folders: folders)
    }
}

extension OutputSafety {
    /// What `flipbook assemble` reads (every file of the `<name>.frames/` folders) and
    /// writes (each manifest's GIF, APNG or WebP and contact sheet) in `folder`.
    package static func assembly(in folder: String) -> (inputs: [File], outputs: [File]) {
        var inputs: [File] = [], outputs: [File] = []
        for frames in FrameAssembler.frameFolders(in: folder) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []
            inputs += names.sorted().map { File(frames + "/" + $0, role: "a shard's frames") }
            guard let manifest = try? FrameManifest.read(from: frames) else { continue }
            let target = SceneTarget(scenePath: manifest.scene, output: folder + "/" + manifest.gif)
            outputs.append(
                File(
                    target.output,
                    role: "the \(manifest.format ?? "gif") output of \(manifest.scene)"))
            if manifest.contactSheet {
                outputs.append(
                    File(target.sheetPath, role: "the contact sheet of \(manifest.scene)"))
            }
        }
        return (inputs, outputs)
    }
}
