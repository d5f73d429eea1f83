/* carry: datagrams of the next run, held over a run's end. When a run that never sent its fins
 * is found stale (rx.c: a proven or named run began, or, with neither key nor names, a quiet
 * second), the datagrams of the new run that the threads take before they stop are copied
 * here and handed to the next run first, so that it misses none of them. At most a batch and
 * a check's worth per thread arrive between the finding and the stop; the space for them is
 * mapped once and touched only when used. */
#ifndef CARRY_H
#define CARRY_H
#include <stddef.h>
#include <stdint.h>

struct rx;
struct carry;

/* Room for n datagrams of up to cap bytes each; NULL with errno. */
struct carry *carry_new(size_t n, size_t cap);
/* Copies one datagram (len bytes in buf, from src, RX_NAME_LEN bytes): 0, or -1 when full. */
int carry_add(struct carry *c, const uint8_t *buf, size_t len, const void *src);
/* Hands every datagram held to rx (rx_take, the work included), oldest first, and empties c. */
void carry_feed(struct carry *c, struct rx *rx);
/* Datagrams held. */
unsigned carry_count(const struct carry *c);
void carry_free(struct carry *c);

#endif
