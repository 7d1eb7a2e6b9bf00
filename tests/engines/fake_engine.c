/* SPDX-License-Identifier: MIT */
/* A deliberately broken UCI perft engine for the bisect tests. It answers uci, isready,
 * setoption (UCI_Variant, UCI_Chess960, TurnRules, EnPassantRule), position and go perft as
 * `carrera uci` does, counting with Carrera's own core, except for the fault chosen on the
 * command line:
 *
 *   --bug no-ep               drops every en passant capture
 *   --bug xray-king           in check from a slider, also lets the king step back along the
 *                             checking line (the square its own body shields): a king move into
 *                             check, the classic x-ray bug; only in the last ply
 *   --bug one-movement-turns  under double-move rules, drops every turn of one movement (the
 *                             turns a check by the first movement ends)
 *   --bug forget-ep-square    playing a double step forgets the en passant square, yet a FEN
 *                             that carries one is read correctly
 *   --bug no-long-castle      drops every castling on the queen side (the rook on a lower file)
 *   --bug no-underpromotion   drops every promotion but to the variant's most valuable piece
 *   --drop TEXT --at BOARD    drops the move (turn) TEXT where the FEN starts with BOARD
 *   --extra TEXT --at BOARD   lists TEXT as one more move there, in the last ply only
 *   --crash | --hang | --garbage   exits, stops answering, or prints a stray line halfway
 *                             through every go perft answer (with --at BOARD: only there)
 *   --plain                   lists no options in its answer to uci (a chess-only engine)
 *
 * The faults that add moves add them only in the last ply, where they are counted and never
 * played, so the core never sees an illegal position. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "move.h"
#include "position.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"

#define MAX_EXTRAS 16

typedef enum Failure { FAIL_NONE, FAIL_CRASH, FAIL_HANG, FAIL_GARBAGE } Failure;

typedef struct Fake {
    const Variant *variant;
    bool chess960;
    Rules rules;
    Position pos;
    bool no_ep, xray_king, one_movement_turns, forget_ep, no_long_castle, no_underpromotion;
    const char *drop, *extra, *at;
    Failure failure;
    bool plain;
} Fake;

static Fake f;

static bool single(void) { return f.rules.turns == TURNS_SINGLE; }
static bool castle960(void) { return f.chess960 || f.variant->castle960; }
static bool buggy(void)
{
    return f.no_ep || f.xray_king || f.one_movement_turns || f.forget_ep || f.no_long_castle ||
           f.no_underpromotion || f.drop || f.extra;
}

/* The rules positions are read under, as in `carrera uci`: chess with UCI_Chess960 is chess960. */
static const Variant *rules_variant(void)
{
    if (f.chess960 && strcmp(f.variant->name, "chess") == 0)
        return variant_by_name("chess960");
    return f.variant;
}

static bool at_board(const Position *p)
{
    if (!f.at)
        return false;
    Setup s;
    char fen[FEN_MAX];
    position_to_setup(p, &s);
    setup_to_fen(&s, FEN_CASTLING_KQ, fen, sizeof fen);
    return strncmp(fen, f.at, strlen(f.at)) == 0;
}

/* Whether a bug drops the movement m of p (by its kind: p gives only the variant). */
static bool dropped_by_bug(const Position *p, Move m)
{
    if (f.no_ep && move_kind(m) == MOVE_EN_PASSANT)
        return true;
    if (f.no_long_castle && move_kind(m) == MOVE_CASTLING && move_to(m) < move_from(m))
        return true;
    return f.no_underpromotion && move_kind(m) == MOVE_PROMOTION &&
           move_promo(m) != p->variant->promotions[0];
}

/* The fake's legal moves: Carrera's, less the dropped ones. */
static int moves_of(const Position *p, Move *moves)
{
    int n = position_legal_moves(p, moves), kept = 0;
    bool here = f.drop && at_board(p);
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        move_to_uci(moves[i], p->variant, castle960(), text);
        if (dropped_by_bug(p, moves[i]))
            continue;
        if (here && strcmp(text, f.drop) == 0)
            continue;
        moves[kept++] = moves[i];
    }
    return kept;
}

static bool keep_turn(const Position *p, const Turn *t, bool here)
{
    /* a bug looks at a movement's kind alone (and the variant's pieces), so the movements of a
     * turn are judged from its first position: one between the movements of a turn is no
     * position position_make may leave (a debug build would assert) */
    for (int k = 0; k < t->n; k++)
        if (dropped_by_bug(p, t->m[k]))
            return false;
    if (f.one_movement_turns && t->n == 1 && !position_first_turn(p, &f.rules))
        return false;
    if (here) {
        char text[TURN_TEXT_MAX];
        turn_to_uci(t, p->variant, castle960(), text);
        if (strcmp(text, f.drop) == 0)
            return false;
    }
    return true;
}

static void turns_of(const Position *p, TurnList *turns)
{
    if (!position_turns(p, &f.rules, turns)) {
        fputs("fake_engine: out of memory\n", stderr);
        exit(1);
    }
    bool here = f.drop && at_board(p);
    size_t kept = 0;
    for (size_t i = 0; i < turns->n; i++)
        if (keep_turn(p, &turns->v[i], here))
            turns->v[kept++] = turns->v[i];
    turns->n = kept;
}

/* forget-ep-square: the position after a move, without its en passant squares. */
static void forget_ep(Position *p)
{
    if (!f.forget_ep)
        return;
    Setup s;
    position_to_setup(p, &s);
    if (s.ep[0] == NO_SQUARE)
        return;
    s.ep[0] = s.ep[1] = NO_SQUARE;
    position_from_setup(p, &s);
}

static void make(const Position *p, Move m, Position *out)
{
    position_make(p, m, out);
    forget_ep(out);
}

static void make_turn(const Position *p, const Turn *t, Position *out)
{
    position_make_turn(p, &f.rules, t, out);
    forget_ep(out);
}

/* Whether a piece of type t slides along (df, dr). */
static bool slides(PieceType t, int df, int dr)
{
    bool diagonal = df != 0 && dr != 0;
    if (t == QUEEN)
        return true;
    return diagonal ? t == BISHOP || t == ARCHBISHOP : t == ROOK || t == CHANCELLOR;
}

/* The moves the fake lists beyond the legal ones (texts), in the last ply only. */
static int extras(const Position *p, const Move *legal, int n, char texts[][TURN_TEXT_MAX])
{
    int count = 0;
    if (f.extra && at_board(p))
        snprintf(texts[count++], TURN_TEXT_MAX, "%s", f.extra);
    if (!f.xray_king || !single() || !position_in_check(p))
        return count;
    Setup s;
    position_to_setup(p, &s);
    const int files = p->variant->files, side = s.side;
    int king = 0;
    while (s.board[king] != make_piece(side, KING))
        king++;
    const int kf = king % files, kr = king / files;
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++) {
            if (!df && !dr)
                continue;
            int x = kf + df, y = kr + dr;
            while (x >= 0 && x < files && y >= 0 && y < RANKS && !s.board[y * files + x])
                x += df, y += dr;
            if (x < 0 || x >= files || y < 0 || y >= RANKS)
                continue;
            Piece checker = s.board[y * files + x];
            if (piece_color(checker) == side || !slides(piece_type(checker), df, dr))
                continue;
            /* The square behind the king, seen from the checker. */
            int bx = kf - df, by = kr - dr;
            if (bx < 0 || bx >= files || by < 0 || by >= RANKS)
                continue;
            Piece there = s.board[by * files + bx];
            if (there && piece_color(there) == side)
                continue;
            Move m = move_new(king, by * files + bx, MOVE_NORMAL, NO_TYPE);
            bool known = false;
            for (int i = 0; i < n; i++)
                known |= legal[i] == m;
            if (!known && count < MAX_EXTRAS)
                move_to_uci(m, p->variant, castle960(), texts[count++]);
        }
    return count;
}

static uint64_t count(const Position *p, int depth)
{
    if (!buggy())
        return single() ? perft(p, depth) : perft_turns(p, &f.rules, depth);
    if (depth == 0)
        return 1;
    char texts[MAX_EXTRAS][TURN_TEXT_MAX];
    Position child;
    uint64_t total = 0;
    if (single()) {
        Move moves[MAX_MOVES];
        int n = moves_of(p, moves);
        if (depth == 1)
            return (uint64_t)n + (uint64_t)extras(p, moves, n, texts);
        for (int i = 0; i < n; i++) {
            make(p, moves[i], &child);
            total += count(&child, depth - 1);
        }
        return total;
    }
    TurnList turns = { 0 };
    turns_of(p, &turns);
    if (depth == 1) {
        total = turns.n + (uint64_t)extras(p, NULL, 0, texts);
    } else {
        for (size_t i = 0; i < turns.n; i++) {
            make_turn(p, &turns.v[i], &child);
            total += count(&child, depth - 1);
        }
    }
    turn_list_free(&turns);
    return total;
}

/* Prints one divide line, failing as asked once half of the n lines are out. */
static void line_out(const char *text, uint64_t n_count, size_t index, size_t n)
{
    if (index == n / 2 && f.failure != FAIL_NONE && (!f.at || at_board(&f.pos))) {
        fflush(stdout);
        if (f.failure == FAIL_CRASH)
            _exit(3);
        if (f.failure == FAIL_HANG) {
            /* Bounded, so that a test that forgets the engine leaves no process behind. */
            sleep(60);
            _exit(4);
        }
        printf("this is not perft output\n");
    }
    printf("%s: %" PRIu64 "\n", text, n_count);
}

static void go_perft(int depth)
{
    uint64_t total = 0;
    char texts[MAX_EXTRAS][TURN_TEXT_MAX], text[TURN_TEXT_MAX];
    Position child;
    if (depth == 0) {
        total = 1;
    } else if (single()) {
        Move moves[MAX_MOVES];
        int n = moves_of(&f.pos, moves);
        int more = depth == 1 ? extras(&f.pos, moves, n, texts) : 0;
        size_t all = (size_t)(n + more);
        for (int i = 0; i < n; i++) {
            make(&f.pos, moves[i], &child);
            uint64_t c = depth > 1 ? count(&child, depth - 1) : 1;
            move_to_uci(moves[i], f.pos.variant, castle960(), text);
            line_out(text, c, (size_t)i, all);
            total += c;
        }
        for (int i = 0; i < more; i++, total++)
            line_out(texts[i], 1, (size_t)(n + i), all);
    } else {
        TurnList turns = { 0 };
        turns_of(&f.pos, &turns);
        int more = depth == 1 ? extras(&f.pos, NULL, 0, texts) : 0;
        size_t all = turns.n + (size_t)more;
        for (size_t i = 0; i < turns.n; i++) {
            make_turn(&f.pos, &turns.v[i], &child);
            uint64_t c = depth > 1 ? count(&child, depth - 1) : 1;
            turn_to_uci(&turns.v[i], f.pos.variant, castle960(), text);
            line_out(text, c, i, all);
            total += c;
        }
        for (int i = 0; i < more; i++, total++)
            line_out(texts[i], 1, turns.n + (size_t)i, all);
        turn_list_free(&turns);
    }
    printf("\n");
    if (!single())
        printf("Unit: turns (%s, %s en passant)\n", turn_rules_name(f.rules.turns),
               ep_rule_name(f.rules.ep));
    printf("Nodes searched: %" PRIu64 "\n", total);
    fflush(stdout);
}

/* Plays one move or turn given as text, with the fake's own (possibly faulty) make. */
static bool play(Position *p, const char *text)
{
    if (single()) {
        Move legal[MAX_MOVES];
        int n = position_legal_moves(p, legal);
        Move m = move_from_uci(text, legal, n, p->variant, castle960());
        if (m != MOVE_NONE)
            make(p, m, p);
        return m != MOVE_NONE;
    }
    TurnList turns = { 0 };
    bool found = false;
    if (position_turns(p, &f.rules, &turns))
        for (size_t i = 0; i < turns.n && !found; i++) {
            char have[TURN_TEXT_MAX];
            turn_to_uci(&turns.v[i], p->variant, castle960(), have);
            if (strcmp(have, text) == 0) {
                make_turn(p, &turns.v[i], p);
                found = true;
            }
        }
    turn_list_free(&turns);
    return found;
}

static void position_cmd(char **tok, int n)
{
    int moves_at = n;
    for (int i = 1; i < n; i++)
        if (strcmp(tok[i], "moves") == 0) {
            moves_at = i;
            break;
        }
    Setup s;
    if (n >= 2 && strcmp(tok[1], "startpos") == 0) {
        setup_start(&s, rules_variant());
    } else if (n >= 2 && strcmp(tok[1], "fen") == 0) {
        char fen[512] = "", err[256];
        size_t used = 0;
        for (int i = 2; i < moves_at && used < sizeof fen; i++)
            used +=
                (size_t)snprintf(fen + used, sizeof fen - used, "%s%s", i > 2 ? " " : "", tok[i]);
        if (setup_from_fen_rules(&s, rules_variant(), &f.rules, fen, err, sizeof err) != 0) {
            printf("info string error: bad FEN: %s\n", err);
            return;
        }
    } else {
        printf("info string error: bad position command\n");
        return;
    }
    position_from_setup(&f.pos, &s);
    for (int i = moves_at + 1; i < n; i++)
        if (!play(&f.pos, tok[i])) {
            printf("info string error: illegal move '%s'\n", tok[i]);
            return;
        }
}

static void setoption(char **tok, int n)
{
    if (n != 5 || strcmp(tok[1], "name") != 0 || strcmp(tok[3], "value") != 0) {
        printf("info string error: expected 'setoption name NAME value VALUE'\n");
        return;
    }
    const char *name = tok[2], *value = tok[4];
    bool ok = true;
    if (strcasecmp(name, "UCI_Variant") == 0) {
        const Variant *v = variant_by_name(value);
        if ((ok = v != NULL))
            f.variant = v;
    } else if (strcasecmp(name, "UCI_Chess960") == 0) {
        f.chess960 = strcmp(value, "true") == 0;
    } else if (strcasecmp(name, "TurnRules") == 0) {
        ok = turn_rules_parse(value, &f.rules.turns);
    } else if (strcasecmp(name, "EnPassantRule") == 0) {
        ok = ep_rule_parse(value, &f.rules.ep);
    } else {
        ok = false;
    }
    if (!ok)
        printf("info string error: cannot set %s to %s\n", name, value);
}

static void uci_cmd(void)
{
    printf("id name Fake engine for the bisect tests\nid author the Carrera developers\n");
    if (!f.plain) {
        int count;
        const Variant *const *all = variant_all(&count);
        printf("option name UCI_Variant type combo default chess");
        for (int i = 0; i < count; i++)
            printf(" var %s", all[i]->name);
        printf("\noption name UCI_Chess960 type check default false\n");
        printf("option name TurnRules type combo default single");
        for (int i = 0; i < TURNS_NB; i++)
            printf(" var %s", turn_rules_name((TurnRules)i));
        printf("\noption name EnPassantRule type combo default classic var classic var modern\n");
    }
    printf("uciok\n");
}

static int usage(const char *bad)
{
    fprintf(stderr,
            "fake_engine: bad argument '%s' (see the comment at the top of "
            "tests/engines/fake_engine.c)\n",
            bad);
    return 2;
}

int main(int argc, char **argv)
{
    f.variant = variant_by_name("chess");
    f.rules = (Rules){ TURNS_SINGLE, EP_CLASSIC };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--bug") == 0 && next) {
            i++;
            if (strcmp(next, "no-ep") == 0)
                f.no_ep = true;
            else if (strcmp(next, "xray-king") == 0)
                f.xray_king = true;
            else if (strcmp(next, "one-movement-turns") == 0)
                f.one_movement_turns = true;
            else if (strcmp(next, "forget-ep-square") == 0)
                f.forget_ep = true;
            else if (strcmp(next, "no-long-castle") == 0)
                f.no_long_castle = true;
            else if (strcmp(next, "no-underpromotion") == 0)
                f.no_underpromotion = true;
            else
                return usage(next);
        } else if (strcmp(a, "--drop") == 0 && next) {
            f.drop = argv[++i];
        } else if (strcmp(a, "--extra") == 0 && next) {
            f.extra = argv[++i];
        } else if (strcmp(a, "--at") == 0 && next) {
            f.at = argv[++i];
        } else if (strcmp(a, "--crash") == 0) {
            f.failure = FAIL_CRASH;
        } else if (strcmp(a, "--hang") == 0) {
            f.failure = FAIL_HANG;
        } else if (strcmp(a, "--garbage") == 0) {
            f.failure = FAIL_GARBAGE;
        } else if (strcmp(a, "--plain") == 0) {
            f.plain = true;
        } else {
            return usage(a);
        }
    }
    Setup s;
    setup_start(&s, f.variant);
    position_from_setup(&f.pos, &s);

    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char *tok[256];
        int n = 0;
        for (char *t = strtok(line, " \t\r\n"); t && n < 256; t = strtok(NULL, " \t\r\n"))
            tok[n++] = t;
        if (n == 0)
            continue;
        if (strcmp(tok[0], "quit") == 0)
            break;
        if (strcmp(tok[0], "uci") == 0)
            uci_cmd();
        else if (strcmp(tok[0], "isready") == 0)
            printf("readyok\n");
        else if (strcmp(tok[0], "setoption") == 0)
            setoption(tok, n);
        else if (strcmp(tok[0], "position") == 0)
            position_cmd(tok, n);
        else if (strcmp(tok[0], "go") == 0 && n == 3 && strcmp(tok[1], "perft") == 0)
            go_perft(atoi(tok[2]));
        else
            printf("info string unknown command: %s\n", tok[0]);
        fflush(stdout);
    }
    return 0;
}
