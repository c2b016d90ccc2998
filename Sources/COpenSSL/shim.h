#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// OpenSSL, as one umbrella header for the COpenSSL system-library module: the certificate
// check that pins a LocalSend peer by fingerprint, and SHA-256.
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#endif
