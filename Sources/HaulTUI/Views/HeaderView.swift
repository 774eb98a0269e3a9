import HaulCore

// MARK: - HeaderView

/// Rows 0 and 1: counts by state, total speed and the global limit; then the speed of the last
/// minute as a graph.
enum HeaderView {
    static func draw(_ state: AppState, into grid: inout CellGrid) {
        grid.fill(x: 0, y: 0, count: grid.width, role: .header)
        grid.fill(x: 0, y: 1, count: grid.width, role: .header)
        var x = grid.put(" haul ", x: 0, y: 0, role: .headerAccent)
        let parts: [(Download.State, String)] = [(.active, "active"), (.queued, "queued"), (.paused, "paused"),
                                                  (.complete, "done"), (.failed, "failed"), (.cancelled, "cancelled")]
        for (stateKind, word) in parts {
            let count = state.counts[stateKind, default: 0]
            guard count > 0 || stateKind == .active || stateKind == .queued else { continue }
            x = grid.put(" \(count) \(word) ", x: x, y: 0, role: stateKind == .failed && count > 0 ? .error : .header)
        }
        let limit = state.globalLimit.map { "limit \(ByteCount.format($0))/s" } ?? "no limit"
        let right = "\(ScreenRenderer.speed(state.totalSpeed))  \(limit) "
        let rightX = grid.width - DisplayWidth.of(right)
        if rightX > x { grid.put(right, x: rightX, y: 0, role: .headerAccent) }

        let label = " last minute "
        let graphX = grid.put(label, x: 0, y: 1, role: .header)
        let graph = sparkline(state.speedHistory, width: min(AppState.historyLength, grid.width - graphX - 1))
        grid.put(graph, x: graphX, y: 1, role: .graph)
        if let peak = state.speedHistory.max(), peak > 0 {
            let peakText = " peak \(ScreenRenderer.speed(peak)) "
            let peakX = graphX + DisplayWidth.of(graph) + 1
            if peakX + DisplayWidth.of(peakText) <= grid.width { grid.put(peakText, x: peakX, y: 1, role: .header) }
        }
    }

    /// The last `width` samples as block characters, scaled to the largest.
    static func sparkline(_ samples: [Double], width: Int) -> String {
        guard width > 0 else { return "" }
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let shown = samples.suffix(width)
        let peak = shown.max() ?? 0
        var text = String(repeating: " ", count: width - shown.count)
        for sample in shown {
            text.append(peak > 0 && sample > 0 ? blocks[min(Int(sample / peak * 7.999), 7)] : " ")
        }
        return text
    }
}
