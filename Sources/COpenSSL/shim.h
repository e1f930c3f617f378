#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>

// OpenSSL spells these as macros, which Swift cannot call: wrap them as functions.

/// `SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)`.
static inline int copenssl_ctx_require_tls12(SSL_CTX *context) {
  return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// Turns off compression and renegotiation and prefers the server's cipher order.
static inline uint64_t copenssl_ctx_set_server_options(SSL_CTX *context) {
  return (uint64_t)SSL_CTX_set_options(
    context, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
}

/// Lets `SSL_write` return after writing part of a buffer and accept a moved buffer on retry.
static inline long copenssl_ctx_set_partial_writes(SSL_CTX *context) {
  return SSL_CTX_set_mode(
    context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}
#endif
