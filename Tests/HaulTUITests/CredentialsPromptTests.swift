import Foundation
import HaulNet
import Testing

@testable import HaulCore
@testable import HaulTUI

/// A download its server refused with 401 asks for a user name and a password, drawn as dots.
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

    @Test("a 401 opens the user prompt once; the password is never drawn; Enter retries with both")
    func asksOnce() {
        var state = Fixtures.state()
        let (download, refusal) = refused(Fixtures.mixed[1])
        apply(refusal, to: &state)
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

        // Esc leaves it failed, and the same refusal does not ask again; u does.
        apply(refusal, to: &state)
        _ = state.reduce(.keys([.escape]))
        apply(refusal, to: &state)
        #expect(state.mode == .normal)
        _ = state.reduce(.keys([.character("u")]))
        if case .prompt(let again) = state.mode {
            #expect(again.title.contains("User name"))
        } else {
            Issue.record("u did not ask")
        }
    }

    @Test("a refusal while another prompt is open does not take it over")
    func doesNotInterrupt() {
        var state = Fixtures.state()
        _ = state.reduce(.keys([.character("a")]))
        apply(refused(Fixtures.mixed[1]).1, to: &state)
        if case .prompt(let prompt) = state.mode {
            #expect(prompt.kind == .add)
        } else {
            Issue.record("the add prompt closed")
        }
    }
}
