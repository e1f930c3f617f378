#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>

// OpenSSL spells these as macros, which Swift cannot call: wrap them as functions.

/// `SSL_CTX_set_min_proto_version`: TLS 1.3 only when `tls13_only`, else TLS 1.2 or newer.
static inline int copenssl_ctx_set_min_version(SSL_CTX *context, int tls13_only) {
  return (int)SSL_CTX_set_min_proto_version(context, tls13_only ? TLS1_3_VERSION : TLS1_2_VERSION);
}

/// `SSL_CTX_set1_groups_list`: the key exchange groups (curves) offered, most preferred first.
static inline int copenssl_ctx_set_groups(SSL_CTX *context, const char *groups) {
  return (int)SSL_CTX_set1_groups_list(context, groups);
}

/// Turns off compression and renegotiation; the client's order of cipher suites wins, as
/// every suite allowed is strong.
static inline uint64_t copenssl_ctx_set_server_options(SSL_CTX *context) {
  return (uint64_t)SSL_CTX_set_options(context, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
}

/// Lets `SSL_write` return after writing part of a buffer and accept a moved buffer on retry.
static inline long copenssl_ctx_set_partial_writes(SSL_CTX *context) {
  return SSL_CTX_set_mode(
    context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}
/// A new HMAC-SHA256 context keyed with `key`, or NULL. Free with `EVP_MAC_CTX_free`.
static inline EVP_MAC_CTX *copenssl_hmac_sha256_new(const unsigned char *key, size_t length) {
  EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
  if (mac == NULL) return NULL;
  EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
  EVP_MAC_free(mac);
  if (context == NULL) return NULL;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", (char *)"SHA256", 0), OSSL_PARAM_construct_end()};
  if (EVP_MAC_init(context, key, length, params) != 1) {
    EVP_MAC_CTX_free(context);
    return NULL;
  }
  return context;
}

/// The HMAC of `message` under the key `context` was made with, into `output` (32 bytes);
/// 1 on success. The context is reused without setting the key up again.
static inline int copenssl_hmac_sha256(
  EVP_MAC_CTX *context, const unsigned char *message, size_t length, unsigned char *output
) {
  size_t written = 0;
  return EVP_MAC_init(context, NULL, 0, NULL) == 1 && EVP_MAC_update(context, message, length) == 1
    && EVP_MAC_final(context, output, &written, 32) == 1 && written == 32;
}
#endif
