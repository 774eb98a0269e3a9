import Foundation

// MARK: - FrameStats

/// How long frames took, and how long a key took to show: what the benchmark reads
/// (`haul --frame-stats FILE`), never a test's timing. A frame is timed twice: haul's own work
/// (the view model rendered into a cell grid and the changed cells handed to curses), and
/// that plus the terminal taking the output, which waits on the terminal when it reads slowly.
package struct FrameStats: Sendable {
    private var workMilliseconds: [Double] = []
    private var frameMilliseconds: [Double] = []
    private var keyMilliseconds: [Double] = []

    package init() {}

    mutating func recordFrame(work: Double, withOutput milliseconds: Double, afterKey: Double?) {
        workMilliseconds.append(work)
        frameMilliseconds.append(milliseconds)
        if let afterKey { keyMilliseconds.append(afterKey) }
    }

    /// `frames N`, then mean, p95 and max of frame time and of key-to-screen time, in ms.
    package var report: String {
        func summary(_ name: String, _ values: [Double]) -> String {
            guard !values.isEmpty else { return "\(name): none" }
            let sorted = values.sorted()
            let mean = values.reduce(0, +) / Double(values.count)
            let p95 = sorted[min(Int(Double(sorted.count) * 0.95), sorted.count - 1)]
            return String(
                format: "%@: n=%d mean=%.2fms p95=%.2fms max=%.2fms", name, values.count, mean, p95, sorted.last ?? 0)
        }
        return summary("frame work", workMilliseconds) + "\n" + summary("frame with output", frameMilliseconds) + "\n"
            + summary("key-to-screen", keyMilliseconds) + "\n"
    }
}
