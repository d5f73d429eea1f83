/* serve: what --serve adds to the shared state between runs (see serve.h). main.c runs each run
 * as a run without --serve is run, on the same sockets, and calls serve_next between them, when
 * no thread is running. The run ids of the last RX_DONE_IDS runs are kept, so that a late
 * datagram or a repeated fin of a run already reported is counted as other_run of the next run
 * instead of locking it (rx.c asks rx_finished), and so is --echo's budget per source, so that
 * ending runs quickly refills no bucket; everything else the threads share starts again from
 * zero. */
#include "serve.h"

#include <string.h>

#include "rx.h"

void serve_next(struct rx_shared *sh)
{
	uint64_t run = atomic_load(&sh->run);
	struct key key = sh->key;
	uint64_t start_real_ns = sh->start_real_ns, serve_ns = sh->serve_ns;
	/* A fin sent no later than the newest this run believed is of this run or an earlier
	 * one: stale from now on, however many runs later it is played again. Never past now: a
	 * fin stamped in the future (a sender's clock ahead) must not make every later run's
	 * fins stale. */
	uint64_t now = sys_real_ns(), newest = sh->fin_ns < now ? sh->fin_ns : now;
	uint64_t fresh_ns = newest >= sh->fresh_ns ? newest + 1 : sh->fresh_ns;
	struct echo_budget *budget = sh->echo_budget; /* a new run is no new budget for a source */
	uint32_t ids[RX_DONE_IDS];
	unsigned ndone = sh->ndone;

	memcpy(ids, sh->done_ids, sizeof ids);
	if (run)
		ids[ndone++ % RX_DONE_IDS] = (uint32_t)run;
	memset(sh, 0, sizeof *sh);
	sh->key = key;
	sh->start_real_ns = start_real_ns;
	sh->fresh_ns = fresh_ns;
	sh->serve_ns = serve_ns;
	sh->echo_budget = budget;
	memcpy(sh->done_ids, ids, sizeof ids);
	sh->ndone = ndone;
	/* --idle counts from the end of the run before, as from the start of serving */
	atomic_store(&sh->last_ns, sys_mono_ns());
}
