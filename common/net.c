/* net: address lookup and formatting, socket buffer sizes, the kernel's drop counter, and the
 * steering of a SO_REUSEPORT group. The drop counter is the last column of /proc/net/udp and
 * /proc/net/udp6; a socket is found there by its inode, which fstat gives for the socket's fd,
 * and the sockets beside it by its local address. */
#include "net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#ifndef SO_BUSY_POLL
#define SO_BUSY_POLL 46
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif

const char *net_resolve(const char *host, unsigned port, struct net_addr *out)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res;
	char serv[16];
	int rc;

	snprintf(serv, sizeof serv, "%u", port);
	rc = getaddrinfo(host, serv, &hints, &res);
	if (rc != 0)
		return gai_strerror(rc);
	memset(out, 0, sizeof *out);
	memcpy(&out->ss, res->ai_addr, res->ai_addrlen);
	out->len = res->ai_addrlen;
	freeaddrinfo(res);
	return NULL;
}

void net_format(const struct net_addr *a, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (a->ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&a->ss;
		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof host);
		snprintf(buf, len, "[%s]:%u", host, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)&a->ss;
		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
		snprintf(buf, len, "%s:%u", host, ntohs(s4->sin_port));
	}
}

int net_local(int fd, struct net_addr *out)
{
	memset(out, 0, sizeof *out);
	out->len = sizeof out->ss;
	return getsockname(fd, (struct sockaddr *)&out->ss, &out->len);
}

/* A socket buffer (opt, and force: its privileged twin past the sysctl's limit) set to bytes
 * when above 0; what the kernel granted, or -1. */
static int sock_buf(int fd, int opt, int force, int bytes)
{
	int got;
	socklen_t len = sizeof got;

	/* The kernel doubles the value for its bookkeeping; pass half so the granted buffer is
	 * what was asked for. */
	if (bytes > 0) {
		int half = bytes / 2;
		if (setsockopt(fd, SOL_SOCKET, force, &half, sizeof half) < 0 &&
		    setsockopt(fd, SOL_SOCKET, opt, &half, sizeof half) < 0)
			return -1;
	}
	if (getsockopt(fd, SOL_SOCKET, opt, &got, &len) < 0)
		return -1;
	return got;
}

int net_rcvbuf(int fd, int bytes)
{
	return sock_buf(fd, SO_RCVBUF, SO_RCVBUFFORCE, bytes);
}

int net_sndbuf(int fd, int bytes)
{
	return sock_buf(fd, SO_SNDBUF, SO_SNDBUFFORCE, bytes);
}

static int64_t drops_in(const char *path, unsigned long ino)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int64_t found = -1;

	if (!f)
		return -1;
	/* sl local rem st tx:rx tr:when retrnsmt uid timeout inode ref pointer drops */
	while (found < 0 && fgets(line, sizeof line, f)) {
		unsigned long inode;
		unsigned long long drops;
		if (sscanf(line, " %*s %*s %*s %*s %*s %*s %*s %*s %*s %lu %*s %*s %llu",
			   &inode, &drops) == 2 && inode == ino)
			found = (int64_t)drops;
	}
	fclose(f);
	return found;
}

int64_t net_drops(int fd)
{
	struct stat st;
	int64_t d;

	if (fstat(fd, &st) < 0)
		return -1;
	d = drops_in("/proc/net/udp", (unsigned long)st.st_ino);
	if (d < 0)
		d = drops_in("/proc/net/udp6", (unsigned long)st.st_ino);
	return d;
}

const char *net_busy_poll(int fd, unsigned usecs, int prefer, unsigned budget)
{
	int v = (int)usecs, one = 1, b = (int)budget;

	if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &v, sizeof v) < 0)
		return "SO_BUSY_POLL";
	if (prefer && setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &one, sizeof one) < 0)
		return "SO_PREFER_BUSY_POLL";
	if (budget && setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &b, sizeof b) < 0)
		return "SO_BUSY_POLL_BUDGET";
	return NULL;
}

int net_steer(int fd, unsigned off, unsigned n)
{
	/* In a reuseport program, offset 0 is the UDP payload; a load past the end of the
	 * datagram ends the program with 0. */
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, off),
		BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, n),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_fprog prog = { .len = sizeof code / sizeof code[0], .filter = code };

	if (n == 0) {
		errno = EINVAL;
		return -1;
	}
	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof prog);
}

/* Strangers on the local address of the socket with inode ino[0] in one table, or -1 when it
 * is not in this one. A line: sl local rem st tx:rx tr:when retrnsmt uid timeout inode ... */
static int strangers_in(const char *path, const unsigned long *ino, unsigned n)
{
	char line[512], mine[64] = "", local[64];
	unsigned long inode;
	FILE *f = fopen(path, "r");
	int count = 0;

	if (!f)
		return -1;
	while (!mine[0] && fgets(line, sizeof line, f))
		if (sscanf(line, " %*s %63s %*s %*s %*s %*s %*s %*s %*s %lu", local, &inode) == 2 &&
		    inode == ino[0])
			strcpy(mine, local);
	rewind(f);
	while (mine[0] && fgets(line, sizeof line, f)) {
		unsigned i = 0;
		if (sscanf(line, " %*s %63s %*s %*s %*s %*s %*s %*s %*s %lu", local, &inode) != 2 ||
		    strcmp(local, mine) != 0)
			continue;
		while (i < n && ino[i] != inode)
			i++;
		count += i == n;
	}
	fclose(f);
	return mine[0] ? count : -1;
}

int net_strangers(const int *fds, unsigned n)
{
	unsigned long ino[64];
	int count;

	if (n == 0 || n > sizeof ino / sizeof ino[0]) {
		errno = EINVAL;
		return -1;
	}
	for (unsigned i = 0; i < n; i++) {
		struct stat st;
		if (fstat(fds[i], &st) < 0)
			return -1;
		ino[i] = (unsigned long)st.st_ino;
	}
	count = strangers_in("/proc/net/udp", ino, n);
	return count >= 0 ? count : strangers_in("/proc/net/udp6", ino, n);
}

unsigned net_max_payload(const struct net_addr *a)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&a->ss;

	/* A v4-mapped address (::ffff:a.b.c.d) leaves an IPv6 socket as IPv4, with IPv4's limit. */
	if (a->ss.ss_family == AF_INET6 && !IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
		return 65527;
	return 65507;
}

int net_is_any(const struct net_addr *a)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&a->ss;
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)&a->ss;
	static const uint8_t mapped_any[16] = { [10] = 0xff, [11] = 0xff };

	if (a->ss.ss_family == AF_INET6)
		return IN6_IS_ADDR_UNSPECIFIED(&s6->sin6_addr) ||
		       memcmp(&s6->sin6_addr, mapped_any, sizeof mapped_any) == 0;
	return a->ss.ss_family == AF_INET && s4->sin_addr.s_addr == htonl(INADDR_ANY);
}
