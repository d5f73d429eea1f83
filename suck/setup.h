/* setup: the receive side's sockets and states (setup.c), for main.c's run and --check. Each
 * says its failure and returns the exit code (1; 2 bad usage; 4 what the kernel does not offer),
 * or 0. */
#ifndef SETUP_H
#define SETUP_H
#include "carry.h"
#include "net.h"
#include "rx.h"
#include "suck.h"

/* A socket with the run's options bound to a (first: the first of -j's, or --one-socket's one):
 * its fd, or minus the exit code. */
int setup_socket(const struct suck_cfg *cfg, const struct net_addr *a, int first);
/* --source on this host, kept out by its own filter (setup_socket said so): the address the
 * kernel sends this host's datagrams to the group from; "" when none was found. */
const char *setup_source_kernel(void);
/* One receive thread's state and its variant's on socket fd, carry the next run's first
 * datagrams (NULL: runs do not follow). */
int setup_rx(struct rx *rx, int fd, unsigned id, const struct suck_cfg *cfg, struct rx_shared *sh,
	     struct carry *carry);
/* The receive buffer the kernel granted fd, with a warning when it is less than -R. */
int setup_rcvbuf(const struct suck_cfg *cfg, int fd);
/* -j's threads sockets (rxs[0..threads-1].fd) steered to suck's own, and none joined by another. */
int setup_group(const struct rx *rxs, unsigned threads, const char *where);
/* --check: the settings row after a run's setup on one socket, closed before it is printed. */
int setup_check(const struct suck_cfg *cfg);

#endif
