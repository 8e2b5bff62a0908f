/*
 * lisa-bench: %output decode throughput of the control-mode client, alone
 * and with what the helper does for every decoded chunk of an agent pane:
 * the OSC/BEL scanner, the agent's retry texts, the tail kept for the
 * shell's words, and a classification (the helper classifies at most once
 * a loop; here once a chunk, the worst case).
 *
 * Builds a control stream the way tmux writes it (pane bytes cut into
 * chunks, escaped, one "%output %N ..." line each, notifications mixed in)
 * from synthetic agent-like output: ANSI colour and cursor sequences, UTF-8
 * glyphs (spinners, box drawing, braille), OSC titles, CR/LF, prose. Then
 * feeds it through ctl_client_feed in 256 KiB reads - the helper's read
 * size - and reports MB/s over the stream and over the decoded bytes.
 *
 * usage: lisa-bench [-m MB] [-r RUNS] [-o FILE] [-i FILE]
 *   -o FILE  also write the generated stream to FILE
 *   -i FILE  benchmark a recorded stream instead of generating one
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "shared.h"
#include "agent.h"
#include "classify.h"
#include "osc.h"

#define BENCH_PANES 50

static uint64_t	rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng);
}

static const char *pieces[] = {
	"\033[38;5;208m", "\033[0m", "\033[1m", "\033[2K", "\033[1A", "\r",
	"\r\n", "\033[?2026h", "\033[?2026l", "\xe2\x9c\xb3 ", "\xe2\xa0\x82 ",
	"\xe2\xa0\x90 ", "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80",
	"\xe2\x94\x82 ", "\xe2\x97\x8f ", "\xe2\x8e\xbf  ", "\033]0;\xe2\x9c\xb3 "
	"Claude Code\007", "\033]7501;state=working:app=codex\033\\",
	"esc to interrupt", "Reading file src/main.c", "\t",
	"The quick brown fox jumps over the lazy dog. ",
	"def handler(request):\n    return response\n",
	"\xe2\x80\xa2 Working (12s \xe2\x80\xa2 esc to interrupt)",
	"caf\xc3\xa9 na\xc3\xafve \xe6\x97\xa5\xe6\x9c\xac ",
	"const x = await fetch(url, { method: 'POST' });",
};

/* Append about `size` bytes of agent-like pane output. */
static void
gen_output(struct buf *b, size_t size)
{
	size_t	start = b->len;
	int	n = (int)(sizeof pieces / sizeof pieces[0]);

	while (b->len - start < size)
		buf_adds(b, pieces[next() % (uint64_t)n]);
}

static void
gen_stream(struct buf *stream, size_t target, uint64_t *payload)
{
	struct buf	out;
	size_t		off, chunk;
	int		pane;

	buf_init(&out);
	*payload = 0;
	while (stream->len < target) {
		buf_reset(&out);
		gen_output(&out, 64 * 1024);
		pane = (int)(next() % 50);
		for (off = 0; off < out.len; off += chunk) {
			chunk = 1 + (size_t)(next() % 4096);
			if (chunk > out.len - off)
				chunk = out.len - off;
			buf_printf(stream, "%%output %%%d ", pane);
			ctl_escape(out.data + off, chunk, stream);
			buf_addc(stream, '\n');
			*payload += chunk;
		}
		if (next() % 8 == 0)
			buf_adds(stream, "%layout-change @3 b25f,80x24,0,0,3 "
			    "b25f,80x24,0,0,3 *\n%window-pane-changed @3 %3\n");
	}
	buf_free(&out);
}

/* What the helper keeps per pane for the hot path (struct watch). */
struct bpane {
	struct osc_scanner	 osc;
	struct cls_input	 in;
	struct cls_result	 res;
	char			 tail[256];
	size_t			 tail_len;
	uint64_t		 oscs;
};

struct sink {
	uint64_t	bytes;
	uint64_t	events;
	uint32_t	check;
	int		full;
	struct bpane	panes[BENCH_PANES];
	const struct agent_profile *agent;
	uint64_t	retries;
	uint64_t	verdicts[ST_NSTATES];
};

static void
on_osc(const struct osc_event *ev, void *arg)
{
	struct bpane	*bp = arg;

	bp->oscs++;
	if (ev->kind == OSC_EV_OSC && (ev->number == 0 || ev->number == 2))
		bp->in.title_at = bp->in.now;
	else if (ev->kind == OSC_EV_OSC && ev->number == 7501)
		bp->in.codex_at = bp->in.now;
}

/* As watch_output: scan, retry texts, tail, then classify. */
static void
full_path(struct sink *s, int pane, const char *data, size_t len)
{
	struct bpane	*bp = &s->panes[pane % BENCH_PANES];
	const char	*m;
	size_t		 keep;
	int		 i;

	bp->in.now += 1;
	osc_scan(&bp->osc, data, len, on_osc, bp);
	for (i = 0; i < 3 && (m = s->agent->retry_marks[i]) != NULL; i++) {
		if (memmem(data, len, m, strlen(m)) != NULL) {
			bp->in.retry_at = bp->in.now;
			s->retries++;
			break;
		}
	}
	if (len >= sizeof bp->tail) {
		memcpy(bp->tail, data + len - sizeof bp->tail,
		    sizeof bp->tail);
		bp->tail_len = sizeof bp->tail;
	} else {
		keep = sizeof bp->tail - len;
		if (keep > bp->tail_len)
			keep = bp->tail_len;
		memmove(bp->tail, bp->tail + bp->tail_len - keep, keep);
		memcpy(bp->tail + keep, data, len);
		bp->tail_len = keep + len;
	}
	bp->in.last_output = bp->in.now;
	classify(&bp->in, &bp->res);
	s->verdicts[bp->res.state]++;
}

static void
sink_init(struct sink *s, int full, const struct agent_profile *agent)
{
	int	i;

	memset(s, 0, sizeof *s);
	s->full = full;
	s->agent = agent;
	for (i = 0; i < BENCH_PANES; i++) {
		osc_init(&s->panes[i].osc);
		s->panes[i].in.now = 100000;
		s->panes[i].in.agent_seen = 1;
		s->panes[i].in.agent_alive = 1;
		s->panes[i].in.agent_since = 1;
		s->panes[i].in.osc133_exit = -1;
		s->panes[i].in.exit_status = -1;
		s->panes[i].in.exit_signal = -1;
		s->panes[i].in.shell_signal = -1;
		s->panes[i].in.debounce = 1500;
		s->panes[i].in.grace = 10000;
		s->panes[i].in.stale = 240000;
	}
}

static void
on_output(struct ctl_client *c, int pane, const char *data, size_t len,
    uint64_t age, void *arg)
{
	struct sink	*s = arg;

	s->bytes += len;
	/* Touch the data so the decode cannot be skipped. */
	if (len != 0)
		s->check += (unsigned char)data[len - 1];
	if (s->full)
		full_path(s, pane, data, len);
}

static void
on_event(struct ctl_client *c, struct ctl_event *ev, void *arg)
{
	((struct sink *)arg)->events++;
}

static const struct ctl_callbacks cbs = { on_event, on_output };

static uint64_t
sink_total(const struct sink *s)
{
	uint64_t	n = 0;
	int		i;

	for (i = 0; i < ST_NSTATES; i++)
		n += s->verdicts[i];
	return (n);
}

static uint64_t
sink_oscs(const struct sink *s)
{
	uint64_t	n = 0;
	int		i;

	for (i = 0; i < BENCH_PANES; i++)
		n += s->panes[i].oscs;
	return (n);
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

int
main(int argc, char **argv)
{
	struct buf		 stream;
	struct ctl_client	*c;
	struct sink		 sink;
	const char		*outfile = NULL, *infile = NULL;
	uint64_t		 payload = 0, t0, t1;
	size_t			 mb = 128, off, n;
	double			*secs, best, median;
	int			 runs = 5, r, ch, fd, full;
	const struct agent_profile *agent;
	char			*cause = NULL;
	ssize_t			 got;

	while ((ch = getopt(argc, argv, "m:r:o:i:")) != -1) {
		switch (ch) {
		case 'm': mb = (size_t)atoi(optarg); break;
		case 'r': runs = atoi(optarg); break;
		case 'o': outfile = optarg; break;
		case 'i': infile = optarg; break;
		default:
			fprintf(stderr, "usage: lisa-bench [-m MB] [-r RUNS] "
			    "[-o FILE] [-i FILE]\n");
			return (2);
		}
	}
	if (runs < 1)
		runs = 1;
	buf_init(&stream);
	if (infile != NULL) {
		if ((fd = open(infile, O_RDONLY)) == -1) {
			perror(infile);
			return (1);
		}
		buf_reserve(&stream, 1 << 20);
		while ((got = read(fd, stream.data + stream.len,
		    stream.size - stream.len - 1)) > 0) {
			stream.len += (size_t)got;
			buf_reserve(&stream, 1 << 20);
		}
		close(fd);
	} else
		gen_stream(&stream, mb * 1024 * 1024, &payload);
	if (outfile != NULL) {
		fd = open(outfile, O_WRONLY|O_CREAT|O_TRUNC, 0600);
		if (fd == -1 || write(fd, stream.data, stream.len) !=
		    (ssize_t)stream.len) {
			perror(outfile);
			return (1);
		}
		close(fd);
	}

	log_open("/dev/null", 0);
	if (agent_load("/nonexistent/agents.json", &cause) != 0 ||
	    (agent = agent_by_name("claude")) == NULL) {
		fprintf(stderr, "no agent profiles\n");
		return (1);
	}
	secs = calloc((size_t)runs, sizeof *secs);
	for (full = 0; full <= 1; full++) {
		for (r = 0; r < runs; r++) {
			sink_init(&sink, full, agent);
			c = ctl_client_new(-1, -1, &cbs, &sink);
			t0 = time_mono_us();
			for (off = 0; off < stream.len; off += n) {
				n = stream.len - off < 262144 ?
				    stream.len - off : 262144;
				ctl_client_feed(c, stream.data + off, n);
			}
			t1 = time_mono_us();
			secs[r] = (double)(t1 - t0) / 1e6;
			if (ctl_client_stats(c)->malformed != 0) {
				fprintf(stderr, "malformed lines in the "
				    "stream\n");
				return (1);
			}
			ctl_client_free(c);
		}
		qsort(secs, (size_t)runs, sizeof *secs, cmp_double);
		best = secs[0];
		median = secs[runs / 2];
		if (payload != 0 && sink.bytes != payload) {
			fprintf(stderr, "decoded %llu bytes, generated %llu\n",
			    (unsigned long long)sink.bytes,
			    (unsigned long long)payload);
			return (1);
		}
		if (!full) {
			printf("B1 %%output throughput (one core, %d runs, "
			    "median and best)\n", runs);
			printf("  stream              %8.1f MB (%llu decoded "
			    "bytes, %llu other events)\n",
			    (double)stream.len / 1e6,
			    (unsigned long long)sink.bytes,
			    (unsigned long long)sink.events);
		}
		printf("  %-20s%8.1f MB/s stream %8.1f MB/s decoded "
		    "(best %.1f / %.1f)\n", full ? "decode + classify" :
		    "decode only", (double)stream.len / 1e6 / median,
		    (double)sink.bytes / 1e6 / median,
		    (double)stream.len / 1e6 / best,
		    (double)sink.bytes / 1e6 / best);
		if (full)
			printf("  %-20s%llu classifications, %llu OSC "
			    "sequences, %llu retry texts\n", "",
			    (unsigned long long)sink_total(&sink),
			    (unsigned long long)sink_oscs(&sink),
			    (unsigned long long)sink.retries);
	}
	free(secs);
	buf_free(&stream);
	return (0);
}
