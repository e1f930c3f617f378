#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// pkg-config's libpq.pc adds -I/usr/include/postgresql on Debian, so the plain name resolves.
#include <libpq-fe.h>
#endif
