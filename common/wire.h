/* wire: the datagram header every blast datagram carries, and the fin that ends a flow.
 * All integers are big-endian on the wire; see DESIGN.md for the table. Decoding never trusts
 * a length or a field: a short or malformed buffer is rejected, not read past. */
#ifndef WIRE_H
#define WIRE_H
#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WIRE_MAGIC      0x424c5354u /* "BLST" */
#define WIRE_VERSION    1
#define WIRE_HDR_LEN    32
#define WIRE_FIN_TAGGED (WIRE_HDR_LEN + 30) /* the bytes of a fin its tag covers */
#define WIRE_FIN_LEN    (WIRE_FIN_TAGGED + 8)
#define WIRE_FLOW_OFF   6           /* the flow id's offset, by which suck -j steers datagrams */
#define WIRE_MAX_FLOWS  256         /* flow ids the wire and suck allow; blast -j stays below */
/* No flow sends this many (at 100 million datagrams a second, a month): a larger sequence is
 * malformed. Small enough that the sums over every flow (256 x 2^48 datagrams) can never wrap
 * 64 bits, so sent, valid and lost are exact integers, whatever a datagram claims. */
#define WIRE_SEQ_LIMIT  (1ull << 48)

/* WIRE_REQ: a data datagram that asks suck --echo for a reply (blast --rtt), counted as data;
 * its reserved field is the reply's size (0: as large as the request). */
enum wire_type { WIRE_DATA = 0, WIRE_FIN = 1, WIRE_REQ = 2 };
#define WIRE_MAX_REPLY 65527 /* the largest UDP payload (IPv6): a larger reply size is malformed */

struct wire_hdr {
	uint8_t  type;
	uint16_t flow;
	uint32_t run_id;
	uint64_t seq;
	uint64_t send_ns;
};

struct wire_fin {
	uint64_t sent;        /* datagrams this flow sent */
	uint64_t bytes;       /* bytes this flow sent */
	uint64_t duration_ns; /* the flow's send window */
	uint16_t flows;       /* flows in the run */
	uint32_t size;        /* bytes of every datagram of the run (32..65535), or for a size mix
				 its smallest and largest: WIRE_MIX_SIZE(min, max), 32 <= min < max */
	uint64_t tag;         /* SipHash-2-4 of the fin's first WIRE_FIN_TAGGED bytes under the
				 run key; 0 without a key */
};

#define WIRE_MIX_SIZE(min, max) ((uint32_t)(min) << 16 | (uint32_t)(max))
static inline int wire_size_mixed(uint32_t size) { return size > 0xffff; }
static inline unsigned wire_mix_min(uint32_t size) { return size >> 16; }
static inline unsigned wire_mix_max(uint32_t size) { return size & 0xffff; }

void wire_put_hdr(uint8_t *buf, const struct wire_hdr *h);
/* Sets a request's reply size (the reserved field) in a header already written. */
void wire_put_reply(uint8_t *buf, uint32_t size);
/* Only the fields that change from one datagram to the next: cheap enough for the send loop. */
void wire_put_seq(uint8_t *buf, uint64_t seq, uint64_t send_ns);

static inline uint16_t wire_get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, sizeof v); return be16toh(v); }
static inline uint32_t wire_get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, sizeof v); return be32toh(v); }
static inline uint64_t wire_get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, sizeof v); return be64toh(v); }
/* A request's reply size: the reserved field, which wire_get_hdr has checked. */
static inline uint32_t wire_get_reply(const uint8_t *buf) { return wire_get32(buf + 12); }

/* 0 and *h filled when buf holds a well-formed header; -1 otherwise. Inline: suck runs it
 * for every datagram. */
static inline int wire_get_hdr(const uint8_t *buf, size_t len, struct wire_hdr *h)
{
	if (len < WIRE_HDR_LEN || wire_get32(buf) != WIRE_MAGIC || buf[4] != WIRE_VERSION)
		return -1;
	if (buf[5] != WIRE_DATA && buf[5] != WIRE_FIN && buf[5] != WIRE_REQ)
		return -1;
	if (wire_get16(buf + 6) >= WIRE_MAX_FLOWS)
		return -1;
	/* reserved: 0, but in a request the reply's size (0, or a datagram's size) */
	uint32_t reply = wire_get32(buf + 12);
	if (reply != 0 && (buf[5] != WIRE_REQ || reply < WIRE_HDR_LEN || reply > WIRE_MAX_REPLY))
		return -1;
	h->type = buf[5];
	h->flow = wire_get16(buf + 6);
	h->run_id = wire_get32(buf + 8);
	h->seq = wire_get64(buf + 16);
	h->send_ns = wire_get64(buf + 24);
	return h->seq < WIRE_SEQ_LIMIT ? 0 : -1;
}

/* Writes a whole fin (header of type WIRE_FIN + totals + tag); returns its length, WIRE_FIN_LEN.
 * The tag is computed under key (16 bytes) when key is not NULL; otherwise f->tag is written. */
size_t wire_put_fin(uint8_t *buf, const struct wire_hdr *h, const struct wire_fin *f, const uint8_t *key);
/* 0 when buf is a complete fin with a sane flow count; -1 otherwise. f->tag is the tag as
 * carried: wire_fin_tag says whether it is right. */
int wire_get_fin(const uint8_t *buf, size_t len, struct wire_hdr *h, struct wire_fin *f);
/* The tag a fin in buf (WIRE_FIN_LEN bytes) should carry under key. */
uint64_t wire_fin_tag(const uint8_t *buf, const uint8_t *key);

#endif
