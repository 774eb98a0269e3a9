#include "CXattr.h"
