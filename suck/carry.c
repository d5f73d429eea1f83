/* carry: the next run's first datagrams, held over a stale run's end (see carry.h). Each entry
 * is its length, its source and its bytes, 8-byte aligned, one after the other. */
#include "carry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct carry {
	uint8_t *mem;
	size_t size, used;
	unsigned n;
};

struct entry {
	uint64_t len;
	uint64_t stamp;            /* the kernel's receive stamp, 0 none */
	uint32_t mark, pad;        /* the marking (--marks) */
	uint8_t src[CARRY_SRC_LEN];
};

static size_t entry_bytes(size_t len)
{
	return sizeof(struct entry) + ((len + 7) & ~(size_t)7);
}

struct carry *carry_new(size_t n, size_t cap)
{
	struct carry *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->size = n * entry_bytes(cap);
	/* mapped, not allocated: untouched, it costs no memory, and it is not the strategy's heap */
	c->mem = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->mem == MAP_FAILED) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

int carry_add(struct carry *c, const uint8_t *buf, size_t len, const void *src, uint64_t stamp, uint32_t mark)
{
	struct entry e = { .len = len, .stamp = stamp, .mark = mark };

	if (c->used + entry_bytes(len) > c->size)
		return -1;
	memcpy(e.src, src, CARRY_SRC_LEN);
	memcpy(c->mem + c->used, &e, sizeof e);
	memcpy(c->mem + c->used + sizeof e, buf, len);
	c->used += entry_bytes(len);
	c->n++;
	return 0;
}

const uint8_t *carry_next(const struct carry *c, size_t *at, size_t *len, const void **src, uint64_t *stamp,
			  uint32_t *mark)
{
	const struct entry *e;

	if (*at >= c->used)
		return NULL;
	e = (const struct entry *)(c->mem + *at); /* every entry starts 8-byte aligned */
	*len = (size_t)e->len;
	*src = e->src;
	*stamp = e->stamp;
	*mark = e->mark;
	*at += entry_bytes(*len);
	return (const uint8_t *)(e + 1);
}

void carry_clear(struct carry *c)
{
	c->used = 0;
	c->n = 0;
}

unsigned carry_count(const struct carry *c)
{
	return c ? c->n : 0;
}

void carry_free(struct carry *c)
{
	if (!c)
		return;
	munmap(c->mem, c->size);
	free(c);
}
