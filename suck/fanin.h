/* fanin: --senders N, up to N runs at once, each locked on its first datagram (or proven fin)
 * into a slot of its own, counted by a lane per thread, a struct rx with the slot's rx_shared,
 * so that the trust rules, the tracker and the identities are per run as in a run alone. The
 * hub (the thread's own rx, which the variant receives with) counts every datagram in received
 * and bytes, and itself only what no run can claim: no header (foreign), a run beyond N
 * (other_run). fanin_attach makes a thread's rx a hub: its hooks (rx.h) hand every datagram to
 * fanin.c, and at each check move the lanes' receive windows on and, when every slot's run has
 * sent its fins, start the hub's drain. */
#ifndef FANIN_H
#define FANIN_H
#include "rx.h"

struct total;
struct fanin;

struct fanin *fanin_new(const struct suck_cfg *cfg, unsigned threads); /* NULL with errno */
int fanin_attach(struct fanin *f, struct rx *hub); /* -1 with errno: a lane's tracker */
unsigned fanin_slots(const struct fanin *f);  /* slots a run locked */
/* Slot s's lanes (one per thread, side by side for total_sum), their stop set from the run's:
 * fin when it sent every fin, else the receiver's. */
struct rx *fanin_lanes(struct fanin *f, unsigned s, enum rx_stop receiver);
void fanin_free(struct fanin *f);

/* The report's rows: a run's total added into the receiver's (the hubs' total_sum, whose
 * received and bytes are already every datagram), dropped settled again over the whole; and
 * the receiver's own figures (calls, napi_id, segs_per_buf, ...) copied into a run's row. */
void fanin_add(struct total *t, const struct total *run);
void fanin_receiver(struct total *run, const struct total *t);
/* The total row's size (the runs' one size, else none) and bytes_check, after fanin_add. */
void fanin_sizes(struct total *t, const struct total *runs, unsigned n);

#endif
