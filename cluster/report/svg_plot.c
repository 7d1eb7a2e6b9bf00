/* SPDX-License-Identifier: MIT */
/* SVG charts (svg_plot.h). */
#include "svg_plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "errmsg.h"

/* A panel's size and margins, in SVG units (pixels). */
#define PANEL_W  640.0
#define PANEL_H  380.0
#define LEFT     72.0
#define RIGHT    18.0
#define TOP      36.0
#define BOTTOM   64.0
#define TITLE_H  34.0
#define MAX_TICK 12

static const char *const colours[SVG_MAX_SERIES] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                                     "#ff7f0e", "#8c564b", "#e377c2", "#17becf" };

void xml_put_text(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&apos;", f);
            break;
        default:
            fputc(*s, f);
        }
}

static void text_at(FILE *f, double x, double y, const char *anchor, double size, const char *extra,
                    const char *s)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\"%s>", x, y, anchor,
            size, extra ? extra : "");
    xml_put_text(f, s);
    fputs("</text>\n", f);
}

/* The data range of one axis. */
typedef struct Range {
    double lo, hi;
} Range;

static void widen(Range *r, double v)
{
    if (!isfinite(v))
        return;
    if (v < r->lo)
        r->lo = v;
    if (v > r->hi)
        r->hi = v;
}

/* The y range: the points and their bars, but a bar far beyond the points (a wide Fieller
 * interval) is cut at three times the points' spread and drawn open. */
static Range y_range(const SvgPanel *p)
{
    Range pts = { INFINITY, -INFINITY }, all;
    for (int s = 0; s < p->n_series; s++)
        for (size_t i = 0; i < p->series[s].n; i++)
            widen(&pts, p->series[s].points[i].y);
    if (pts.lo > pts.hi)
        pts = (Range){ 0, 1 };
    double spread = fmax(pts.hi - pts.lo, fmax(fabs(pts.hi), fabs(pts.lo)) * 0.2);
    if (spread <= 0)
        spread = 1;
    all = pts;
    for (int s = 0; s < p->n_series; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            widen(&all, fmax(p->series[s].points[i].lo, pts.lo - 3 * spread));
            widen(&all, fmin(p->series[s].points[i].hi, pts.hi + 3 * spread));
        }
    double pad = (all.hi - all.lo) * 0.06;
    if (pad <= 0)
        pad = 0.5;
    return (Range){ all.lo - pad, all.hi + pad };
}

static Range x_range(const SvgPanel *p)
{
    if (p->categories)
        return (Range){ -0.6, (double)p->n_categories - 0.4 };
    Range r = { INFINITY, -INFINITY };
    for (int s = 0; s < p->n_series; s++)
        for (size_t i = 0; i < p->series[s].n; i++)
            widen(&r, p->log2x ? log2(p->series[s].points[i].x) : p->series[s].points[i].x);
    if (r.lo > r.hi)
        r = (Range){ 0, 1 };
    double pad = (r.hi - r.lo) * 0.08;
    if (pad <= 0)
        pad = 0.5;
    return (Range){ r.lo - pad, r.hi + pad };
}

/* Round tick values for [lo, hi]: steps of 1, 2 or 5 times a power of ten. */
static int ticks(Range r, double out[MAX_TICK])
{
    double raw = (r.hi - r.lo) / 6, mag = pow(10, floor(log10(raw))), step = mag;
    if (raw / mag > 5)
        step = 10 * mag;
    else if (raw / mag > 2)
        step = 5 * mag;
    else if (raw / mag > 1)
        step = 2 * mag;
    int n = 0;
    for (double t = ceil(r.lo / step) * step; t <= r.hi && n < MAX_TICK; t += step)
        out[n++] = fabs(t) < step * 1e-9 ? 0 : t;
    return n;
}

/* Where a panel is and how data maps onto it. */
typedef struct Frame {
    double x0, y0, w, h; /* the plotting area */
    Range xr, yr;
    bool log2x;
} Frame;

static double px(const Frame *fr, double x)
{
    double v = fr->log2x ? log2(x) : x;
    return fr->x0 + (v - fr->xr.lo) / (fr->xr.hi - fr->xr.lo) * fr->w;
}

static double py(const Frame *fr, double y)
{
    if (y > fr->yr.hi)
        y = fr->yr.hi;
    if (y < fr->yr.lo)
        y = fr->yr.lo;
    return fr->y0 + fr->h - (y - fr->yr.lo) / (fr->yr.hi - fr->yr.lo) * fr->h;
}

static void axes(FILE *f, const SvgPanel *p, const Frame *fr)
{
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#444\"/>\n",
            fr->x0, fr->y0, fr->w, fr->h);
    double t[MAX_TICK];
    char label[64];
    int n = ticks(fr->yr, t);
    for (int i = 0; i < n; i++) {
        double y = py(fr, t[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                fr->x0, y, fr->x0 + fr->w, y);
        snprintf(label, sizeof label, "%g", t[i]);
        text_at(f, fr->x0 - 6, y + 4, "end", 11, NULL, label);
    }
    if (p->categories) {
        for (size_t i = 0; i < p->n_categories; i++)
            text_at(f, px(fr, (double)i), fr->y0 + fr->h + 16, "middle", 11, NULL,
                    p->categories[i]);
    } else {
        n = 0;
        if (p->log2x)
            for (double e = ceil(fr->xr.lo); e <= fr->xr.hi && n < MAX_TICK; e++)
                t[n++] = pow(2, e);
        else
            n = ticks(fr->xr, t);
        for (int i = 0; i < n; i++) {
            double x = px(fr, t[i]);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                    x, fr->y0, x, fr->y0 + fr->h);
            snprintf(label, sizeof label, "%g", t[i]);
            text_at(f, x, fr->y0 + fr->h + 16, "middle", 11, NULL, label);
        }
    }
    if (p->title)
        text_at(f, fr->x0 + fr->w / 2, fr->y0 - 12, "middle", 14, " font-weight=\"bold\"",
                p->title);
    if (p->xlabel)
        text_at(f, fr->x0 + fr->w / 2, fr->y0 + fr->h + 40, "middle", 12, NULL, p->xlabel);
    if (p->ylabel) {
        char rot[96];
        snprintf(rot, sizeof rot, " transform=\"rotate(-90 %.1f %.1f)\"", fr->x0 - 50,
                 fr->y0 + fr->h / 2);
        text_at(f, fr->x0 - 50, fr->y0 + fr->h / 2, "middle", 12, rot, p->ylabel);
    }
}

/* Marker s (a shape per series) at (x, y). */
static void marker(FILE *f, int s, double x, double y)
{
    const char *c = colours[s % SVG_MAX_SERIES];
    switch (s % 4) {
    case 0:
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y, c);
        break;
    case 1:
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n", x - 4,
                y - 4, c);
        break;
    case 2:
        fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n", x, y - 5, x + 5,
                y + 4, x - 5, y + 4, c);
        break;
    default:
        fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n", x,
                y - 5, x + 5, y, x, y + 5, x - 5, y, c);
    }
}

/* An error bar's end at y: a cap, or an arrowhead when the interval goes beyond the panel. */
static void bar_end(FILE *f, const Frame *fr, const char *c, double x, double v, bool up)
{
    bool open = up ? !(v <= fr->yr.hi) : !(v >= fr->yr.lo);
    double y = py(fr, v);
    if (open)
        fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1f\" fill=\"none\" stroke=\"%s\"/>\n",
                x - 4, y + (up ? 6 : -6), x, y, x + 4, y + (up ? 6 : -6), c);
    else
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x - 4,
                y, x + 4, y, c);
}

static void series(FILE *f, const Frame *fr, const SvgSeries *s, int k)
{
    const char *c = colours[k % SVG_MAX_SERIES];
    for (size_t i = 0; i < s->n; i++) {
        const SvgPoint *p = &s->points[i];
        if (!isfinite(p->y) || (fr->log2x && !(p->x > 0)))
            continue;
        double x = px(fr, p->x);
        if (!isnan(p->lo) && !isnan(p->hi)) {
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                    "stroke-width=\"1.5\"/>\n",
                    x, py(fr, p->lo), x, py(fr, p->hi), c);
            bar_end(f, fr, c, x, p->lo, false);
            bar_end(f, fr, c, x, p->hi, true);
        }
        marker(f, k, x, py(fr, p->y));
    }
}

static void legend(FILE *f, const SvgPanel *p, const Frame *fr)
{
    double y = fr->y0 + 14;
    for (int s = 0; s < p->n_series; s++, y += 16) {
        marker(f, s, fr->x0 + fr->w - 150, y - 4);
        text_at(f, fr->x0 + fr->w - 140, y, "start", 11, NULL, p->series[s].name);
    }
}

static void panel(FILE *f, const SvgPanel *p, double left, double top)
{
    Frame fr = { .x0 = left + LEFT,
                 .y0 = top + TOP,
                 .w = PANEL_W - LEFT - RIGHT,
                 .h = PANEL_H - TOP - BOTTOM,
                 .xr = x_range(p),
                 .yr = y_range(p),
                 .log2x = p->log2x && !p->categories };
    axes(f, p, &fr);
    if (p->diagonal) {
        double lo = fmax(fr.xr.lo, fr.yr.lo), hi = fmin(fr.xr.hi, fr.yr.hi);
        if (lo < hi)
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
                    "stroke-dasharray=\"4 3\"/>\n",
                    px(&fr, lo), py(&fr, lo), px(&fr, hi), py(&fr, hi));
    }
    for (int s = 0; s < p->n_series; s++)
        series(f, &fr, &p->series[s], s);
    legend(f, p, &fr);
}

int svg_plot_write(const char *path, const char *title, const SvgPanel *panels, int n_panels,
                   int columns, char *err, size_t errlen)
{
    if (columns < 1)
        columns = 1;
    if (columns > n_panels && n_panels > 0)
        columns = n_panels;
    int rows = (n_panels + columns - 1) / columns;
    FILE *f = fopen(path, "we");
    if (!f)
        return errmsg_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
    double w = PANEL_W * columns, h = TITLE_H + PANEL_H * rows;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            w, h, w, h);
    if (title)
        text_at(f, w / 2, 22, "middle", 16, " font-weight=\"bold\"", title);
    for (int i = 0; i < n_panels; i++)
        panel(f, &panels[i], PANEL_W * (i % columns), TITLE_H + PANEL_H * (i / columns));
    fputs("</svg>\n", f);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return errmsg_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return 0;
}
