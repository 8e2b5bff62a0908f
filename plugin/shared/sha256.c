/*
 * SHA-256 as FIPS 180-4 gives it, and HMAC over it (RFC 2104). One block
 * of 64 bytes at a time; the message's length in bits closes the last.
 */
#include <string.h>

#include "sha256.h"

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

#define ROR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))

static void
sha256_block(struct sha256 *c, const unsigned char *p)
{
	uint32_t	w[64], a, b, d, e, f, g, h, cc, t1, t2;
	int		i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[i * 4] << 24 | (uint32_t)p[i * 4 + 1] << 16 |
		    (uint32_t)p[i * 4 + 2] << 8 | (uint32_t)p[i * 4 + 3];
	for (; i < 64; i++)
		w[i] = (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^
		    (w[i - 2] >> 10)) + w[i - 7] + (ROR(w[i - 15], 7) ^
		    ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 16];
	a = c->h[0]; b = c->h[1]; cc = c->h[2]; d = c->h[3];
	e = c->h[4]; f = c->h[5]; g = c->h[6]; h = c->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		    ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		    ((a & b) ^ (a & cc) ^ (b & cc));
		h = g; g = f; f = e; e = d + t1;
		d = cc; cc = b; b = a; a = t1 + t2;
	}
	c->h[0] += a; c->h[1] += b; c->h[2] += cc; c->h[3] += d;
	c->h[4] += e; c->h[5] += f; c->h[6] += g; c->h[7] += h;
}

void
sha256_init(struct sha256 *c)
{
	static const uint32_t	h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
	    0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(c->h, h0, sizeof c->h);
	c->bytes = 0;
	c->used = 0;
}

void
sha256_add(struct sha256 *c, const void *data, size_t len)
{
	const unsigned char	*p = data;
	size_t			 n;

	c->bytes += len;
	while (len > 0) {
		n = sizeof c->block - c->used;
		if (n > len)
			n = len;
		memcpy(c->block + c->used, p, n);
		c->used += n;
		p += n;
		len -= n;
		if (c->used == sizeof c->block) {
			sha256_block(c, c->block);
			c->used = 0;
		}
	}
}

void
sha256_adds(struct sha256 *c, const char *s)
{
	sha256_add(c, s, strlen(s));
}

void
sha256_end(struct sha256 *c, unsigned char out[SHA256_LEN])
{
	uint64_t	bits = c->bytes * 8;
	unsigned char	pad = 0x80, zero = 0, len[8];
	int		i;

	sha256_add(c, &pad, 1);
	while (c->used != 56)
		sha256_add(c, &zero, 1);
	for (i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_add(c, len, 8);
	for (i = 0; i < 8; i++) {
		out[i * 4] = (unsigned char)(c->h[i] >> 24);
		out[i * 4 + 1] = (unsigned char)(c->h[i] >> 16);
		out[i * 4 + 2] = (unsigned char)(c->h[i] >> 8);
		out[i * 4 + 3] = (unsigned char)c->h[i];
	}
	memset(c, 0, sizeof *c);
}

void
sha256_hex(const unsigned char d[SHA256_LEN], char out[SHA256_HEX])
{
	static const char	hex[] = "0123456789abcdef";
	int			i;

	for (i = 0; i < SHA256_LEN; i++) {
		out[i * 2] = hex[d[i] >> 4];
		out[i * 2 + 1] = hex[d[i] & 0xf];
	}
	out[SHA256_LEN * 2] = '\0';
}

/* HMAC-SHA-256: a key longer than a block is hashed first. */
void
sha256_hmac(const void *key, size_t klen, const void *msg, size_t mlen,
    unsigned char out[SHA256_LEN])
{
	struct sha256	c;
	unsigned char	k[64], pad[64], inner[SHA256_LEN];
	int		i;

	memset(k, 0, sizeof k);
	if (klen > sizeof k) {
		sha256_init(&c);
		sha256_add(&c, key, klen);
		sha256_end(&c, k);
	} else if (klen > 0)
		memcpy(k, key, klen);
	for (i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&c);
	sha256_add(&c, pad, sizeof pad);
	sha256_add(&c, msg, mlen);
	sha256_end(&c, inner);
	for (i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&c);
	sha256_add(&c, pad, sizeof pad);
	sha256_add(&c, inner, sizeof inner);
	sha256_end(&c, out);
	memset(k, 0, sizeof k);
	memset(pad, 0, sizeof pad);
}

/*
 * Two strings equal, in a time that does not say where they differ (a
 * token checked against one an attacker guesses at). Lengths differing
 * are not equal; the length is no secret.
 */
int
sha256_equal_hex(const char *a, const char *b)
{
	size_t		 n = strlen(a), i;
	unsigned char	 diff = 0;

	if (strlen(b) != n)
		return (0);
	for (i = 0; i < n; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return (diff == 0);
}
