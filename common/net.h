/* net: addresses, sockets and the kernel's per-socket drop counter. Functions return -1 with
 * errno set (or an error text for name lookups) and leave the exit to the tool. */
#ifndef NET_H
#define NET_H
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct net_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* Numeric IPv4/IPv6 or a host name; the first address getaddrinfo offers. NULL or the
 * getaddrinfo error text. */
const char *net_resolve(const char *host, unsigned port, struct net_addr *out);
/* "127.0.0.1:22222" or "[::1]:22222" */
void net_format(const struct net_addr *a, char *buf, size_t len);
/* The address a socket is bound to (after bind to port 0, the port the kernel chose). */
int net_local(int fd, struct net_addr *out);
/* Sets SO_RCVBUF (SO_RCVBUFFORCE first, which root may use past net.core.rmem_max) and
 * returns what the kernel granted, or -1. bytes 0 leaves the default and only reads it. */
int net_rcvbuf(int fd, int bytes);
/* The same of SO_SNDBUF (SO_SNDBUFFORCE, net.core.wmem_max). */
int net_sndbuf(int fd, int bytes);
/* Receive-buffer drops the kernel counted for this UDP socket, from /proc/net/udp{,6} by the
 * socket's inode; -1 when not found. */
int64_t net_drops(int fd);
/* Kernel busy polling on a socket: SO_BUSY_POLL usecs, then SO_PREFER_BUSY_POLL when prefer,
 * SO_BUSY_POLL_BUDGET when budget is not 0. NULL, or the name of the option the kernel refused
 * (errno says why: EPERM without CAP_NET_ADMIN, ENOPROTOOPT in a kernel built without busy
 * polling). */
const char *net_busy_poll(int fd, unsigned usecs, int prefer, unsigned budget);
/* SO_REUSEPORT groups (suck -j). net_steer attaches to the group of fd (bound, SO_REUSEPORT) a
 * classic BPF program that hands each datagram to the group's socket number (the big-endian
 * 16 bits at payload offset off) mod n, and one too short to hold them to socket 0: never to a
 * socket after the first n, which is where a later joiner of the group sits. */
int net_steer(int fd, unsigned off, unsigned n);
/* How many sockets share the local address and port of fds[0] (from /proc/net/udp{,6}) that
 * are none of fds[0..n-1], n 1..64: strangers in its group. -1 when the tables cannot be read. */
int net_strangers(const int *fds, unsigned n);
/* The largest UDP payload to this address: 65507 IPv4 (a v4-mapped IPv6 address too, which
 * goes out as IPv4), 65527 IPv6. */
unsigned net_max_payload(const struct net_addr *a);
/* 1 when a is a wildcard (0.0.0.0, ::, ::ffff:0.0.0.0): bound to it, a socket takes datagrams
 * to every address of the host. */
int net_is_any(const struct net_addr *a);

#endif
