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

int haul_link_descriptor(int descriptor, const char *to) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", descriptor);
    if (linkat(AT_FDCWD, path, AT_FDCWD, to, AT_SYMLINK_FOLLOW) == 0) return 0;
    if (errno != ENOENT) return -1;
    /* Without /proc: linking the descriptor itself needs CAP_DAC_READ_SEARCH. */
    return linkat(descriptor, "", AT_FDCWD, to, AT_EMPTY_PATH);
}
