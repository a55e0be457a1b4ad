#if Inspector
import Foundation
import StatechartsTesting

/// One HTTP/1.1 request written byte for byte on a loopback socket, as an attacker would write it:
/// a path the client libraries would normalize (`//api/snapshot`), a forged `Host`, a cross-site
/// `Origin`. The answer is read until the server closes the connection, for at most 60 s (a loaded
/// machine running the whole suite on two cores can keep the server from answering for seconds).
enum RawHTTP {
    struct Answer {
        var status: Int
        var head: String
        var body: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `method target` with `headers` (a `Host` of `127.0.0.1:port` unless one is given) and
    /// `body`, and returns the answer. The socket is read on a thread of its own (``OwnThread``),
    /// not on the pool (two threads on two cores) that the server under test needs to answer.
    static func request(
        port: Int, _ method: String, _ target: String, headers: [String: String] = [:], body: String = ""
    ) async throws -> Answer {
        try await OwnThread.run { try blockingRequest(port: port, method, target, headers: headers, body: body) }
    }

    static func blockingRequest(
        port: Int, _ method: String, _ target: String, headers: [String: String], body: String
    ) throws -> Answer {
        var lines = ["\(method) \(target) HTTP/1.1"]
        var all = headers
        if all["Host"] == nil { all["Host"] = "127.0.0.1:\(port)" }
        if all["Connection"] == nil { all["Connection"] = "close" }
        if !body.isEmpty || method == "POST" { all["Content-Length"] = "\(body.utf8.count)" }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        let raw = lines.joined(separator: "\r\n") + "\r\n\r\n" + body
        let reply = try exchange(port: port, Array(raw.utf8))
        let text = String(decoding: reply, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, let status = Int(fields[1]) else {
            throw Failure(description: "no status line in \(text.prefix(200).debugDescription)")
        }
        return Answer(status: status, head: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Writes `bytes` to 127.0.0.1:`port` and reads until the server closes, or until the end of an
    /// answer's head when the answer switches protocols (a WebSocket stays open).
    static func exchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "no socket") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to 127.0.0.1:\(port)") }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            // Interrupted by a signal (other tests' child processes end and send SIGCHLD): again.
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "the server closed the connection while writing") }
            sent += count
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                throw Failure(description: "reading the answer failed: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            reply += buffer[0..<count]
            if reply.starts(with: Array("HTTP/1.1 101".utf8)), reply.count >= 4,
                String(decoding: reply, as: UTF8.self).contains("\r\n\r\n")
            {
                break
            }
        }
        return reply
    }
}
#endif
