/* Scenario C's floor: the least a program can do to download a list of small files with
 * libcurl, 16 at a time, as curl -Z does (one multi handle, one thread, no queue, no store),
 * saving each body by one of two file paths:
 *
 *   creat   curl's: the file is made under its name at the first byte and written in place
 *           (a kill leaves a partial file under the final name).
 *   unnamed haul's: a file with no name (O_TMPFILE), written, marked with an extended
 *           attribute of haul's size (user.haul.source), then named (linkat), as haul names
 *           a small file: a kill leaves nothing. The file is opened and named by haul's own
 *           calls (Sources/CFiles), which this is built with.
 *
 * Usage: libcurl-loop creat|unnamed LIST [CAFILE h2|h1]   (saves into ./files, named after each
 * URL's last segment; over HTTPS, scenario D's, it trusts CAFILE and asks for HTTP/2, its
 * transfers waiting to share one connection as curl -Z's do, or for HTTP/1.1). What haul takes
 * beyond the `unnamed` figure is its own work: the start, the queue, the store, the threads.
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "CFiles.h"

enum { PARALLEL = 16 };

typedef struct {
    char path[256];  /* files/NAME */
    int descriptor;
    off_t offset;
} Job;

static int unnamed;
/* Over HTTPS: the certificate file to trust, and whether HTTP/2 is asked for. */
static const char *certificates;
static int multiplexed;

static int open_file(Job *job) {
    if (unnamed) return haul_open_unnamed("files", 0644);
    return open(job->path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
}

static size_t write_body(char *bytes, size_t size, size_t count, void *context) {
    Job *job = context;
    size_t length = size * count;
    if (job->descriptor < 0 && (job->descriptor = open_file(job)) < 0) return 0;
    if (pwrite(job->descriptor, bytes, length, job->offset) != (ssize_t)length) return 0;
    job->offset += (off_t)length;
    return length;
}

/* Names an unnamed file as haul does: the mark (a value of the length haul's takes), then
 * the name. Returns 0, or -1 with a message printed. */
static int finish(Job *job) {
    if (job->descriptor < 0) return 0;
    int failed = 0;
    if (unnamed) {
        static const char mark[] = "2\nr8ad7ojxy0vz\ncn4\ntp4bpk\n650ecbff75e734e1\ntp45tb";
        if (fsetxattr(job->descriptor, "user.haul.source", mark, sizeof mark - 1, 0) != 0 && errno != ENOTSUP) {
            perror("fsetxattr");
            failed = -1;
        }
        if (haul_link_descriptor(job->descriptor, job->path) != 0) {
            perror(job->path);
            failed = -1;
        }
    }
    close(job->descriptor);
    return failed;
}

static void add(CURLM *multi, Job *job, const char *url) {
    const char *slash = strrchr(url, '/');
    snprintf(job->path, sizeof job->path, "files/%s", slash ? slash + 1 : url);
    job->descriptor = -1;
    job->offset = 0;
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, job);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, job);
    if (certificates) {
        curl_easy_setopt(easy, CURLOPT_CAINFO, certificates);
        curl_easy_setopt(easy, CURLOPT_HTTP_VERSION,
                         multiplexed ? (long)CURL_HTTP_VERSION_2TLS : (long)CURL_HTTP_VERSION_1_1);
        curl_easy_setopt(easy, CURLOPT_PIPEWAIT, (long)multiplexed);
    }
    curl_multi_add_handle(multi, easy);
}

int main(int argc, char **argv) {
    int https = argc == 5 && (strcmp(argv[4], "h2") == 0 || strcmp(argv[4], "h1") == 0);
    if ((argc != 3 && !https) || (strcmp(argv[1], "creat") != 0 && strcmp(argv[1], "unnamed") != 0)) {
        fprintf(stderr, "usage: libcurl-loop creat|unnamed LIST [CAFILE h2|h1]\n");
        return 2;
    }
    unnamed = strcmp(argv[1], "unnamed") == 0;
    if (https) {
        certificates = argv[3];
        multiplexed = strcmp(argv[4], "h2") == 0;
    }
    FILE *list = fopen(argv[2], "r");
    if (!list) {
        perror(argv[2]);
        return 2;
    }
    char **urls = NULL;
    size_t count = 0;
    char line[4096];
    while (fgets(line, sizeof line, list)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line) continue;
        char **grown = realloc(urls, sizeof *urls * (count + 1));
        if (!grown || !(grown[count] = strdup(line))) return 1;
        urls = grown;
        count++;
    }
    fclose(list);
    if (mkdir("files", 0755) != 0 && errno != EEXIST) {
        perror("files");
        return 1;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)PARALLEL);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, (long)(4 * PARALLEL));
    Job jobs[PARALLEL];
    Job *free_jobs[PARALLEL];
    for (int index = 0; index < PARALLEL; index++) free_jobs[index] = &jobs[index];
    size_t next = 0;
    int idle = PARALLEL, status = 0;
    while (next < count && idle > 0) add(multi, free_jobs[--idle], urls[next++]);
    while (idle < PARALLEL) {
        int running;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            Job *job;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&job);
            if (message->data.result != CURLE_OK) {
                fprintf(stderr, "%s: %s\n", job->path, curl_easy_strerror(message->data.result));
                status = 1;
            }
            if (finish(job) != 0) status = 1;
            curl_multi_remove_handle(multi, message->easy_handle);
            curl_easy_cleanup(message->easy_handle);
            free_jobs[idle++] = job;
            if (next < count) add(multi, free_jobs[--idle], urls[next++]);
        }
        if (idle < PARALLEL) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    curl_multi_cleanup(multi);
    return status;
}
