/* Private to the trace module: reads a CSV file line by line (any length,
 * via getline) and splits each line at commas, in place. No quoting: the
 * traces never need it (names are letters, digits, _ . -). */
#ifndef VX_CSV_READER_H
#define VX_CSV_READER_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *file;
    char *line;
    size_t line_capacity;
    long line_number;   /* of the row last read, 1-based */
    char **cells;
    size_t cell_count;
    size_t cell_capacity;
} vx_csv_reader;

typedef enum {
    VX_CSV_ROW = 0,   /* cells[0..cell_count) hold the next non-empty line */
    VX_CSV_END,       /* end of file */
    VX_CSV_READ_ERROR, /* errno says why */
    VX_CSV_NOMEM
} vx_csv_result;

void vx_csv_reader_init(vx_csv_reader *r, FILE *file);
/* Next non-empty line (a trailing "\n" or "\r\n" is not part of it). */
vx_csv_result vx_csv_reader_next(vx_csv_reader *r);
/* Frees the buffers and closes the file. */
void vx_csv_reader_close(vx_csv_reader *r);

#endif
