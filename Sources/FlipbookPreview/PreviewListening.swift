import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import HTTPTypes
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the preview cannot listen where it was asked to: a host that is not an address of
/// this machine, or a port already taken. One line (exit 64 at the command line), which
/// names the host and port settings as its caller does.
public enum PreviewListenError: Error, CustomStringConvertible, Sendable, Equatable {
    /// `host` does not resolve (getaddrinfo's reason).
    case unresolvableHost(host: String, reason: String)
    /// `host` resolves to an address of another machine.
    case hostNotLocal(host: String)
    /// `port` is already taken on `host`.
    case portInUse(port: Int, host: String)
    /// `port` is below 1024 and needs privileges.
    case portNeedsPrivileges(port: Int)
    /// Any other failure to listen (the system's or the server's reason).
    case cannotListen(host: String, port: Int, reason: String)

    /// The line, naming the settings `hostSetting` and `portSetting` (`flipbook preview`
    /// names its flags, `--host` and `--port`).
    public func message(hostSetting: String = "host", portSetting: String = "port") -> String {
        switch self {
        case .unresolvableHost(let host, let reason):
            "\(hostSetting) \(host): not an address to listen on (\(reason))"
        case .hostNotLocal(let host): "\(hostSetting) \(host): not an address of this machine"
        case .portInUse(let port, let host): "\(portSetting) \(port): already in use on \(host)"
        case .portNeedsPrivileges(let port):
            "\(portSetting) \(port): not allowed (ports below 1024 need privileges)"
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason)"
        }
    }

    public var description: String { message() }
}

extension PreviewServer {
    /// How long a connection may stay idle (no request in progress) before it is closed.
    public static let idleTimeout: TimeAmount = .seconds(30)

    /// The HTTP/1 server: idle connections time out, and a 400 response closes its
    /// connection (``CloseAfterBadRequest``).
    static func http1(idleTimeout: TimeAmount) -> HTTPServerBuilder {
        .http1(
            configuration: .init(
                additionalChannelHandlers: [CloseAfterBadRequest()], idleTimeout: idleTimeout))
    }

    /// Checks, before the server starts, that `host` resolves to an address of this
    /// machine and that `port` is free on it, by binding a socket the way the server will
    /// (SO_REUSEADDR) and closing it; throws ``PreviewListenError`` otherwise. The server's
    /// own failures (a port taken in between) say the same through ``listenError(_:host:port:)``.
    public static func checkListening(host: String, port: Int) throws(PreviewListenError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw PreviewListenError.unresolvableHost(
                host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(found) }
        let fd = socket(
            first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            throw bindError(errno, host: host, port: port)
        }
    }

    static func bindError(_ code: Int32, host: String, port: Int) -> PreviewListenError {
        switch code {
        case EADDRINUSE: .portInUse(port: port, host: host)
        case EADDRNOTAVAIL: .hostNotLocal(host: host)
        case EACCES: .portNeedsPrivileges(port: port)
        default:
            .cannotListen(host: host, port: port, reason: String(cString: strerror(code)))
        }
    }

    /// A failure of the server before it listened, as one line.
    static func listenError(_ error: any Error, host: String, port: Int) -> PreviewListenError {
        if let io = error as? IOError { return bindError(io.errnoCode, host: host, port: port) }
        let first = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        return .cannotListen(host: host, port: port, reason: first)
    }
}

/// Closes the connection once a 400 response has been written (and says so in its
/// `Connection` header): a client that sent a malformed request gets no second chance on
/// the same connection. Hummingbird closes only after a request that itself asks to.
final class CloseAfterBadRequest: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var closing = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status == .badRequest:
            closing = true
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closing:
            closing = false
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        default:
            context.write(data, promise: promise)
        }
    }
}
