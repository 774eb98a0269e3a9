#define _GNU_SOURCE
#include "CTorrent.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// MARK: - The engine's functions

/// Each function of the engine: (result, name, parameters, arguments). The engine exports it as
/// `haul_lt_` + the name after `haul_ts_`.
#define HAUL_TS_FUNCTIONS(X)                                                                      \
    X(bool, inspect,                                                                              \
      (const char *bytes, size_t size, haul_ts_metainfo_handler on_metainfo,                      \
       haul_ts_file_handler on_file, void *context, char *error, size_t error_size),              \
      (bytes, size, on_metainfo, on_file, context, error, error_size))                            \
    X(haul_ts *, create, (const haul_ts_settings *settings, char *error, size_t error_size),      \
      (settings, error, error_size))                                                              \
    X(int, listen_port, (haul_ts * session), (session))                                           \
    X(bool, add, (haul_ts * session, const haul_ts_add_params *params, char *error,               \
                  size_t error_size),                                                             \
      (session, params, error, error_size))                                                       \
    X(bool, wait, (haul_ts * session, int timeout_ms), (session, timeout_ms))                     \
    X(bool, files, (haul_ts * session, uint64_t key, haul_ts_file_handler on_file, void *context), \
      (session, key, on_file, context))                                                           \
    X(bool, peers, (haul_ts * session, uint64_t key, haul_ts_peer_handler on_peer, void *context), \
      (session, key, on_peer, context))                                                           \
    X(bool, trackers,                                                                             \
      (haul_ts * session, uint64_t key, haul_ts_tracker_handler on_tracker, void *context),       \
      (session, key, on_tracker, context))                                                        \
    X(bool, pieces,                                                                               \
      (haul_ts * session, uint64_t key, haul_ts_bitfield_handler on_bitfield, void *context),     \
      (session, key, on_bitfield, context))

/// Those that return nothing: (name, parameters, arguments).
#define HAUL_TS_PROCEDURES(X)                                                                     \
    X(destroy, (haul_ts * session), (session))                                                    \
    X(apply, (haul_ts * session, const haul_ts_settings *settings), (session, settings))          \
    X(remove, (haul_ts * session, uint64_t key, bool delete_files), (session, key, delete_files))  \
    X(pause, (haul_ts * session, uint64_t key), (session, key))                                   \
    X(resume, (haul_ts * session, uint64_t key), (session, key))                                  \
    X(prioritize_files, (haul_ts * session, uint64_t key, const uint8_t *priorities, size_t count), \
      (session, key, priorities, count))                                                          \
    X(set_limits, (haul_ts * session, uint64_t key, int download, int upload, int max_connections), \
      (session, key, download, upload, max_connections))                                          \
    X(connect_peers, (haul_ts * session, uint64_t key, const char *const *peers, size_t count),   \
      (session, key, peers, count))                                                               \
    X(rename_file, (haul_ts * session, uint64_t key, int index, const char *path),                \
      (session, key, index, path))                                                                \
    X(release, (haul_ts * session, uint64_t key), (session, key))                                 \
    X(save_resume, (haul_ts * session, uint64_t key, bool only_if_modified),                      \
      (session, key, only_if_modified))                             \
    X(post_status, (haul_ts * session), (session))                                                \
    X(wake, (haul_ts * session), (session))                                                       \
    X(pop, (haul_ts * session, haul_ts_event_handler handler, void *context),                     \
      (session, handler, context))

#define HAUL_TS_FIELD(type, name, parameters, arguments) type(*name) parameters;
#define HAUL_TS_PROCEDURE_FIELD(name, parameters, arguments) void(*name) parameters;

/// The engine's functions, set once by `load` (under `loading`) and only read after.
static struct {
    HAUL_TS_FUNCTIONS(HAUL_TS_FIELD)
    HAUL_TS_PROCEDURES(HAUL_TS_PROCEDURE_FIELD)
} engine;

static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;
static bool loaded;
static char load_error[512];

/// Looks up `name` in `library`, noting the first that is missing in `load_error`.
static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL && load_error[0] == '\0') {
        snprintf(load_error, sizeof load_error, "the torrent engine has no %s (a different version of haul's?)",
                 name);
    }
    return found;
}

static void load(const char *path) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why != NULL ? why : "dlopen failed");
        return;
    }
#define HAUL_TS_LOOKUP(type, name, parameters, arguments)                                        \
    *(void **)&engine.name = symbol(library, "haul_lt_" #name);
#define HAUL_TS_PROCEDURE_LOOKUP(name, parameters, arguments)                                    \
    *(void **)&engine.name = symbol(library, "haul_lt_" #name);
    HAUL_TS_FUNCTIONS(HAUL_TS_LOOKUP)
    HAUL_TS_PROCEDURES(HAUL_TS_PROCEDURE_LOOKUP)
    if (load_error[0] != '\0') {
        dlclose(library);
        return;
    }
    loaded = true;
}

bool haul_torrent_load(const char *path, char *error, size_t error_size) {
    pthread_mutex_lock(&loading);
    if (!loaded && load_error[0] == '\0') load(path);
    bool result = loaded;
    if (!result && error != NULL && error_size > 0) snprintf(error, error_size, "%s", load_error);
    pthread_mutex_unlock(&loading);
    return result;
}

// MARK: - Calls through

#define HAUL_TS_CALL(type, name, parameters, arguments)                                          \
    type haul_ts_##name parameters { return engine.name arguments; }
#define HAUL_TS_PROCEDURE_CALL(name, parameters, arguments)                                      \
    void haul_ts_##name parameters { engine.name arguments; }
HAUL_TS_FUNCTIONS(HAUL_TS_CALL)
HAUL_TS_PROCEDURES(HAUL_TS_PROCEDURE_CALL)
