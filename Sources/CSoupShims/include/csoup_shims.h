#ifndef CSOUP_SHIMS_H
#define CSOUP_SHIMS_H

// The libsoup calls Swift cannot import: soup_server_new is variadic. (Signals are connected
// through GSignals.)
#include <libsoup/soup.h>

/// A SoupServer that serves HTTPS with `certificate` (a GTlsCertificate with its private key).
SoupServer *csoup_server_new_tls(GTlsCertificate *certificate);

/// A plain-HTTP SoupServer.
SoupServer *csoup_server_new_plain(void);

#endif
