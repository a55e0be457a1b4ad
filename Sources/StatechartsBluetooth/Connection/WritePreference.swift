/// How the messenger writes its chunks.
public enum WritePreference: String, Hashable, Sendable, Codable {
    /// Without response when the characteristic allows it (the fast way, paced by the central's
    /// flow control), else with response.
    case automatic
    /// Always with response: each chunk confirmed before the next.
    case withResponse
    /// Always without response; a characteristic that does not allow it fails discovery.
    case withoutResponse
}
