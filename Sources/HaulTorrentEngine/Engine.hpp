// The engine's shared parts: the session type behind `haul_ts`, and the helpers its files use.
#ifndef HAUL_TORRENT_ENGINE_HPP
#define HAUL_TORRENT_ENGINE_HPP

#include "CTorrent.h"

#include <libtorrent/add_torrent_params.hpp>
#include <libtorrent/session.hpp>
#include <libtorrent/torrent_handle.hpp>

#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#define HAUL_LT_EXPORT extern "C" __attribute__((visibility("default")))

/// A libtorrent session and the keys its torrents go by. `lock` guards the two maps and the
/// wake flags; libtorrent's own calls are made outside it.
struct haul_ts {
    lt::session session;
    std::mutex lock;
    std::map<std::uint64_t, lt::torrent_handle> handles;
    std::unordered_map<lt::torrent_handle, std::uint64_t> keys;
    std::condition_variable signal;
    /// Set by libtorrent's notify callback when alerts wait, and by `haul_ts_wake`.
    bool alerts_waiting = false;
    bool woken = false;

    explicit haul_ts(lt::session_params params) : session(std::move(params)) {}

    /// The handle of `key`, or an invalid one.
    lt::torrent_handle handle(std::uint64_t key) {
        std::lock_guard<std::mutex> guard(lock);
        auto found = handles.find(key);
        return found == handles.end() ? lt::torrent_handle() : found->second;
    }
};

namespace haul {

/// Copies `text` into `error` (of `size` bytes), cut to fit.
inline void set_error(char *error, size_t size, std::string const &text) {
    if (error == nullptr || size == 0) return;
    size_t length = std::min(text.size(), size - 1);
    std::memcpy(error, text.data(), length);
    error[length] = '\0';
}

/// The settings pack of `settings`.
lt::settings_pack settings_pack(haul_ts_settings const &settings);

/// Fills `out` from a file of `files`; `path` keeps the string `out.path` points into.
void describe_file(lt::file_storage const &files, lt::file_index_t index, haul_ts_file &out, std::string &path);

/// Marks as had, in `params` read from resume data, each piece the resume data does not vouch for
/// that is whole on disk all the same (written after the data was saved, before a crash): a v1
/// piece is read and hashed; a hole (never written) is passed over unread. A restarted torrent
/// then fetches again only the pieces that were in flight.
void vouch_for_written_pieces(lt::add_torrent_params &params);

/// The pieces of `bits` as bytes, high bit first (as BitTorrent's bitfield message).
std::vector<std::uint8_t> bitfield_bytes(lt::typed_bitfield<lt::piece_index_t> const &bits);

}  // namespace haul

#endif
