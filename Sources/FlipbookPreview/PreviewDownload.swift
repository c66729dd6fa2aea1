import Foundation
import Flipbook
import FlipbookCodecs
import FlipbookScene
import Hummingbird

/// `GET /download/<gif|apng|webp>`: the previewed scene encoded whole by the exporter
/// `flipbook render` uses for that format, with its default options, so the file is the
/// bytes `render -o name.gif|png|webp` writes at the same scale (without the content hash
/// a batch render puts inside).
enum PreviewDownload {
    /// The exporter and file extension of each download.
    static func exporter(_ format: String) -> (
        exporter: any FrameExporter, fileExtension: String, type: String
    )? {
        switch format {
        case "gif":
            (
                GIFExporter(options: .init(quality: GIFEncodingOptions.defaultQuality)), "gif",
                "image/gif"
            )
        case "apng": (APNGExporter(), "png", "image/png")
        case "webp": (WebPExporter(), "webp", "image/webp")
        default: nil
        }
    }

    static func response(_ request: Request, format: String, session: PreviewSession) async
        -> Response
    {
        guard let (exporter, fileExtension, type) = exporter(format) else {
            return PreviewServer.text(
                .notFound, "no such download: \(format) (gif, apng or webp)\n")
        }
        guard let scale = PreviewServer.scale(request) else {
            return PreviewServer.text(.badRequest, "scale must be a number in (0, 16]\n")
        }
        guard let prepared = await session.renderer(scale: scale) else {
            return PreviewServer.text(
                .serviceUnavailable, (await session.errors).joined(separator: "\n") + "\n")
        }
        let renderer: SceneRenderer
        switch prepared {
        case .success(let r): renderer = r
        case .failure(let problem):
            return PreviewServer.text(.badRequest, problem.messages.joined(separator: "\n") + "\n")
        }
        // The exporters write files (atomically); this one lives only for the request.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flipbook-preview-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("download." + fileExtension).path
            _ = try exporter.export(
                renderer, frames: 0...(renderer.frameCount - 1), to: path,
                jobs: ProcessorCount.online)
            let bytes = try FileIO.readAll(path: path)
            var response = PreviewServer.response(.ok, type: type, bytes)
            let name = renderer.scene.name.filter {
                $0.isLetter || $0.isNumber || "-_.".contains($0)
            }
            response.headers[.contentDisposition] =
                "attachment; filename=\"\(name.isEmpty ? "animation" : name).\(fileExtension)\""
            return response
        } catch {
            return PreviewServer.text(.internalServerError, "\(error)\n")
        }
    }
}
