/* scripts/view_trace's pages in a real browser: Debian's chromium driven by
 * playwright-core (tests/scripts/viewer_browser.js says what is checked).
 * Skipped, saying why, only when the browser cannot start. */
#include "test_scripts.h"

Test(viewer, replays_in_a_browser, .timeout = 180)
{
    cr_assert_eq(access(VOLTEX_SOURCE_DIR "/node_modules/playwright-core/package.json", F_OK), 0,
                 "the npm packages are not installed: run `npm ci` in the source tree (scripts/test.sh does)");
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(dir, "node '" VOLTEX_SOURCE_DIR "/tests/scripts/viewer_browser.js' '%s' '%s'",
                                       VOLTEX_SIM_PATH, dir);
    if (r.code == 77) {
        char line[512] = "";
        vx_find_line(r.out, "SKIP", line, sizeof line);
        vx_script_free(&r);
        vx_scratch_remove(dir);
        cr_skip_test("%s", line);
    }
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_eq(vx_count_lines(r.out, "ok - "), 11, "%s", r.out);
    vx_script_free(&r);
    vx_scratch_remove(dir);
}
