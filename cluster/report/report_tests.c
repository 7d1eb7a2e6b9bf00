/* SPDX-License-Identifier: MIT */
/* The per-test table of a stage (report_tests.h). */
#include "report_tests.h"

#include <math.h>
#include <string.h>

#include "imbalance.h"

void report_material_text(const int material[TUNE_PIECES], char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int pass = 0; pass < 2; pass++)
        for (int p = TUNE_PIECES - 1; p >= 0 && used < len; p--) {
            int m = material[p];
            if ((pass == 0 && m <= 0) || (pass == 1 && m >= 0))
                continue;
            int n = m < 0 ? -m : m;
            char count[16] = "";
            if (n > 1)
                snprintf(count, sizeof count, "%d", n);
            used += (size_t)snprintf(out + used, len - used, "%s%s%s%s", used ? " " : "",
                                     m > 0 ? "+" : "-", count, tune_piece_name(p));
        }
}

/* The most frequent terminations, "resign adjudication 12, checkmate 5". */
static void terminations_text(const ReportTest *t, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < t->n_terms && i < 3 && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s %llu", i ? ", " : "",
                                 t->terms[i].name, (unsigned long long)t->terms[i].count);
    if (t->n_terms > 3 && used < len)
        snprintf(out + used, len - used, ", ...");
}

static double ratio(double a, double b) { return b > 0 ? a / b : NAN; }

void report_tests_table(FILE *f, const ReportRun *r, const ReportStage *s)
{
    fputs("| imbalance | material | pairs | LL | LD | EVEN | WD | WW | W-D-L | score | SE per pair "
          "| SE per game | as White | as Black | draw rate | terminations | mean plies | nodes "
          "per move (player 1 / 2) |\n"
          "|---|---|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|---|--:|--:|\n",
          f);
    for (int i = 0; i < r->cfg.n_imbalances; i++) {
        const ReportTest *t = &s->tests[i];
        int material[TUNE_PIECES];
        char mat[64], terms[256];
        imbalance_vector(&r->cfg.imbalances[i], material);
        report_material_text(material, mat, sizeof mat);
        terminations_text(t, terms, sizeof terms);
        PentanomialStats p = { 0 };
        TrinomialStats g = { 0 };
        bool any = stats_pentanomial(t->pairs, &p);
        stats_trinomial(t->wins, t->draws, t->losses, &g);
        const uint64_t games = t->wins + t->draws + t->losses;
        fprintf(f, "| %s | %s | %llu | %llu | %llu | %llu | %llu | %llu | %llu-%llu-%llu |",
                r->cfg.imbalances[i].name, mat, (unsigned long long)t->n_pairs,
                (unsigned long long)t->pairs[PAIR_LL], (unsigned long long)t->pairs[PAIR_LD],
                (unsigned long long)t->pairs[PAIR_EVEN], (unsigned long long)t->pairs[PAIR_WD],
                (unsigned long long)t->pairs[PAIR_WW], (unsigned long long)t->wins,
                (unsigned long long)t->draws, (unsigned long long)t->losses);
        if (any)
            fprintf(f, " %.4f | %.4f | %.4f | %.3f | %.3f | %.1f%% | %s | %.1f | %.0f / %.0f |\n",
                    p.score, p.se, g.se, ratio(t->white_score, (double)t->white_games),
                    ratio(t->black_score, (double)t->black_games),
                    100 * ratio((double)t->draws, (double)games), terms,
                    ratio((double)t->plies, (double)games),
                    ratio((double)t->nodes[0], (double)t->moves[0]),
                    ratio((double)t->nodes[1], (double)t->moves[1]));
        else
            fputs(" no pairs | | | | | | | | |\n", f);
    }
    fputs("\nPairs are player 1's pentanomial classes (LL two losses ... WW two wins; EVEN a win "
          "and a loss or two draws); the score is the mean pair score, its SE per pair from the "
          "pair classes (the one the fit uses: the openings are unbalanced by design) and per game "
          "from W-D-L as if the games were independent. \"As White\" and \"as Black\" are player "
          "1's mean scores with each colour.\n\n",
          f);
}
