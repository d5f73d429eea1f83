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
#define WIRE_REQ_PROOF_END (WIRE_HDR_LEN + 4) /* a keyed request: the proof after the header */
#define WIRE_FIN_TAGGED (WIRE_HDR_LEN + 30) /* the bytes of a fin its tag covers */
#define WIRE_FIN_LEN    (WIRE_FIN_TAGGED + 8)
#define WIRE_FLOW_OFF   6           /* the flow id's offset, by which suck -j steers datagrams */
#define WIRE_MAX_FLOWS  256         /* flow ids the wire and suck allow; blast -j stays below */
/* No flow sends this many (at 100 million datagrams a second, a month): a larger sequence is
 * malformed. Small enough that the sums over every flow (256 x 2^48 datagrams) can never wrap
 * 64 bits, so sent, valid and lost are exact integers, whatever a datagram claims. */
#define WIRE_SEQ_LIMIT  (1ull << 48)

/* WIRE_REQ: a data datagram that asks suck --echo for a reply (blast --rtt), counted as data;
 * its reserved field is the reply's size (0: as large as the request). WIRE_ECHO: suck --echo's
 * reply, the request's header with this type and suck's wall-clock time of the reply in the send
 * time field (blast's clock offset); only blast's reply parser takes it, suck counts it foreign. */
enum wire_type { WIRE_DATA = 0, WIRE_FIN = 1, WIRE_REQ = 2, WIRE_ECHO = 3 };
#define WIRE_MAX_REPLY 65527 /* the largest UDP payload (IPv6): a larger reply size is malformed */

/* A request's echo block, after its header and the proof's place: zero as blast sends it. suck
 * --echo writes over it, in place, in a request of at least WIRE_ECHO_END bytes: the requests
 * of the flow it has taken so far, this one included (so never 0), and its receive time (wall
 * clock, read once per receive batch). A reply cut below WIRE_ECHO_END carries none, nor does
 * one from an echo that does not write it: a count of 0. The reply's send time is the echo's. */
#define WIRE_ECHO_OFF   WIRE_REQ_PROOF_END
#define WIRE_ECHO_END   (WIRE_ECHO_OFF + 16)
struct wire_echo {
	uint64_t count;   /* requests of this flow the echo took, this one included */
	uint64_t rx_ns;   /* the echo's receive time (its receive batch's) */
	uint64_t tx_ns;   /* its send time: the reply's send time field */
};

struct wire_hdr {
	uint8_t  type;
	uint16_t flow;
	uint32_t run_id;
	uint64_t seq;
	uint64_t send_ns;
	uint32_t proof;   /* the run's proof under a run key (wire_run_proof), 0 without one: a
			     data datagram's reserved field, a request's first 4 bytes after
			     the header */
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
/* Writes a keyed request's proof after its header (WIRE_REQ_PROOF_END bytes in buf). */
void wire_put_req_proof(uint8_t *buf, uint32_t proof);
/* Makes a request in buf into suck --echo's reply: type WIRE_ECHO, send time now_ns. */
void wire_put_echo(uint8_t *buf, uint64_t now_ns);
/* Writes the echo block's count, then its receive time (WIRE_ECHO_END bytes in buf). */
void wire_put_echo_count(uint8_t *buf, uint64_t count);
void wire_put_echo_rx(uint8_t *buf, uint64_t rx_ns);
/* 0 and *e filled when a reply of len bytes carries an echo block (count not 0); -1 when it
 * carries none. Whether the block can be true is the reader's to judge. */
int wire_get_echo(const uint8_t *buf, size_t len, struct wire_echo *e);

static inline uint16_t wire_get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, sizeof v); return be16toh(v); }
static inline uint32_t wire_get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, sizeof v); return be32toh(v); }
static inline uint64_t wire_get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, sizeof v); return be64toh(v); }
/* A request's reply size: the reserved field, which wire_get_hdr has checked. */
static inline uint32_t wire_get_reply(const uint8_t *buf) { return wire_get32(buf + 12); }

/* Only the fields that change from one datagram to the next, for the send loop: the send time
 * in network order once per call (be_ns = htobe64(send_ns)), the sequence per datagram. */
static inline void wire_put_seq_be(uint8_t *buf, uint64_t seq, uint64_t be_ns)
{
	uint64_t v = htobe64(seq);
	memcpy(buf + 16, &v, sizeof v);
	memcpy(buf + 24, &be_ns, sizeof be_ns);
}
static inline void wire_put_seq(uint8_t *buf, uint64_t seq, uint64_t send_ns)
{
	wire_put_seq_be(buf, seq, htobe64(send_ns));
}

/* The types a parse takes, as a mask of 1 << type. */
#define WIRE_TYPES_SUCK  (1u << WIRE_DATA | 1u << WIRE_FIN | 1u << WIRE_REQ)
#define WIRE_TYPES_REPLY (1u << WIRE_REQ | 1u << WIRE_ECHO)

/* 0 and *h filled when buf holds a well-formed header of one of the types; -1 otherwise. */
static inline int wire_get_typed(const uint8_t *buf, size_t len, struct wire_hdr *h, unsigned types)
{
	if (len < WIRE_HDR_LEN || wire_get32(buf) != WIRE_MAGIC || buf[4] != WIRE_VERSION)
		return -1;
	if (buf[5] > WIRE_ECHO || !(types & 1u << buf[5]))
		return -1;
	if (wire_get16(buf + 6) >= WIRE_MAX_FLOWS)
		return -1;
	/* reserved: 0, but in data the run's proof and in a request or its reply the reply's size
	 * (0, or a datagram's size) */
	uint32_t reply = wire_get32(buf + 12);
	if (reply != 0 && buf[5] != WIRE_DATA &&
	    (buf[5] == WIRE_FIN || reply < WIRE_HDR_LEN || reply > WIRE_MAX_REPLY))
		return -1;
	/* a request's proof follows its header (its reserved field is the reply's size) */
	h->proof = buf[5] == WIRE_DATA ? reply :
		   buf[5] == WIRE_REQ && len >= WIRE_REQ_PROOF_END ? wire_get32(buf + WIRE_HDR_LEN) : 0;
	h->type = buf[5];
	h->flow = wire_get16(buf + 6);
	h->run_id = wire_get32(buf + 8);
	h->seq = wire_get64(buf + 16);
	h->send_ns = wire_get64(buf + 24);
	return h->seq < WIRE_SEQ_LIMIT ? 0 : -1;
}

/* What suck takes (data, fin, request). Inline: suck runs it for every datagram. */
static inline int wire_get_hdr(const uint8_t *buf, size_t len, struct wire_hdr *h)
{
	return wire_get_typed(buf, len, h, WIRE_TYPES_SUCK);
}

/* Under a run key, every data datagram of a run carries its proof in the reserved field, and
 * every request in the 4 bytes after its header: 32 bits of SipHash-2-4 of the run id, never 0. A run is locked only by a datagram that carries it
 * (or by a proven fin): a stranger without the key cannot start a run, take a --senders slot or
 * end one a server is waiting on. The proof is the same for the whole run, so it costs nothing
 * per datagram, and whoever sees the traffic can copy it (docs/output.md, "The run key", says
 * what that allows). */
uint32_t wire_run_proof(const uint8_t *key, uint32_t run_id);

/* Writes a whole fin (header of type WIRE_FIN + totals + tag); returns its length, WIRE_FIN_LEN.
 * The tag is computed under key (16 bytes) when key is not NULL; otherwise f->tag is written. */
size_t wire_put_fin(uint8_t *buf, const struct wire_hdr *h, const struct wire_fin *f, const uint8_t *key);
/* 0 when buf is a complete fin with a sane flow count; -1 otherwise. f->tag is the tag as
 * carried: wire_fin_tag says whether it is right. */
int wire_get_fin(const uint8_t *buf, size_t len, struct wire_hdr *h, struct wire_fin *f);
/* The tag a fin in buf (WIRE_FIN_LEN bytes) should carry under key. */
uint64_t wire_fin_tag(const uint8_t *buf, const uint8_t *key);

#endif
