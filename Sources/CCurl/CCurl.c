#define _GNU_SOURCE
#include "CCurl.h"

#include <dlfcn.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

// MARK: - libcurl, loaded

/// libcurl's functions HaulNet may call first, which wait for the load or make it: (type,
/// name, parameters, arguments).
#define HAUL_CURL_ENTRY_POINTS(X)                                                                 \
    X(curl_version_info_data *, curl_version_info, (CURLversion version), (version))              \
    X(const char *, curl_easy_strerror, (CURLcode code), (code))                                  \
    X(CURL *, curl_easy_init, (void), ())                                                         \
    X(CURLM *, curl_multi_init, (void), ())                                                       \
    X(CURLSH *, curl_share_init, (void), ())                                                      \
    X(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *string),      \
      (list, string))

/// Those given a handle or a list, which one of the entry points made after the load: they call
/// libcurl at once (the transfer loop calls them most).
#define HAUL_CURL_FUNCTIONS(X)                                                                    \
    X(CURLcode, curl_easy_pause, (CURL *handle, int bitmask), (handle, bitmask))                  \
    X(CURLMcode, curl_multi_cleanup, (CURLM *multi), (multi))                                     \
    X(CURLMcode, curl_multi_add_handle, (CURLM *multi, CURL *handle), (multi, handle))            \
    X(CURLMcode, curl_multi_remove_handle, (CURLM *multi, CURL *handle), (multi, handle))         \
    X(CURLMcode, curl_multi_perform, (CURLM *multi, int *running), (multi, running))              \
    X(CURLMcode, curl_multi_poll,                                                                 \
      (CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready),      \
      (multi, extra, count, timeout, ready))                                                      \
    X(CURLMcode, curl_multi_wakeup, (CURLM *multi), (multi))                                      \
    X(CURLMsg *, curl_multi_info_read, (CURLM *multi, int *queued), (multi, queued))              \
    X(CURLMcode, curl_multi_socket_action,                                                        \
      (CURLM *multi, curl_socket_t socket, int events, int *running),                             \
      (multi, socket, events, running))                                                           \
    X(CURLMcode, curl_multi_timeout, (CURLM *multi, long *milliseconds), (multi, milliseconds))   \
    X(CURLSHcode, curl_share_cleanup, (CURLSH *share), (share))

/// Those that return nothing, also given a handle or a list.
#define HAUL_CURL_PROCEDURES(X)                                                                   \
    X(curl_easy_cleanup, (CURL *handle), (handle))                                                \
    X(curl_easy_reset, (CURL *handle), (handle))                                                  \
    X(curl_slist_free_all, (struct curl_slist *list), (list))

/// The typed forms of libcurl's variadic functions HaulNet calls, each given a handle:
/// (name, result, libcurl's function, handle type, key type, value type).
#define HAUL_CURL_TYPED(X)                                                                        \
    X(haul_easy_setopt_long, CURLcode, curl_easy_setopt, CURL, CURLoption, long)                  \
    X(haul_easy_setopt_off_t, CURLcode, curl_easy_setopt, CURL, CURLoption, curl_off_t)           \
    X(haul_easy_setopt_string, CURLcode, curl_easy_setopt, CURL, CURLoption, const char *)        \
    X(haul_easy_setopt_pointer, CURLcode, curl_easy_setopt, CURL, CURLoption, void *)             \
    X(haul_easy_setopt_slist, CURLcode, curl_easy_setopt, CURL, CURLoption, struct curl_slist *)  \
    X(haul_easy_setopt_data_callback, CURLcode, curl_easy_setopt, CURL, CURLoption,               \
      haul_data_callback)                                                                         \
    X(haul_easy_getinfo_long, CURLcode, curl_easy_getinfo, CURL, CURLINFO, long *)                \
    X(haul_easy_getinfo_off_t, CURLcode, curl_easy_getinfo, CURL, CURLINFO, curl_off_t *)         \
    X(haul_easy_getinfo_string, CURLcode, curl_easy_getinfo, CURL, CURLINFO, const char **)       \
    X(haul_easy_getinfo_pointer, CURLcode, curl_easy_getinfo, CURL, CURLINFO, void **)            \
    X(haul_share_setopt_long, CURLSHcode, curl_share_setopt, CURLSH, CURLSHoption, long)          \
    X(haul_easy_setopt_prereq_callback, CURLcode, curl_easy_setopt, CURL, CURLoption,             \
      haul_prereq_callback)                                                                       \
    X(haul_multi_setopt_long, CURLMcode, curl_multi_setopt, CURLM, CURLMoption, long)             \
    X(haul_multi_setopt_pointer, CURLMcode, curl_multi_setopt, CURLM, CURLMoption, void *)        \
    X(haul_multi_setopt_socket_callback, CURLMcode, curl_multi_setopt, CURLM, CURLMoption,        \
      haul_socket_callback)

#define HAUL_CURL_FIELD(type, name, parameters, arguments) type(*name) parameters;
#define HAUL_CURL_PROCEDURE_FIELD(name, parameters, arguments) void(*name) parameters;

/// libcurl's functions, set once by `load` (under `loading`) and only read after.
static struct {
    HAUL_CURL_ENTRY_POINTS(HAUL_CURL_FIELD)
    HAUL_CURL_FUNCTIONS(HAUL_CURL_FIELD)
    HAUL_CURL_PROCEDURES(HAUL_CURL_PROCEDURE_FIELD)
    CURLcode (*curl_global_init)(long flags);
    // The variadic ones, which the typed wrappers below call.
    CURLcode (*curl_easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*curl_easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLSHcode (*curl_share_setopt)(CURLSH *share, CURLSHoption option, ...);
    CURLMcode (*curl_multi_setopt)(CURLM *multi, CURLMoption option, ...);
} curl;

/// OpenSSL's `SSL_get0_alpn_selected`, from the libssl libcurl loaded; NULL when libcurl uses
/// another TLS library.
static void (*alpn_selected)(const void *ssl, const unsigned char **protocol, unsigned int *length);

static pthread_once_t loading = PTHREAD_ONCE_INIT;
/// Whether `haul_curl_preload` started a load on a thread of its own.
static atomic_bool preloading;
/// Empty once libcurl is loaded; else what went wrong.
static char load_error[512];

/// `name` in `library`, or NULL with `load_error` saying which is missing.
static void *resolve(void *library, const char *name) {
    void *function = dlsym(library, name);
    if (function == NULL) {
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s (libcurl 7.68 or later is needed)", name);
    }
    return function;
}

/// Opens libcurl (its symbols bound as they are first called, as when linked), finds its
/// functions and initializes it. Runs once, through `loading`.
static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *error = dlerror();
        snprintf(load_error, sizeof load_error, "%s (Debian's package libcurl4 provides it)",
                 error != NULL ? error : "libcurl.so.4 could not be loaded");
        return;
    }
#define HAUL_CURL_RESOLVE(name) \
    if ((*(void **)&curl.name = resolve(library, #name)) == NULL) return;
#define HAUL_CURL_RESOLVE_FUNCTION(type, name, parameters, arguments) HAUL_CURL_RESOLVE(name)
#define HAUL_CURL_RESOLVE_PROCEDURE(name, parameters, arguments) HAUL_CURL_RESOLVE(name)
    HAUL_CURL_ENTRY_POINTS(HAUL_CURL_RESOLVE_FUNCTION)
    HAUL_CURL_FUNCTIONS(HAUL_CURL_RESOLVE_FUNCTION)
    HAUL_CURL_PROCEDURES(HAUL_CURL_RESOLVE_PROCEDURE)
    HAUL_CURL_RESOLVE(curl_global_init)
    HAUL_CURL_RESOLVE(curl_easy_setopt)
    HAUL_CURL_RESOLVE(curl_easy_getinfo)
    HAUL_CURL_RESOLVE(curl_share_setopt)
    HAUL_CURL_RESOLVE(curl_multi_setopt)
    // Looked up through libcurl's own dependencies; optional.
    *(void **)&alpn_selected = dlsym(library, "SSL_get0_alpn_selected");
    // Before any other libcurl call: every one waits for this load.
    CURLcode initialized = curl.curl_global_init(CURL_GLOBAL_DEFAULT);
    if (initialized != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl could not be initialized: %s",
                 curl.curl_easy_strerror(initialized));
    }
}

/// Loads libcurl unless loaded (waiting for a load under way); one that cannot be is said on
/// stderr and ends the process.
static void require(void) {
    pthread_once(&loading, load);
    if (load_error[0] != '\0') {
        fprintf(stderr, "haul: %s\n", load_error);
        exit(1);
    }
}

void haul_curl_require(void) {
    require();
}

/// What the preloading thread runs after the load, and the CPUs it may then run on when it was
/// placed away from its creator for the load (`placed`).
struct continuation {
    haul_curl_continuation then;
    void *context;
    bool placed;
    cpu_set_t everywhere;
};

static void *preload(void *argument) {
    struct continuation *continuation = argument;
    pthread_once(&loading, load);
    if (continuation->placed) {
        pthread_setaffinity_np(pthread_self(), sizeof continuation->everywhere, &continuation->everywhere);
    }
    haul_curl_continuation then = continuation->then;
    void *context = continuation->context;
    free(continuation);
    then(context, load_error[0] == '\0');
    return NULL;
}

bool haul_curl_preload(haul_curl_continuation then, void *context) {
    struct continuation *continuation = malloc(sizeof *continuation);
    pthread_attr_t attributes;
    if (continuation == NULL || pthread_attr_init(&attributes) != 0) {
        free(continuation);
        return false;
    }
    *continuation = (struct continuation){.then = then, .context = context, .placed = false};
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // Away from the caller's CPU when there is another; with one, beside the caller.
    cpu_set_t others;
    if (sched_getaffinity(0, sizeof others, &others) == 0) {
        continuation->everywhere = others;
        int here = sched_getcpu();
        if (here >= 0) CPU_CLR(here, &others);
        continuation->placed = CPU_COUNT(&others) > 0;
        if (continuation->placed) pthread_attr_setaffinity_np(&attributes, sizeof others, &others);
    }
    pthread_t thread;
    bool started = pthread_create(&thread, &attributes, preload, continuation) == 0;
    pthread_attr_destroy(&attributes);
    if (!started) {
        free(continuation);
        return false;
    }
    atomic_store(&preloading, true);
    // curl_global_init's own set-up of OpenSSL, done here beside the load: reading OpenSSL's
    // configuration file was most of it (0.7 ms after the load, before the first transfer).
    // The flags are libcurl's (ossl_init); OpenSSL runs each stage once, so libcurl then finds
    // it done, with the same configuration.
    OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG | OPENSSL_INIT_ENGINE_ALL_BUILTIN, NULL);
    return true;
}

void haul_curl_settle(void) {
    if (atomic_load(&preloading)) pthread_once(&loading, load);
}

#define HAUL_CURL_ENTER(type, name, parameters, arguments) \
    type haul_##name parameters {                          \
        require();                                         \
        return curl.name arguments;                        \
    }
#define HAUL_CURL_CALL(type, name, parameters, arguments) \
    type haul_##name parameters { return curl.name arguments; }
#define HAUL_CURL_CALL_PROCEDURE(name, parameters, arguments) \
    void haul_##name parameters { curl.name arguments; }
#define HAUL_CURL_CALL_TYPED(name, result, function, handle_type, key_type, value_type) \
    result name(handle_type *handle, key_type key, value_type value) { return curl.function(handle, key, value); }
HAUL_CURL_ENTRY_POINTS(HAUL_CURL_ENTER)
HAUL_CURL_FUNCTIONS(HAUL_CURL_CALL)
HAUL_CURL_PROCEDURES(HAUL_CURL_CALL_PROCEDURE)
HAUL_CURL_TYPED(HAUL_CURL_CALL_TYPED)

CURLcode haul_easy_setopt_xferinfo_callback(CURL *handle, haul_xferinfo_callback value) {
    return curl.curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
CURLcode haul_easy_setopt_seek_callback(CURL *handle, haul_seek_callback value) {
    return curl.curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, value);
}

bool haul_easy_negotiated_h2(CURL *handle) {
    struct curl_tlssessioninfo *session = NULL;
    if (alpn_selected == NULL || curl.curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK ||
        session == NULL || session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL) {
        return false;
    }
    const unsigned char *protocol = NULL;
    unsigned int length = 0;
    alpn_selected(session->internals, &protocol, &length);
    return length == 2 && protocol != NULL && protocol[0] == 'h' && protocol[1] == '2';
}
