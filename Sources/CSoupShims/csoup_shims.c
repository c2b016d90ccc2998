#include "csoup_shims.h"

SoupServer *csoup_server_new_tls(GTlsCertificate *certificate) {
    return soup_server_new("tls-certificate", certificate, "server-header", "ShareSheet", NULL);
}

SoupServer *csoup_server_new_plain(void) {
    return soup_server_new("server-header", "ShareSheet", NULL);
}

gulong csoup_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data,
                            GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}
