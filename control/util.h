/* Base utilities shared by the protocol library, the helper and the CLI. */
#ifndef LISA_UTIL_H
#define LISA_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define printflike(a, b) __attribute__((format(printf, a, b)))

/* RB_GENERATE_STATIC needs it; libbsd leaves it undefined. */
#ifndef __unused
#define __unused __attribute__((__unused__))
#endif

/* compat-string.c, where the system has none. */
#ifndef LISA_HAVE_STRLCPY
size_t	 strlcpy(char *, const char *, size_t);
size_t	 strlcat(char *, const char *, size_t);
#endif

/* xmalloc.c: allocation that never returns NULL (aborts on exhaustion). */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
int	 xasprintf(char **, const char *, ...) printflike(2, 3);
int	 xvasprintf(char **, const char *, va_list);

/* log.c */
void	 log_open(const char *path, int verbose);
void	 log_close(void);
int	 log_get_verbose(void);
void	 log_debug(const char *, ...) printflike(1, 2);
void	 log_warnx(const char *, ...) printflike(1, 2);
void	 log_warn(const char *, ...) printflike(1, 2);
__attribute__((noreturn)) void fatal(const char *, ...) printflike(1, 2);
__attribute__((noreturn)) void fatalx(const char *, ...) printflike(1, 2);

/* buf.c: a growable byte buffer; data is always NUL-terminated. */
struct buf {
	char	*data;
	size_t	 len;
	size_t	 size;
};
void	 buf_init(struct buf *);
void	 buf_free(struct buf *);
void	 buf_reset(struct buf *);
void	 buf_reserve(struct buf *, size_t);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_addc(struct buf *, char);
void	 buf_adds(struct buf *, const char *);
void	 buf_printf(struct buf *, const char *, ...) printflike(2, 3);
void	 buf_consume(struct buf *, size_t);
char	*buf_detach(struct buf *);

/* time.c */
uint64_t time_mono_ms(void);
uint64_t time_mono_us(void);
int64_t	 time_real_ms(void);

#endif
