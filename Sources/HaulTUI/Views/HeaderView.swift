import HaulCore
import HaulText

// MARK: - HeaderView

/// Rows 0 and 1: counts by state (only those that fit whole), total speed and the global
/// limit (with a bandwidth schedule, when it changes next and to what); then the speed of the
/// last minute as a graph, and on the right the bytes received of
/// all known sizes with the overall ETA, and the filter when one is on.
enum HeaderView {
    static func draw(_ state: AppState, into grid: inout CellGrid) {
        grid.fill(x: 0, y: 0, count: grid.width, role: .header)
        grid.fill(x: 0, y: 1, count: grid.width, role: .header)
        var x = grid.put(" haul ", x: 0, y: 0, role: .headerAccent)
        let parts: [(Download.State, String)] = [
            (.active, "active"), (.queued, "queued"), (.paused, "paused"),
            (.complete, "done"), (.failed, "failed"), (.cancelled, "cancelled"),
        ]
        for (stateKind, word) in parts {
            let count = state.counts[stateKind, default: 0]
            guard count > 0 || stateKind == .active || stateKind == .queued else { continue }
            let text = " \(count) \(word) "
            // A count is shown whole or not at all: never `1 fai`.
            guard x + DisplayWidth.of(text) <= grid.width else { break }
            x = grid.put(text, x: x, y: 0, role: stateKind == .failed && count > 0 ? .headerAlert : .header)
        }
        // The limit says when the schedule changes it, and to what, as far as room allows.
        let speed = ScreenRenderer.speed(state.totalSpeed)
        let forms = BandwidthScheduler.Status.Detail.allCases.lazy.map { "\(speed)  \(state.limitSummary($0)) " }
        if let right = forms.first(where: { grid.width - DisplayWidth.of($0) > x }) {
            grid.put(right, x: grid.width - DisplayWidth.of(right), y: 0, role: .headerAccent)
        }

        var summary: [String] = []
        if !state.filter.isEmpty { summary.append("filter '\(TextSanitizer.visible(state.filter))'") }
        if state.isWorkingOutRows { summary.append(state.sort == .queue ? "filtering…" : "sorting…") }
        if state.totals.size > 0 {
            var total = "\(ByteCount.format(state.totals.done)) / \(ByteCount.format(state.totals.size))"
            if state.totals.remaining > 0, state.totalSpeed > 1 {
                total += "  ETA \(ScreenRenderer.duration(Double(state.totals.remaining) / state.totalSpeed))"
            }
            summary.append(total)
        }
        let summaryText = summary.isEmpty ? "" : summary.joined(separator: "  ") + " "
        let summaryX = grid.width - DisplayWidth.of(summaryText)

        // On a narrow terminal the totals come first: the graph goes when it would be a stub.
        let label = " last minute "
        guard summaryText.isEmpty || summaryX >= DisplayWidth.of(label) + 10 else {
            grid.put(" " + summaryText, x: 0, y: 1, role: .headerAccent)
            return
        }
        let graphX = grid.put(label, x: 0, y: 1, role: .header, limit: max(summaryX, 0))
        let graphRoom = min(AppState.historyLength, (summaryText.isEmpty ? grid.width : summaryX) - graphX - 1)
        let graph = sparkline(state.speedHistory, width: graphRoom)
        grid.put(graph, x: graphX, y: 1, role: .graph)
        if let peak = state.speedHistory.max(), peak > 0 {
            let peakText = " peak \(ScreenRenderer.speed(peak)) "
            let peakX = graphX + DisplayWidth.of(graph) + 1
            if peakX + DisplayWidth.of(peakText) <= (summaryText.isEmpty ? grid.width : summaryX) {
                grid.put(peakText, x: peakX, y: 1, role: .header)
            }
        }
        if !summaryText.isEmpty, summaryX > graphX { grid.put(summaryText, x: summaryX, y: 1, role: .headerAccent) }
    }

    /// The last `width` samples as block characters, scaled to the largest.
    static func sparkline(_ samples: [Double], width: Int) -> String {
        guard width > 0 else { return "" }
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let shown = samples.suffix(width)
        let peak = shown.max() ?? 0
        var text = String(repeating: " ", count: width - shown.count)
        for sample in shown {
            text.append(peak > 0 && sample > 0 ? blocks[min(max(Int(saturating: sample / peak * 7.999), 0), 7)] : " ")
        }
        return text
    }
}
