/// COpenSSL: OpenSSL's EVP digests (libcrypto, already loaded by libcurl) for file checksums.
#ifndef HAUL_COPENSSL_H
#define HAUL_COPENSSL_H
#include <openssl/evp.h>
#endif
