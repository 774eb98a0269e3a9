// What a metainfo says, and what a torrent of the session has: files, peers, trackers, pieces.
#include "Engine.hpp"

#include <libtorrent/announce_entry.hpp>
#include <libtorrent/hex.hpp>
#include <libtorrent/peer_info.hpp>
#include <libtorrent/torrent_info.hpp>
#include <libtorrent/torrent_status.hpp>

#include <vector>

namespace haul {

void describe_file(lt::file_storage const &files, lt::file_index_t index, haul_ts_file &out, std::string &path) {
    path = files.file_path(index);
    auto flags = files.file_flags(index);
    out = haul_ts_file{};
    out.path = path.c_str();
    out.size = files.file_size(index);
    out.offset = files.file_offset(index);
    out.priority = 4;
    out.pad = bool(flags & lt::file_storage::flag_pad_file);
    out.symlink = bool(flags & lt::file_storage::flag_symlink);
    out.executable = bool(flags & lt::file_storage::flag_executable);
    out.hidden = bool(flags & lt::file_storage::flag_hidden);
}

std::vector<std::uint8_t> bitfield_bytes(lt::typed_bitfield<lt::piece_index_t> const &bits) {
    std::vector<std::uint8_t> bytes((bits.size() + 7) / 8, 0);
    for (int index = 0; index < bits.size(); ++index) {
        if (bits.get_bit(lt::piece_index_t(index))) bytes[index / 8] |= std::uint8_t(0x80 >> (index % 8));
    }
    return bytes;
}

}  // namespace haul

HAUL_LT_EXPORT bool haul_lt_inspect(const char *bytes, size_t size, haul_ts_metainfo_handler on_metainfo,
                                    haul_ts_file_handler on_file, void *context, char *error, size_t error_size) {
    std::shared_ptr<lt::torrent_info> info;
    try {
        info = std::make_shared<lt::torrent_info>(lt::span<char const>(bytes, static_cast<long>(size)),
                                                  lt::load_torrent_limits{}, lt::from_span);
    } catch (lt::system_error const &refused) {
        haul::set_error(error, error_size, refused.code().message());
        return false;
    }
    auto const &hashes = info->info_hashes();
    std::string v1 = hashes.has_v1() ? lt::aux::to_hex(hashes.v1) : "";
    std::string v2 = hashes.has_v2() ? lt::aux::to_hex(hashes.v2) : "";
    std::vector<char const *> trackers;
    std::vector<int> tiers;
    for (auto const &tracker : info->trackers()) {
        trackers.push_back(tracker.url.c_str());
        tiers.push_back(tracker.tier);
    }
    std::string name = info->name();
    haul_ts_metainfo metainfo{};
    metainfo.name = name.c_str();
    metainfo.comment = info->comment().c_str();
    metainfo.creator = info->creator().c_str();
    metainfo.creation_date = info->creation_date();
    metainfo.info_hash_v1 = v1.c_str();
    metainfo.info_hash_v2 = v2.c_str();
    metainfo.total_size = info->total_size();
    metainfo.piece_length = info->piece_length();
    metainfo.piece_count = info->num_pieces();
    metainfo.file_count = info->num_files();
    metainfo.is_private = info->priv();
    metainfo.trackers = trackers.data();
    metainfo.tracker_tiers = tiers.data();
    metainfo.tracker_count = static_cast<int>(trackers.size());
    on_metainfo(context, &metainfo);
    auto const &files = info->files();
    for (auto index : files.file_range()) {
        haul_ts_file file;
        std::string path;
        haul::describe_file(files, index, file, path);
        on_file(context, &file);
    }
    return true;
}

HAUL_LT_EXPORT bool haul_lt_files(haul_ts *session, uint64_t key, haul_ts_file_handler on_file, void *context) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return false;
    auto info = handle.torrent_file();
    if (!info) return false;
    std::vector<std::int64_t> progress;
    handle.file_progress(progress, lt::torrent_handle::piece_granularity);
    auto priorities = handle.get_file_priorities();
    auto const &files = info->files();
    for (auto index : files.file_range()) {
        haul_ts_file file;
        std::string path;
        haul::describe_file(files, index, file, path);
        auto position = static_cast<size_t>(static_cast<int>(index));
        if (position < progress.size()) file.done = progress[position];
        if (position < priorities.size()) file.priority = static_cast<std::uint8_t>(priorities[position]);
        on_file(context, &file);
    }
    return true;
}

HAUL_LT_EXPORT bool haul_lt_peers(haul_ts *session, uint64_t key, haul_ts_peer_handler on_peer, void *context) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return false;
    std::vector<lt::peer_info> peers;
    handle.get_peer_info(peers);
    for (auto const &peer : peers) {
        std::string ip = peer.ip.address().to_string();
        auto bits = haul::bitfield_bytes(peer.pieces);
        haul_ts_peer plain{};
        plain.ip = ip.c_str();
        plain.port = peer.ip.port();
        plain.client = peer.client.c_str();
        plain.peer_id = reinterpret_cast<std::uint8_t const *>(peer.pid.data());
        plain.bitfield = bits.data();
        plain.bitfield_size = bits.size();
        plain.download_rate = peer.payload_down_speed;
        plain.upload_rate = peer.payload_up_speed;
        plain.seed = bool(peer.flags & lt::peer_info::seed);
        plain.choked = bool(peer.flags & lt::peer_info::choked);
        plain.choking = bool(peer.flags & lt::peer_info::remote_choked);
        plain.interested = bool(peer.flags & lt::peer_info::remote_interested);
        plain.interesting = bool(peer.flags & lt::peer_info::interesting);
        on_peer(context, &plain);
    }
    return true;
}

HAUL_LT_EXPORT bool haul_lt_trackers(haul_ts *session, uint64_t key, haul_ts_tracker_handler on_tracker,
                                     void *context) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return false;
    for (auto const &tracker : handle.trackers()) {
        std::string message;
        bool working = false;
        for (auto const &endpoint : tracker.endpoints) {
            for (auto const &version : endpoint.info_hashes) {
                if (version.last_error) message = version.last_error.message();
                if (!version.message.empty()) message = version.message;
                working = working || version.fails == 0;
            }
        }
        haul_ts_tracker plain{tracker.url.c_str(), tracker.tier, message.c_str(), working};
        on_tracker(context, &plain);
    }
    return true;
}

HAUL_LT_EXPORT bool haul_lt_pieces(haul_ts *session, uint64_t key, haul_ts_bitfield_handler on_bitfield,
                                   void *context) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return false;
    auto status = handle.status(lt::torrent_handle::query_pieces);
    auto bits = haul::bitfield_bytes(status.pieces);
    on_bitfield(context, bits.data(), bits.size(), status.pieces.size());
    return true;
}
