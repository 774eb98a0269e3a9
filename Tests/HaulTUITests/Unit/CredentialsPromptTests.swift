import Foundation
import HaulNet
import Testing

@testable import HaulCore
@testable import HaulTUI

/// A download its server refused with 401 is said to need a login; `u` asks for a user name and
/// a password, drawn as dots. No prompt opens by itself.
@Suite("Credentials prompt")
struct CredentialsPromptTests {
    /// The events of `download` refused with 401: the response, then the failure.
    private func refused(_ download: Download) -> (Download, [DownloadEvent]) {
        var refused = download
        refused.state = .failed
        refused.uris = ["http://files.example.org/secret.bin"]
        let response = Response(url: URL(fileURLWithPath: "/"), statusCode: 401, reasonPhrase: "Unauthorized")
        let events: [DownloadEvent] = [
            .activity(id: refused.id, .response(ResponseSummary(response, redirectChain: []))),
            .stateChanged(refused, from: .active),
        ]
        return (refused, events)
    }

    private func apply(_ events: [DownloadEvent], to state: inout AppState) {
        for event in events { _ = state.reduce(.queue(event)) }
    }

    @Test("a 401 says once that a login is needed; u asks; the password is never drawn; Enter retries with both")
    func asksOnce() {
        var state = Fixtures.state()
        let (download, refusal) = refused(Fixtures.mixed[1])
        apply(refusal, to: &state)
        #expect(state.mode == .normal)
        #expect(state.message?.text == "\(download.shownName) needs a login: select it and press u")
        _ = state.reduce(.keys([.down, .character("u")]))
        guard case .prompt(let user) = state.mode else {
            Issue.record("no prompt: \(state.mode)")
            return
        }
        #expect(user.title.contains("User name for files.example.org"))
        _ = state.reduce(.keys("ann".map { .character($0) } + [.enter]))
        guard case .prompt(let password) = state.mode else {
            Issue.record("no password prompt: \(state.mode)")
            return
        }
        #expect(password.title == "Password for ann at files.example.org")
        _ = state.reduce(.keys("s3 cr".map { .character($0) }))
        if case .prompt(let typed) = state.mode { #expect(String(typed.shown) == "•••••") }
        let screen = ScreenRenderer.render(state).text
        #expect(screen.contains("•••••") && !screen.contains("s3 cr"))
        let effects = state.reduce(.keys([.enter]))
        #expect(effects == [.authenticate(download.id, user: "ann", password: "s3 cr")])
        #expect(state.mode == .normal)

        // The next refusal is told again, once; Esc leaves the prompt, the download failed.
        _ = state.reduce(.keys([.character("a"), .escape]))
        apply(refusal, to: &state)
        #expect(state.message?.isError == true && state.mode == .normal)
        _ = state.reduce(.tick(Date(timeIntervalSince1970: 100)))
        let told = state.message
        apply(refusal, to: &state)
        #expect(state.message == told, "the same refusal is not told twice")
        _ = state.reduce(.keys([.character("u")]))
        if case .prompt(let again) = state.mode {
            #expect(again.title.contains("User name"))
        } else {
            Issue.record("u did not ask")
        }
    }

    @Test("a refusal while another prompt is open does not take it over, nor the keys typed into it")
    func doesNotInterrupt() {
        var state = Fixtures.state()
        _ = state.reduce(.keys([.character("a")] + "http://x/".map { .character($0) }))
        apply(refused(Fixtures.mixed[1]).1, to: &state)
        _ = state.reduce(.keys("y.bin".map { .character($0) }))
        if case .prompt(let prompt) = state.mode {
            #expect(prompt.kind == .add && String(prompt.text) == "http://x/y.bin")
        } else {
            Issue.record("the add prompt closed")
        }
    }

    @Test("at 80 columns the user-name prompt's label is whole, above the text, which it never covers")
    func labelFits() {
        var state = Fixtures.state(width: 80, height: 24)
        let (download, refusal) = refused(Fixtures.mixed[1])
        apply(refusal, to: &state)
        _ = state.reduce(.keys([.down, .character("u")] + "user".map { .character($0) }))
        expectSnapshot(ScreenRenderer.render(state), named: "prompt-login-80x24")
        let lines = ScreenRenderer.render(state).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(download.id == state.selected)
        #expect(lines[21].hasPrefix("User name for files.example.org (Esc: leave it failed):"), "\(lines[21])")
        #expect(lines[22].hasPrefix("> user"), "\(lines[22])")
    }
}
