/* wire: encode and decode the blast header and fin (DESIGN.md, "Wire format"). */
#include "wire.h"

#include <endian.h>
#include <string.h>

#include "key.h"

/* Big-endian fields at any alignment: one byte swap and one move each (the getters are in
 * wire.h, inline for suck's receive loop). */
static void put16(uint8_t *p, uint16_t v) { v = htobe16(v); memcpy(p, &v, sizeof v); }
static void put32(uint8_t *p, uint32_t v) { v = htobe32(v); memcpy(p, &v, sizeof v); }
static void put64(uint8_t *p, uint64_t v) { v = htobe64(v); memcpy(p, &v, sizeof v); }

void wire_put_hdr(uint8_t *buf, const struct wire_hdr *h)
{
	put32(buf, WIRE_MAGIC);
	buf[4] = WIRE_VERSION;
	buf[5] = h->type;
	put16(buf + 6, h->flow);
	put32(buf + 8, h->run_id);
	put32(buf + 12, h->type == WIRE_DATA ? h->proof : 0);
	put64(buf + 16, h->seq);
	put64(buf + 24, h->send_ns);
}

void wire_put_reply(uint8_t *buf, uint32_t size)
{
	put32(buf + 12, size);
}

void wire_put_req_proof(uint8_t *buf, uint32_t proof)
{
	put32(buf + WIRE_HDR_LEN, proof);
}

void wire_put_echo(uint8_t *buf, uint64_t now_ns)
{
	buf[5] = WIRE_ECHO;
	put64(buf + 24, now_ns);
}

void wire_put_echo_count(uint8_t *buf, uint64_t count)
{
	put64(buf + WIRE_ECHO_OFF, count);
}

void wire_put_echo_rx(uint8_t *buf, uint64_t rx_ns)
{
	put64(buf + WIRE_ECHO_OFF + 8, rx_ns);
}

int wire_get_echo(const uint8_t *buf, size_t len, struct wire_echo *e)
{
	if (len < WIRE_ECHO_END || !(e->count = wire_get64(buf + WIRE_ECHO_OFF)))
		return -1;
	e->rx_ns = wire_get64(buf + WIRE_ECHO_OFF + 8);
	e->tx_ns = wire_get64(buf + 24);
	return 0;
}

uint32_t wire_run_proof(const uint8_t *key, uint32_t run_id)
{
	uint8_t msg[8] = { 'r', 'u', 'n', ':' };
	uint32_t p;

	put32(msg + 4, run_id);
	p = (uint32_t)key_siphash(key, msg, sizeof msg);
	return p ? p : 1;
}

uint64_t wire_fin_tag(const uint8_t *buf, const uint8_t *key)
{
	return key_siphash(key, buf, WIRE_FIN_TAGGED);
}

size_t wire_put_fin(uint8_t *buf, const struct wire_hdr *h, const struct wire_fin *f, const uint8_t *key)
{
	struct wire_hdr fh = *h;

	fh.type = WIRE_FIN;
	wire_put_hdr(buf, &fh);
	put64(buf + WIRE_HDR_LEN, f->sent);
	put64(buf + WIRE_HDR_LEN + 8, f->bytes);
	put64(buf + WIRE_HDR_LEN + 16, f->duration_ns);
	put16(buf + WIRE_HDR_LEN + 24, f->flows);
	put32(buf + WIRE_HDR_LEN + 26, f->size);
	put64(buf + WIRE_FIN_TAGGED, key ? wire_fin_tag(buf, key) : f->tag);
	return WIRE_FIN_LEN;
}

int wire_get_fin(const uint8_t *buf, size_t len, struct wire_hdr *h, struct wire_fin *f)
{
	if (len < WIRE_FIN_LEN || wire_get_hdr(buf, len, h) < 0 || h->type != WIRE_FIN)
		return -1;
	f->sent = wire_get64(buf + WIRE_HDR_LEN);
	f->bytes = wire_get64(buf + WIRE_HDR_LEN + 8);
	f->duration_ns = wire_get64(buf + WIRE_HDR_LEN + 16);
	f->flows = wire_get16(buf + WIRE_HDR_LEN + 24);
	f->size = wire_get32(buf + WIRE_HDR_LEN + 26);
	f->tag = wire_get64(buf + WIRE_FIN_TAGGED);
	if (f->flows == 0 || f->flows > WIRE_MAX_FLOWS || h->flow >= f->flows)
		return -1;
	return 0;
}
