/* What the file system alone costs a small file by each way of saving it, without any download:
 * 1000 files of 16 KiB (scenario C's) written one after another on one thread, each way in its
 * own new directory, the ways taking turns, ROUNDS times.
 *
 *   creat    curl's: made under its name (O_CREAT), written, closed.
 *   unnamed  a file with no name (O_TMPFILE), written, then named (linkat), closed.
 *   marked   haul's small-file path: unnamed, with haul's mark (an extended attribute) set
 *            before the name.
 *
 * The unnamed ways open and name their files with haul's own calls (Sources/CFiles), which this
 * is built with; every file is reached by its path, as curl and haul reach theirs.
 *
 * Usage: file-paths DIR ROUNDS   (DIR on the file system the runs write to). Prints each way's
 * median and best microseconds a file. The files are deleted after each timing, untimed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "CFiles.h"

enum { FILES = 1000, SIZE = 16384, WAYS = 3, MAX_ROUNDS = 999 };

static const char *const names[WAYS] = {"creat", "unnamed", "marked"};

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Writes FILES files into the directory at `path` the given way; 0, or -1 with the failing call
 * said. */
static int save_all(const char *path, int way, const char *body) {
    /* As haul's mark (SavedFileMark): a version, the URI's hash, size, mtime, gid and the
     * server's time, a line each in base 36, under 60 bytes so that ext4 keeps it in the inode. */
    static const char mark[] = "2\n1x2kq9c0a7b3f\nco0\nt6y8hc\n0123456789abcdef\nt6y8gk";
    for (int i = 0; i < FILES; i++) {
        char name[PATH_MAX + 8];
        snprintf(name, sizeof name, "%s/f%03d", path, i);
        int descriptor = way == 0 ? open(name, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644)
                                  : haul_open_unnamed(path, 0644);
        if (descriptor < 0) return perror(way == 0 ? "open" : "open O_TMPFILE"), -1;
        if (write(descriptor, body, SIZE) != SIZE) return perror("write"), -1;
        if (way == 2 && fsetxattr(descriptor, "user.haul.source", mark, sizeof mark - 1, 0) != 0)
            return perror("fsetxattr"), -1;
        if (way > 0 && haul_link_descriptor(descriptor, name) != 0) return perror("linkat"), -1;
        close(descriptor);
    }
    return 0;
}

static void remove_all(const char *path) {
    DIR *listing = opendir(path);
    if (listing == NULL) return;
    for (struct dirent *entry; (entry = readdir(listing)) != NULL;) {
        if (entry->d_name[0] != '.') unlinkat(dirfd(listing), entry->d_name, 0);
    }
    closedir(listing);
    rmdir(path);
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = argc == 3 ? atoi(argv[2]) : 0;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: file-paths DIR ROUNDS (1 to %d)\n", MAX_ROUNDS);
        return 2;
    }
    static char body[SIZE];
    memset(body, 'x', sizeof body);
    double took[WAYS][MAX_ROUNDS];
    for (int round = 0; round < rounds; round++) {
        for (int way = 0; way < WAYS; way++) {
            char path[PATH_MAX];
            if (snprintf(path, sizeof path, "%s/%s-%d", argv[1], names[way], round) >= (int)sizeof path) {
                fprintf(stderr, "file-paths: %s is too long a path\n", argv[1]);
                return 2;
            }
            if (mkdir(path, 0755) != 0) return perror(path), 1;
            double start = now_us();
            if (save_all(path, way, body) != 0) return 1;
            took[way][round] = (now_us() - start) / FILES;
            remove_all(path);
        }
    }
    for (int way = 0; way < WAYS; way++) {
        qsort(took[way], rounds, sizeof took[way][0], ascending);
        printf("%s %.1f %.1f\n", names[way], took[way][rounds / 2], took[way][0]);
    }
    return 0;
}
