// DNS-SD's C API: Avahi's compatibility library on Linux (pkg-config avahi-compat-libdns_sd),
// the system's dns_sd on macOS.
#include <dns_sd.h>
