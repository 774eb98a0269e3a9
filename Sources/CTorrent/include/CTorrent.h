/// CTorrent: haul's BitTorrent engine (libtorrent-rasterbar 2.0) as a small C interface, so that
/// Swift sees no C++ and no Boost.
///
/// The engine is a shared library of its own, `libHaulTorrentEngine.so` (Sources/HaulTorrentEngine,
/// C++ over libtorrent), that haul loads the first time a torrent is asked for, not when it starts:
/// libtorrent and the C++ runtime it brings would otherwise be mapped and relocated at every start,
/// for the many runs that fetch no torrent. `haul_torrent_load` finds and loads it; every other
/// function here calls the engine's own (`haul_lt_` + the same name), and must not be called
/// before a load succeeded.
///
/// Threads: a session's functions may be called from any thread (libtorrent's session and torrent
/// handles are), except `haul_ts_wait` and `haul_ts_pop`, which one thread at a time calls.
/// Strings given in are copied before the call returns; strings and buffers given out (in an event
/// or an entry) live until the handler returns.
#ifndef HAUL_CTORRENT_H
#define HAUL_CTORRENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// MARK: - Loading the engine

/// Loads the engine from `path` (a file name: the loader's search; a path: that file), once; later
/// calls return what the first did. On failure, `error` (of `error_size` bytes) says why.
bool haul_torrent_load(const char *path, char *error, size_t error_size);

// MARK: - Metainfo

/// A file of a torrent, as its metainfo names it (or as the session has it).
typedef struct {
    /// The path inside the torrent's folder, '/'-separated, as libtorrent sanitized it.
    const char *path;
    int64_t size;
    /// Bytes of it downloaded and checked (sessions only; 0 when inspecting).
    int64_t done;
    /// Its offset in the torrent's byte stream.
    int64_t offset;
    /// 0 (skip) to 7 (top); 4 is the default.
    int priority;
    bool pad;
    bool symlink;
    bool executable;
    bool hidden;
} haul_ts_file;

/// What a torrent's metainfo says.
typedef struct {
    const char *name;
    const char *comment;
    const char *creator;
    int64_t creation_date;
    /// The v1 info hash (40 hex digits), or "" for a v2-only torrent.
    const char *info_hash_v1;
    /// The v2 info hash (64 hex digits), or "" for a v1-only torrent.
    const char *info_hash_v2;
    int64_t total_size;
    int piece_length;
    int piece_count;
    int file_count;
    bool is_private;
    /// The announce list: `tracker_count` URLs, tiers in `tracker_tiers`.
    const char *const *trackers;
    const int *tracker_tiers;
    int tracker_count;
} haul_ts_metainfo;

/// Called once with the torrent's metainfo, then once per file, in order.
typedef void (*haul_ts_metainfo_handler)(void *context, const haul_ts_metainfo *metainfo);
typedef void (*haul_ts_file_handler)(void *context, const haul_ts_file *file);

/// Reads the metainfo (a .torrent's bytes) under libtorrent's limits on size, depth, tokens and
/// pieces, and hands what it says to `on_metainfo` then each file to `on_file`. Returns false
/// with `error` set when libtorrent refuses it.
bool haul_ts_inspect(
    const char *bytes, size_t size, haul_ts_metainfo_handler on_metainfo, haul_ts_file_handler on_file,
    void *context, char *error, size_t error_size);

// MARK: - A session

typedef struct haul_ts haul_ts;

/// How a session runs. Rates are bytes a second, 0 for no limit.
typedef struct {
    /// libtorrent's `listen_interfaces`: "0.0.0.0:6881,[::]:6881", "127.0.0.1:0".
    const char *listen_interfaces;
    /// The peer id's prefix and the HTTP User-Agent sent to trackers.
    const char *peer_id_prefix;
    const char *user_agent;
    bool enable_dht;
    bool enable_lsd;
    bool enable_upnp;
    bool enable_natpmp;
    /// Whether more than one connection to one address is allowed (seeders on one host).
    bool multiple_connections_per_ip;
    /// Whether connections to peers try uTP first (peers may always connect over uTP).
    bool outgoing_utp;
    int download_rate_limit;
    int upload_rate_limit;
    /// Peer connections in all (0: libtorrent's default).
    int connections_limit;
    /// How many ports after the listen interfaces' are tried when theirs is taken.
    int retry_port_bind;
} haul_ts_settings;

/// Starts a session (libtorrent's threads) with `settings`; NULL with `error` set on failure.
haul_ts *haul_ts_create(const haul_ts_settings *settings, char *error, size_t error_size);
/// Ends a session: its torrents are dropped unsaved (ask for resume data first).
void haul_ts_destroy(haul_ts *session);
/// Applies new settings to a running session.
void haul_ts_apply(haul_ts *session, const haul_ts_settings *settings);
/// The TCP port the session listens on, 0 while it listens on none.
int haul_ts_listen_port(haul_ts *session);

/// A torrent to add, identified by `key` from then on.
typedef struct {
    uint64_t key;
    /// The metainfo (a .torrent's bytes), or NULL with `magnet` set.
    const char *metainfo;
    size_t metainfo_size;
    const char *magnet;
    /// Resume data an earlier run saved (`HAUL_TS_RESUME_DATA`), or NULL.
    const char *resume;
    size_t resume_size;
    const char *save_path;
    /// Trackers, web seeds and peers ("host:port") besides those the metainfo names.
    const char *const *trackers;
    size_t tracker_count;
    const char *const *web_seeds;
    size_t web_seed_count;
    const char *const *peers;
    size_t peer_count;
    /// A priority (0–7) per file, or NULL for the default.
    const uint8_t *file_priorities;
    size_t file_priority_count;
    /// Files saved under another path than the metainfo's: `renamed_count` indexes and paths.
    const int *renamed_indexes;
    const char *const *renamed_paths;
    size_t renamed_count;
    int max_connections;
    int download_limit;
    int upload_limit;
    bool paused;
    /// Trust the files on disk as whole, without checking them (`--bt-seed-unverified`).
    bool seed_unverified;
    /// Fetch the metadata (a magnet link's) but write no piece until `haul_ts_release`: its
    /// files' names are checked first.
    bool hold;
} haul_ts_add_params;

/// Adds a torrent; false with `error` set when libtorrent refuses it.
bool haul_ts_add(haul_ts *session, const haul_ts_add_params *params, char *error, size_t error_size);
/// Removes a torrent (and its files when `delete_files`); `HAUL_TS_REMOVED` follows.
void haul_ts_remove(haul_ts *session, uint64_t key, bool delete_files);
void haul_ts_pause(haul_ts *session, uint64_t key);
void haul_ts_resume(haul_ts *session, uint64_t key);
/// Sets a priority (0–7) per file.
void haul_ts_prioritize_files(haul_ts *session, uint64_t key, const uint8_t *priorities, size_t count);
/// A torrent's own rate limits (0: none) and peer connections (0: the session's).
void haul_ts_set_limits(haul_ts *session, uint64_t key, int download, int upload, int max_connections);
/// Adds peers ("host:port") to a torrent.
void haul_ts_connect_peers(haul_ts *session, uint64_t key, const char *const *peers, size_t count);
/// Saves file `index` under `path` (relative to the save path) instead.
void haul_ts_rename_file(haul_ts *session, uint64_t key, int index, const char *path);
/// Lets a torrent added with `hold` download.
void haul_ts_release(haul_ts *session, uint64_t key);
/// Asks for a torrent's resume data: `HAUL_TS_RESUME_DATA` (or an error event) follows; with
/// `only_if_modified`, nothing follows when nothing changed since the last.
void haul_ts_save_resume(haul_ts *session, uint64_t key, bool only_if_modified);
/// Asks for a `HAUL_TS_STATUS` event per torrent whose status changed since the last ask.
void haul_ts_post_status(haul_ts *session);

// MARK: - Events

typedef enum {
    /// A torrent's status (`status`).
    HAUL_TS_STATUS = 1,
    /// A magnet link's metadata arrived (its files: `haul_ts_files`).
    HAUL_TS_METADATA,
    /// Every wanted piece is downloaded and checked.
    HAUL_TS_FINISHED,
    /// The torrent stopped on an error (`message`); `code` is nonzero for a disk error.
    HAUL_TS_ERROR,
    /// The torrent's resume data (bencoded, in `data`).
    HAUL_TS_RESUME_DATA,
    /// A piece (`number`) failed its hash check.
    HAUL_TS_HASH_FAILED,
    /// A peer (`message`: its address) was dropped for sending bad data.
    HAUL_TS_PEER_BANNED,
    /// A tracker answered with an error (`message`).
    HAUL_TS_TRACKER_ERROR,
    /// The session listens on `number` (a port), or could not (`message`).
    HAUL_TS_LISTENING,
    HAUL_TS_LISTEN_FAILED,
    /// The torrent is gone from the session.
    HAUL_TS_REMOVED,
} haul_ts_event_kind;

/// A torrent's status.
typedef struct {
    const char *name;
    const char *info_hash;
    bool has_metadata;
    bool paused;
    bool checking;
    bool seeding;
    /// Every wanted piece is had (a seeder, or a partial download whose wanted files are whole).
    bool finished;
    int64_t total_size;
    int64_t total_wanted;
    int64_t total_wanted_done;
    /// Bytes checked and on disk, wanted or not.
    int64_t total_done;
    int64_t all_time_upload;
    int64_t all_time_download;
    /// Bytes downloaded since the torrent was added to this session.
    int64_t downloaded_here;
    /// Bytes that failed their piece's hash (sent by a bad or hostile peer) and were dropped.
    int64_t failed_bytes;
    int download_rate;
    int upload_rate;
    int peers;
    int seeds;
    /// Seeds and downloaders the tracker knows of (-1: unknown).
    int swarm_complete;
    int swarm_incomplete;
    int64_t seeding_seconds;
    int piece_length;
    int piece_count;
    int pieces_done;
} haul_ts_status;

typedef struct {
    haul_ts_event_kind kind;
    uint64_t key;
    const char *message;
    const char *data;
    size_t size;
    int64_t number;
    int code;
    const haul_ts_status *status;
} haul_ts_event;

typedef void (*haul_ts_event_handler)(void *context, const haul_ts_event *event);

/// Waits up to `timeout_ms` for events; true when some are waiting, false on the time limit or
/// after `haul_ts_wake`.
bool haul_ts_wait(haul_ts *session, int timeout_ms);
/// Ends a `haul_ts_wait` under way (or the next one) at once.
void haul_ts_wake(haul_ts *session);
/// Hands each waiting event to `handler`, in order.
void haul_ts_pop(haul_ts *session, haul_ts_event_handler handler, void *context);

// MARK: - Asking about a torrent (any thread; each waits for libtorrent's network thread)

/// A torrent's files, with what of each is downloaded and its priority; false when the key is
/// unknown or the torrent has no metadata yet.
bool haul_ts_files(haul_ts *session, uint64_t key, haul_ts_file_handler on_file, void *context);

/// A peer of a torrent.
typedef struct {
    const char *ip;
    int port;
    const char *client;
    /// Its peer id, 20 bytes (as the handshake gave it; its first bytes name its client).
    const uint8_t *peer_id;
    /// The pieces it has, one bit a piece from the high bit of the first byte (as aria2's getPeers).
    const uint8_t *bitfield;
    size_t bitfield_size;
    int download_rate;
    int upload_rate;
    bool seed;
    bool choked;
    bool choking;
    bool interested;
    bool interesting;
} haul_ts_peer;

typedef void (*haul_ts_peer_handler)(void *context, const haul_ts_peer *peer);
bool haul_ts_peers(haul_ts *session, uint64_t key, haul_ts_peer_handler on_peer, void *context);

/// A tracker of a torrent, with its last message (an error, or "").
typedef struct {
    const char *url;
    int tier;
    const char *message;
    bool working;
} haul_ts_tracker;

typedef void (*haul_ts_tracker_handler)(void *context, const haul_ts_tracker *tracker);
bool haul_ts_trackers(haul_ts *session, uint64_t key, haul_ts_tracker_handler on_tracker, void *context);

/// The pieces the torrent has, one bit a piece from the high bit of the first byte, handed to
/// `on_bitfield` once; false when the key is unknown.
typedef void (*haul_ts_bitfield_handler)(void *context, const uint8_t *bits, size_t size, int piece_count);
bool haul_ts_pieces(haul_ts *session, uint64_t key, haul_ts_bitfield_handler on_bitfield, void *context);

#endif
