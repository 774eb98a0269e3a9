/// CMalloc: glibc's allocator settings, which Swift's Glibc module leaves out (<malloc.h>).
#ifndef HAUL_CMALLOC_H
#define HAUL_CMALLOC_H

#include <stddef.h>

/// Makes every allocation of `bytes` or more a mapping of its own, given back to the system
/// when freed, and stops glibc raising that threshold as large blocks are freed (its default).
/// Returns 0 when glibc refused.
int haul_map_allocations_from(size_t bytes);

/// Gives freed memory at the top of a heap back to the system only once `bytes` of it are
/// free there (glibc's default: 128 KiB, which returns and faults in again a large buffer
/// freed and allocated again at once). Returns 0 when glibc refused.
int haul_trim_heaps_above(size_t bytes);

#endif
