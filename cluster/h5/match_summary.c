/* SPDX-License-Identifier: MIT */
/* The summary of a match result file (match_file_impl.h): counts from player 1's view, both Elo
 * models, the SPRT over the file's pairs and why the match stopped, written on /match when the
 * match ends. */
#include <math.h>

#include "h5file.h"
#include "match_file_impl.h"
#include "tune_group.h"

const char *const match_summary_names[] = {
    "wins",       "draws",        "losses",       "score",       "elo",        "elo_lo",
    "elo_hi",     "elo_pair",     "elo_pair_lo",  "elo_pair_hi", "nelo",       "los",
    "draw_ratio", "games_played", "pairs_played", "stop_reason", "sprt_elo0",  "sprt_elo1",
    "sprt_alpha", "sprt_beta",    "sprt_llr",     "sprt_lower",  "sprt_upper",
};
const size_t match_summary_n_names = sizeof match_summary_names / sizeof match_summary_names[0];

static const char *stop_reason(const MatchFile *h, const Sprt *sprt, uint64_t pairs)
{
    if (sprt && sprt->decision == SPRT_ACCEPT_H0)
        return "SPRT accepted H0";
    if (sprt && sprt->decision == SPRT_ACCEPT_H1)
        return "SPRT accepted H1";
    return pairs == h->n_pairs ? "all games played" : "interrupted";
}

/* v, or NaN when there were no games to compute it from. */
static double unless_none(bool any, double v) { return any ? v : NAN; }

int match_summary_write(MatchFile *h, const MatchFileSummary *s)
{
    TrinomialStats tri;
    PentanomialStats penta;
    bool any = stats_trinomial(h->wins, h->draws, h->losses, &tri);
    stats_pentanomial(h->counts, &penta);
    uint64_t pairs = penta.pairs;
    hid_t g = H5Gopen2(h->rf.file, "/match", H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = 0;
    rc |= h5file_put_u64(g, "wins", h->wins);
    rc |= h5file_put_u64(g, "draws", h->draws);
    rc |= h5file_put_u64(g, "losses", h->losses);
    rc |= h5file_put_f64(g, "score", unless_none(any, tri.score));
    rc |= h5file_put_f64(g, "elo", unless_none(any, tri.elo));
    rc |= h5file_put_f64(g, "elo_lo", unless_none(any, tri.elo_lo));
    rc |= h5file_put_f64(g, "elo_hi", unless_none(any, tri.elo_hi));
    rc |= h5file_put_f64(g, "elo_pair", unless_none(any, penta.elo));
    rc |= h5file_put_f64(g, "elo_pair_lo", unless_none(any, penta.elo_lo));
    rc |= h5file_put_f64(g, "elo_pair_hi", unless_none(any, penta.elo_hi));
    rc |= h5file_put_f64(g, "nelo", unless_none(any, penta.nelo));
    rc |= h5file_put_f64(g, "los", unless_none(any, tri.los));
    rc |= h5file_put_f64(g, "draw_ratio", unless_none(any, tri.draw_ratio));
    rc |= h5file_put_u64(g, "games_played", 2 * pairs);
    rc |= h5file_put_u64(g, "pairs_played", pairs);
    rc |= h5file_put_str(g, "stop_reason",
                         s->stop_reason ? s->stop_reason : stop_reason(h, s->sprt, pairs));
    if (s->sprt) {
        const Sprt *t = s->sprt;
        rc |= h5file_put_f64(g, "sprt_elo0", t->elo0);
        rc |= h5file_put_f64(g, "sprt_elo1", t->elo1);
        rc |= h5file_put_f64(g, "sprt_alpha", t->alpha);
        rc |= h5file_put_f64(g, "sprt_beta", t->beta);
        /* over the pairs in the file, which the caller's last update may not have seen */
        rc |= h5file_put_f64(g, "sprt_llr", stats_sprt_llr(h->counts, t->elo0, t->elo1));
        rc |= h5file_put_f64(g, "sprt_lower", t->lower);
        rc |= h5file_put_f64(g, "sprt_upper", t->upper);
    }
    if (H5Gclose(g) < 0)
        rc = -1;
    if (rc == 0 && s->tune)
        rc = tune_group_write(h->rf.file, s->tune);
    return rc ? -1 : 0;
}
