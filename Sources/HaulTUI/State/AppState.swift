import HaulCore

// MARK: - AppState

/// The view model: what the screen shows, kept up to date from queue events and changed by
/// keys. `reduce` is pure (no I/O, no clock): it returns `Effect`s for the app to run, so every
/// behaviour is a unit test.
///
/// **Threading:** a value; the app owns it on the UI (main) thread.
public struct AppState: Sendable {
    public enum SortKey: String, CaseIterable, Sendable {
        case queue = "queue order", name, progress, speed, size
    }

    public enum PromptKind: Equatable, Sendable {
        case add, importFile, filter, limitSelected(String), limitGlobal
        /// The user name, then the password, a download's server asked for.
        case user(id: String, host: String)
        case password(id: String, host: String, user: String)

        var title: String {
            switch self {
            case .add: "Add URLs"
            case .importFile: "Import queue file (a path or a URL)"
            case .filter: "Filter"
            case .limitSelected: "Limit this download (2M; 0: none)"
            case .limitGlobal: "Global limit (10M; 0: none)"
            case .user(_, let host): "User name for \(host) (Esc: leave it failed)"
            case .password(_, let host, let user): "Password for \(user) at \(host)"
            }
        }

        /// Whether the text is drawn as dots.
        var isSecret: Bool {
            if case .password = self { return true }
            return false
        }
    }

    public struct Prompt: Equatable, Sendable {
        public let kind: PromptKind
        public var text: [Character] = []
        public var cursor = 0

        public var title: String { kind.title }
        /// The text as drawn: a dot for each character of a secret.
        public var shown: [Character] { kind.isSecret ? Array(repeating: "•", count: text.count) : text }
    }

    public enum Confirmation: Equatable, Sendable {
        case remove(String, deleteFile: Bool)
        case quit(active: Int)
    }

    public enum Mode: Equatable, Sendable {
        case normal, help
        case prompt(Prompt)
        case confirm(Confirmation)
    }

    public struct Message: Equatable, Sendable {
        public let text: String
        public let isError: Bool
    }

    // MARK: - Downloads

    public internal(set) var downloads: [String: Download] = [:]
    /// Queue order.
    public internal(set) var order: [String] = []
    /// Each download's index in `order`.
    var orderPosition: [String: Int] = [:]
    /// The rows shown: `order` filtered and sorted.
    public internal(set) var visible: [String] = []
    var visiblePosition: [String: Int] = [:]
    var visibleIsOrder = true
    var visibleDirty = false
    /// How many downloads are in each state.
    public internal(set) var counts: [Download.State: Int] = [:]
    /// Bytes a second of each active download.
    var activeSpeeds: [String: Double] = [:]

    // MARK: - View

    public var width: Int
    public var height: Int
    public internal(set) var selected: String?
    public internal(set) var scrollTop = 0
    public internal(set) var showDetail = false
    public internal(set) var mode = Mode.normal
    public internal(set) var filter = ""
    public internal(set) var sort = SortKey.queue
    public internal(set) var message: Message?
    /// Total speed, one sample a second, oldest first, at most `historyLength`.
    public internal(set) var speedHistory: [Double] = []
    public internal(set) var globalLimit: Int64?
    /// Downloads refused by their server whose user was already asked for credentials: asked
    /// once per refusal (`u` asks again).
    var credentialsAsked: Set<String> = []
    public internal(set) var themeName: String
    public let keyMap: KeyMap

    public static let historyLength = 60

    public init(width: Int, height: Int, themeName: String = "default", globalLimit: Int64? = nil, keyMap: KeyMap = .standard) {
        self.width = width
        self.height = height
        self.themeName = themeName
        self.globalLimit = globalLimit
        self.keyMap = keyMap
    }

    // MARK: - Reading

    public var totalSpeed: Double { activeSpeeds.values.reduce(0, +) }

    public var selectedDownload: Download? { selected.flatMap { downloads[$0] } }

    /// The selected row's index in `visible`.
    public var selectedIndex: Int? {
        guard let selected else { return nil }
        return visibleIsOrder ? orderPosition[selected] : visiblePosition[selected]
    }

    /// Rows of the queue list: the screen less the header (2), column titles (1), message line
    /// and function bar (2), and the detail pane when shown.
    public var listHeight: Int {
        let available = height - 5
        return max(showDetail ? available - detailHeight : available, 1)
    }

    /// Rows of the detail pane.
    public var detailHeight: Int {
        min(12, max((height - 5) / 2, 4))
    }

}
