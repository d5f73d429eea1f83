/* wire: encode and decode the blast header and fin (DESIGN.md, "Wire format"). */
#include "wire.h"

#include <string.h>

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)(v >> 16)); put16(p + 2, (uint16_t)v); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)(v >> 32)); put32(p + 4, (uint32_t)v); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) << 16 | get16(p + 2); }
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) << 32 | get32(p + 4); }

void wire_put_hdr(uint8_t *buf, const struct wire_hdr *h)
{
	put32(buf, WIRE_MAGIC);
	buf[4] = WIRE_VERSION;
	buf[5] = h->type;
	put16(buf + 6, h->flow);
	put32(buf + 8, h->run_id);
	put32(buf + 12, 0);
	put64(buf + 16, h->seq);
	put64(buf + 24, h->send_ns);
}

void wire_put_seq(uint8_t *buf, uint64_t seq, uint64_t send_ns)
{
	put64(buf + 16, seq);
	put64(buf + 24, send_ns);
}

int wire_get_hdr(const uint8_t *buf, size_t len, struct wire_hdr *h)
{
	if (len < WIRE_HDR_LEN || get32(buf) != WIRE_MAGIC || buf[4] != WIRE_VERSION)
		return -1;
	if (buf[5] != WIRE_DATA && buf[5] != WIRE_FIN)
		return -1;
	if (get16(buf + 6) >= WIRE_MAX_FLOWS || get32(buf + 12) != 0)
		return -1;
	h->type = buf[5];
	h->flow = get16(buf + 6);
	h->run_id = get32(buf + 8);
	h->seq = get64(buf + 16);
	h->send_ns = get64(buf + 24);
	return h->seq < WIRE_SEQ_LIMIT ? 0 : -1;
}

size_t wire_put_fin(uint8_t *buf, const struct wire_hdr *h, const struct wire_fin *f)
{
	struct wire_hdr fh = *h;

	fh.type = WIRE_FIN;
	wire_put_hdr(buf, &fh);
	put64(buf + WIRE_HDR_LEN, f->sent);
	put64(buf + WIRE_HDR_LEN + 8, f->bytes);
	put64(buf + WIRE_HDR_LEN + 16, f->duration_ns);
	put16(buf + WIRE_HDR_LEN + 24, f->flows);
	return WIRE_FIN_LEN;
}

int wire_get_fin(const uint8_t *buf, size_t len, struct wire_hdr *h, struct wire_fin *f)
{
	if (len < WIRE_FIN_LEN || wire_get_hdr(buf, len, h) < 0 || h->type != WIRE_FIN)
		return -1;
	f->sent = get64(buf + WIRE_HDR_LEN);
	f->bytes = get64(buf + WIRE_HDR_LEN + 8);
	f->duration_ns = get64(buf + WIRE_HDR_LEN + 16);
	f->flows = get16(buf + WIRE_HDR_LEN + 24);
	if (f->flows == 0 || f->flows > WIRE_MAX_FLOWS || h->flow >= f->flows)
		return -1;
	return 0;
}
