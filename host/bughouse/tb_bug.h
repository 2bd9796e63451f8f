/* tb_bug.h - doorgeefschaak (bughouse) by the club's rules (Reglement Doorgeefschaak, cited by
 * article): one board's position with the pieces in hand, drops, promoted pawns, the end rules
 * of article 5 over two games, BPGN, and a seeded generator of random legal two-board games.
 *
 * Built on the chess core (tb_chess.h): ordinary moves, their legality, make/unmake and SAN are
 * the core's (1.5: each board is a chess game by the FIDE Laws, articles 1-6). Pure: no I/O, no
 * writable globals, time is an argument. Boards are A (0) and B (1); 1.4: the partner of White
 * on one board plays Black on the other, so a piece taken on one board goes, in its own colour,
 * to the pool of the same colour on the other board.
 */
#ifndef TB_BUG_H
#define TB_BUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_err.h"

/* ---- moves ------------------------------------------------------------------------------- */

/* A move is a tb_chess_move; a drop (2.2) uses the kind the core leaves free: bits 0-5 hold the
 * piece type (TB_CHESS_PAWN..QUEEN), bits 6-11 the square. */
typedef tb_chess_move tb_bug_move;
#define TB_BUG_MK_DROP 3

static inline tb_bug_move tb_bug_move_drop(int type, int sq)
{
    return tb_chess_move_new(type, sq, TB_BUG_MK_DROP);
}
static inline bool tb_bug_move_is_drop(tb_bug_move m)
{
    return tb_chess_move_kind(m) == TB_BUG_MK_DROP;
}
/* The dropped piece type, 0 for an ordinary move. */
static inline int tb_bug_move_drop_type(tb_bug_move m)
{
    return tb_bug_move_is_drop(m) ? tb_chess_move_from(m) : 0;
}

/* Every ordinary move (the core's bound) and every drop of five types on 64 squares. */
#define TB_BUG_MAX_MOVES (TB_CHESS_MAX_MOVES + 5 * 64)
typedef struct tb_bug_movelist {
    int count;
    tb_bug_move moves[TB_BUG_MAX_MOVES];
} tb_bug_movelist;

/* ---- position ---------------------------------------------------------------------------- */

/* Most pieces of one kind a pool can hold: both sets' pawns (3.2: promoted pawns return as
 * pawns) or both sets' pieces of a kind. */
#define TB_BUG_POOL_MAX 16

/* One board: the chess position (a promoted pawn stands there as the piece it moves as), the
 * pieces in hand of each side (2.6), and the squares holding promoted pawns (3.1). Copyable. */
typedef struct tb_bug_pos {
    tb_chess_pos chess;
    uint8_t pool[2][6]; /* [colour][TB_CHESS_PAWN..QUEEN]; [c][0] unused */
    uint64_t promoted;  /* 3.1: pawns that move as the piece on their square */
} tb_bug_pos;

typedef struct tb_bug_undo {
    tb_chess_undo chess;
    uint64_t promoted;
    uint8_t passed; /* piece code passed to the partner (2.1), 0 if none */
} tb_bug_undo;

/* The standard starting position, empty pools. */
void tb_bug_pos_startpos(tb_bug_pos *pos);

/* Reads the bughouse FEN as the ecosystem writes it: a FEN whose board field has the pools in
 * brackets after it ("...RNBQKBNR[Qnp] w KQkq - 0 1"; an empty pool "[]" or none at all) or as a
 * ninth rank after a slash (".../RNBQKBNR/Qnp w ..."), and "~" after a promoted piece ("Q~":
 * a promoted pawn moving as a queen, 3.1). Pool letters in any order, upper case White's.
 * Refuses, naming what and the column: a king or a non-piece letter in the pool, a "~" after
 * anything but N B R Q, an unclosed "[", text after "]", more than TB_BUG_POOL_MAX of a kind in
 * hand, more material of a colour (board and hand, promoted pawns as pawns) than two sets hold,
 * and every error of the core's reader (tb_chess_pos_from_fen with TB_CHESS_FEN_DROPS). On
 * error pos is unchanged. */
int tb_bug_pos_from_fen(tb_bug_pos *pos, const char *fen, struct tb_error *err);
/* Writes it with the pool in brackets (White's pieces first, Q R B N P order) and "~" marks.
 * Returns the length, TB_ERR_FULL if len is too small (TB_BUG_FEN_MAX always suffices), or
 * TB_ERR_ARG for a pool holding more than TB_BUG_POOL_MAX of a kind. */
#define TB_BUG_FEN_MAX 400
int tb_bug_pos_to_fen(const tb_bug_pos *pos, char *buf, size_t len);

/* Same position, field by field (a struct may hold padding that memcmp would read). */
bool tb_bug_pos_equal(const tb_bug_pos *a, const tb_bug_pos *b);

/* Pieces in hand of colour (all kinds). */
int tb_bug_pool_count(const tb_bug_pos *pos, int color);
/* The partner passes a piece (2.1): adds piece (a code, its colour is the pool's) to the pool.
 * TB_ERR_ARG for no piece or a king, TB_ERR_FULL past TB_BUG_POOL_MAX. */
int tb_bug_pool_add(tb_bug_pos *pos, int piece);
/* Takes a piece back out of the pool (7.7); TB_ERR_NOTFOUND if none of that kind is there. */
int tb_bug_pool_take(tb_bug_pos *pos, int piece);

/* Is the side to move in check? */
bool tb_bug_in_check(const tb_bug_pos *pos);

/* Why a drop is refused, with the article that says so. */
enum tb_bug_drop_verdict {
    TB_BUG_DROP_OK = 0,
    TB_BUG_DROP_NOT_IN_POOL, /* 2.2: only a piece passed by the partner and still in hand */
    TB_BUG_DROP_OCCUPIED,    /* 2.3: only on an empty square */
    TB_BUG_DROP_CHECKS,      /* 2.4: not if the enemy king is in check after it */
    TB_BUG_DROP_PAWN_RANK,   /* 2.5: no pawn on the 1st or 8th rank */
    TB_BUG_DROP_SELF_CHECK,  /* FIDE 3.9 (1.5): the mover's king may not stay in check */
    TB_BUG_DROP_BAD_PIECE,   /* no such piece type (a king is never passed) */
};
/* Judges the drop of piece type on sq by the side to move. */
enum tb_bug_drop_verdict tb_bug_drop_verdict(const tb_bug_pos *pos, int type, int sq);
/* "2.4" etc. ("" for OK) and a sentence for people ("the drop would give check"). */
const char *tb_bug_drop_article(enum tb_bug_drop_verdict v);
const char *tb_bug_drop_reason(enum tb_bug_drop_verdict v);

/* Every legal move: the core's ordinary moves, then drops (2.2-2.5) by piece type (Q R B N P)
 * and square. Returns the count, or TB_ERR_FULL when the material on the board could give more
 * ordinary moves than the core's list holds (more than two sets could ever put there; the
 * bughouse FEN reader refuses such positions). */
int tb_bug_gen_legal(const tb_bug_pos *pos, tb_bug_movelist *list);
bool tb_bug_is_legal(const tb_bug_pos *pos, tb_bug_move m);
/* The legal drops alone, in the order tb_bug_gen_legal lists them; returns the count. */
int tb_bug_gen_drops(const tb_bug_pos *pos, tb_bug_movelist *list);

/* Plays a legal move. A drop takes the piece from the pool; a capture fills undo->passed with
 * the piece for the partner's pool (3.2: a promoted pawn goes as a pawn), which the caller puts
 * on the other board (tb_bug_pool_add there). A promotion marks its square (3.1). */
void tb_bug_make(tb_bug_pos *pos, tb_bug_move m, tb_bug_undo *undo);
void tb_bug_unmake(tb_bug_pos *pos, tb_bug_move m, const tb_bug_undo *undo);

/* Leaf count of the legal move tree (captured pieces leave the board; the pools do not grow,
 * as on one board alone). pos is restored. */
uint64_t tb_bug_perft(tb_bug_pos *pos, int depth);

enum tb_bug_pos_state {
    TB_BUG_POS_PLAYING = 0,
    TB_BUG_POS_CHECKMATE, /* in check, no legal move with the pieces in hand (FIDE 5.1.1 by 1.5) */
    TB_BUG_POS_STALEMATE, /* no legal move, not in check: a draw or a wait, see 5.3 */
};
enum tb_bug_pos_state tb_bug_pos_state(const tb_bug_pos *pos);

/* Could colour still mate, counting the pieces in hand and, when incoming[c] is set, pieces
 * that colour c may still receive from the other board (5.3, 5.4)? Exact for boards without
 * pools and incoming pieces (tb_chess_can_mate); otherwise "can mate" whenever the material
 * could, so a flag fall is only a draw when it is certain. */
bool tb_bug_can_mate(const tb_bug_pos *pos, int color, const bool incoming[2]);

/* ---- notation ---------------------------------------------------------------------------- */

/* SAN: ordinary moves as the core writes them, with "+" for check and "#" only for mate as
 * the pools decide it; drops as "N@f3" and "P@e4" (English), "P@f3"/"@e4" in Dutch letters
 * (a pawn has no letter there, P is the knight). No drop ever carries "+" (2.4). Returns the
 * length or TB_ERR_FULL (16 bytes always suffice). */
int tb_bug_move_to_san(const tb_bug_pos *pos, tb_bug_move m, enum tb_chess_letters letters,
                       char *buf, size_t len);
/* Parses SAN as the core does, plus drops: "N@f3", "P@e4", "@e4" (a pawn); a trailing "+",
 * "#" is ignored. TB_ERR_PARSE for text that is no move, TB_ERR_ILLEGAL for a move that is not
 * legal; for a drop err names the article (e.g. "2.3: f3 is not empty"). */
int tb_bug_move_from_san(const tb_bug_pos *pos, const char *s, enum tb_chess_letters letters,
                         tb_bug_move *out, struct tb_error *err);
/* UCI: ordinary moves as the core; drops "N@f3", "P@e4" (the letter upper case, whatever the
 * colour; "n@f3" is read too). */
int tb_bug_move_to_uci(const tb_bug_pos *pos, tb_bug_move m, char *buf, size_t len);
int tb_bug_move_from_uci(const tb_bug_pos *pos, const char *s, tb_bug_move *out,
                         struct tb_error *err);

/* ---- the end of the games (article 5) ---------------------------------------------------- */

enum tb_bug_result {
    TB_BUG_ONGOING = 0,
    TB_BUG_WHITE_WINS,
    TB_BUG_BLACK_WINS,
    TB_BUG_DRAW,
};

enum tb_bug_reason {
    TB_BUG_NONE = 0,
    TB_BUG_CHECKMATE,      /* FIDE 5.1.1 (1.5) */
    TB_BUG_RESIGNED,       /* 5.2 */
    TB_BUG_FLAG,           /* 5.4: flag fell, the opponent can still win: a loss */
    TB_BUG_FLAG_NO_MATE,   /* 5.4: flag fell, the opponent can never win: a draw */
    TB_BUG_BOTH_FLAGS,     /* 5.6, 10.2 */
    TB_BUG_STALEMATE,      /* 5.3: a draw, the other game having ended */
    TB_BUG_DEAD,           /* 5.3: neither can win, the other game having ended */
    TB_BUG_AGREED,         /* 5.5 */
    TB_BUG_WAIT_STALEMATE, /* 5.3: stalemated while the other game goes on: not over, the
                              player waits for a piece (the clock runs) */
};

/* A judgement: the result of the game, why, the article, and for 5.2 whether the opponent may
 * still play one last move. */
struct tb_bug_verdict {
    enum tb_bug_result result;
    enum tb_bug_reason reason;
    const char *article; /* "5.2" ... ; "" for none */
    bool last_move;      /* 5.2: resigned off move: the opponent may play one more move */
};

/* The other game as these rules need it: its position and whether it has ended (5.1). */
struct tb_bug_other {
    const tb_bug_pos *pos; /* NULL: no other board known, counts as ended */
    bool ended;
};

/* The state of the position on one board: checkmate (a win), stalemate or dead position (a draw
 * only when the other game has ended, 5.3; stalemate otherwise TB_BUG_WAIT_STALEMATE, ongoing). */
void tb_bug_judge_position(const tb_bug_pos *pos, const struct tb_bug_other *other,
                           struct tb_bug_verdict *out);
/* 5.2: colour resigns: a loss; off move the opponent keeps the right to a last move. */
void tb_bug_judge_resign(const tb_bug_pos *pos, int color, struct tb_bug_verdict *out);
/* Flags (5.4, 5.6): flag[c] says colour c's time is over. Both: a draw (5.6). One: a loss,
 * unless the opponent cannot mate by any series of legal moves, counting the pieces in hand and
 * those the opponent's partner may still take on the other board while that game goes on
 * (5.4): then a draw. No flag: ongoing. */
void tb_bug_judge_flags(const tb_bug_pos *pos, const bool flag[2], const struct tb_bug_other *other,
                        struct tb_bug_verdict *out);
/* 5.5: agreed draw. */
void tb_bug_judge_agreed(struct tb_bug_verdict *out);

/* "1-0", "0-1", "1/2-1/2", "*". */
const char *tb_bug_result_text(enum tb_bug_result r);
/* A short English phrase for a reason ("checkmate", "flag fell"). */
const char *tb_bug_reason_text(enum tb_bug_reason r);

/* ---- a two-board game record and BPGN ---------------------------------------------------- */

#define TB_BUG_RECORD_MAX_PLIES 4096
#define TB_BUG_NAME_MAX         48

struct tb_bug_ply {
    uint8_t board; /* 0 = A, 1 = B */
    tb_bug_move move;
    int32_t clock_ms;  /* the mover's time left after the move; < 0: not recorded */
    uint8_t irregular; /* 0, or TB_BUG_PLY_* (article 7) */
};

/* ---- article 7: irregularities kept in the record ---------------------------------------- */

enum {
    TB_BUG_PLY_ILLEGAL = 1,  /* 7.4: an illegal move completed with the clock pressed, played as
                                the board shows it (a piece it took passed to the partner) */
    TB_BUG_PLY_TAKEBACK = 2, /* 7.4, 7.7: the board's open illegal move (move) taken back: the
                                board as before it, the piece it passed out of the partner's
                                hand; the same side moves again */
    TB_BUG_PLY_REMOVED = 3,  /* 7.7: the piece on the to-square of move lifted from this board
                                into its colour's hand, to be given back for a takeback (with
                                an illegal move open on this board: gone from the board before
                                it too; not from that move's squares) */
};

/* A match of two games in time order. Large: allocate it. Both boards start from start[] (the
 * standard array and empty pools unless set otherwise). */
typedef struct tb_bug_record {
    tb_bug_pos start[2];
    char names[4][TB_BUG_NAME_MAX]; /* WhiteA, BlackA, WhiteB, BlackB */
    char event[TB_BUG_NAME_MAX], site[TB_BUG_NAME_MAX], date[16];
    int32_t base_ms; /* time per player per game (6.3: 7 minutes unless the organiser says) */
    int nplies;
    struct tb_bug_ply plies[TB_BUG_RECORD_MAX_PLIES];
    struct tb_bug_verdict verdict[2]; /* per board; ONGOING if unfinished */
    int64_t end_ms[2]; /* when each game ended, ms after the clocks started (6.4); -1: not
                          known (BPGN does not say) or not ended */
    tb_bug_pos cur[2]; /* both boards after the plies (kept by tb_bug_record_push) */
} tb_bug_record;

/* An empty record: standard starts, 7 minutes (6.3), names "?", results ongoing. To start
 * from other positions set start[] before the first push. */
void tb_bug_record_init(tb_bug_record *rec);
/* Appends a move on board after checking it is legal there (positions replayed through the
 * record, captures passed to the other board); TB_ERR_ILLEGAL, TB_ERR_FULL, TB_ERR_ARG. */
int tb_bug_record_push(tb_bug_record *rec, int board, tb_bug_move m, int32_t clock_ms);
/* Replays the first n plies into pos[2] (pieces passed between boards). TB_ERR_STATE if a ply
 * is not legal where it stands. */
int tb_bug_record_replay(const tb_bug_record *rec, int n, tb_bug_pos pos[2]);

/* Why the core cannot play the move m as an illegal move that stands (7.4: accepted), or NULL
 * when it can: a piece of the side to move goes from one square to another, empty or holding
 * an enemy piece other than the king, not legal there, and the game can go on after it (no
 * pawn on the last rank, the mover's king not left in check). */
const char *tb_bug_illegal_why(const tb_bug_pos *pos, tb_bug_move m);
/* An illegal move as BPGN writes it: the piece letter (none for a pawn), the squares, "x" for a
 * capture ("Bc1xh6", "e2d3"). Returns the length (16 bytes always suffice). */
int tb_bug_illegal_san(const tb_bug_pos *pos, tb_bug_move m, char *buf, size_t len);
/* 7.7: the piece on sq (not a king) leaves the board into the hand of its colour (a promoted
 * pawn as a pawn, 3.2). TB_ERR_ARG for an empty square or a king; TB_ERR_ILLEGAL when the
 * position left is no position (the side not to move in check); pos is then unchanged. */
int tb_bug_pos_remove(tb_bug_pos *pos, int sq);
/* Appends an irregular ply (record replayed to check it plays): an illegal move completed with
 * the clock pressed (TB_ERR_ILLEGAL when tb_bug_illegal_why names a reason); the taking back of
 * the board's open illegal move m (no move on that board since; TB_ERR_STATE otherwise,
 * TB_ERR_NOTFOUND when the piece it passed is no longer in the partner's hand: 7.7, remove a
 * piece of that kind first); the 7.7 removal of the piece on sq (TB_ERR_ILLEGAL as
 * tb_bug_pos_remove). rec->cur follows. TB_ERR_FULL, TB_ERR_ARG as tb_bug_record_push. */
int tb_bug_record_push_illegal(tb_bug_record *rec, int board, tb_bug_move m, int32_t clock_ms);
int tb_bug_record_push_takeback(tb_bug_record *rec, int board, tb_bug_move m);
int tb_bug_record_push_removed(tb_bug_record *rec, int board, int sq);

/* Writes BPGN: tags Event, Site, Date, WhiteA, BlackA, WhiteB, BlackB, TimeControl (seconds),
 * Result (board A's), ResultA, ResultB, and FEN/FENB when a board does not start from the
 * standard array; then the moves in time order: "1A." White on A, "1a." Black on A, "1B."/"1b."
 * on B, each followed by the mover's clock in seconds "{417.250}"; each ended board gets a
 * comment naming its result, reason and article; then board A's result. Article 7's plies:
 * "{A 7.4: illegal move} 12A. Bc1xh6" (the move as piece, squares and "x"), "{A 7.4: illegal
 * move c1h6 taken back}", "{B 7.7: piece on e5 handed back}". snprintf semantics:
 * returns the full length; TB_ERR_STATE if the moves do not replay. */
int tb_bug_bpgn_write(const tb_bug_record *rec, char *buf, size_t len);
/* Reads one game of BPGN as written above (tags in any order; unknown tags skipped; clocks
 * optional; "1A. e4" or "1A.e4"; article 7's plies as written above; {comments} other than
 * clocks and results skipped). The
 * results come from ResultA/ResultB (else Result for A), with reasons from the result comments.
 * TB_ERR_PARSE / TB_ERR_ILLEGAL with err naming the line, column and move; rec then holds the
 * game up to the error. */
int tb_bug_bpgn_read(tb_bug_record *rec, const char *buf, size_t len, struct tb_error *err);

/* ---- random games ------------------------------------------------------------------------ */

struct tb_bug_gen_config {
    uint64_t seed;
    int32_t base_ms;      /* time per player (0: 7 minutes, 6.3) */
    int32_t think_ms;     /* mean thinking time per move (0: 3 s) */
    int drop_percent;     /* chance of a drop when one is legal (0: 35) */
    int resign_permille;  /* chance per move that the side to move resigns (5.2; 0: none) */
    int32_t min_think_ms; /* shortest thinking time of a move (0: 50 ms); a player who handles
                             pieces on a sensor board needs a second or so */
    int32_t pass_ms;      /* a taken piece reaches the partner's hand this long after the
                             capture (2.1: it is handed over; 0: at once); until then it cannot
                             be dropped */
};

/* A random legal match on two boards, deterministic per config: four players think for random
 * times on clocks started together (6.4), moves interleave in time order, captures go to the
 * partner (2.1) who drops them (2.2-2.5), pawns promote (3.1) and return as pawns (3.2), games
 * end by mate, resignation on move (5.2), flag (5.4), or stalemate and dead positions once the
 * other game is over (5.3); a stalemated player waits for pieces meanwhile. rec->verdict holds
 * both results. Returns the number of plies, or TB_ERR_FULL if the record filled up. */
int tb_bug_gen_game(const struct tb_bug_gen_config *cfg, tb_bug_record *rec);

#endif /* TB_BUG_H */
