/// CFiles: the Linux file calls Swift's Glibc module leaves out: <sys/xattr.h> (a saved file's
/// extended attributes, where haul keeps the ETag it was downloaded with) and renameat2 with
/// RENAME_NOREPLACE (a final rename that never replaces a file).
#ifndef HAUL_CFILES_H
#define HAUL_CFILES_H

#include <sys/types.h>
#include <sys/xattr.h>

/// Renames `from` to `to` unless `to` exists (then fails with EEXIST). Where the kernel or the
/// file system lacks RENAME_NOREPLACE, links `to` (which fails on an existing name) and
/// unlinks `from`. Returns 0, or -1 with errno set.
int haul_rename_noreplace(const char *from, const char *to);

#endif
