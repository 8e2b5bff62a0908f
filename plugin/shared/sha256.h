/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), lisa's own (sha256.c):
 * a dialog's fingerprint, and the tokens a phone's button carries. Small
 * and portable (no library differs between Linux, musl, macOS and the
 * BSDs), checked against the published test vectors (sha256_test.c).
 */
#ifndef LISA_SHA256_H
#define LISA_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN	32
#define SHA256_HEX	(SHA256_LEN * 2 + 1)

struct sha256 {
	uint32_t	 h[8];
	uint64_t	 bytes;		/* hashed so far */
	unsigned char	 block[64];
	size_t		 used;		/* of block */
};

void	 sha256_init(struct sha256 *);
void	 sha256_add(struct sha256 *, const void *, size_t);
void	 sha256_adds(struct sha256 *, const char *);
void	 sha256_end(struct sha256 *, unsigned char [SHA256_LEN]);
void	 sha256_hex(const unsigned char [SHA256_LEN], char [SHA256_HEX]);
void	 sha256_hmac(const void *, size_t, const void *, size_t,
	     unsigned char [SHA256_LEN]);
int	 sha256_equal_hex(const char *, const char *);

#endif
