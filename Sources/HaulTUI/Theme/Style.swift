// MARK: - Style

/// How a role looks: colours and attributes. Attributes alone must keep a theme readable, for
/// terminals without colour and for `NO_COLOR`.
package struct Style: Equatable, Sendable {
    package var foreground: Color = .terminalDefault
    package var background: Color = .terminalDefault
    package var bold = false
    package var dim = false
    package var reverse = false
    package var underline = false

    package init(
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
    package var withoutColors: Style {
        Style(bold: bold, dim: dim, reverse: reverse, underline: underline)
    }
}
