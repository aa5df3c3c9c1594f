/* The summary --compare prints after a difference: how many numbers
 * differ and in which frames, and the largest difference per entity and
 * column:
 *
 *   voltex-sim: 962 of 16926 numbers differ (by more than 1e-05), in frames 120 to 600
 *   voltex-sim: largest differences (entity: column difference at frame):
 *   voltex-sim:   ball: py 0.851 at 311, vy 5.12 at 190
 */
#ifndef VX_CLI_COMPARE_REPORT_H
#define VX_CLI_COMPARE_REPORT_H

#include <stdio.h>

#include "voltex/trace.h"

#define VX_CLI_REPORT_MAX_ENTITIES 20 /* entity lines printed; the rest are counted */

/* Nothing when no number differed. */
void vx_cli_compare_report(const vx_golden_summary *summary, const vx_trace_info *info,
                           vx_golden_tolerance tolerance, FILE *out);

#endif
