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

/* A datagram's source, as rx.h's struct rx_name holds it (RX_NAME_LEN, which rx.c checks):
 * carry only keeps the bytes, and knows nothing of the receive state that hands them back
 * (rx_feed). */
#define CARRY_SRC_LEN 32

struct carry;

/* Room for n datagrams of up to cap bytes each; NULL with errno. */
struct carry *carry_new(size_t n, size_t cap);
/* Copies one datagram (len bytes in buf, from src, CARRY_SRC_LEN bytes) with its receive stamp
 * and marking: 0, or -1 when full. */
int carry_add(struct carry *c, const uint8_t *buf, size_t len, const void *src, uint64_t stamp, uint32_t mark);
/* The datagram held at *at (0: the oldest): its bytes, its length in *len, its source in *src
 * (8-byte aligned, CARRY_SRC_LEN bytes, in the carry: valid until it is written again), its
 * stamp and marking; *at moves on to the next. NULL after the last. */
const uint8_t *carry_next(const struct carry *c, size_t *at, size_t *len, const void **src, uint64_t *stamp,
			  uint32_t *mark);
/* Forgets every datagram held. */
void carry_clear(struct carry *c);
/* Datagrams held. */
unsigned carry_count(const struct carry *c);
void carry_free(struct carry *c);

#endif
