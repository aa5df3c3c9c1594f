#include "cli/compare_report.h"

#include <inttypes.h>
#include <math.h>

static bool entity_differs(const vx_golden_summary *summary, size_t i)
{
    for (int c = 0; c < VX_GOLDEN_COLUMNS; c++)
        if (summary->max_frame[i * VX_GOLDEN_COLUMNS + (size_t)c] >= 0) return true;
    return false;
}

void vx_cli_compare_report(const vx_golden_summary *summary, const vx_trace_info *info,
                           vx_golden_tolerance tolerance, FILE *out)
{
    if (summary->different == 0) return;
    fprintf(out, "voltex-sim: %" PRIu64 " of %" PRIu64 " numbers differ (by more than %g", summary->different,
            summary->numbers, tolerance.tolerance);
    if (tolerance.rtol > 0.0) fprintf(out, " + %g * |golden|", tolerance.rtol);
    fprintf(out, "), in frames %" PRId64 " to %" PRId64 "\n", summary->first_frame, summary->last_frame);
    fputs("voltex-sim: largest differences (entity: column difference at frame):\n", out);
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < summary->entity_count && i < info->entity_count; i++) {
        if (!entity_differs(summary, i)) continue;
        if (shown == VX_CLI_REPORT_MAX_ENTITIES) {
            more++;
            continue;
        }
        shown++;
        fprintf(out, "voltex-sim:   %s:", info->names[i]);
        const char *separator = " ";
        for (int c = 0; c < VX_GOLDEN_COLUMNS; c++) {
            size_t at = i * VX_GOLDEN_COLUMNS + (size_t)c;
            if (summary->max_frame[at] < 0) continue;
            double d = summary->max_difference[at];
            if (isinf(d))
                fprintf(out, "%s%s not finite at %" PRId64, separator, vx_golden_column_name(c), summary->max_frame[at]);
            else
                fprintf(out, "%s%s %.3g at %" PRId64, separator, vx_golden_column_name(c), d, summary->max_frame[at]);
            separator = ", ";
        }
        fputc('\n', out);
    }
    if (more > 0) fprintf(out, "voltex-sim:   and %zu more entities\n", more);
}
