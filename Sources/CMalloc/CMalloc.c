#include "CMalloc.h"

#include <malloc.h>

int haul_map_allocations_from(size_t bytes) {
    return mallopt(M_MMAP_THRESHOLD, (int)bytes);
}

int haul_trim_heaps_above(size_t bytes) {
    return mallopt(M_TRIM_THRESHOLD, (int)bytes);
}
