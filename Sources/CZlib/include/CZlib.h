/// CZlib: <zlib.h> for Swift, with a function for the inflateInit2 macro.
#ifndef HAUL_CZLIB_H
#define HAUL_CZLIB_H

#include <zlib.h>

/// inflateInit2 for gzip streams (windowBits 16 + MAX_WBITS).
int haul_inflate_init_gzip(z_stream *stream);

#endif
