/* SPDX-License-Identifier: MIT */
/* The report's page (report.h): the runs loaded, the Markdown written section by section, the
 * plots beside it. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "report_fit.h"
#include "report_plots.h"
#include "report_run.h"
#include "report_tests.h"
#include "run_error.h"
#include "rules.h"
#include "version.h"

#define PATH_MAX_LEN 4096

/* What a report is being written with. */
typedef struct Page {
    const ReportRequest *req;
    FILE *out; /* where the written paths are printed */
    char dir[PATH_MAX_LEN];
    ReportRun *runs;
    size_t n_runs;
    ReportColumn *columns;
    int n_columns;
    char err[2048];
} Page;

static void default_dir(const char *first, char *out, size_t len)
{
    size_t n = strlen(first);
    if (n > 3 && strcmp(first + n - 3, ".h5") == 0)
        n -= 3;
    snprintf(out, len, "%.*s-report", (int)n, first);
}

static void limits_text(const PlayerLimits *l, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    if (l->nodes)
        used +=
            (size_t)snprintf(out + used, len - used, "%llu nodes", (unsigned long long)l->nodes);
    if (l->depth && used < len)
        used += (size_t)snprintf(out + used, len - used, "%sdepth %d", used ? ", " : "", l->depth);
    if (l->movetime_ms && used < len)
        used += (size_t)snprintf(out + used, len - used, "%s%lld ms", used ? ", " : "",
                                 (long long)l->movetime_ms);
    if (l->base_ms && used < len)
        snprintf(out + used, len - used, "%sclock %lld+%lld ms", used ? ", " : "",
                 (long long)l->base_ms, (long long)l->inc_ms);
}

static void player_text(const PlayerConfig *p, char *out, size_t len)
{
    char limits[160];
    limits_text(&p->limits, limits, sizeof limits);
    if (p->kind == PLAYER_CARRERA)
        snprintf(out, len, "%s (Carrera's engine; %s per turn)", p->name, limits);
    else
        snprintf(out, len, "%s (%s engine `%s`; %s per turn)", p->name,
                 p->kind == PLAYER_UCI ? "UCI" : "xboard", p->command, limits);
}

/* The column label of stage s of run r. */
static void column_label(const ReportRun *r, const ReportStage *s, size_t run, char *out,
                         size_t len)
{
    const PlayerConfig *p = &r->cfg.players[0];
    char limits[160], stage[32] = "";
    PlayerLimits l = p->limits;
    l.nodes = report_stage_nodes(r, s);
    limits_text(&l, limits, sizeof limits);
    if (r->n_stages > 1)
        snprintf(stage, sizeof stage, ", stage %d", s->index + 1);
    snprintf(out, len, "#%zu %.48s%s, %.64s%s", run + 1, p->name,
             p->kind == PLAYER_UCI      ? " (UCI)"
             : p->kind == PLAYER_XBOARD ? " (xboard)"
                                        : "",
             limits, stage);
}

static void describe(FILE *f, const ReportRun *r, size_t i)
{
    const MatchConfig *c = &r->cfg;
    char p1[PLAYER_COMMAND_MAX + 256], p2[PLAYER_COMMAND_MAX + 256];
    player_text(&c->players[0], p1, sizeof p1);
    player_text(&c->players[1], p2, sizeof p2);
    fprintf(f,
            "**Run %zu**, `%s`: %s, %s turns; player 1 %s against player 2 %s. Imbalances "
            "(player 1 plays the side under test):",
            i + 1, r->path, c->variant->name, turn_rules_name(c->rules.turns), p1, p2);
    for (int k = 0; k < c->n_imbalances; k++)
        fprintf(f, "%s %s (weight %d)", k ? "," : "", c->imbalances[k].name, c->weights[k]);
    uint64_t pairs = 0;
    for (int k = 0; k < r->n_stages; k++)
        pairs += r->stages[k].pairs;
    fprintf(f,
            ". %d games planned in %d stage%s of %llu pairs; %llu complete pairs recorded "
            "(%zu games)",
            c->games, c->stages, c->stages == 1 ? "" : "s", (unsigned long long)c->pairs_per_stage,
            (unsigned long long)pairs, r->file.n_games);
    if (r->single_games || r->file.dropped)
        fprintf(f,
                "; ignored: %llu games whose pair has only one, %llu empty or torn rows of a "
                "killed run",
                (unsigned long long)r->single_games, (unsigned long long)r->file.dropped);
    fputs(".\n\n", f);
}

static void provenance(FILE *f, const Page *pg, const ReportRun *r, size_t i)
{
    const MatchTestsProvenance *p = &r->file.prov;
    fprintf(f, "#### Run %zu: `%s`\n\n| | |\n|---|---|\n", i + 1, r->path);
    fprintf(f, "| file format | %s |\n", p->format);
    fprintf(f, "| Carrera version | %s |\n| git revision | %s |\n", p->version, p->revision);
    fprintf(f, "| compiler | %s |\n| build flags | %s |\n", p->compiler, p->build_flags);
    fprintf(f, "| ranks × threads | %d × %d |\n| hosts | %s |\n", p->ranks, p->threads_per_rank,
            p->hosts);
    fprintf(f, "| start time | %s |\n| end time | %s |\n", p->start_time,
            p->end_time[0] ? p->end_time : "(not finished)");
    fprintf(f, "| resumed | %d |\n", p->resumed);
    fprintf(f, "| /tune/pairs cross-check | %s |\n\n",
            !r->cross_checked ? "not made (no /tune/pairs or no complete stage)"
            : r->warning[0]   ? "**DIFFERS** (see the warning)"
                              : "equal to the games of the last complete stage");
    fprintf(f,
            "<details><summary>Configuration of run %zu</summary>\n\n```ini\n%s%s```\n\n"
            "</details>\n\n",
            i + 1, r->file.configuration,
            strlen(r->file.configuration) &&
                    r->file.configuration[strlen(r->file.configuration) - 1] != '\n'
                ? "\n"
                : "");
    (void)pg;
}

/* Writes the plots of stage s of run i and links them. */
static int stage_plots(FILE *f, Page *pg, size_t i, const ReportStage *s, const char *label)
{
    char suffix[32] = "", values[PATH_MAX_LEN + 64], fit[PATH_MAX_LEN + 64];
    if (pg->runs[i].n_stages > 1)
        snprintf(suffix, sizeof suffix, "-s%d", s->index + 1);
    snprintf(values, sizeof values, "%s/values-%zu%s.svg", pg->dir, i + 1, suffix);
    snprintf(fit, sizeof fit, "%s/fit-%zu%s.svg", pg->dir, i + 1, suffix);
    if (report_plot_stage(values, fit, &pg->runs[i], s, label, pg->err, sizeof pg->err) != 0)
        return -1;
    fprintf(f, "![values and contrasts](values-%zu%s.svg)\n\n![the fit](fit-%zu%s.svg)\n\n", i + 1,
            suffix, i + 1, suffix);
    fprintf(pg->out, "%s\n%s\n", values, fit);
    return 0;
}

static int run_sections(FILE *f, Page *pg)
{
    int col = 0;
    for (size_t i = 0; i < pg->n_runs; i++) {
        const ReportRun *r = &pg->runs[i];
        fprintf(f, "## Run %zu: %s\n\n", i + 1, r->path);
        for (int k = 0; k < r->n_stages; k++, col++) {
            const ReportStage *s = &r->stages[k];
            const ReportColumn *c = &pg->columns[col];
            fprintf(f, "### %s%s\n\n", c->label,
                    s->complete ? "" : " (incomplete: fewer pairs than planned)");
            report_tests_table(f, r, s);
            report_fit_tables(f, r, s);
            if (s->analysis->ok && stage_plots(f, pg, i, s, c->label) != 0)
                return -1;
            report_falsify(f, r, s);
        }
    }
    return 0;
}

/* A cell of the comparison: quantity name (u_P the pawn's logit) of column c. */
static void comparison_cell(FILE *f, const ReportColumn *c, const char *name)
{
    const TuneAnalysis *a = c->stage->analysis;
    if (!a->ok) {
        fputs(" no fit |", f);
        return;
    }
    if (strcmp(name, "u_P") == 0) {
        if (a->pieces & TUNE_BIT(TUNE_P))
            fprintf(f, " %.4f ± %.4f |", a->values.logit[TUNE_P],
                    sqrt(a->values.logit_cov[TUNE_P][TUNE_P]));
        else
            fputs(" - |", f);
        return;
    }
    int q = report_quantity_index(a, name);
    if (q < 0) {
        fputs(" - |", f);
        return;
    }
    char iv[96];
    report_fieller_text(&a->estimate[q], iv, sizeof iv);
    fprintf(f, " %.2f %s |", a->estimate[q].value, iv);
}

static int comparison(FILE *f, Page *pg)
{
    if (pg->n_columns < 2)
        return 0;
    fputs("## Comparison\n\nThe main quantities of every run and stage side by side (pawns, "
          "Fieller 95% intervals; u_P in logits ± SE).\n\n| |",
          f);
    for (int i = 0; i < pg->n_columns; i++)
        fprintf(f, " %s |", pg->columns[i].label);
    fputs("\n|---|", f);
    for (int i = 0; i < pg->n_columns; i++)
        fputs("---|", f);
    fputs("\n| pairs |", f);
    for (int i = 0; i < pg->n_columns; i++)
        fprintf(f, " %llu |", (unsigned long long)pg->columns[i].stage->pairs);
    fputs("\n| chi² p-value |", f);
    for (int i = 0; i < pg->n_columns; i++) {
        const TuneAnalysis *a = pg->columns[i].stage->analysis;
        if (a->ok)
            fprintf(f, " %.3g |", a->quality.p_value);
        else
            fputs(" no fit |", f);
    }
    fputs("\n| u_P |", f);
    for (int i = 0; i < pg->n_columns; i++)
        comparison_cell(f, &pg->columns[i], "u_P");
    for (int q = 0; q < REPORT_MAIN_QUANTITIES; q++) {
        fprintf(f, "\n| %s |", report_main_quantities[q]);
        for (int i = 0; i < pg->n_columns; i++)
            comparison_cell(f, &pg->columns[i], report_main_quantities[q]);
    }
    fputs("\n\n", f);
    char path[PATH_MAX_LEN + 64];
    snprintf(path, sizeof path, "%s/convergence.svg", pg->dir);
    if (report_plot_convergence(path, pg->columns, pg->n_columns, pg->err, sizeof pg->err) != 0)
        return -1;
    fprintf(f, "%s\n\n![convergence](convergence.svg)\n\n",
            report_columns_by_nodes(pg->columns, pg->n_columns)
                ? "Against player 1's nodes per turn (log2 axis), one series per engine:"
                : "Run by run (the runs do not differ in player 1's nodes per turn):");
    fprintf(pg->out, "%s\n", path);
    return 0;
}

static void report_provenance(FILE *f, const Page *pg)
{
    fputs("## Provenance\n\nEvery number above is recomputed by `carrera report` from the rows "
          "of /match/games and the configuration text each file carries (never from the values "
          "a file stored), with core/stats/tune_analysis.c.\n\n",
          f);
    fprintf(f,
            "| | |\n|---|---|\n| report command | `%s` |\n| report's Carrera | %s, revision %s "
            "(%s; %s) |\n| bootstrap replicates | %d |\n\n",
            pg->req->command_line ? pg->req->command_line : "", carrera_version, carrera_revision,
            carrera_compiler, carrera_build_flags, pg->req->replicates);
    for (size_t i = 0; i < pg->n_runs; i++)
        provenance(f, pg, &pg->runs[i], i);
}

static int write_page(Page *pg, const char *path)
{
    FILE *f = fopen(path, "we");
    if (!f) {
        snprintf(pg->err, sizeof pg->err, "cannot write %.1000s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# %s\n\n", pg->req->title ? pg->req->title : "Piece values from material odds");
    for (size_t i = 0; i < pg->n_runs; i++)
        describe(f, &pg->runs[i], i);
    bool warned = false;
    for (size_t i = 0; i < pg->n_runs; i++)
        if (pg->runs[i].warning[0]) {
            if (!warned)
                fputs("## Warnings\n\n", f);
            warned = true;
            fprintf(f,
                    "- **%s: the pair counts /tune stored are not those of its games**: %s. "
                    "This report uses the games.\n",
                    pg->runs[i].path, pg->runs[i].warning);
        }
    if (warned)
        fputc('\n', f);
    int rc = run_sections(f, pg);
    if (rc == 0)
        rc = comparison(f, pg);
    if (rc == 0)
        report_provenance(f, pg);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        if (rc == 0)
            snprintf(pg->err, sizeof pg->err, "cannot write %.1000s: %s", path, strerror(errno));
        return -1;
    }
    return rc;
}

/* Reads and analyses every file. Returns 0, or the exit status with a message in pg->err (left
 * empty when memory runs out here). */
static int load(Page *pg)
{
    const ReportRequest *q = pg->req;
    pg->runs = calloc(q->n_paths, sizeof *pg->runs);
    if (!pg->runs)
        return EXIT_FAILED;
    int columns = 0;
    for (size_t i = 0; i < q->n_paths; i++) {
        int status =
            report_run_load(&pg->runs[i], q->paths[i], q->replicates, pg->err, sizeof pg->err);
        if (status != 0)
            return status;
        pg->n_runs++;
        columns += pg->runs[i].n_stages;
        if (pg->runs[i].warning[0])
            run_warning("%s: the pair counts /tune stored are not those of its games: %s",
                        q->paths[i], pg->runs[i].warning);
    }
    pg->columns = calloc((size_t)columns, sizeof *pg->columns);
    if (!pg->columns)
        return EXIT_FAILED;
    for (size_t i = 0; i < pg->n_runs; i++)
        for (int k = 0; k < pg->runs[i].n_stages; k++) {
            ReportColumn *c = &pg->columns[pg->n_columns++];
            c->run = &pg->runs[i];
            c->stage = &pg->runs[i].stages[k];
            column_label(c->run, c->stage, i, c->label, sizeof c->label);
        }
    return 0;
}

int report_write(const ReportRequest *req, FILE *out)
{
    Page pg = { .req = req, .out = out };
    if (req->out_dir)
        snprintf(pg.dir, sizeof pg.dir, "%s", req->out_dir);
    else
        default_dir(req->paths[0], pg.dir, sizeof pg.dir);
    char md[PATH_MAX_LEN + 16];
    snprintf(md, sizeof md, "%s/report.md", pg.dir);
    int status = load(&pg);
    if (status != 0 && !pg.err[0])
        snprintf(pg.err, sizeof pg.err, "out of memory");
    if (status == 0 &&
        (make_parent_dirs(md, pg.err, sizeof pg.err) != 0 || write_page(&pg, md) != 0))
        status = EXIT_FAILED;
    if (status == 0)
        fprintf(out, "%s\n", md);
    else
        run_error(status, "%s", pg.err);
    for (size_t i = 0; i < pg.n_runs; i++)
        report_run_free(&pg.runs[i]);
    free(pg.runs);
    free(pg.columns);
    return status;
}
