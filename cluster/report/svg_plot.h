/* SPDX-License-Identifier: MIT */
/* Small SVG charts for a report, written with no library: one or more panels in a grid, each
 * with axes, ticks and labels (a linear or a log2 x axis, or named categories), points with
 * error bars (an infinite or far end drawn as an arrow at the panel's edge) in several series
 * with a legend, and optionally the diagonal y = x. Every text is escaped. */
#ifndef CARRERA_SVG_PLOT_H
#define CARRERA_SVG_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A point at (x, y) with an error bar from lo to hi (NaN: no bar; -inf, +inf: open ends). With
 * categories x is the category's index (a fraction off it places series side by side). */
typedef struct SvgPoint {
    double x, y, lo, hi;
} SvgPoint;

#define SVG_MAX_SERIES 8

typedef struct SvgSeries {
    const char *name; /* in the legend */
    const SvgPoint *points;
    size_t n;
} SvgSeries;

typedef struct SvgPanel {
    const char *title, *xlabel, *ylabel;
    bool log2x;                    /* x > 0 on a log2 axis (ticks at powers of two) */
    const char *const *categories; /* x axis of named categories 0..n_categories-1, or NULL */
    size_t n_categories;
    bool diagonal; /* draw y = x */
    SvgSeries series[SVG_MAX_SERIES];
    int n_series;
} SvgPanel;

/* Writes the panels (columns per row) with a title above them to the file at path. Returns 0,
 * or -1 with a message naming the file. */
int svg_plot_write(const char *path, const char *title, const SvgPanel *panels, int n_panels,
                   int columns, char *err, size_t errlen);

/* Writes text escaped for XML (SVG here, JUnit reports elsewhere); NULL writes nothing. */
void xml_put_text(FILE *f, const char *s);

#endif
