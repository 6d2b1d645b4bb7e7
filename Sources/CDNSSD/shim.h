// DNS-SD's C API: Avahi's compatibility library on Linux (pkg-config avahi-compat-libdns_sd),
// the system's dns_sd on macOS. The library is linked from pkg-config's `-ldns_sd` on Linux;
// on macOS it is part of libSystem, so the module map names no library.
#include <dns_sd.h>
