#ifndef CSOUP_SHIMS_H
#define CSOUP_SHIMS_H

// The libsoup/GObject calls Swift cannot import: soup_server_new and g_signal_connect are
// variadic or macros.
#include <libsoup/soup.h>

/// A SoupServer that serves HTTPS with `certificate` (a GTlsCertificate with its private key).
SoupServer *csoup_server_new_tls(GTlsCertificate *certificate);

/// A plain-HTTP SoupServer.
SoupServer *csoup_server_new_plain(void);

/// Connects `handler` to `signal` of `instance` (g_signal_connect_data), with `data` released by
/// `destroy` when the handler is disconnected or the instance is finalized.
gulong csoup_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data,
                            GClosureNotify destroy);

#endif
