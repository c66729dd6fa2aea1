import Foundation
import Testing
import NIOCore
@testable import FlipbookPreview
#if canImport(Glibc)
    import Glibc
#endif

/// The preview server's connections: a 400 response closes its connection, an idle
/// connection is closed after the idle timeout, a good response keeps the connection;
/// and a host or port it cannot listen on is one error line before anything starts.
@Suite(.serialized) struct PreviewConnectionTests {
    /// A raw TCP client: what a browser or a probe sends, byte for byte.
    final class Client {
        let fd: Int32

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        }

        deinit { close(fd) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
        }

        /// What arrives within `seconds` (or until `done` says the reply is whole), and
        /// whether the server closed the connection (an orderly close or a reset).
        ///
        /// It polls without blocking and sleeps between polls, so a waiting test holds no
        /// thread of the cooperative pool (two threads on a two-core machine), on which the
        /// server's request tasks may have to run.
        func receive(for seconds: Double, until done: (String) -> Bool = { _ in false }) async
            -> (text: String, closed: Bool)
        {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let n = buffer.withUnsafeMutableBytes {
                    recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                let failure = n < 0 ? errno : 0
                if n == 0 || (n < 0 && ![EAGAIN, EWOULDBLOCK, EINTR].contains(failure)) {
                    return (String(decoding: received, as: UTF8.self), true)
                }
                if n > 0 {
                    received += buffer[0..<n]
                    if done(String(decoding: received, as: UTF8.self)) {
                        return (String(decoding: received, as: UTF8.self), false)
                    }
                    continue
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return (String(decoding: received, as: UTF8.self), false)
        }
    }

    /// Runs a server on a free port for `body`, then stops it.
    func withServer(idleTimeout: TimeAmount = .seconds(30), _ body: (Int) async throws -> Void)
        async throws
    {
        let dir = try PreviewSessionTests.folder(), path = dir + "/s.yaml"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PreviewSessionTests.scene.write(toFile: path, atomically: true, encoding: .utf8)
        var server = PreviewServer(
            scenePath: path, port: 0, prepare: PreviewSessionTests.prepare(path))
        server.idleTimeout = idleTimeout
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        let running = Task { [server] in try await server.run { continuation.yield($0) } }
        defer { running.cancel() }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next(), let port = URL(string: url)?.port else {
            Issue.record("the server did not start"); return
        }
        try await body(port)
    }

    @Test func aBadRequestClosesItsConnection() async throws {
        try await withServer { port in
            let client = try Client(port: port)
            client.send("GET /frames/abc.png HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // receive returns as soon as the server closes; the long bound is for a loaded CI machine.
            let started = Date()
            let reply = await client.receive(for: 120)
            let waited = String(format: "%.1f s", Date().timeIntervalSince(started))
            #expect(reply.text.hasPrefix("HTTP/1.1 400"), "after \(waited): \(reply)")
            #expect(reply.text.lowercased().contains("connection: close"))
            #expect(reply.closed)
        }
    }

    @Test func aGoodResponseKeepsItsConnectionUntilTheIdleTimeout() async throws {
        try await withServer(idleTimeout: .milliseconds(700)) { port in
            let client = try Client(port: port)
            client.send("GET /state.json HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // The whole reply (a JSON object), however long a loaded machine takes.
            let reply = await client.receive(for: 20) { $0.hasSuffix("}") }
            #expect(reply.text.hasPrefix("HTTP/1.1 200"), "\(reply.text)")
            #expect(!reply.closed)
            // Idle from now on: closed after 0.7 s (receive returns at the close).
            #expect(await client.receive(for: 30).closed)
        }
    }

    @Test func aConnectionThatSendsNothingTimesOut() async throws {
        try await withServer(idleTimeout: .milliseconds(500)) { port in
            let client = try Client(port: port)
            let started = Date()
            #expect(await client.receive(for: 30).closed)
            #expect(Date().timeIntervalSince(started) >= 0.4)
        }
    }

    @Test func aBusyPortOrABadHostIsOneLine() throws {
        let taken = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(taken) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(taken, $0, length)
                _ = listen(taken, 1)
                _ = getsockname(taken, $0, &length)
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        #expect(throws: PreviewListenError.self) {
            try PreviewServer.checkListening(host: "127.0.0.1", port: port)
        }
        do { try PreviewServer.checkListening(host: "127.0.0.1", port: port) } catch {
            #expect(error == .portInUse(port: port, host: "127.0.0.1"))
            #expect(error.description == "port \(port): already in use on 127.0.0.1")
            #expect(
                error.message(hostSetting: "--host", portSetting: "--port")
                    == "--port \(port): already in use on 127.0.0.1")
        }
        for host in ["10.255.255.254", "no such host.invalid"] {
            do {
                try PreviewServer.checkListening(host: host, port: 0)
                Issue.record("\(host) accepted")
            } catch {
                #expect(error.description.hasPrefix("host \(host): not an"), "\(error)")
                #expect(!error.description.contains("\n"))
            }
        }
        // NIO's bind failure, should the port be taken after the check, says the same.
        let nio = PreviewServer.listenError(
            IOError(errnoCode: EADDRINUSE, reason: "bind"), host: "127.0.0.1", port: port)
        #expect(nio == .portInUse(port: port, host: "127.0.0.1"))
    }
}
