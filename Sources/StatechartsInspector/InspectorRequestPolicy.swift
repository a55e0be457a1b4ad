#if Inspector
import Statecharts

/// What the inspector lets in: the one check every request passes, the page, the script, the API
/// and the WebSocket alike, before any route sees it.
///
/// The inspector is a server on loopback that can drive a machine, so it defends against:
/// - **another local user or program**, which does not know the token: every route needs it, in
///   the query (`?token=`) or as `Authorization: Bearer`;
/// - **a web page of another site**, open in the user's browser, which can send requests to
///   loopback: a request whose `Origin` is not the inspector's own, or whose `Sec-Fetch-Site`
///   says it comes from another site, is refused, and a `POST` must be `application/json`, which a
///   cross-site form or `text/plain` request cannot be without a preflight the server never
///   grants;
/// - **DNS rebinding**, where a name of the attacker's resolves to 127.0.0.1: a request whose
///   `Host` is not `127.0.0.1`, `localhost` or `[::1]` with the inspector's port is refused;
/// - **a path the router reads otherwise** (`//api/snapshot`, `/api/../api/chart`,
///   `/api%2Fchart`): the path is compared as sent, byte for byte, with the routes there are;
///   anything else is refused.
struct InspectorRequestPolicy: Sendable {
    /// The routes, as a request must spell them, with their methods.
    static let routes: [String: String] = [
        "/": "GET", "/index.html": "GET", "/inspector.js": "GET", "/api/chart": "GET", "/api/snapshot": "GET",
        "/api/timeline": "GET", "/api/updates": "GET", "/api/events": "POST", "/api/resume": "POST",
        "/api/clock": "POST",
    ]

    let token: String
    /// The port the server listens on, once it is bound; until then every request is refused.
    let port: Locked<Int?>

    /// The error to answer `request` with, or `nil` to let it in.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, ...
    ///   - target: The request target as sent: the path and the query, undecoded.
    ///   - header: The value of a header by its lowercased name, or `nil`.
    func refusal(method: String, target: String, header: (String) -> String?) -> InspectorError? {
        guard let port = port.withLock({ $0 }) else {
            return InspectorError("the inspector is not listening yet", status: 503)
        }
        guard let host = header("host"), Self.loopbackAuthorities(port: port).contains(host.lowercased()) else {
            return InspectorError("the inspector answers requests for 127.0.0.1:\(port) only", status: 421)
        }
        if let origin = header("origin"), !Self.loopbackOrigins(port: port).contains(origin.lowercased()) {
            return InspectorError("a request from another origin is refused", status: 403)
        }
        if let site = header("sec-fetch-site"), site != "same-origin", site != "none" {
            return InspectorError("a request from another site is refused", status: 403)
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        let query = parts.count > 1 ? String(parts[1]) : nil
        guard Self.presents(token, query: query, authorization: header("authorization")) else {
            return InspectorError("a missing or wrong token", status: 401)
        }
        guard let expected = Self.routes[path] else {
            return InspectorError("no such page", status: 404)
        }
        guard method == expected else {
            return InspectorError("\(path) takes \(expected) only", status: 405)
        }
        if method == "POST" {
            let type = header("content-type")?.split(separator: ";").first?.trimmingSpaces.lowercased()
            guard type == "application/json" else {
                return InspectorError("the request's body must be application/json", status: 415)
            }
        }
        return nil
    }

    /// `127.0.0.1:PORT`, `localhost:PORT` and `[::1]:PORT`.
    static func loopbackAuthorities(port: Int) -> Set<String> {
        ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
    }

    /// The origins let in: the page's own (`http://127.0.0.1:PORT`, ...), and the `ws://` origins
    /// that WebSocket clients outside a browser send for loopback (swift-websocket's sends
    /// `ws://127.0.0.1`). A browser sends the page's origin, always `http` or `https`, so a page of
    /// another site never has one of these.
    static func loopbackOrigins(port: Int) -> Set<String> {
        let hosts = ["127.0.0.1", "localhost", "[::1]"]
        return Set(
            hosts.map { "http://\($0):\(port)" } + hosts.map { "ws://\($0):\(port)" } + hosts.map { "ws://\($0)" })
    }

    /// Whether a request whose query is `query` (the part after `?`, undecoded) and whose
    /// `Authorization` header is `authorization` carries `token`.
    static func presents(_ token: String, query: String?, authorization: String?) -> Bool {
        if let authorization, constantTimeEquals(authorization, "Bearer " + token) { return true }
        guard let query else { return false }
        return query.split(separator: "&").contains { item in
            let parts = item.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == "token" && constantTimeEquals(String(parts[1]), token)
        }
    }

    /// Compares two strings in time that depends on their lengths only, not on where they differ.
    static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Whether `token` can be a token: 16 to 256 of the characters a URL carries as they are
    /// (letters, digits, `-._~`), so that it goes in the page's address and markup unescaped.
    static func isValidToken(_ token: String) -> Bool {
        (16...256).contains(token.utf8.count)
            && token.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
#endif
