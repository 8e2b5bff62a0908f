/*
 * The classifier tests' inputs: each starts from BASE (a live agent met a
 * minute ago, quiet for 5 s, lisa's clocks) and overrides fields; later
 * initializers win.
 */
#ifndef CLASSIFY_BASE_H
#define CLASSIFY_BASE_H

#pragma GCC diagnostic ignored "-Woverride-init"
#ifdef __clang__
#pragma clang diagnostic ignored "-Winitializer-overrides"
#endif

#define NOW 1000000
#define BASE \
	.now = NOW, .exit_status = -1, .exit_signal = -1, \
	.agent_seen = 1, .agent_alive = 1, .agent_since = NOW - 60000, \
	.agent_exit_status = -1, .agent_exit_signal = -1, \
	.osc133_exit = -1, .last_output = NOW - 5000, \
	.debounce = 1500, .grace = 10000, .stale = 240000

#endif
