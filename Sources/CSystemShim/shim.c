// The parts of the shim that need _GNU_SOURCE (accept4, SOCK_NONBLOCK); the rest is
// `static inline` in include/CSystemShim.h.
#define _GNU_SOURCE
#include <sys/socket.h>
#include "CSystemShim.h"
#include <sys/resource.h>
#include <unistd.h>

int csystem_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length) {
  return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int csystem_socket_nonblocking(int family) {
  return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

int csystem_set_thread_niceness(int niceness) {
  return setpriority(PRIO_PROCESS, (id_t)gettid(), niceness);
}
