/* sizes: the size classes of what arrived, and the check of the fins' bytes against them (see
 * sizes.h). A fin's bytes are believed when they can be true for its size word (rx.c); this is
 * the check that can only be made at the end: when nothing was lost and nothing but the run's
 * datagrams arrived, each once, the bytes received are the bytes sent, exactly. */
#include "sizes.h"
#include "wire.h"

static const char *const dgrams_key[SIZES_BINS] = { "dgrams_0_64", "dgrams_65_256", "dgrams_257_576",
						    "dgrams_577_1024", "dgrams_1025_1500", "dgrams_1501_up" };
static const char *const bytes_key[SIZES_BINS] = { "bytes_0_64", "bytes_65_256", "bytes_257_576",
						   "bytes_577_1024", "bytes_1025_1500", "bytes_1501_up" };

void sizes_merge(struct sizes *dst, const struct sizes *src)
{
	for (unsigned i = 0; i < SIZES_BINS; i++) {
		dst->n[i] += src->n[i];
		dst->bytes[i] += src->bytes[i];
	}
}

int sizes_check(uint32_t size_word, const struct seq_total *seq, uint64_t received, uint64_t bytes)
{
	if (!size_word || seq->sent_estimated || seq->fins_missing || seq->lost || received != seq->valid)
		return 0;
	return seq->bytes_sent == bytes ? 1 : -1;
}

void sizes_report(struct report *r, const struct sizes *s, uint32_t size_word, const struct seq_total *seq,
		  int check)
{
	if (!size_word) {
		report_none(r, "size");
		report_none(r, "size_min");
		report_none(r, "size_max");
	} else if (wire_size_mixed(size_word)) {
		report_str(r, "size", "mix");
		report_u64(r, "size_min", wire_mix_min(size_word));
		report_u64(r, "size_max", wire_mix_max(size_word));
	} else {
		report_u64(r, "size", size_word);
		report_u64(r, "size_min", size_word);
		report_u64(r, "size_max", size_word);
	}
	if (size_word && !seq->sent_estimated)
		report_u64(r, "bytes_sent", seq->bytes_sent);
	else
		report_none(r, "bytes_sent");
	report_str(r, "bytes_check", check > 0 ? "exact" : check < 0 ? "mismatch" : "-");
	for (unsigned i = 0; i < SIZES_BINS; i++) {
		report_u64(r, dgrams_key[i], s->n[i]);
		report_u64(r, bytes_key[i], s->bytes[i]);
	}
}
