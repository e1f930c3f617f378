#ifndef CSYSTEMSHIM_H
#define CSYSTEMSHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#endif
