/* SPDX-License-Identifier: MIT */
/* The xboard protocol's time controls as search limits (xboard_clock.h). */
#include "xboard_clock.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "errmsg.h"
#include "types.h"

/* No control longer than a year: keeps every product below in range. */
#define LONGEST_MS (366LL * 24 * 3600 * 1000)

void xboard_clock_init(XboardClock *c)
{
    *c = (XboardClock){ .mps = 40, .base_ms = 5 * 60 * 1000 };
    xboard_clock_new_game(c);
}

void xboard_clock_new_game(XboardClock *c)
{
    c->own_ms = c->opponent_ms = -1;
    c->depth = 0;
    c->nps = 0;
    c->level_turns = 0;
}

/* A whole decimal number in [min, max], nothing after it. */
static bool read_integer(const char *text, long long min, long long max, long long *out)
{
    if (!text || !*text)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || end == text || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* Seconds with an optional fraction, in [0, LONGEST_MS / 1000], as milliseconds; *end after it. */
static bool read_seconds(const char *text, int64_t *ms, const char **end)
{
    if (!text || !((*text >= '0' && *text <= '9') || *text == '.'))
        return false;
    char *stop;
    errno = 0;
    double s = strtod(text, &stop);
    if (errno || stop == text || !isfinite(s) || s < 0 || s * 1000 > (double)LONGEST_MS)
        return false;
    *ms = (int64_t)llround(s * 1000);
    *end = stop;
    return true;
}

int xboard_clock_level(XboardClock *c, const char *mps, const char *base, const char *inc,
                       size_t turns, char *err, size_t errlen)
{
    long long moves;
    if (!read_integer(mps, 0, 100000, &moves))
        return errmsg_fail(err, errlen, "level: MPS must be a number of moves, not '%s'",
                           mps ? mps : "");
    /* BASE: minutes, or minutes:seconds; what follows is reserved for future sessions */
    long long minutes = 0, seconds = 0;
    char *end;
    errno = 0;
    minutes = base && *base >= '0' && *base <= '9' ? strtoll(base, &end, 10) : -1;
    if (minutes >= 0 && !errno && *end == ':') {
        const char *s = end + 1;
        seconds = *s >= '0' && *s <= '9' ? strtoll(s, &end, 10) : -1;
    }
    if (minutes < 0 || seconds < 0 || errno || minutes * 60 + seconds > LONGEST_MS / 1000)
        return errmsg_fail(err, errlen, "level: BASE must be minutes or minutes:seconds, not '%s'",
                           base ? base : "");
    int64_t inc_ms;
    const char *inc_end;
    if (!read_seconds(inc, &inc_ms, &inc_end) || *inc_end)
        return errmsg_fail(err, errlen, "level: INC must be seconds, not '%s'", inc ? inc : "");
    c->per_move = false;
    c->mps = (int)moves;
    c->base_ms = (minutes * 60 + seconds) * 1000;
    c->inc_ms = inc_ms;
    c->level_turns = turns;
    return 0;
}

int xboard_clock_st(XboardClock *c, const char *seconds, char *err, size_t errlen)
{
    int64_t ms;
    const char *end;
    if (!read_seconds(seconds, &ms, &end) || *end || ms <= 0)
        return errmsg_fail(err, errlen, "st takes a positive number of seconds, not '%s'",
                           seconds ? seconds : "");
    c->per_move = true;
    c->move_ms = ms;
    return 0;
}

int xboard_clock_sd(XboardClock *c, const char *depth, char *err, size_t errlen)
{
    long long d;
    if (!read_integer(depth, 1, 1000000, &d))
        return errmsg_fail(err, errlen, "sd takes a depth of at least 1 ply, not '%s'",
                           depth ? depth : "");
    c->depth = d > MAX_PLY - 1 ? MAX_PLY - 1 : (int)d;
    return 0;
}

int xboard_clock_nps(XboardClock *c, const char *nps, char *err, size_t errlen)
{
    long long v;
    if (!read_integer(nps, 0, 1000000000000LL, &v))
        return errmsg_fail(err, errlen, "nps takes a number of nodes per second, not '%s'",
                           nps ? nps : "");
    c->nps = v;
    return 0;
}

int xboard_clock_time(XboardClock *c, bool own, const char *centiseconds, char *err, size_t errlen)
{
    long long cs;
    if (!read_integer(centiseconds, -LONGEST_MS / 10, LONGEST_MS / 10, &cs))
        return errmsg_fail(err, errlen, "%s takes centiseconds, not '%s'", own ? "time" : "otim",
                           centiseconds ? centiseconds : "");
    int64_t ms = cs > 0 ? cs * 10 : 0;
    if (own)
        c->own_ms = ms;
    else
        c->opponent_ms = ms;
    return 0;
}

SearchLimits xboard_clock_limits(const XboardClock *c, int side, size_t turns)
{
    SearchLimits l = search_limits_none();
    l.depth = c->depth;
    if (c->per_move) {
        l.movetime_ms = c->move_ms;
    } else {
        l.time_ms[side] = c->own_ms >= 0 ? c->own_ms : c->base_ms;
        l.time_ms[!side] = c->opponent_ms >= 0 ? c->opponent_ms : c->base_ms;
        l.inc_ms[WHITE] = l.inc_ms[BLACK] = c->inc_ms;
        if (c->mps > 0) {
            /* the moves this side made since level came, into the current session */
            size_t made = turns > c->level_turns ? (turns - c->level_turns) / 2 : 0;
            l.movestogo = c->mps - (int)(made % (size_t)c->mps);
        }
    }
    if (c->nps > 0) {
        /* Node-counted time: the time this move would take, as nodes at nps. A time limit
         * stops a search mid-iteration only at its hard bound; the typical move lasts about
         * the soft bound's 5/3 (search_limits.c), so that is the budget. */
        int64_t soft, hard = search_time_budget(&l, side, &soft);
        int64_t ms = c->per_move || soft == 0 ? hard : soft * 5 / 3 < hard ? soft * 5 / 3 : hard;
        double nodes = (double)ms * (double)c->nps / 1000.0;
        l.nodes = nodes < 1 ? 1 : nodes > 1e18 ? (uint64_t)1e18 : (uint64_t)nodes;
        l.movetime_ms = 0;
        l.time_ms[WHITE] = l.time_ms[BLACK] = -1;
        l.inc_ms[WHITE] = l.inc_ms[BLACK] = 0;
        l.movestogo = 0;
    }
    return l;
}
