/// CFiles: the Linux file calls Swift's Glibc module leaves out: <sys/xattr.h> (a saved file's
/// extended attributes, where haul keeps the ETag it was downloaded with), renameat2 with
/// RENAME_NOREPLACE (a final rename that never replaces a file), and files with no name
/// (O_TMPFILE) given one only when they are complete (linkat).
#ifndef HAUL_CFILES_H
#define HAUL_CFILES_H

#include <sys/types.h>
#include <sys/xattr.h>

/// Renames `from` to `to` unless `to` exists (then fails with EEXIST). Where the kernel or the
/// file system lacks RENAME_NOREPLACE, links `to` (which fails on an existing name) and
/// unlinks `from`. Returns 0, or -1 with errno set.
int haul_rename_noreplace(const char *from, const char *to);

/// Opens a new regular file with no name in `directory` (O_TMPFILE), for writing. It has a name
/// only once `haul_link_descriptor` gives it one; closed without, the kernel frees it. Returns
/// the descriptor, or -1 with errno set (EOPNOTSUPP, EISDIR or EINVAL where the file system or
/// kernel cannot).
int haul_open_unnamed(const char *directory, mode_t mode);

/// Gives the file open as `descriptor` the name `to`, never replacing one (EEXIST when `to` is
/// taken). Returns 0, or -1 with errno set.
int haul_link_descriptor(int descriptor, const char *to);

#endif
