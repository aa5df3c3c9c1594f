/* Asserts on the engine's internal invariants: an index in range, a list
 * still sorted, a count within its array. Never on user data, which gets an
 * error with its place instead. On when NDEBUG is not defined (the Debug and
 * sanitizer builds the tests run), compiled out in Release. */
#ifndef VOLTEX_COMMON_ASSERT_H
#define VOLTEX_COMMON_ASSERT_H

#ifndef NDEBUG
/* Prints "voltex: assertion failed: COND (FILE:LINE)" on stderr and aborts. */
_Noreturn void vx_assert_failed(const char *condition, const char *file, int line);
#define VX_ASSERT(condition) ((condition) ? (void)0 : vx_assert_failed(#condition, __FILE__, __LINE__))
#else
#define VX_ASSERT(condition) ((void)0)
#endif

#endif
