import CMalloc
import HaulNet

// MARK: - ProcessTuning

/// What haul sets up about its own process before anything else runs, in one place. None of it
/// changes what haul does; each makes its runs cheaper where a download manager spends: many
/// small files, a long queue file, the first transfer after start. What each step saved is
/// in the commit that made it and in docs/benchmarks.md, not here.
enum ProcessTuning {
    /// Runs first in `main`, while haul is one thread.
    static func apply() {
        // Grown later, with threads, the table of descriptors waits for the kernel's RCU grace
        // period as a run opens its 65th file.
        DescriptorTable.reserve()
        // A queue file's large parsing blocks are mapped on their own, so they go back to the
        // system when freed rather than stay among live small allocations; below the engine's
        // receive buffers, which every transfer takes.
        _ = haul_map_allocations_from(2 << 20)
        // The transfers' receive buffers stay in the heap for the next transfer, rather than
        // being given back (a TLB flush on every core) and faulted in again.
        _ = haul_trim_heaps_above(16 << 20)
        // libcurl and its libraries load on the other core while this thread reads the command
        // line; the loading thread then runs the engine.
        ConnectionEngine.startShared()
    }
}
