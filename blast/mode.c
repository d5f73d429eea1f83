/* mode: the table of blast's send modes and the choice between them (see mode.h). */
#include "mode.h"

const struct send_mode *const modes[] = { &mode_plain, &mode_mix, &mode_zerocopy, &mode_rtt, &mode_packet, &mode_xdp, NULL };

const struct send_mode *mode_pick(const struct blast_cfg *cfg)
{
	if (cfg->via == BLAST_VIA_XDP)
		return &mode_xdp;
	if (cfg->via)
		return &mode_packet;
	if (cfg->rtt)
		return &mode_rtt;
	if (cfg->mix.n)
		return &mode_mix;
	if (cfg->zerocopy)
		return &mode_zerocopy;
	return &mode_plain;
}
