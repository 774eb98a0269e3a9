// libHaulTorrentEngine.so exports the functions of CTorrent.h as `haul_lt_` + the name after
// `haul_ts_`; haul loads it with `haul_torrent_load` (Sources/CTorrent) and calls them through it.
#include "../../CTorrent/include/CTorrent.h"
