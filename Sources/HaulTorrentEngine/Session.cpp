// A session: made, set, woken, and its alerts handed out as plain events.
#include "Engine.hpp"

#include <libtorrent/alert_types.hpp>
#include <libtorrent/hex.hpp>
#include <libtorrent/ip_filter.hpp>
#include <libtorrent/session_params.hpp>
#include <libtorrent/settings_pack.hpp>
#include <libtorrent/torrent_status.hpp>
#include <libtorrent/write_resume_data.hpp>

#include <chrono>
#include <vector>

namespace haul {

lt::settings_pack settings_pack(haul_ts_settings const &settings) {
    lt::settings_pack pack;
    pack.set_str(lt::settings_pack::listen_interfaces,
                 settings.listen_interfaces != nullptr ? settings.listen_interfaces : "0.0.0.0:6881,[::]:6881");
    if (settings.peer_id_prefix != nullptr) pack.set_str(lt::settings_pack::peer_fingerprint, settings.peer_id_prefix);
    if (settings.user_agent != nullptr) pack.set_str(lt::settings_pack::user_agent, settings.user_agent);
    pack.set_bool(lt::settings_pack::enable_dht, settings.enable_dht);
    pack.set_bool(lt::settings_pack::enable_lsd, settings.enable_lsd);
    pack.set_bool(lt::settings_pack::enable_upnp, settings.enable_upnp);
    pack.set_bool(lt::settings_pack::enable_natpmp, settings.enable_natpmp);
    pack.set_bool(lt::settings_pack::allow_multiple_connections_per_ip, settings.multiple_connections_per_ip);
    pack.set_int(lt::settings_pack::download_rate_limit, settings.download_rate_limit);
    pack.set_int(lt::settings_pack::upload_rate_limit, settings.upload_rate_limit);
    if (settings.connections_limit > 0) pack.set_int(lt::settings_pack::connections_limit, settings.connections_limit);
    pack.set_int(lt::settings_pack::max_retry_port_bind, settings.retry_port_bind);
    // Blocks are written with pwrite through libtorrent's pool of open files, and pieces hashed
    // through its mapping of them: writing through the mapping took a page fault every 4 KiB
    // (twice aria2c's CPU on a 1 GiB torrent), and libtorrent's posix_disk_io opened and closed
    // the file for every 16 KiB block.
    pack.set_int(lt::settings_pack::disk_write_mode, lt::settings_pack::always_pwrite);
    // Peers connect to haul over uTP or TCP; haul connects over TCP. libtorrent tries uTP first
    // and falls back to TCP only after uTP's connect timeout: some 5 s lost on every peer that
    // speaks TCP only (aria2, and many seedboxes).
    pack.set_bool(lt::settings_pack::enable_outgoing_utp, settings.outgoing_utp);
    pack.set_bool(lt::settings_pack::enable_incoming_utp, true);
    pack.set_int(lt::settings_pack::alert_mask, lt::alert_category::error | lt::alert_category::status |
                                                    lt::alert_category::storage | lt::alert_category::peer |
                                                    lt::alert_category::tracker);
    // haul decides which torrents run (its queue's admission), not libtorrent's queueing.
    pack.set_int(lt::settings_pack::active_downloads, -1);
    pack.set_int(lt::settings_pack::active_seeds, -1);
    pack.set_int(lt::settings_pack::active_limit, -1);
    // A peer connected to before is tried again 10 s after (times one more than its failures),
    // not libtorrent's 60: a seeding torrent given more files to fetch, or any swarm of a few
    // peers, otherwise waited a minute for the seeder it had just left (seen: 54 s).
    pack.set_int(lt::settings_pack::min_reconnect_time, 10);
    // A session's end (haul's exit) waits this long at most for trackers to hear "stopped".
    pack.set_int(lt::settings_pack::stop_tracker_timeout, 1);
    return pack;
}

/// A status as the plain struct; `name` and `hash` keep the strings it points into.
static void describe_status(lt::torrent_status const &status, haul_ts_status &out, std::string &hash) {
    auto const &hashes = status.info_hashes;
    hash = hashes.has_v1() ? lt::aux::to_hex(hashes.v1) : lt::aux::to_hex(hashes.v2);
    out = haul_ts_status{};
    out.name = status.name.c_str();
    out.info_hash = hash.c_str();
    out.has_metadata = status.has_metadata;
    out.paused = bool(status.flags & lt::torrent_flags::paused);
    out.checking = status.state == lt::torrent_status::checking_files ||
                   status.state == lt::torrent_status::checking_resume_data;
    out.seeding = status.is_seeding;
    out.finished = status.is_finished;
    out.total_size = status.total;
    out.total_wanted = status.total_wanted;
    out.total_wanted_done = status.total_wanted_done;
    out.total_done = status.total_done;
    out.all_time_upload = status.all_time_upload;
    out.all_time_download = status.all_time_download;
    out.downloaded_here = status.total_payload_download;
    out.failed_bytes = status.total_failed_bytes;
    out.download_rate = status.download_payload_rate;
    out.upload_rate = status.upload_payload_rate;
    out.peers = status.num_peers;
    out.seeds = status.num_seeds;
    out.swarm_complete = status.num_complete;
    out.swarm_incomplete = status.num_incomplete;
    out.seeding_seconds = status.seeding_duration.count();
    out.pieces_done = status.num_pieces;
    if (status.has_metadata) {
        if (auto info = status.torrent_file.lock()) {
            out.piece_length = info->piece_length();
            out.piece_count = info->num_pieces();
        }
    }
}

/// Hands `alert` to `handler` as an event of `session`'s, if it is one haul uses.
static void hand_out(haul_ts *session, lt::alert *alert, haul_ts_event_handler handler, void *context) {
    haul_ts_event event{};
    std::string message;
    auto key_of = [session](lt::torrent_handle const &handle) -> std::uint64_t {
        std::lock_guard<std::mutex> guard(session->lock);
        auto found = session->keys.find(handle);
        return found == session->keys.end() ? 0 : found->second;
    };
    if (auto *update = lt::alert_cast<lt::state_update_alert>(alert)) {
        for (auto const &status : update->status) {
            haul_ts_status plain{};
            std::string hash;
            describe_status(status, plain, hash);
            haul_ts_event each{};
            each.kind = HAUL_TS_STATUS;
            each.key = key_of(status.handle);
            each.status = &plain;
            if (each.key != 0) handler(context, &each);
        }
        return;
    }
    if (auto *metadata = lt::alert_cast<lt::metadata_received_alert>(alert)) {
        event.kind = HAUL_TS_METADATA;
        event.key = key_of(metadata->handle);
    } else if (auto *finished = lt::alert_cast<lt::torrent_finished_alert>(alert)) {
        event.kind = HAUL_TS_FINISHED;
        event.key = key_of(finished->handle);
    } else if (auto *error = lt::alert_cast<lt::torrent_error_alert>(alert)) {
        message = error->error.message();
        if (error->filename() != nullptr && *error->filename() != '\0') message += std::string(": ") + error->filename();
        event.kind = HAUL_TS_ERROR;
        event.key = key_of(error->handle);
        event.code = error->error.value();
    } else if (auto *file_error = lt::alert_cast<lt::file_error_alert>(alert)) {
        message = file_error->error.message() + ": " + file_error->filename();
        event.kind = HAUL_TS_ERROR;
        event.key = key_of(file_error->handle);
        event.code = file_error->error.value();
    } else if (auto *resume = lt::alert_cast<lt::save_resume_data_alert>(alert)) {
        auto bytes = lt::write_resume_data_buf(resume->params);
        message.assign(bytes.begin(), bytes.end());
        event.kind = HAUL_TS_RESUME_DATA;
        event.key = key_of(resume->handle);
        event.data = message.data();
        event.size = message.size();
    } else if (auto *resume_failed = lt::alert_cast<lt::save_resume_data_failed_alert>(alert)) {
        // A torrent with nothing new to save says so as a failure: not an error of the torrent's.
        if (resume_failed->error == lt::errors::resume_data_not_modified) return;
        message = "resume data: " + resume_failed->error.message();
        event.kind = HAUL_TS_ERROR;
        event.key = key_of(resume_failed->handle);
    } else if (auto *hash_failed = lt::alert_cast<lt::hash_failed_alert>(alert)) {
        event.kind = HAUL_TS_HASH_FAILED;
        event.key = key_of(hash_failed->handle);
        event.number = static_cast<int>(hash_failed->piece_index);
    } else if (auto *banned = lt::alert_cast<lt::peer_ban_alert>(alert)) {
        message = banned->endpoint.address().to_string() + ":" + std::to_string(banned->endpoint.port());
        event.kind = HAUL_TS_PEER_BANNED;
        event.key = key_of(banned->handle);
    } else if (auto *tracker = lt::alert_cast<lt::tracker_error_alert>(alert)) {
        message = std::string(tracker->tracker_url()) + ": " + tracker->error.message();
        if (*tracker->failure_reason() != '\0') message += std::string(" (") + tracker->failure_reason() + ")";
        event.kind = HAUL_TS_TRACKER_ERROR;
        event.key = key_of(tracker->handle);
    } else if (auto *listening = lt::alert_cast<lt::listen_succeeded_alert>(alert)) {
        if (listening->socket_type != lt::socket_type_t::tcp) return;
        event.kind = HAUL_TS_LISTENING;
        event.number = listening->port;
        message = listening->address.to_string();
    } else if (auto *listen_failed = lt::alert_cast<lt::listen_failed_alert>(alert)) {
        message = std::string(listen_failed->listen_interface()) + ": " + listen_failed->error.message();
        event.kind = HAUL_TS_LISTEN_FAILED;
        event.number = listen_failed->port;
    } else if (auto *removed = lt::alert_cast<lt::torrent_removed_alert>(alert)) {
        event.kind = HAUL_TS_REMOVED;
        {
            std::lock_guard<std::mutex> guard(session->lock);
            auto found = session->keys.find(removed->handle);
            if (found != session->keys.end()) {
                event.key = found->second;
                session->handles.erase(found->second);
                session->keys.erase(found);
            }
        }
    } else {
        return;
    }
    event.message = message.c_str();
    handler(context, &event);
}

}  // namespace haul

HAUL_LT_EXPORT haul_ts *haul_lt_create(const haul_ts_settings *settings, char *error, size_t error_size) {
    try {
        lt::session_params params(haul::settings_pack(*settings));
        auto *session = new haul_ts(std::move(params));
        // Every peer in the global class, the one the rate limits cap: libtorrent leaves peers on
        // loopback and the LAN uncapped by default, and haul's limits, as aria2's, cap them all.
        lt::ip_filter everyone;
        auto global = 1u << static_cast<std::uint32_t>(lt::session::global_peer_class_id);
        everyone.add_rule(lt::make_address("0.0.0.0"), lt::make_address("255.255.255.255"), global);
        everyone.add_rule(lt::make_address("::"), lt::make_address("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), global);
        session->session.set_peer_class_filter(everyone);
        session->session.set_alert_notify([session] {
            std::lock_guard<std::mutex> guard(session->lock);
            session->alerts_waiting = true;
            session->signal.notify_all();
        });
        return session;
    } catch (std::exception const &failure) {
        haul::set_error(error, error_size, failure.what());
        return nullptr;
    }
}

HAUL_LT_EXPORT void haul_lt_destroy(haul_ts *session) {
    session->session.set_alert_notify([] {});
    delete session;
}

HAUL_LT_EXPORT void haul_lt_apply(haul_ts *session, const haul_ts_settings *settings) {
    session->session.apply_settings(haul::settings_pack(*settings));
}

HAUL_LT_EXPORT int haul_lt_listen_port(haul_ts *session) { return session->session.listen_port(); }

HAUL_LT_EXPORT bool haul_lt_wait(haul_ts *session, int timeout_ms) {
    std::unique_lock<std::mutex> guard(session->lock);
    session->signal.wait_for(guard, std::chrono::milliseconds(timeout_ms),
                             [session] { return session->alerts_waiting || session->woken; });
    bool waiting = session->alerts_waiting;
    session->woken = false;
    return waiting;
}

HAUL_LT_EXPORT void haul_lt_wake(haul_ts *session) {
    std::lock_guard<std::mutex> guard(session->lock);
    session->woken = true;
    session->signal.notify_all();
}

HAUL_LT_EXPORT void haul_lt_pop(haul_ts *session, haul_ts_event_handler handler, void *context) {
    {
        std::lock_guard<std::mutex> guard(session->lock);
        session->alerts_waiting = false;
    }
    std::vector<lt::alert *> alerts;
    session->session.pop_alerts(&alerts);
    for (auto *alert : alerts) haul::hand_out(session, alert, handler, context);
}

HAUL_LT_EXPORT void haul_lt_post_status(haul_ts *session) { session->session.post_torrent_updates(); }
