/* one: --one-socket, -j threads on one socket, each batch worked on by the thread that took it
 * and then counted, under one lock taken once per batch, into the accountant: one struct rx of
 * the run, with its one tracker, which no thread receives with (see one.c). one_attach keeps
 * the accountant in each thread's rx->hook; one_batch is a batch variant's hand-off of the n
 * datagrams of m it received (the work, then the accounting), instead of rx_datagram for each;
 * the caller then calls rx_batch as after any batch. */
#ifndef ONE_H
#define ONE_H
#include "rx.h"

struct total;
struct one;

struct one *one_new(const struct suck_cfg *cfg, int fd, struct rx_shared *sh, unsigned threads); /* NULL with errno */
void one_attach(struct one *o, struct rx *hub);
void one_batch(struct rx *rx, struct rx_msgs *m, int n);
/* The run's total from the accountant, with the threads' own figures (calls, the receive
 * window, the stop, the work, --latency's delays, the received of each) from the n threads'
 * hubs. */
void one_sum(struct one *o, struct rx *hubs, unsigned n, int64_t kernel_drops, struct total *t);
void one_free(struct one *o);

#endif
