import Foundation
import Flipbook
import FlipbookCodecs
import Hummingbird
import Logging
import ServiceLifecycle
import NIOCore

/// `flipbook preview`'s HTTP server (Hummingbird): the page, the frames as PNGs, the
/// scene's state, and server-sent events when the scene changes on disk.
///
/// Routes (nothing else is served; no file is ever read from a request's path):
/// - `GET /`: the page (``PreviewPage``);
/// - `GET /frames/<i>.png[?scale=S]`: frame i as `render --format png` writes it (same
///   encoder, same pixels), at S pixels per point when given (as `render --scale`, 0 < S ≤ 16),
///   else at the scene's scale; `i` must be decimal digits (400 otherwise), below the frame
///   count (404 otherwise); 503 with the errors while no version of the scene has loaded;
///   other query keys (the page adds `g` for the generation) are ignored;
/// - `GET /state.json[?scale=S]`: generation, errors (as `validate` prints them) and the
///   scene's facts: pixel and point size, scales, fps, duration, frame count, layer tree;
/// - `GET /download/<gif|apng|webp>[?scale=S]`: the whole animation as `render` writes it with
///   its default options (`-o x.gif`, `x.png`, `x.webp`), as an attachment named after the
///   scene (``PreviewDownload``);
/// - `GET /events`: a `text/event-stream` of `state` events, one at once and one per change.
///
/// The watcher polls the scene file and the last good scene's assets and fonts every
/// ``pollInterval``; a change reloads the scene and notifies the pages.
public struct PreviewServer: Sendable {
    public var scenePath: String
    public var host: String
    public var port: Int
    public var prepare: PreviewPrepare
    /// How long a connection may stay idle before the server closes it.
    public var idleTimeout: TimeAmount = PreviewServer.idleTimeout

    /// How often watched files are checked.
    public static let pollInterval: Duration = .milliseconds(100)

    public init(
        scenePath: String, host: String = "127.0.0.1", port: Int = 0,
        prepare: @escaping PreviewPrepare
    ) {
        self.scenePath = scenePath
        self.host = host
        self.port = port
        self.prepare = prepare
    }

    /// Serves until the process is interrupted (SIGINT or SIGTERM); `onReady` receives the
    /// URL once the port is bound (the actual port when 0 asked for a free one).
    ///
    /// A host that is not an address of this machine, or a port in use, throws
    /// ``PreviewListenError`` before anything is served.
    public func run(onReady: @escaping @Sendable (String) -> Void) async throws {
        try Self.checkListening(host: host, port: port)
        let session = PreviewSession(scenePath: scenePath, prepare: prepare)
        await session.reload()
        let router = Router()
        router.get("/") { _, _ in
            Self.response(.ok, type: "text/html; charset=utf-8", Array(PreviewPage.html.utf8))
        }
        router.get("/state.json") { request, _ in
            guard let scale = Self.scale(request) else {
                return Self.text(.badRequest, "bad scale\n")
            }
            let json = await session.stateJSON(scale: scale)
            return Self.response(.ok, type: "application/json", Array(json.utf8))
        }
        router.get("/frames/:name") { request, context in
            await Self.frame(request, name: context.parameters.get("name") ?? "", session: session)
        }
        router.get("/download/:format") { request, context in
            await PreviewDownload.response(
                request, format: context.parameters.get("format") ?? "", session: session)
        }
        router.get("/events") { _, _ in
            let (id, stream) = await session.listen()
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    defer { Task { await session.stopListening(id) } }
                    // An event stream never ends by itself: on Ctrl-C or SIGTERM it is closed
                    // so that the server's graceful shutdown does not wait for it.
                    try await withGracefulShutdownHandler {
                        for await message in stream {
                            try await writer.write(ByteBuffer(string: message))
                        }
                    } onGracefulShutdown: {
                        Task { await session.stopListening(id) }
                    }
                    try await writer.finish(nil)
                })
        }
        let watcher = Task {
            var ticks = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.pollInterval)
                await session.reloadIfChanged()
                ticks += 1
                if ticks % 100 == 0 { await session.ping() }
            }
        }
        defer { watcher.cancel() }
        let listening = ListeningFlag()
        let app = Application(
            router: router, server: Self.http1(idleTimeout: idleTimeout),
            configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                listening.set()
                let bound = channel.localAddress?.port ?? port
                let shown = host.contains(":") ? "[\(host)]" : host
                onReady("http://\(shown):\(bound)/")
            },
            logger: Self.quietLogger())
        do { try await app.runService() } catch {
            // Failing to listen (the port taken since the check) is one line, not NIO's.
            if !listening.isSet { throw Self.listenError(error, host: host, port: port) }
            throw error
        }
    }

    /// Whether the server got as far as listening.
    private final class ListeningFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "flipbook-preview")
        // Errors the server can meet (a failed bind) come back as thrown errors, which the
        // command line prints as one line; the logger would print NIO's version first.
        logger.logLevel = .critical
        return logger
    }

    /// The `scale` query value: .some(nil) when absent, nil when malformed or out of range.
    static func scale(_ request: Request) -> Double?? {
        guard let text = request.uri.queryParameters.get("scale") else { return .some(nil) }
        guard let value = Double(text), value > 0, value <= 16 else { return nil }
        return .some(value)
    }

    static func frame(_ request: Request, name: String, session: PreviewSession) async -> Response {
        guard name.hasSuffix(".png") else { return text(.notFound, "no such frame\n") }
        let digits = name.dropLast(4)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let index = Int(digits)
        else {
            return text(.badRequest, "frame index must be a whole number: \(name)\n")
        }
        guard let scale = Self.scale(request) else {
            return text(.badRequest, "scale must be a number in (0, 16]\n")
        }
        let generation = await session.generation
        guard let prepared = await session.renderer(scale: scale) else {
            return text(.serviceUnavailable, (await session.errors).joined(separator: "\n") + "\n")
        }
        let renderer: SceneRenderer
        switch prepared {
        case .success(let r): renderer = r
        case .failure(let problem):
            return text(.badRequest, problem.messages.joined(separator: "\n") + "\n")
        }
        guard index < renderer.frameCount else {
            return text(
                .notFound, "frame \(index) is past the last frame, \(renderer.frameCount - 1)\n")
        }
        let key = "\(scale.map { "\($0)" } ?? "scene")/\(index)"
        if let bytes = await session.cachedFrame(key) {
            return response(.ok, type: "image/png", bytes)
        }
        do {
            let bytes = try PNGCodec.encode(renderer.renderFrame(index))
            await session.store(bytes, key: key, generation: generation)
            return response(.ok, type: "image/png", bytes)
        } catch {
            return text(.internalServerError, "\(error)\n")
        }
    }

    static func response(_ status: HTTPResponse.Status, type: String, _ bytes: [UInt8]) -> Response
    {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        response(status, type: "text/plain; charset=utf-8", Array(message.utf8))
    }
}
