/* Unit tests for suck --drops' pieces that need no kernel: the tracepoint's format file parsed
 * (fields, the reasons' names, a symbol left for BTF), the BTF reader on a blob made here (a
 * member found inside anonymous unions and structs, typedefs followed, bit fields and missing
 * members refused, broken blobs refused), the program assembled, and a run's counts laid out
 * as the report's fixed reasons and its detail. */
#include <errno.h>
#include <linux/btf.h>
#include <stdlib.h>
#include <string.h>

#include "bpf.h"
#include "drops.h"
#include "unit.h"

static const char format[] =
	"name: kfree_skb\n"
	"ID: 2310\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:void * skbaddr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * location;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:void * rx_sk;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned short protocol;\toffset:32;\tsize:2;\tsigned:0;\n"
	"\tfield:enum skb_drop_reason reason;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"skbaddr=%p rx_sk=%p protocol=%u location=%pS reason: %s\", REC->skbaddr, "
	"REC->rx_sk, REC->protocol, REC->location, __print_symbolic(REC->reason, { 2, \"NOT_SPECIFIED\" }, "
	"{ 3, \"NO_SOCKET\" }, { 6, \"SOCKET_RCVBUFF\" }, { 11, \"UDP_CSUM\" }, { 12, \"NETFILTER_DROP\" }, "
	"{ SKB_DROP_REASON_XDP, \"XDP\" }, { 71, \"CPU_BACKLOG\" }, { 73, \"TC_INGRESS\" }, "
	"{ 80, \"FULL_RING\" }, { 130, \"MAX\" })\n";

static void test_format(void)
{
	static struct drops_fmt f;
	const char *why = NULL;
	static char text[sizeof format];

	CHECK(drops_parse_format(format, &f, &why) == 0, "parsed: %s", why ? why : "");
	CHECK(f.skb_off == 8 && f.skb_size == 8, "skbaddr at %u, %u bytes", f.skb_off, f.skb_size);
	CHECK(f.reason_off == 36 && f.reason_size == 4, "reason at %u, %u bytes", f.reason_off, f.reason_size);
	CHECK(f.rx_sk_off == 24 && f.rx_sk_size == 8, "rx_sk at %u, %u bytes", f.rx_sk_off, f.rx_sk_size);
	CHECK(f.n == 10, "%u names", f.n);
	CHECK(f.r[0].value == 2 && !strcmp(f.r[0].name, "NOT_SPECIFIED"), "first %lld %s", (long long)f.r[0].value,
	      f.r[0].name);
	CHECK(f.r[2].value == 6 && !strcmp(f.r[2].name, "SOCKET_RCVBUFF"), "third %s", f.r[2].name);
	CHECK(f.r[5].value == -1 && !strcmp(f.r[5].sym, "SKB_DROP_REASON_XDP") && !strcmp(f.r[5].name, "XDP"),
	      "a symbol kept for BTF: %lld '%s' %s", (long long)f.r[5].value, f.r[5].sym, f.r[5].name);
	CHECK(f.r[9].value == 130 && !strcmp(f.r[9].name, "MAX"), "last %s", f.r[9].name);

	/* a field is found by its whole name: "reasox" is none */
	strcpy(text, format);
	char *r = strstr(text, " reason;");
	memcpy(r, " reasox;", 8);
	why = NULL;
	CHECK(drops_parse_format(text, &f, &why) < 0 && why && strstr(why, "reason"), "no reason field: %s",
	      why ? why : "(none)");
	strcpy(text, format);
	*strstr(text, "__print_symbolic") = 'X';
	why = NULL;
	CHECK(drops_parse_format(text, &f, &why) < 0 && why && strstr(why, "__print_symbolic"), "no list: %s",
	      why ? why : "(none)");
	strcpy(text, format);
	memcpy(strstr(text, "void * skbaddr;"), "void * skbaddx;", 15);
	CHECK(drops_parse_format(text, &f, &why) < 0, "no skbaddr");
}

/* --- a BTF blob made by hand ----------------------------------------------------------------- */

static uint8_t types[4096], strs[1024];
static size_t ntypes, nstrs;
static unsigned nid;

static uint32_t str(const char *s)
{
	uint32_t at = (uint32_t)nstrs;
	if (!*s)
		return 0;
	memcpy(strs + nstrs, s, strlen(s) + 1);
	nstrs += strlen(s) + 1;
	return at;
}

static void put32(uint32_t v)
{
	memcpy(types + ntypes, &v, 4);
	ntypes += 4;
}

static unsigned type(const char *name, unsigned kind, unsigned vlen, int kflag, uint32_t size_type)
{
	put32(str(name));
	put32((uint32_t)kind << 24 | vlen | (uint32_t)kflag << 31);
	put32(size_type);
	return ++nid;
}

static void member(const char *name, uint32_t t, uint32_t bit_off)
{
	put32(str(name));
	put32(t);
	put32(bit_off);
}

static size_t blob(uint8_t *out)
{
	struct btf_header h = { .magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof h };

	h.type_off = 0;
	h.type_len = (uint32_t)ntypes;
	h.str_off = (uint32_t)ntypes;
	h.str_len = (uint32_t)nstrs;
	memcpy(out, &h, sizeof h);
	memcpy(out + sizeof h, types, ntypes);
	memcpy(out + sizeof h + ntypes, strs, nstrs);
	return sizeof h + ntypes + nstrs;
}

static void test_btf(void)
{
	static uint8_t b[8192];
	struct btf *bt;
	struct drops_layout l;
	char why[128];
	unsigned off, size;
	int64_t v;

	ntypes = 0;
	nstrs = 1; /* offset 0: the empty name */
	strs[0] = 0;
	nid = 0;
	unsigned u32 = type("unsigned int", BTF_KIND_INT, 0, 0, 4);
	put32(32);
	unsigned u16 = type("__u16", BTF_KIND_INT, 0, 0, 2);
	put32(16);
	unsigned chr = type("unsigned char", BTF_KIND_INT, 0, 0, 1);
	put32(8);
	unsigned ptr = type("", BTF_KIND_PTR, 0, 0, chr);
	unsigned data_t = type("sk_buff_data_t", BTF_KIND_TYPEDEF, 0, 0, u32);
	unsigned cu16 = type("", BTF_KIND_CONST, 0, 0, u16);
	/* struct_group(headers, ...): a union of an anonymous struct and a named one */
	unsigned hdrs = type("", BTF_KIND_STRUCT, 2, 0, 4);
	member("transport_header", u16, 0);
	member("network_header", cu16, 16);
	unsigned grp = type("", BTF_KIND_UNION, 2, 0, 4);
	member("", hdrs, 0);
	member("headers", hdrs, 0);
	/* dev beside UDP's scratch words */
	unsigned u64 = type("unsigned long", BTF_KIND_INT, 0, 0, 8);
	put32(64);
	unsigned devu = type("", BTF_KIND_UNION, 2, 0, 8);
	member("dev", ptr, 0);
	member("dev_scratch", u64, 0);
	/* a bit field under kind_flag */
	unsigned skb = type("sk_buff", BTF_KIND_STRUCT, 9, 1, 232);
	member("next", ptr, 0);
	member("", devu, 16 * 8);
	member("len", u32, 112 * 8);
	member("flags", u32, 8u << 24 | 120 * 8);
	member("", grp, 176 * 8);
	member("tail", data_t, 184 * 8);
	member("end", data_t, 188 * 8);
	member("head", ptr, 192 * 8);
	member("data", ptr, 200 * 8);
	unsigned shi = type("skb_shared_info", BTF_KIND_STRUCT, 3, 0, 320);
	member("gso_size", u16, 4 * 8);
	member("gso_segs", u16, 6 * 8);
	member("frag_list", ptr, 8 * 8);
	type("sock_common", BTF_KIND_STRUCT, 1, 0, 136);
	member("skc_net", ptr, 48 * 8);
	type("net_device", BTF_KIND_STRUCT, 1, 0, 2048);
	member("nd_net", ptr, 264 * 8);
	unsigned nsc = type("ns_common", BTF_KIND_STRUCT, 1, 0, 80);
	member("inum", u32, 24 * 8);
	type("net", BTF_KIND_STRUCT, 1, 0, 4096);
	member("ns", nsc, 152 * 8);
	unsigned en = type("skb_drop_reason", BTF_KIND_ENUM, 2, 0, 4);
	put32(str("SKB_DROP_REASON_NOT_SPECIFIED"));
	put32(2);
	put32(str("SKB_DROP_REASON_XDP"));
	put32(72);
	(void)shi;
	(void)en;
	(void)skb;

	size_t len = blob(b);
	CHECK((bt = btf_parse(b, len)) != NULL, "parsed: %s", strerror(errno));
	if (!bt)
		return;
	CHECK(btf_member(bt, "sk_buff", "network_header", &off, &size) == 0 && off == 178 && size == 2,
	      "network_header in the anonymous union's struct, through const: %u, %u", off, size);
	CHECK(btf_member(bt, "sk_buff", "transport_header", &off, &size) == 0 && off == 176, "transport_header %u", off);
	CHECK(btf_member(bt, "sk_buff", "head", &off, &size) == 0 && off == 192 && size == 8, "head %u %u", off, size);
	CHECK(btf_member(bt, "sk_buff", "end", &off, &size) == 0 && off == 188 && size == 4,
	      "end through its typedef: %u %u", off, size);
	CHECK(btf_member(bt, "sk_buff", "flags", &off, &size) < 0, "a bit field is refused");
	CHECK(btf_member(bt, "sk_buff", "nothere", &off, &size) < 0, "no such member");
	CHECK(btf_member(bt, "sk_buf", "head", &off, &size) < 0, "no such struct");
	CHECK(btf_enum(bt, "skb_drop_reason", "SKB_DROP_REASON_XDP", &v) == 0 && v == 72, "enum value %lld",
	      (long long)v);
	CHECK(btf_enum(bt, "skb_drop_reason", "SKB_DROP_REASON_NOPE", &v) < 0, "no such enumerator");
	CHECK(drops_layout(bt, &l, why, sizeof why) == 0, "layout: %s", why);
	CHECK(l.head == 192 && l.data == 200 && l.network_header == 178 && l.end == 188 && l.tail == 184 &&
	      l.end_size == 4 && l.gso_size == 4 && l.gso_segs == 6 && l.frag_list == 8 && l.next == 0,
	      "layout as made");
	CHECK(l.dev == 16 && l.skc_net == 48 && l.nd_net == 264 && l.net_inum == 152 + 24,
	      "namespace fields: dev %u skc_net %u nd_net %u net.ns.inum %u", l.dev, l.skc_net, l.nd_net, l.net_inum);

	/* the program: v4, v6, both; a layout too spread out is refused */
	static struct drops_fmt f;
	static struct bpf_insn insn[BPF_ASM_MAX];
	const char *w;
	CHECK(drops_parse_format(format, &f, &w) == 0, "format");
	struct drops_match m4 = { .port = 9, .v4 = 1 }, m46 = { .port = 9, .v4 = 1, .v6 = 1 };
	int n4 = drops_prog(&f, &l, &m4, 3, 4, insn), n46 = drops_prog(&f, &l, &m46, 3, 4, insn);
	CHECK(n4 > 40 && n46 > n4 && n46 <= BPF_ASM_MAX, "programs of %d and %d instructions", n4, n46);
	f.rx_sk_size = 0; /* before 6.11: the device's namespace only */
	CHECK(drops_prog(&f, &l, &m4, 3, 4, insn) > 0 && drops_prog(&f, &l, &m4, 3, 4, insn) < n4, "no rx_sk: shorter");
	l.data = 400;
	CHECK(drops_prog(&f, &l, &m4, 3, 4, insn) < 0 && errno == ERANGE, "fields 200 bytes apart: refused");
	btf_free(bt);

	/* broken blobs */
	CHECK(btf_parse(b, 10) == NULL, "short");
	b[0] ^= 0xff;
	CHECK(btf_parse(b, len) == NULL && errno == EINVAL, "not the magic");
	b[0] ^= 0xff;
	uint32_t bad_kind = 31u << 24;
	memcpy(b + sizeof(struct btf_header) + 4, &bad_kind, 4);
	CHECK(btf_parse(b, len) == NULL && errno == EINVAL, "an unknown kind");
	CHECK(btf_parse(b, len - 1) == NULL, "strings cut before their NUL");
}

static void test_sum(void)
{
	static struct drops_fmt f;
	struct drops_run r;
	const char *why;
	uint32_t values[] = { 6, 12, 2, 999, 73 };
	uint64_t counts[] = { 100, 5, 7, 1, 0 };

	CHECK(drops_parse_format(format, &f, &why) == 0, "format");
	drops_sum(&f, values, counts, 5, 3, &r);
	CHECK(r.attributed == 113, "attributed %llu", (unsigned long long)r.attributed);
	CHECK(r.fins == 3, "fins");
	CHECK(r.fixed[0] == 100 && r.fixed[3] == 5 && r.fixed[4] == 0 && r.fixed[7] == 8,
	      "rcvbuff %llu netfilter %llu tc %llu other %llu", (unsigned long long)r.fixed[0],
	      (unsigned long long)r.fixed[3], (unsigned long long)r.fixed[4], (unsigned long long)r.fixed[7]);
	CHECK(!strcmp(r.detail, "SOCKET_RCVBUFF:100,NOT_SPECIFIED:7,NETFILTER_DROP:5,REASON_999:1"), "detail %s",
	      r.detail);
	drops_sum(&f, values, counts, 0, 0, &r);
	CHECK(r.attributed == 0 && !strcmp(r.detail, "none"), "nothing: %s", r.detail);

	/* more than fits: the rest said as +N */
	uint32_t many[20];
	uint64_t big[20];
	for (unsigned i = 0; i < 20; i++)
		many[i] = 1000 + i, big[i] = 1000000 + i;
	drops_sum(&f, many, big, 20, 0, &r);
	CHECK(strlen(r.detail) < sizeof r.detail && strstr(r.detail, ",+"), "cut: %s", r.detail);
	CHECK(r.fixed[7] == r.attributed, "all other");
}

int main(void)
{
	test_format();
	test_btf();
	test_sum();
	return unit_done("drops");
}
