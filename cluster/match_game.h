/* One game of a match, played out between two players from an opening, refereed by the rules
 * of play (core/game.c) and the match's adjudication: every game ends with a result and the
 * reason, and every fault of a player loses that game for it without stopping anything else. */
#ifndef CARRERA_MATCH_GAME_H
#define CARRERA_MATCH_GAME_H

#include "game.h"
#include "player.h"

/* Score adjudication (RULES.md section 5: a match setting, recorded as such). Zero turns a rule
 * off. */
typedef struct Adjudication {
    int resign_cp, resign_moves;     /* both players agree one side is ahead by resign_cp for
                                        resign_moves turns of each side: that side wins */
    int draw_cp, draw_moves;         /* both scores within draw_cp for draw_moves turns of each */
    int draw_min_plies;              /* ... and not before this many turns were played */
    int max_plies;                   /* a game this long is drawn */
} Adjudication;

/* How a game ended: the rules of play, an adjudication, or a player's fault. */
typedef enum GameEnding {
    END_CHECKMATE,
    END_STALEMATE,
    END_KING_CAPTURED,
    END_REPETITION,
    END_FIFTY_MOVES,
    END_MATERIAL,
    END_RESIGN,       /* score adjudication */
    END_DRAW,         /* score adjudication */
    END_MAX_LENGTH,
    END_TIME,         /* a clock ran out */
    END_CRASH,
    END_TIMEOUT,
    END_GARBAGE,
    END_ILLEGAL,
    END_NB
} GameEnding;

/* "checkmate", "stalemate", "king captured", "threefold repetition", "50-move rule",
 * "insufficient material", "resign adjudication", "draw adjudication", "maximum length",
 * "time forfeit", "engine crash", "engine timeout", "engine garbage", "illegal move". */
const char *game_ending_name(GameEnding e);

/* A finished game. game holds the start, every turn and the final position. */
typedef struct GameRecord {
    Game game;
    int result;           /* 1: White won, 0: draw, -1: Black won */
    GameEnding ending;
    int loser_fault;      /* for faults and time: the colour at fault, else -1 */
    char detail[256];     /* the fault's details, or empty */
    uint64_t nodes[2];    /* searched by White's and Black's player over the game */
    double seconds[2];    /* their thinking time */
    int material[2][TYPE_NB]; /* the pieces each side has at the end */
} GameRecord;

/* Plays a game from start (a turn boundary) under r, white and black choosing turns (each
 * player's limits from its configuration), until the rules or the adjudication end it. Both
 * players must be ready for a new game (player_new_game). Returns 0 with *out filled (free it
 * with game_record_free), or -1 with a message when memory runs out. */
int match_play_game(Player *white, Player *black, const Position *start, const Rules *r,
                    bool castle960, const Adjudication *adj, GameRecord *out, char *err,
                    size_t errlen);

void game_record_free(GameRecord *g);

/* Fills g->material from the final position. */
void game_record_count_material(GameRecord *g);

#endif
