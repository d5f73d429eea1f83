/* send_loop: a flow's send loop, written once and compiled three times by send.c: SEND_LOOP is
 * the function's name, SEND_MIXED 0 (one size: flow_run) or 1 (a size mix: flow_run_mix), and
 * SEND_ZC 1 for --zerocopy (one size: flow_run_zc), constants, so each copy is compiled for its
 * case alone. The one-size copy is the loop as it
 * was before mixes, instruction for instruction (DESIGN.md says how that was checked): a mix
 * costs -s N nothing. No include guard: included once per case. */
void SEND_LOOP(struct flow *f)
{
	const struct blast_cfg *cfg = f->cfg;
	unsigned per_call = f->batch * f->segs;
	uint64_t now = sys_mono_ns();
	uint64_t wall = sys_real_ns() - now; /* mono + wall = the epoch time for send stamps */
	uint64_t deadline = f->deadline_ns;

	f->start_ns = f->end_ns = now;
	f->stop = BLAST_STOP_TIME;
	for (;;) {
		unsigned want = per_call;
		long n;

		if (sys_stop) {
			f->stop = BLAST_STOP_SIGNAL;
			break;
		}
		if (deadline && now >= deadline)
			break;
		if (f->quota) {
			if (f->sent >= f->quota) {
				f->stop = BLAST_STOP_COUNT;
				break;
			}
			if (f->quota - f->sent < want)
				want = (unsigned)(f->quota - f->sent);
		}
		if (cfg->rate && (want = rate_take(&f->rate, want, &now)) == 0)
			continue;
		uint64_t mix_bytes = 0;
		if (SEND_ZC) {
			/* the ring's next slot, once the kernel is done with it (zc.c) */
			int zflags = 0;
			unsigned zmsgs = 0;
			uint8_t *base = zc_take(f, &zflags);
			if (!base)
				break;
			n = zc_call(f, base, want, now + wall, zflags, &zmsgs);
			int e = errno; /* zc_result reads the error queue: the call's errno kept */
			zc_result(f, n, e, zmsgs, zflags);
			errno = e;
		} else
			n = SEND_MIXED ? mix_call(f, want, now + wall, &mix_bytes) : send_call(f, want, now + wall);
		f->calls++;
		if (n < 0 && gso_refused(f, errno)) {
			/* Nothing of this call left: its sequence numbers go out again, unsegmented. */
			gso_fallback(f, errno);
			shape(f, f->batch);
			per_call = f->batch * f->segs;
		} else if (n < 0) {
			int e = errno;
			if (e != EINTR)
				count_error(f, e);
			if (e != EINTR && e != ECONNREFUSED && e != ENOBUFS && e != EAGAIN && e != ENOMEM) {
				sys_error_set(&f->error, "send", e);
				f->stop = BLAST_STOP_ERROR;
				break;
			}
		} else {
			f->sent += (uint64_t)n;
			f->bytes += SEND_MIXED ? mix_bytes : (uint64_t)n * cfg->size;
			atomic_store_explicit(&f->progress_sent, f->sent, memory_order_relaxed);
		}
		/* the gap from the end of one send call to the end of the next: what pacing shapes */
		uint64_t prev = f->end_ns;
		f->end_ns = now = sys_mono_ns();
		hist_add(&f->gaps, now - prev);
		if (f->progress_ns && now >= f->progress_ns)
			f->progress_ns = progress_line(now);
	}
	/* The flow's send window, which the rates divide by: until the last send call returned,
	 * and a paced flow also until it stopped, since it spends most of the window asleep (its
	 * last datagram went one interval or more before the deadline or the signal). Stopped by
	 * -n, a paced flow's window ends where its next datagram would have been due. */
	if (cfg->rate) {
		uint64_t until = f->stop == BLAST_STOP_TIME ? deadline : f->stop == BLAST_STOP_SIGNAL ? now :
				 f->stop == BLAST_STOP_COUNT ? rate_due_ns(&f->rate) : f->end_ns;
		if (until > f->end_ns)
			f->end_ns = until;
	}
	if (SEND_ZC)
		zc_drain(f);
	if (!cfg->raw)
		send_fins(f, f->end_ns - f->start_ns);
}
