// MARK: - Style

/// How a role looks: colours and attributes. Attributes alone must keep a theme readable, for
/// terminals without colour and for `NO_COLOR`.
public struct Style: Equatable, Sendable {
    public var foreground: Color = .terminalDefault
    public var background: Color = .terminalDefault
    public var bold = false
    public var dim = false
    public var reverse = false
    public var underline = false

    public init(
        foreground: Color = .terminalDefault, background: Color = .terminalDefault,
        bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The same attributes without colours.
    public var withoutColors: Style {
        Style(bold: bold, dim: dim, reverse: reverse, underline: underline)
    }
}
