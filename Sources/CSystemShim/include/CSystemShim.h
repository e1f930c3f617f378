#ifndef CSYSTEMSHIM_H
#define CSYSTEMSHIM_H
// No _GNU_SOURCE here: it would change how the system headers declare `fd_set`, and this
// module must agree with Glibc's and Dispatch's. What needs _GNU_SOURCE lives in shim.c.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <errno.h>

/// `accept4` with `SOCK_NONBLOCK | SOCK_CLOEXEC`, so accepted sockets never block the loop.
int csystem_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length);

/// A non-blocking, close-on-exec TCP socket of the given family.
int csystem_socket_nonblocking(int family);

/// Gives the calling thread (not its whole process) the scheduling niceness `niceness`
/// (0 is normal, 19 the lowest); returns 0 or -1 with `errno`.
int csystem_set_thread_niceness(int niceness);

/// The calling thread's `errno`.
static inline int csystem_errno(void) { return errno; }

/// Reads the data word of an epoll event (the struct is packed on x86-64, which Swift
/// cannot import field by field).
static inline uint64_t csystem_epoll_event_data(const struct epoll_event *event) {
  return event->data.u64;
}

/// The event mask of an epoll event.
static inline uint32_t csystem_epoll_event_mask(const struct epoll_event *event) {
  return event->events;
}

/// `epoll_ctl` with a mask and a 64-bit data word.
static inline int csystem_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
  struct epoll_event event;
  event.events = events;
  event.data.u64 = data;
  return epoll_ctl(epfd, op, fd, &event);
}

/// `epoll_wait` into a caller-owned array of `capacity` events.
static inline int csystem_epoll_wait(int epfd, struct epoll_event *events, int capacity, int timeout) {
  return epoll_wait(epfd, events, capacity, timeout);
}

/// The size of one epoll event, for allocating arrays from Swift.
static inline int csystem_epoll_event_size(void) { return (int)sizeof(struct epoll_event); }

/// Arms a periodic timerfd firing every `interval_ns` nanoseconds.
static inline int csystem_timerfd_arm(int fd, long interval_ns) {
  struct itimerspec spec;
  spec.it_interval.tv_sec = interval_ns / 1000000000L;
  spec.it_interval.tv_nsec = interval_ns % 1000000000L;
  spec.it_value = spec.it_interval;
  return timerfd_settime(fd, 0, &spec, 0);
}
#endif
