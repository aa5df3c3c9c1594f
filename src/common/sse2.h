/* Whether the SSE2 code is compiled: on every x86-64 compiler, unless
 * VOLTEX_NO_SIMD (CMake's VOLTEX_PLAIN_C) asks for the plain C code that
 * processors without SSE2 (AArch64) run, so that x86-64 can check that both
 * give the same bytes (docs/determinism.md). */
#ifndef VOLTEX_COMMON_SSE2_H
#define VOLTEX_COMMON_SSE2_H

#if defined(__SSE2__) && !defined(VOLTEX_NO_SIMD)
#define VX_SSE2 1
#else
#define VX_SSE2 0
#endif

#endif
