/* SPDX-License-Identifier: MIT */
/* Fuzz target: FEN and EPD reading. The first byte chooses the reader, the second the variant
 * and turn rules (fuzz_pick), the rest is the text:
 *   0: one FEN through setup_from_fen_rules; an accepted FEN must survive the fast position
 *      and be written back as a FEN that reads to the same text;
 *   1: an opening file through openings_load (FEN or EPD lines), then a game pair's opening;
 *   2: a perft suite through the tests' epd_read, each entry's FEN read as the suites do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "errmsg.h"
#include "fuzz.h"
#include "openings.h"
#include "position.h"
#include "setup.h"
#include "turn.h"

/* Dies on a broken promise, so that libFuzzer records the input. */
static void require(bool ok, const char *what, const char *fen)
{
    if (!ok) {
        fprintf(stderr, "fuzz_fen: %s: %s\n", what, fen);
        abort();
    }
}

static void read_fen(const Variant *v, const Rules *r, const char *fen)
{
    Setup s;
    char err[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, v, r, fen, err, sizeof err) != 0) {
        require(err[0] != '\0', "refused without a message", fen);
        return;
    }
    char once[FEN_MAX], twice[FEN_MAX], fast[FEN_MAX];
    setup_to_fen(&s, s.castling_text, once, sizeof once);
    Setup again;
    require(setup_from_fen_rules(&again, v, r, once, err, sizeof err) == 0,
            "a FEN written from an accepted one is refused", once);
    setup_to_fen(&again, again.castling_text, twice, sizeof twice);
    require(strcmp(once, twice) == 0, "FEN writing is not stable", once);

    Position p;
    position_from_setup(&p, &s);
    Setup back;
    position_to_setup(&p, &back);
    setup_to_fen(&back, s.castling_text, fast, sizeof fast);
    require(strcmp(once, fast) == 0, "the fast position changes the FEN", once);

    Move moves[MAX_MOVES];
    position_legal_moves(&p, moves);
    position_game_end(&p, r);
    TurnList list = { 0 };
    position_turns(&p, r, &list);
    turn_list_free(&list);
}

static void read_openings(const Variant *v, const Rules *r, int plies, const uint8_t *data,
                          size_t size)
{
    const char *path = fuzz_file(data, size, ".epd");
    if (!path)
        return;
    static MatchConfig c;
    c = (MatchConfig){
        .variant = v, .rules = *r, .openings = OPENINGS_FILE, .random_plies = plies, .seed = 1
    };
    snprintf(c.openings_file, sizeof c.openings_file, "%s", path);
    Openings o;
    char err[ERRMSG_LEN];
    if (openings_load(&o, &c, err, sizeof err) != 0) {
        require(err[0] != '\0', "opening file refused without a message", path);
        return;
    }
    Position p;
    openings_position(&o, 0, 0, &p, err, sizeof err);
    openings_free(&o);
}

static void read_suite(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".epd");
    EpdEntry *entries;
    int n = path ? epd_read(path, &entries) : -1;
    for (int i = 0; i < n; i++) {
        const EpdEntry *e = &entries[i];
        const Variant *v = variant_by_name(e->variant[0] ? e->variant : "chess");
        Rules r = { TURNS_SINGLE, EP_CLASSIC };
        if (!v || (e->turns[0] && !turn_rules_parse(e->turns, &r.turns)) ||
            (e->ep_rule[0] && !ep_rule_parse(e->ep_rule, &r.ep)))
            continue;
        Setup s;
        char err[ERRMSG_LEN];
        if (e->sp >= 0)
            setup_chess960(&s, v, e->sp, err, sizeof err);
        else
            read_fen(v, &r, e->fen);
    }
    if (n >= 0)
        free(entries);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const Variant *v;
    Rules r;
    fuzz_pick(data[1], &v, &r);
    switch (data[0] % 3) {
    case 0: {
        char *fen = fuzz_string(data + 2, size - 2);
        if (fen)
            read_fen(v, &r, fen);
        free(fen);
        break;
    }
    case 1:
        read_openings(v, &r, data[0] / 3 % 3, data + 2, size - 2);
        break;
    default:
        read_suite(data + 2, size - 2);
        break;
    }
    return 0;
}
