#define _GNU_SOURCE
#include "CFiles.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int haul_rename_noreplace(const char *from, const char *to) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    if (link(from, to) != 0) return -1;
    return unlink(from);
}

int haul_open_unnamed(const char *directory, mode_t mode) {
    return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}

/* Whether linking a descriptor itself (AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH) was
   refused once: then every link goes through /proc/self/fd. Set once, read by any thread. */
static _Atomic int empty_path_refused = 0;

int haul_link_descriptor(int descriptor, const char *to) {
    /* The descriptor itself first: no walk through /proc for each file. */
    if (!empty_path_refused) {
        if (linkat(descriptor, "", AT_FDCWD, to, AT_EMPTY_PATH) == 0) return 0;
        if (errno != ENOENT && errno != EPERM) return -1;
        empty_path_refused = 1;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", descriptor);
    return linkat(AT_FDCWD, path, AT_FDCWD, to, AT_SYMLINK_FOLLOW);
}
