/// CXattr: <sys/xattr.h> for Swift (Glibc's module leaves it out): a saved file's extended
/// attributes, where haul keeps the ETag it was downloaded with.
#ifndef HAUL_CXATTR_H
#define HAUL_CXATTR_H

#include <sys/types.h>
#include <sys/xattr.h>

#endif
