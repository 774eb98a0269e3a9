import Foundation
import Testing

@testable import HaulCore
@testable import HaulTUI

/// Themes: the shipped files, errors that name file, line and key, colour mapping, config.
@Suite("Themes")
struct ThemeTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../../Themes").standardized.path

    @Test("every shipped theme loads, and the catalog lists default first")
    func shippedThemes() throws {
        let catalog = ThemeCatalog(directories: [ThemeTests.shipped])
        #expect(catalog.names == ["default", "dracula", "high-contrast", "light", "monochrome", "solarized-dark"])
        for name in catalog.names {
            let theme = try catalog.load(name)
            #expect(theme.name == name)
        }
        #expect(try catalog.load("monochrome") == Theme(name: "monochrome"))
        #expect(try catalog.load("default").style(.selectedRow).background == .indexed(6))
    }

    @Test(
        "each theme's header bar and selected row on a 256-colour terminal: no hole in the bar, every glyph coloured",
        arguments: ["default", "dracula", "high-contrast", "light", "monochrome", "solarized-dark"])
    func headerAndSelectedRow(name: String) throws {
        let theme = try ThemeCatalog(directories: [ThemeTests.shipped]).load(name)
        let state = Fixtures.state(width: 100, height: 14)
        let grid = ScreenRenderer.render(state)
        let selected = AppState.listTop + (state.selectedIndex ?? 0) - state.scrollTop
        let bar = theme.style(.header)
        var lines: [String] = []
        for y in [0, selected] {
            var x = 0
            while x < grid.width {
                let role = grid[x, y].role
                var end = x
                while end < grid.width, grid[end, y].role == role { end += 1 }
                let style = theme.style(role)
                let (fg, bg) = (
                    style.foreground.index(forTerminalColors: 256), style.background.index(forTerminalColors: 256)
                )
                let attributes = [("bold", style.bold), ("dim", style.dim), ("reverse", style.reverse)]
                    .filter(\.1).map { " " + $0.0 }.joined()
                let text = (x..<end).map { String(grid[$0, y].character) }.joined()
                lines.append(
                    "\(y == 0 ? "header" : "selected") \(x)-\(end - 1) \(role.rawValue) fg \(fg) bg \(bg)\(attributes)")
                if y == 0 {
                    // The bar is one bar: each part on a background, the bar's or a badge's own.
                    let barBackground = bar.background.index(forTerminalColors: 256)
                    let badge = [Role.headerAccent, .headerAlert, .graph].contains(role) && bg >= 0
                    let hole = barBackground >= 0 && bg != barBackground && !badge && !style.reverse
                    #expect(!hole, "\(name): \(role) '\(text)' is a hole in the header bar")
                } else if text.contains(where: { !$0.isWhitespace }) {
                    #expect(
                        (fg >= 0 && fg != bg) || style.reverse, "\(name): selected '\(text)' has no colour of its own")
                }
                x = end
            }
        }
        expectSnapshot(text: lines.joined(separator: "\n") + "\n", named: "theme-\(name)")
    }

    @Test(
        "a broken theme names the file, the line and the key",
        arguments: [
            ("[roles]\nheader = { fg = \"bluish\" }\n", "t.toml:2: roles.header.fg: 'bluish' is not a colour"),
            ("name = \"x\"\n[roles]\nheadr = { bold = true }\n", "t.toml:3: roles.headr: unknown role"),
            ("[roles]\n\nrow = { bold = 1 }\n", "t.toml:3: roles.row.bold: must be true or false"),
            ("[roles]\nrow = { blink = true }\n", "t.toml:2: roles.row.blink: unknown attribute"),
            ("colour = 3\n", "t.toml:1: colour: unknown setting"),
            ("[roles\nrow = {}\n", "t.toml:1: "),
        ])
    func brokenTheme(text: String, expected: String) {
        let error = #expect(throws: TOMLFileError.self) { try Theme.parse(text, file: "t.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "")")
    }

    @Test("an unknown theme name lists the known ones")
    func unknownName() {
        let catalog = ThemeCatalog(directories: [ThemeTests.shipped])
        let error = #expect(throws: TOMLFileError.self) { try catalog.load("neon") }
        #expect(error?.description.contains("default, dracula") == true)
    }

    @Test("colours: names, indexes and #rrggbb mapped to what the terminal has")
    func colors() {
        #expect(Color(parsing: "bright-red") == .indexed(9))
        #expect(Color(parsing: "200") == .indexed(200))
        #expect(Color(parsing: "#ff0000") == .rgb(255, 0, 0))
        #expect(Color(parsing: "#ff00") == nil && Color(parsing: "256") == nil)
        #expect(Color.rgb(255, 0, 0).index(forTerminalColors: 256) == 9)
        #expect(Color.rgb(0, 95, 135).index(forTerminalColors: 256) == 24)
        #expect(Color.rgb(0, 95, 135).index(forTerminalColors: 8) == 6)
        #expect(Color.indexed(203).index(forTerminalColors: 16) == 9)
        #expect(Color.indexed(12).index(forTerminalColors: 8) == 4)
        #expect(Color.terminalDefault.index(forTerminalColors: 256) == -1)
    }

    @Test("without colour every role keeps its attributes, so the selection still shows")
    func noColor() {
        let theme = Theme(name: "t", styles: [.selectedRow: Style(foreground: .indexed(0), background: .indexed(6))])
        #expect(theme.withoutColors.style(.selectedRow) == Style())
        #expect(Theme.attributesOnly.style(.selectedRow).reverse)
    }

    @Test("config.toml gives the theme; a bad one names file, line and key")
    func config() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.toml").path
        #expect(try ConfigFile.load(path: path) == ConfigFile())
        try "# mine\ntheme = \"dracula\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ConfigFile.load(path: path).theme == "dracula")
        try "\ntheme = 3\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: TOMLFileError.self) { try ConfigFile.load(path: path) }
        #expect(error?.description == "\(path):2: theme: must be a string: a theme name or a path")
    }

    @Test("config.toml's options: strings, numbers, booleans and lists; the theme t chose is written back alone")
    func configOptions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-config-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul/config.toml").path
        try ConfigFile.remember(theme: "dracula", at: path)
        #expect(try ConfigFile.load(path: path).theme == "dracula")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        let text = "# mine\nmax-tries = 3\ncontinue = true\ntheme = \"light\"\nheader = [\"A: 1\", \"B: 2\"]\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigFile.load(path: path)
        #expect(
            config.settings == [
                ConfigFile.Setting(name: "max-tries", values: ["3"], line: 2),
                ConfigFile.Setting(name: "continue", values: ["true"], line: 3),
                ConfigFile.Setting(name: "header", values: ["A: 1", "B: 2"], line: 5),
            ])
        try ConfigFile.remember(theme: "solarized-dark", at: path)
        let kept = try String(contentsOfFile: path, encoding: .utf8)
        #expect(kept == text.replacingOccurrences(of: "theme = \"light\"", with: "theme = \"solarized-dark\""))
        try "size = { a = 1 }\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: TOMLFileError.self) { try ConfigFile.load(path: path) }
    }
}
