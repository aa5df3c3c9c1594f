/* scripts/cross_check.sh: voltex-sim built with clang and the plain C code
 * of processors without SSE2 (the AArch64 path), and built for aarch64 and
 * run under qemu (every case's first 60 steps), writes the same bytes
 * as this gcc build and as the golden traces, for every example, validation,
 * joint, shape and query scene and a bench subset (docs/determinism.md).
 * Run in the Release build of scripts/test.sh: the builds it makes are kept
 * in build/cross-clang-plain-c, so after the first time only what changed is rebuilt.
 * The sanitizer build skips it (its -O1 and ASan binary would only repeat
 * the comparison, slower). */
#include <criterion/criterion.h>

#include "test_scripts.h"

Test(cross_check, clang_and_plain_c_give_the_bytes_of_gcc_and_the_goldens, .timeout = 1200)
{
#if defined(__SANITIZE_ADDRESS__)
    cr_skip_test("runs in the Release build of scripts/test.sh");
#endif
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r =
        vx_script_run(dir, "bash '%s/cross_check.sh' --aarch64 --reference '%s'", VX_SCRIPTS, VOLTEX_SIM_PATH);
    cr_log_info("%s", r.err);
    cr_assert_eq(r.code, 0, "%s", r.err);
    /* the summary line: every run compared */
    char line[512];
    cr_assert(vx_find_line(r.err, "voltex: cross_check: ", line, sizeof line), "%s", r.err);
    int runs = 0, traces = 0;
    cr_assert_eq(sscanf(line, "voltex: cross_check: %d runs, %d traces", &runs, &traces), 2, "%s", line);
    cr_assert_geq(runs, 50, "%s", line);
    cr_assert_eq(traces, runs * 4, "four traces per run: %s", line);
    /* and the aarch64 build under qemu, every case's first steps, unless
     * this machine cannot install the arm64 packages (said in one line) */
    if (strstr(r.err, "voltex: cross_check: aarch64 skipped: ")) {
        cr_log_warn("aarch64 not checked here: %s", strstr(r.err, "voltex: cross_check: aarch64 skipped: "));
        vx_script_free(&r);
        vx_scratch_remove(dir);
        return;
    }
    cr_assert(vx_find_line(r.err, "voltex: cross_check: aarch64 (qemu): ", line, sizeof line), "%s", r.err);
    int short_runs = 0, short_traces = 0;
    cr_assert_eq(sscanf(line, "voltex: cross_check: aarch64 (qemu): %d runs of %*d steps, %d traces", &short_runs,
                        &short_traces),
                 2, "%s", line);
    cr_assert_eq(short_runs, runs, "%s", line);
    cr_assert_eq(short_traces, runs * 4, "%s", line);
    vx_script_free(&r);
    vx_scratch_remove(dir);
}
