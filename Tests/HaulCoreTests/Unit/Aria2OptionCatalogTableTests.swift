import Testing

@testable import HaulCore

// MARK: - Aria2OptionCatalogTableTests

/// aria2's options are each declared once: by a row of haul's tables (with aria2's letters) or
/// in the catalog's list of the rest.
@Suite("aria2's option catalog: each option declared once")
struct Aria2OptionCatalogTableTests {
    @Test("no option haul's tables give aria2's letters is listed again, and all 207 of aria2 1.37's are known")
    func declaredOnce() {
        let rows =
            DownloadOptionTable.all.compactMap { $0.aria2Scope == nil ? nil : $0.name }
            + QueueOptionTable.all.compactMap { $0.aria2Scope == nil ? nil : $0.name }
        #expect(rows.count == 51)
        for name in rows { #expect(Aria2OptionCatalog.listedHere[name] == nil, "\(name) is listed twice") }
        #expect(Aria2OptionCatalog.names.count == 207)
    }

    @Test(
        "a row's letters are aria2's scope: split IGR, max-download-limit ICGR, out IR, gid I, -j G, check-certificate at start",
        arguments: [
            ("split", Aria2OptionCatalog.Scope([.perDownload, .global, .changesWhileWaiting])),
            ("max-download-limit", [.perDownload, .changesWhileActive, .global, .changesWhileWaiting]),
            ("out", [.perDownload, .changesWhileWaiting]), ("gid", [.perDownload]),
            ("max-concurrent-downloads", [.global]), ("check-certificate", []),
        ] as [(String, Aria2OptionCatalog.Scope)])
    func letters(name: String, scope: Aria2OptionCatalog.Scope) {
        #expect(Aria2OptionCatalog.scope(of: name) == scope)
    }

    @Test("haul's own options are not aria2's")
    func haulsOwn() {
        for name in ["split-mode", "resumable-above", "max-connections-per-host", "bandwidth-schedule"] {
            #expect(Aria2OptionCatalog.scope(of: name) == nil, "\(name)")
        }
    }
}
