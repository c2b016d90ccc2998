#include "csoup_shims.h"

SoupServer *csoup_server_new_tls(GTlsCertificate *certificate) {
    return soup_server_new("tls-certificate", certificate, "server-header", "ShareSheet", NULL);
}

SoupServer *csoup_server_new_plain(void) {
    return soup_server_new("server-header", "ShareSheet", NULL);
}
