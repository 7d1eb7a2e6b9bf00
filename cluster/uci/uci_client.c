/* SPDX-License-Identifier: MIT */
/* The UCI engine client: the handshake, options, positions, `go perft` answers (for `carrera
 * bisect`) and searches (for matches) of an external engine, each step with a deadline and a
 * message for every failure. */
#define _POSIX_C_SOURCE 200809L /* strdup, strsignal, strcasecmp, strtok_r */

#include "uci_client.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "errmsg.h"

#define LINE_MAX_LEN 16384

/* Whether vars (" var a var b ...") offers value; an engine that lists none accepts anything. */
static bool offers(const char *vars, const char *value)
{
    if (!vars)
        return true;
    char *copy = strdup(vars);
    if (!copy)
        return true;
    bool found = false, after_var = false;
    /* strtok_r, not strtok: game threads set up their engines at once */
    for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t && !found;
         t = strtok_r(NULL, " \t", &save)) {
        found = after_var && strcasecmp(t, value) == 0;
        after_var = strcmp(t, "var") == 0;
    }
    free(copy);
    return found;
}

/* Notes an `option name NAME type ...` line of the answer to `uci`. */
static void note_option(UciClient *e, const char *line)
{
    const char *name = line + strlen("option name ");
    const char *type = strstr(name, " type ");
    if (!type)
        return;
    size_t len = (size_t)(type - name);
    const char *vars = strstr(type, " var ");
#define IS(opt) (len == strlen(opt) && strncasecmp(name, opt, len) == 0)
    if (IS("UCI_Variant")) {
        e->has_variant = true;
        free(e->variant_vars);
        e->variant_vars = vars ? strdup(vars) : NULL;
    } else if (IS("UCI_Chess960")) {
        e->has_chess960 = true;
    } else if (IS("TurnRules")) {
        e->has_turn_rules = true;
        free(e->turn_rules_vars);
        e->turn_rules_vars = vars ? strdup(vars) : NULL;
    } else if (IS("EnPassantRule")) {
        e->has_ep_rule = true;
    }
#undef IS
}

int uci_client_start(UciClient *e, const char *command, int handshake_ms, char *err, size_t errlen)
{
    *e = (UciClient){ .handshake_ms = handshake_ms };
    if (engine_link_start(&e->link, command, handshake_ms, err, errlen) != 0)
        return -1;
    char why[ERRMSG_LEN];
    /* An engine that exits at once may do so before or after reading `uci`: one message. */
    if (subprocess_send(&e->link.proc, "uci\n") != 0) {
        engine_link_gone(&e->link, why, sizeof why);
        return errmsg_fail(err, errlen,
                           "the engine '%s' exited before answering 'uci' with 'uciok' (%s)",
                           e->link.command, why);
    }
    /* Engines may print a banner or anything else before `uciok`: only options matter. */
    char line[LINE_MAX_LEN];
    int64_t deadline = monotonic_ms() + handshake_ms;
    for (;;) {
        int got = engine_link_read(&e->link, deadline, line, sizeof line);
        if (got == 0) {
            engine_link_gone(&e->link, why, sizeof why);
            return errmsg_fail(err, errlen,
                               "the engine '%s' exited before answering 'uci' with 'uciok' (%s)",
                               e->link.command, why);
        }
        if (got < 0) {
            engine_link_kill(&e->link);
            return errmsg_fail(
                err, errlen,
                "the engine '%s' did not answer 'uci' with 'uciok' within %g s: is it a UCI "
                "engine?",
                e->link.command, engine_link_seconds(handshake_ms));
        }
        if (strcmp(line, "uciok") == 0)
            return 0;
        if (strncmp(line, "id name ", 8) == 0)
            snprintf(e->id_name, sizeof e->id_name, "%.*s", (int)sizeof e->id_name - 1, line + 8);
        else if (strncmp(line, "option name ", 12) == 0)
            note_option(e, line);
    }
}

/* Whether a line printed before `readyok` reports that the last commands were refused. Engines
 * word this freely: Stockfish prints "No such option: X", Carrera "info string error: ...". */
static bool is_complaint(const char *line)
{
    if (strncasecmp(line, "No such option", 14) == 0)
        return true;
    for (const char *c = line; *c; c++)
        if (strncasecmp(c, "error", 5) == 0 || strncasecmp(c, "invalid", 7) == 0 ||
            strncasecmp(c, "illegal", 7) == 0)
            return true;
    return false;
}

/* Sends commands followed by `isready` and waits for `readyok`; what names the commands in
 * messages. */
static int sync_with(UciClient *e, const char *commands, const char *what, char *err, size_t errlen)
{
    char why[ERRMSG_LEN];
    if (subprocess_send(&e->link.proc, commands) != 0 ||
        subprocess_send(&e->link.proc, "isready\n") != 0) {
        engine_link_gone(&e->link, why, sizeof why);
        return errmsg_fail(err, errlen, "the engine has exited (%s) before %s", why, what);
    }
    char line[LINE_MAX_LEN], when[900];
    snprintf(when, sizeof when, "after %.800s", what);
    int64_t deadline = monotonic_ms() + e->handshake_ms;
    for (;;) {
        if (engine_link_next(&e->link, deadline, line, sizeof line, "'readyok'", e->handshake_ms,
                             when, err, errlen) != ANSWER_OK)
            return -1;
        if (strcmp(line, "readyok") == 0)
            return 0;
        if (is_complaint(line)) {
            engine_link_kill(&e->link);
            return errmsg_fail(err, errlen, "the engine refused %s: it answered '%s'", what, line);
        }
    }
}

/* Appends `setoption name NAME value VALUE` to buf, or fails when the engine lacks the option;
 * purpose says what the option is for, in messages. Without the option, the default value needs
 * no command. */
static int add_option(const UciClient *e, bool has, const char *vars, const char *name,
                      const char *value, bool is_default, const char *purpose, char *buf,
                      size_t buflen, char *err, size_t errlen)
{
    if (!has) {
        if (is_default)
            return 0;
        return errmsg_fail(err, errlen, "the engine '%s' has no %s option, so it cannot %s",
                           e->link.command, name, purpose);
    }
    if (!offers(vars, value))
        return errmsg_fail(
            err, errlen,
            "the engine '%s' cannot %s: its %s option does not offer '%s' (it offers:%.600s)",
            e->link.command, purpose, name, value, vars);
    size_t used = strlen(buf);
    snprintf(buf + used, buflen - used, "setoption name %s value %s\n", name, value);
    return 0;
}

int uci_client_setup(UciClient *e, const UciClientSetup *s, char *err, size_t errlen)
{
    char commands[1024] = "", purpose[128];
    /* Chess960 is chess with UCI_Chess960 (Stockfish has no UCI_Variant, Fairy-Stockfish names
     * it fischerandom) */
    const bool is960 = s->uci_variant && strcmp(s->uci_variant, "chess960") == 0;
    const char *variant = is960 ? "chess" : s->uci_variant;
    if ((s->chess960 || is960) &&
        add_option(e, e->has_chess960, NULL, "UCI_Chess960", "true", false, "use Chess960 castling",
                   commands, sizeof commands, err, errlen) != 0)
        goto fail;
    if (variant) {
        snprintf(purpose, sizeof purpose, "play %s", variant);
        if (add_option(e, e->has_variant, e->variant_vars, "UCI_Variant", variant,
                       strcmp(variant, "chess") == 0, purpose, commands, sizeof commands, err,
                       errlen) != 0)
            goto fail;
    }
    bool single = !s->turn_rules || strcmp(s->turn_rules, "single") == 0;
    if (s->turn_rules) {
        snprintf(purpose, sizeof purpose, "count under %s rules", s->turn_rules);
        if (add_option(e, e->has_turn_rules, e->turn_rules_vars, "TurnRules", s->turn_rules, single,
                       purpose, commands, sizeof commands, err, errlen) != 0)
            goto fail;
    }
    /* The en passant rule means nothing to single-move chess. */
    if (s->ep_rule) {
        snprintf(purpose, sizeof purpose, "use the %s en passant rule", s->ep_rule);
        if (add_option(e, e->has_ep_rule, NULL, "EnPassantRule", s->ep_rule,
                       single || strcmp(s->ep_rule, "classic") == 0, purpose, commands,
                       sizeof commands, err, errlen) != 0)
            goto fail;
    }
    return sync_with(e, commands, "the options", err, errlen);
fail:
    engine_link_kill(&e->link);
    return -1;
}

int uci_client_go_perft(UciClient *e, const char *fen, const char *moves, int depth, char *err,
                        size_t errlen)
{
    char command[LINE_MAX_LEN];
    snprintf(command, sizeof command, "position fen %s%s%s\n", fen, moves ? " moves " : "",
             moves ? moves : "");
    char what[900];
    int shown = (int)strlen(command) - 1;
    snprintf(what, sizeof what, "'%.*s'", shown < 800 ? shown : 800, command);
    if (sync_with(e, command, what, err, errlen) != 0)
        return -1;
    snprintf(e->asked, sizeof e->asked, "'go perft %d' for %s", depth, what);
    snprintf(command, sizeof command, "go perft %d\n", depth);
    if (subprocess_send(&e->link.proc, command) != 0) {
        char why[ERRMSG_LEN];
        engine_link_gone(&e->link, why, sizeof why);
        return errmsg_fail(err, errlen, "the engine exited (%s) before 'go perft %d'", why, depth);
    }
    return 0;
}

int uci_client_read_divide(UciClient *e, int timeout_ms, Divide *d, char *err, size_t errlen)
{
    divide_clear(d);
    char line[LINE_MAX_LEN];
    char why[ERRMSG_LEN];
    int64_t deadline = monotonic_ms() + timeout_ms;
    for (;;) {
        int got = engine_link_read(&e->link, deadline, line, sizeof line);
        if (got == 0) {
            engine_link_gone(&e->link, why, sizeof why);
            return errmsg_fail(
                err, errlen,
                "the engine exited (%s) in the middle of its answer to %s, after %zu move "
                "lines",
                why, e->asked, d->n);
        }
        if (got < 0) {
            engine_link_kill(&e->link);
            return errmsg_fail(
                err, errlen,
                "the engine did not finish its answer to %s within %g s (%zu move lines "
                "so far; --timeout sets the limit)",
                e->asked, engine_link_seconds(timeout_ms), d->n);
        }
        const char *start = line;
        while (*start == ' ' || *start == '\t')
            start++;
        if (*start == '\0' || strncmp(start, "Unit:", 5) == 0 ||
            (strncmp(start, "info", 4) == 0 &&
             (start[4] == '\0' || isspace((unsigned char)start[4]))))
            continue;
        char move[DIVIDE_MOVE_MAX];
        uint64_t count;
        if (strncmp(start, "Nodes searched:", 15) == 0) {
            if (!divide_parse_count(start + 15, &count)) {
                engine_link_kill(&e->link);
                return errmsg_fail(err, errlen,
                                   "the engine printed an unreadable total in its answer to "
                                   "%s: '%.200s'",
                                   e->asked, line);
            }
            if (count != d->total) {
                engine_link_kill(&e->link);
                snprintf(
                    err, errlen,
                    "the engine's total (%.100s) is not the sum of its %zu move lines (%" PRIu64
                    ") in its answer to %s",
                    start, d->n, d->total, e->asked);
                return -1;
            }
            return 0;
        }
        if (!divide_parse_line(start, ':', move, &count)) {
            engine_link_kill(&e->link);
            return errmsg_fail(
                err, errlen,
                "the engine printed a line that is not perft output in its answer to %s: "
                "'%.200s' (expected 'move: count', 'Nodes searched: N', 'info ...' or an "
                "empty line)",
                e->asked, line);
        }
        if (!divide_add(d, move, count)) {
            engine_link_kill(&e->link);
            return errmsg_fail(err, errlen, "out of memory reading the engine's answer");
        }
    }
}

int uci_client_set_options(UciClient *e, const char *const *names, const char *const *values, int n,
                           char *err, size_t errlen)
{
    char commands[8192] = "";
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        int w = snprintf(commands + used, sizeof commands - used, "setoption name %s value %s\n",
                         names[i], values[i]);
        if (w < 0 || (size_t)w >= sizeof commands - used)
            return errmsg_fail(err, errlen, "too many engine options to send at once");
        used += (size_t)w;
    }
    return n == 0 ? 0 : sync_with(e, commands, "the options", err, errlen);
}

int uci_client_new_game(UciClient *e, char *err, size_t errlen)
{
    return sync_with(e, "ucinewgame\n", "'ucinewgame'", err, errlen);
}

/* Notes the score and node count of an `info` line (of the best line only, when the engine
 * reports several: MultiPV). */
static void note_info(const char *line, UciSearchAnswer *out)
{
    const char *multipv = strstr(line, " multipv ");
    if (multipv && strtol(multipv + 9, NULL, 10) > 1)
        return;
    const char *score = strstr(line, " score ");
    if (score) {
        int v;
        if (sscanf(score, " score cp %d", &v) == 1) {
            out->has_score = true;
            out->mate = false;
            out->score = v;
        } else if (sscanf(score, " score mate %d", &v) == 1) {
            out->has_score = true;
            out->mate = true;
            out->score = v;
        }
    }
    const char *nodes = strstr(line, " nodes ");
    uint64_t n;
    if (nodes && sscanf(nodes, " nodes %" SCNu64, &n) == 1)
        out->nodes = n;
}

EngineAnswer uci_client_search(UciClient *e, const char *position, const char *go, int timeout_ms,
                               UciSearchAnswer *out, char *err, size_t errlen)
{
    *out = (UciSearchAnswer){ 0 };
    char why[ERRMSG_LEN];
    if (subprocess_send(&e->link.proc, position) != 0 ||
        subprocess_send(&e->link.proc, "\n") != 0 || subprocess_send(&e->link.proc, go) != 0 ||
        subprocess_send(&e->link.proc, "\n") != 0) {
        engine_link_gone(&e->link, why, sizeof why);
        errmsg_set(err, errlen, "the engine exited (%s) before '%s'", why, go);
        return ANSWER_EXITED;
    }
    char line[LINE_MAX_LEN], when[300];
    snprintf(when, sizeof when, "of '%.200s'", go);
    int64_t deadline = monotonic_ms() + timeout_ms;
    for (;;) {
        EngineAnswer a = engine_link_next(&e->link, deadline, line, sizeof line, "bestmove",
                                          timeout_ms, when, err, errlen);
        if (a != ANSWER_OK)
            return a;
        if (line[0] == '\0' || strncmp(line, "info", 4) == 0) {
            note_info(line, out);
            continue;
        }
        if (strncmp(line, "bestmove ", 9) == 0 && line[9] != '\0' && line[9] != ' ') {
            snprintf(out->bestmove, sizeof out->bestmove, "%.*s", (int)strcspn(line + 9, " "),
                     line + 9);
            return ANSWER_OK;
        }
        engine_link_kill(&e->link);
        errmsg_set(err, errlen, "the engine answered '%.200s' while searching ('%s')", line, go);
        return ANSWER_GARBAGE;
    }
}

void uci_client_stop(UciClient *e)
{
    engine_link_quit(&e->link, "quit\n");
    free(e->variant_vars);
    free(e->turn_rules_vars);
    e->variant_vars = e->turn_rules_vars = NULL;
}
