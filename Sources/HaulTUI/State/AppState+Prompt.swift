import Foundation
import HaulCore

// MARK: - Prompt

extension AppState {
    /// Line editing in a prompt: characters insert at the cursor; ←/→, Home/End move it;
    /// Backspace and Del delete; Enter submits; Esc leaves. The filter applies as it is typed.
    mutating func edit(_ prompt: inout Prompt, _ key: Key) -> [Effect] {
        switch key {
        case .character(let character):
            prompt.text.insert(character, at: prompt.cursor)
            prompt.cursor += 1
        case .left: prompt.cursor = max(prompt.cursor - 1, 0)
        case .right: prompt.cursor = min(prompt.cursor + 1, prompt.text.count)
        case .home: prompt.cursor = 0
        case .end: prompt.cursor = prompt.text.count
        case .backspace:
            if prompt.cursor > 0 {
                prompt.text.remove(at: prompt.cursor - 1)
                prompt.cursor -= 1
            }
        case .delete:
            if prompt.cursor < prompt.text.count { prompt.text.remove(at: prompt.cursor) }
        case .escape:
            mode = .normal
            if prompt.kind == .filter { setFilter("") }
            return []
        case .enter:
            mode = .normal
            return submit(prompt)
        default:
            break
        }
        mode = .prompt(prompt)
        if prompt.kind == .filter { setFilter(String(prompt.text)) }
        return []
    }

    mutating func setFilter(_ text: String) {
        guard text != filter else { return }
        filter = text
        refreshVisible(force: true)
        if selected == nil || selectedIndex == nil { selected = visible.first }
        keepSelectionInView()
    }

    private mutating func submit(_ prompt: Prompt) -> [Effect] {
        let text = String(prompt.text).trimmingCharacters(in: .whitespaces)
        switch prompt.kind {
        case .filter:
            if !text.isEmpty {
                let shown =
                    isWorkingOutRows
                    ? "looking through \(order.count)…" : "showing \(visible.count) of \(order.count)"
                say("\(shown) (Esc clears the filter)", error: false)
            }
            return []
        case .add:
            let uris = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !uris.isEmpty else { return [] }
            let problems = uris.compactMap { QueueEntry.uriProblem($0).map(TextSanitizer.visible) }
            let good = uris.filter { QueueEntry.uriProblem($0) == nil }
            if let first = problems.first {
                say(good.isEmpty ? first : "added \(good.count); \(problems.count) refused: \(first)", error: true)
            } else {
                let hidden =
                    filter.isEmpty ? "" : "; the filter '\(TextSanitizer.visible(filter))' may hide it: Esc clears it"
                say("added \(good.count) download\(good.count == 1 ? "" : "s")\(hidden)", error: false)
            }
            return good.isEmpty ? [] : [.add(good)]
        case .importFile:
            guard !text.isEmpty else { return [] }
            return [.importFile(text)]
        case .limitSelected(let id):
            guard let limit = parseLimit(text) else { return [] }
            let name = TextSanitizer.visible(AppState.name(of: downloads[id]))
            say(limit.map { "limit for \(name): \(ByteCount.format($0))/s" } ?? "no limit for \(name)", error: false)
            return [.setLimit(id, limit)]
        case .user(let id, let host):
            guard !text.isEmpty else { return [] }
            mode = .prompt(Prompt(kind: .password(id: id, host: host, user: text)))
            return []
        case .password(let id, _, let user):
            // Not trimmed: spaces may belong to a password.
            credentialsAsked.remove(id)
            say("retrying as \(TextSanitizer.visible(user))", error: false)
            return [.authenticate(id, user: user, password: String(prompt.text))]
        case .limitGlobal:
            guard let limit = parseLimit(text) else { return [] }
            globalLimit = limit
            say(limit.map { "global limit: \(ByteCount.format($0))/s" } ?? "no global limit", error: false)
            return [.setGlobalLimit(limit)]
        }
    }

    // MARK: - Credentials

    /// A download its server refused with 401 is said to need a login, once per refusal: `u`
    /// opens the prompt. A prompt never opens by itself, so it never takes keys typed for
    /// something else (the next URLs being added).
    mutating func tellOfRefusal(_ download: Download) {
        guard download.state == .failed, activity[download.id]?.response?.statusCode == 401,
            !credentialsAsked.contains(download.id)
        else { return }
        credentialsAsked.insert(download.id)
        say("\(TextSanitizer.visible(download.shownName)) needs a login: select it and press u", error: true)
    }

    /// Says that `download`, which the user retried, failed again, and why; a 401 is told by
    /// `tellOfRefusal` instead.
    mutating func tellOfFailureAfterRetry(_ download: Download) {
        guard download.state == .failed, let times = retriedByHand[download.id],
            activity[download.id]?.response?.statusCode != 401
        else { return }
        let again = times == 1 ? "again" : "again (retried \(times) times)"
        let why = download.failureNote ?? download.lastError ?? "failed"
        say("\(TextSanitizer.visible(download.shownName)) failed \(again): \(TextSanitizer.visible(why))", error: true)
    }

    /// Opens the user-name prompt for `download`; the password prompt follows.
    mutating func askForCredentials(_ download: Download) {
        let host = download.uris.first.flatMap { URL(string: $0)?.host } ?? "the server"
        mode = .prompt(Prompt(kind: .user(id: download.id, host: TextSanitizer.visible(host))))
    }

    /// The limit `text` asks for (`.some(nil)`: none, for empty or 0), or nil after telling
    /// the user that the text is not a speed.
    private mutating func parseLimit(_ text: String) -> Int64?? {
        if text.isEmpty || text == "0" { return .some(nil) }
        do {
            return .some(try ByteCount.parse(text))
        } catch {
            // The advice first: a long entry is what the message line's end cuts off.
            say("use a speed such as 500K or 2M (0: no limit), not '\(TextSanitizer.visible(text))'", error: true)
            return nil
        }
    }
}
