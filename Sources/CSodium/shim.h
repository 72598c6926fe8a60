#ifndef DWELL_CSODIUM_SHIM_H
#define DWELL_CSODIUM_SHIM_H
// libsodium (Debian's libsodium-dev): Ed25519 signatures of rule packs on platforms without
// CryptoKit. Dwell uses only sodium_init, crypto_sign_verify_detached and, in tests,
// crypto_sign_keypair and crypto_sign_detached.
#include <sodium.h>
#endif
