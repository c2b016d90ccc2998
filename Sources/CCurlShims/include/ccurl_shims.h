#ifndef CCURL_SHIMS_H
#define CCURL_SHIMS_H

// Non-variadic entry points for the libcurl calls Swift cannot import (curl_easy_setopt and
// curl_easy_getinfo are variadic), one per argument type.
#include <curl/curl.h>

/// A read callback, as CURLOPT_READFUNCTION takes it.
typedef size_t (*ccurl_read_callback)(char *buffer, size_t size, size_t count, void *context);
/// A write or header callback, as CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION take it.
typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *context);
/// An SSL context callback, as CURLOPT_SSL_CTX_FUNCTION takes it (the context is an SSL_CTX *).
typedef CURLcode (*ccurl_ssl_context_callback)(CURL *handle, void *ssl_context, void *context);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_read_function(CURL *handle, ccurl_read_callback callback);
CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_data_callback callback);
CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_data_callback callback);
CURLcode ccurl_setopt_ssl_context_function(CURL *handle, ccurl_ssl_context_callback callback);
CURLcode ccurl_setopt_mime(CURL *handle, curl_mime *mime);

/// A progress callback, as CURLOPT_XFERINFOFUNCTION takes it; non-zero stops the transfer.
typedef int (*ccurl_xferinfo_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                       curl_off_t upload_total, curl_off_t uploaded);

CURLcode ccurl_setopt_xferinfo_function(CURL *handle, ccurl_xferinfo_callback callback);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);

#endif
