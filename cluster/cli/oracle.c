/* SPDX-License-Identifier: MIT */
/* The external engine behind either protocol (oracle.h). */
#include "oracle.h"

#include <string.h>

/* The handshake, options and positions take no thought: a slow answer there is a dead engine. */
#define HANDSHAKE_MS 10000

int oracle_start(Oracle *e, const OracleOptions *o, char *err, size_t errlen)
{
    *e = (Oracle){ .o = *o };
    if (o->protocol == ORACLE_SCRIPT) {
        perftree_init(&e->script, o->command);
        return 0;
    }
    const Variant *v = o->variant;
    /* The engine's names: Chess960 is chess with UCI_Chess960 (Stockfish has no UCI_Variant at
     * all), Capablanca random is Fairy-Stockfish's caparandom, also with UCI_Chess960. */
    UciClientSetup setup = {
        .uci_variant = strcmp(v->name, "chess") == 0 ? NULL : v->name,
        .chess960 = v->castle960,
        .turn_rules = o->send_turns ? turn_rules_name(o->rules.turns) : NULL,
        .ep_rule = o->send_ep ? ep_rule_name(o->rules.ep) : NULL,
    };
    int handshake_ms = o->timeout_ms < HANDSHAKE_MS ? o->timeout_ms : HANDSHAKE_MS;
    if (uci_client_start(&e->uci, o->command, handshake_ms, err, errlen) != 0 ||
        uci_client_setup(&e->uci, &setup, err, errlen) != 0) {
        uci_client_stop(&e->uci);
        return -1;
    }
    return 0;
}

int oracle_ask(Oracle *e, const char *fen, const char *moves, int depth, char *err, size_t errlen)
{
    if (e->o.protocol == ORACLE_SCRIPT)
        return perftree_ask(&e->script, fen, moves, depth, err, errlen);
    return uci_client_go_perft(&e->uci, fen, moves, depth, err, errlen);
}

int oracle_answer(Oracle *e, Divide *d, char *err, size_t errlen)
{
    if (e->o.protocol == ORACLE_SCRIPT)
        return perftree_answer(&e->script, e->o.timeout_ms, d, err, errlen);
    return uci_client_read_divide(&e->uci, e->o.timeout_ms, d, err, errlen);
}

void oracle_stop(Oracle *e)
{
    if (e->o.protocol == ORACLE_SCRIPT)
        perftree_stop(&e->script);
    else
        uci_client_stop(&e->uci);
}
