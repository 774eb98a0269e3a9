/// CCurl: <curl/curl.h> for Swift, plus typed, non-variadic wrappers for the variadic
/// curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt forms HaulNet uses, and the
/// macros Swift cannot import.
///
/// haul does not link libcurl: it loads it (`libcurl.so.4`) when it starts, on a thread of its
/// own, while the main thread reads the command line (see `haul_curl_preload`). libcurl brings
/// some 27 libraries with it (GnuTLS for RTMP, Kerberos, LDAP...), and mapping, relocating and
/// initializing them took 4 to 6 ms of every start before `main`. So every libcurl function
/// HaulNet calls is one of the `haul_` functions below, which call libcurl's own. Those that can
/// come first (one that makes a handle or a list, or asks libcurl's version or an error's text)
/// wait for a load under way, or load it; those given a handle or a list call libcurl at once,
/// as the handle was made after the load. A libcurl that cannot be loaded ends the process with a
/// message naming it and its package (exit status 1).
#ifndef HAUL_CCURL_H
#define HAUL_CCURL_H

#include <curl/curl.h>

// MARK: - Loading libcurl

#include <stdbool.h>

/// What the thread that loaded libcurl runs next, given `context` and whether libcurl loaded.
typedef void (*haul_curl_continuation)(void *context, bool loaded);

/// Starts loading libcurl and its global state (`curl_global_init`) on a new thread, placed on
/// another CPU than the caller's when there is one, and returns; the thread then runs
/// `then(context, loaded)`, free to run on any CPU, and lives as long as `then` does. Linux
/// places a new thread on its creator's CPU, where it waits until the creator sleeps: the load
/// would then run after the caller's work, not beside it. And a thread made while another is
/// inside `dlopen` waits for the load to end (glibc's loader lock): the thread that is to use
/// libcurl (the engine's) is this one, made before the load. Meanwhile the caller sets up
/// OpenSSL as `curl_global_init` would (its configuration file read: some 0.7 ms that came
/// after the load). Returns false, having started nothing, when no thread could be made: the
/// first call loads, and `then` is not run.
bool haul_curl_preload(haul_curl_continuation then, void *context);

/// Ends the process with a message naming what is missing (exit status 1) when libcurl could
/// not be loaded, as the first call to it would; returns once it is loaded.
void haul_curl_require(void);

/// Waits for a load `haul_curl_preload` started, if one did; returns at once otherwise. The
/// process must not exit while that thread is still loading: the exit would run the libraries'
/// destructors beside their constructors, and corrupt the heap.
void haul_curl_settle(void);

// MARK: - libcurl's functions, once it is loaded

curl_version_info_data *haul_curl_version_info(CURLversion version);
const char *haul_curl_easy_strerror(CURLcode code);

CURL *haul_curl_easy_init(void);
void haul_curl_easy_cleanup(CURL *handle);
void haul_curl_easy_reset(CURL *handle);
CURLcode haul_curl_easy_pause(CURL *handle, int bitmask);

CURLM *haul_curl_multi_init(void);
CURLMcode haul_curl_multi_cleanup(CURLM *multi);
CURLMcode haul_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode haul_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode haul_curl_multi_perform(CURLM *multi, int *running);
CURLMcode haul_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout,
                               int *ready);
CURLMcode haul_curl_multi_wakeup(CURLM *multi);
CURLMsg *haul_curl_multi_info_read(CURLM *multi, int *queued);
CURLMcode haul_curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running);
CURLMcode haul_curl_multi_timeout(CURLM *multi, long *milliseconds);

CURLSH *haul_curl_share_init(void);
CURLSHcode haul_curl_share_cleanup(CURLSH *share);

struct curl_slist *haul_curl_slist_append(struct curl_slist *list, const char *string);
void haul_curl_slist_free_all(struct curl_slist *list);

/// Signature shared by CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION and CURLOPT_READFUNCTION.
typedef size_t (*haul_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
/// Signature of CURLOPT_SEEKFUNCTION.
typedef int (*haul_seek_callback)(void *userdata, curl_off_t offset, int origin);
/// Signature of CURLOPT_XFERINFOFUNCTION.
typedef int (*haul_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                      curl_off_t ultotal, curl_off_t ulnow);

/// Signature of CURLOPT_PREREQFUNCTION.
typedef int (*haul_prereq_callback)(void *userdata, char *primary_ip, char *local_ip, int primary_port,
                                    int local_port);
/// Signature of CURLMOPT_SOCKETFUNCTION.
typedef int (*haul_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *userdata, void *socketdata);

// MARK: - curl_easy_setopt

CURLcode haul_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode haul_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode haul_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode haul_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode haul_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode haul_easy_setopt_data_callback(CURL *handle, CURLoption option, haul_data_callback value);
CURLcode haul_easy_setopt_xferinfo_callback(CURL *handle, haul_xferinfo_callback value);
CURLcode haul_easy_setopt_seek_callback(CURL *handle, haul_seek_callback value);
CURLcode haul_easy_setopt_prereq_callback(CURL *handle, CURLoption option, haul_prereq_callback value);

// MARK: - curl_easy_getinfo

CURLcode haul_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode haul_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode haul_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode haul_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);

/// Whether the TLS connection of `handle`'s transfer agreed on HTTP/2 (ALPN "h2"): false over
/// plain TCP, before the handshake, or with a TLS library other than OpenSSL.
bool haul_easy_negotiated_h2(CURL *handle);

// MARK: - curl_share_setopt

CURLSHcode haul_share_setopt_long(CURLSH *handle, CURLSHoption option, long value);

// MARK: - curl_multi_setopt

CURLMcode haul_multi_setopt_long(CURLM *handle, CURLMoption option, long value);
CURLMcode haul_multi_setopt_pointer(CURLM *handle, CURLMoption option, void *value);
CURLMcode haul_multi_setopt_socket_callback(CURLM *handle, CURLMoption option, haul_socket_callback value);

// MARK: - Macros Swift does not import

static const long haul_curlpause_cont = CURLPAUSE_CONT;
static const long haul_curlpause_recv = CURLPAUSE_RECV;
static const size_t haul_writefunc_pause = CURL_WRITEFUNC_PAUSE;
static const size_t haul_readfunc_abort = CURL_READFUNC_ABORT;
static const int haul_seekfunc_ok = CURL_SEEKFUNC_OK;
static const int haul_seekfunc_fail = CURL_SEEKFUNC_FAIL;
static const long haul_http_version_2tls = CURL_HTTP_VERSION_2TLS;
static const long haul_http_version_1_1 = CURL_HTTP_VERSION_1_1;
static const CURLversion haul_curlversion_now = CURLVERSION_NOW;
static const long haul_curlpipe_multiplex = CURLPIPE_MULTIPLEX;
static const curl_socket_t haul_socket_timeout = CURL_SOCKET_TIMEOUT;
/* Basic or Digest, whichever the server asks for in its 401 challenge. */
static const long haul_auth_basic_or_digest = (long)(CURLAUTH_BASIC | CURLAUTH_DIGEST);
/// SSH logins by password only: no key file (libcurl's default is ~/.ssh/id_rsa) and no agent.
static const long haul_ssh_auth_password_only = (long)(CURLSSH_AUTH_PASSWORD | CURLSSH_AUTH_KEYBOARD);
static const long haul_lock_data_cookie = CURL_LOCK_DATA_COOKIE;
static const long haul_lock_data_ssl_session = CURL_LOCK_DATA_SSL_SESSION;
static const long haul_lock_data_dns = CURL_LOCK_DATA_DNS;

#endif
