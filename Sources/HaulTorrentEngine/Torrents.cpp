// Torrents: added, steered and asked for their resume data.
#include "Engine.hpp"

#include <libtorrent/add_torrent_params.hpp>
#include <libtorrent/magnet_uri.hpp>
#include <libtorrent/read_resume_data.hpp>
#include <libtorrent/torrent_info.hpp>

#include <vector>

namespace haul {

/// `text` ("host:port", "[v6]:port") as an endpoint; false when it is not one.
static bool parse_endpoint(std::string const &text, lt::tcp::endpoint &out) {
    auto colon = text.rfind(':');
    if (colon == std::string::npos || colon + 1 >= text.size()) return false;
    std::string host = text.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    char *end = nullptr;
    long port = std::strtol(text.c_str() + colon + 1, &end, 10);
    if (end == nullptr || *end != '\0' || port <= 0 || port > 65535) return false;
    lt::error_code failure;
    auto address = lt::make_address(host, failure);
    if (failure) return false;
    out = lt::tcp::endpoint(address, static_cast<unsigned short>(port));
    return true;
}

/// The parameters of `params`: from resume data when there is some, else the metainfo or the
/// magnet link; false with `error` set when none of them reads.
static bool read_params(haul_ts_add_params const &params, lt::add_torrent_params &out, std::string &error) {
    lt::error_code failure;
    if (params.resume != nullptr && params.resume_size > 0) {
        out = lt::read_resume_data({params.resume, static_cast<long>(params.resume_size)}, failure);
        if (!failure) {
            if (params.save_path != nullptr) out.save_path = params.save_path;
            vouch_for_written_pieces(out);
            return true;
        }
        // Resume data that does not read is dropped: the torrent starts from its metainfo and
        // checks what is on disk.
        out = lt::add_torrent_params();
    }
    if (params.metainfo != nullptr) {
        try {
            out.ti = std::make_shared<lt::torrent_info>(
                lt::span<char const>(params.metainfo, static_cast<long>(params.metainfo_size)), lt::load_torrent_limits{},
                lt::from_span);
        } catch (lt::system_error const &refused) {
            error = refused.code().message();
            return false;
        }
        return true;
    }
    if (params.magnet != nullptr) {
        lt::parse_magnet_uri(params.magnet, out, failure);
        if (failure) {
            error = failure.message();
            return false;
        }
        return true;
    }
    error = "neither a metainfo nor a magnet link";
    return false;
}

}  // namespace haul

HAUL_LT_EXPORT bool haul_lt_add(haul_ts *session, const haul_ts_add_params *params, char *error, size_t error_size) {
    lt::add_torrent_params add;
    std::string why;
    if (!haul::read_params(*params, add, why)) {
        haul::set_error(error, error_size, why);
        return false;
    }
    add.save_path = params->save_path != nullptr ? params->save_path : ".";
    for (size_t index = 0; index < params->tracker_count; ++index) add.trackers.emplace_back(params->trackers[index]);
    for (size_t index = 0; index < params->web_seed_count; ++index) add.url_seeds.emplace_back(params->web_seeds[index]);
    for (size_t index = 0; index < params->peer_count; ++index) {
        lt::tcp::endpoint endpoint;
        if (!haul::parse_endpoint(params->peers[index], endpoint)) {
            haul::set_error(error, error_size, std::string("not a peer address (host:port): ") + params->peers[index]);
            return false;
        }
        add.peers.push_back(endpoint);
    }
    if (params->file_priorities != nullptr) {
        add.file_priorities.clear();
        for (size_t index = 0; index < params->file_priority_count; ++index) {
            add.file_priorities.push_back(lt::download_priority_t(std::min<std::uint8_t>(params->file_priorities[index], 7)));
        }
    }
    add.max_connections = params->max_connections > 0 ? params->max_connections : -1;
    add.download_limit = params->download_limit > 0 ? params->download_limit : -1;
    add.upload_limit = params->upload_limit > 0 ? params->upload_limit : -1;
    for (size_t index = 0; index < params->renamed_count; ++index) {
        add.renamed_files[lt::file_index_t(params->renamed_indexes[index])] = params->renamed_paths[index];
    }
    add.flags &= ~(lt::torrent_flags::auto_managed | lt::torrent_flags::paused | lt::torrent_flags::upload_mode);
    add.flags |= lt::torrent_flags::duplicate_is_error;
    if (params->paused) add.flags |= lt::torrent_flags::paused;
    if (params->hold) add.flags |= lt::torrent_flags::upload_mode;
    if (params->seed_unverified) add.flags |= lt::torrent_flags::seed_mode;
    lt::error_code failure;
    auto handle = session->session.add_torrent(std::move(add), failure);
    if (failure) {
        haul::set_error(error, error_size, failure.message());
        return false;
    }
    std::lock_guard<std::mutex> guard(session->lock);
    session->handles[params->key] = handle;
    session->keys[handle] = params->key;
    return true;
}

HAUL_LT_EXPORT void haul_lt_remove(haul_ts *session, uint64_t key, bool delete_files) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return;
    session->session.remove_torrent(handle, delete_files ? lt::session::delete_files : lt::remove_flags_t{});
}

HAUL_LT_EXPORT void haul_lt_pause(haul_ts *session, uint64_t key) {
    auto handle = session->handle(key);
    if (handle.is_valid()) handle.pause(lt::torrent_handle::graceful_pause);
}

HAUL_LT_EXPORT void haul_lt_resume(haul_ts *session, uint64_t key) {
    auto handle = session->handle(key);
    if (handle.is_valid()) handle.resume();
}

HAUL_LT_EXPORT void haul_lt_prioritize_files(haul_ts *session, uint64_t key, const uint8_t *priorities, size_t count) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return;
    std::vector<lt::download_priority_t> wanted;
    for (size_t index = 0; index < count; ++index) wanted.emplace_back(std::min<std::uint8_t>(priorities[index], 7));
    handle.prioritize_files(wanted);
}

HAUL_LT_EXPORT void haul_lt_set_limits(haul_ts *session, uint64_t key, int download, int upload, int max_connections) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return;
    handle.set_download_limit(download > 0 ? download : -1);
    handle.set_upload_limit(upload > 0 ? upload : -1);
    handle.set_max_connections(max_connections > 0 ? max_connections : -1);
}

HAUL_LT_EXPORT void haul_lt_connect_peers(haul_ts *session, uint64_t key, const char *const *peers, size_t count) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return;
    for (size_t index = 0; index < count; ++index) {
        lt::tcp::endpoint endpoint;
        if (haul::parse_endpoint(peers[index], endpoint)) handle.connect_peer(endpoint);
    }
}

HAUL_LT_EXPORT void haul_lt_rename_file(haul_ts *session, uint64_t key, int index, const char *path) {
    auto handle = session->handle(key);
    if (handle.is_valid()) handle.rename_file(lt::file_index_t(index), path);
}

HAUL_LT_EXPORT void haul_lt_release(haul_ts *session, uint64_t key) {
    auto handle = session->handle(key);
    if (handle.is_valid()) handle.unset_flags(lt::torrent_flags::upload_mode);
}

HAUL_LT_EXPORT void haul_lt_save_resume(haul_ts *session, uint64_t key, bool only_if_modified) {
    auto handle = session->handle(key);
    if (!handle.is_valid()) return;
    auto flags = lt::torrent_handle::save_info_dict;
    if (only_if_modified) flags |= lt::torrent_handle::only_if_modified;
    handle.save_resume_data(flags);
}
