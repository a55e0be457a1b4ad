/// Random strings for the escaping property tests: the scalars that break escaping most often
/// (quotes, backslashes, angle brackets, controls, combining marks, bidirectional controls,
/// separators, noncharacters) mixed with any scalar of the Basic Multilingual Plane and above,
/// from a fixed seed, so that a failure is the same on every run.
struct RandomText {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    static let specials: [Unicode.Scalar] =
        Array(#""'\<>&*/=;#${}[]:,`% -"#.unicodeScalars) + [
            "\n", "\r", "\t", "\0", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}", "\u{FEFF}",
            "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{200B}", "\u{200D}", "\u{202E}", "\u{2066}", "\u{2069}",
        ]

    /// One scalar, drawn from the groups above in turn.
    mutating func scalar() -> Unicode.Scalar {
        switch below(10) {
        case 0, 1: return Self.specials[below(Self.specials.count)]
        case 2: return Unicode.Scalar(UInt32(below(0x20))) ?? "?"
        case 3: return Unicode.Scalar(UInt32(0x7F + below(0x21))) ?? "?"
        case 4: return Unicode.Scalar(UInt32(0x300 + below(0x70))) ?? "?"
        case 5: return Unicode.Scalar(UInt32(0x20 + below(0x5F))) ?? "?"
        case 6:
            // Any scalar of the BMP but the surrogates.
            let value = UInt32(below(0xF800))
            return Unicode.Scalar(value < 0xD800 ? value : value + 0x800) ?? "?"
        case 7: return Unicode.Scalar(UInt32(0x10000 + below(0x100000))) ?? "?"
        case 8: return Unicode.Scalar(UInt32(0x1F300 + below(0x300))) ?? "?"
        default: return Unicode.Scalar(UInt32(0x61 + below(26))) ?? "?"
        }
    }

    /// A string of 0 to 16 scalars; a quote followed by a combining mark now and then.
    mutating func string() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<below(17) {
            if below(8) == 0 {
                scalars.append(["\"", "'", "<", "&", "\\"][below(5)])
                scalars.append("\u{301}")
            } else {
                scalars.append(scalar())
            }
        }
        return String(scalars)
    }

    /// `count` strings.
    mutating func strings(_ count: Int) -> [String] { (0..<count).map { _ in string() } }
}

extension String {
    /// The scalars, for comparing exactly: `==` on strings compares canonical equivalence, under
    /// which `é` and `e` with a combining acute are the same.
    var scalarValues: [UInt32] { unicodeScalars.map(\.value) }
}
