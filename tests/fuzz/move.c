/* SPDX-License-Identifier: MIT */
/* Fuzz target: move and turn text in positions of every variant and rule set. Byte 0 chooses
 * the variant and rules (fuzz_pick); byte 1 the start and the reader:
 *   bits 0-1: the variant's start; a random start array drawn from byte 2; or the first line of
 *             the text as a FEN (the standard start when it is refused);
 *   bits 2-3: the text as SAN/UCI turns one token at a time (notation_turn_from_text, and
 *             notation_move_from_san for single moves), as a game record
 *             (notation_game_from_text), or as UCI tokens (game_play_text, as `position ...
 *             moves` reads them);
 *   bit 4:    castling in UCI text as king takes rook.
 * Every accepted turn is played, so a sequence of tokens reaches deeper positions, and is
 * written back as text that must read to the same turn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "fuzz.h"
#include "game.h"
#include "move.h"
#include "notation.h"
#include "movetext.h"
#include "setup.h"

static void require(bool ok, const char *what, const char *text)
{
    if (!ok) {
        fprintf(stderr, "fuzz_move: %s: %s\n", what, text);
        abort();
    }
}

static bool same_turn(const Turn *a, const Turn *b)
{
    return a->n == b->n && a->m[0] == b->m[0] && (a->n < 2 || a->m[1] == b->m[1]);
}

/* Reads each white-space separated token as a turn of the current position. */
static void read_turns(Position *p, const Rules *r, char *text)
{
    char err[ERRMSG_LEN];
    for (char *tok = strtok(text, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (r->turns == TURNS_SINGLE) {
            Move m;
            if (notation_move_from_san(p, tok, &m, err, sizeof err)) {
                char san[SAN_MAX];
                Move again;
                require(notation_move_to_san(p, m, san, sizeof san), "no SAN for a read move", tok);
                require(notation_move_from_san(p, san, &again, err, sizeof err) && again == m,
                        "SAN written for a move does not read back", san);
            } else {
                require(err[0] != '\0', "move refused without a message", tok);
            }
        }
        Turn t;
        if (!notation_turn_from_text(p, r, tok, &t, err, sizeof err)) {
            require(err[0] != '\0', "turn refused without a message", tok);
            continue;
        }
        char text2[TURN_SAN_MAX];
        Turn again;
        require(notation_turn_to_text(p, r, &t, text2, sizeof text2), "no text for a read turn",
                tok);
        require(notation_turn_from_text(p, r, text2, &again, err, sizeof err) &&
                    same_turn(&t, &again),
                "turn text does not read back", text2);
        Position next;
        position_make_turn(p, r, &t, &next);
        *p = next;
    }
}

static void read_record(const Position *start, const Rules *r, const char *text)
{
    TurnList list = { 0 };
    Position end;
    char err[ERRMSG_LEN];
    if (notation_game_from_text(start, r, text, &list, &end, err, sizeof err) && list.n > 0) {
        size_t len = RECORD_TEXT_MAX(list.n);
        char *out = malloc(len);
        if (out) {
            require(notation_game_to_text(start, r, list.v, list.n, out, len, err, sizeof err),
                    "a read record cannot be written", text);
            TurnList again = { 0 };
            require(notation_game_from_text(start, r, out, &again, NULL, err, sizeof err) &&
                        again.n == list.n,
                    "a written record does not read back", out);
            for (size_t i = 0; i < list.n; i++)
                require(same_turn(&list.v[i], &again.v[i]), "a record reads back changed", out);
            turn_list_free(&again);
        }
        free(out);
    }
    turn_list_free(&list);
}

static void read_uci(const Position *start, const Rules *r, bool castle960, char *text)
{
    Game g;
    if (!game_init(&g, start, r, castle960))
        return;
    for (char *tok = strtok(text, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        Turn t;
        if (!game_parse_turn(&g, tok, &t)) {
            require(!game_play_text(&g, tok), "text played that does not parse", tok);
            continue;
        }
        char uci[TURN_TEXT_MAX];
        turn_to_uci(&t, g.pos.variant, castle960, uci);
        Turn again;
        require(game_parse_turn(&g, uci, &again) && same_turn(&t, &again),
                "UCI text written for a turn does not read back", uci);
        require(game_play_text(&g, tok), "a parsed turn is not played", tok);
        game_status(&g, NULL);
    }
    game_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const Variant *v;
    Rules r;
    fuzz_pick(data[0], &v, &r);
    int start_kind = data[1] & 3, reader = (data[1] >> 2) & 3;
    bool castle960 = data[1] & 16;
    char *text = fuzz_string(data + 3, size - 3);
    if (!text)
        return 0;
    char *moves = text;
    Setup s;
    setup_start(&s, v);
    if (start_kind == 1 && v->random_array) {
        setup_random(&s, v, data[2]);
    } else if (start_kind == 2) {
        char *nl = strchr(text, '\n');
        if (nl) {
            *nl = '\0';
            moves = nl + 1;
        } else {
            moves = text + strlen(text);
        }
        char err[ERRMSG_LEN];
        if (setup_from_fen_rules(&s, v, &r, text, err, sizeof err) != 0)
            setup_start(&s, v);
    }
    Position p;
    position_from_setup(&p, &s);
    if (reader == 1)
        read_record(&p, &r, moves);
    else if (reader == 2)
        read_uci(&p, &r, castle960, moves);
    else
        read_turns(&p, &r, moves);
    free(text);
    return 0;
}
