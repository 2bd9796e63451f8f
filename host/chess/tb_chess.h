/* tb_chess.h - the chess rules core: positions, legal moves, notation, draw rules, PGN.
 *
 * Pure: no I/O, no allocation in the move path, no writable globals (attack tables are const,
 * generated at build time). Every function that can fail returns the codes of tb_err.h.
 *
 * Squares are 0..63 with a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63 (White's view).
 * A piece is colour * 8 + type: white pawn 1 ... white king 6, black pawn 9 ... black king 14;
 * 0 is an empty square.
 *
 * Moves are 16-bit: bits 0-5 from, 6-11 to, 12-15 kind. Castling is encoded as the king
 * "capturing" its own rook (from = king square, to = rook square), which covers Chess960
 * (Guideline II) and standard chess alike; tb_chess_move_king_to() gives the king's destination.
 */
#ifndef TB_CHESS_H
#define TB_CHESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_err.h"

/* ---- colours, pieces, squares ------------------------------------------------------------ */

enum { TB_CHESS_WHITE = 0, TB_CHESS_BLACK = 1 };

enum tb_chess_ptype {
    TB_CHESS_NOPIECE = 0,
    TB_CHESS_PAWN = 1,
    TB_CHESS_KNIGHT = 2,
    TB_CHESS_BISHOP = 3,
    TB_CHESS_ROOK = 4,
    TB_CHESS_QUEEN = 5,
    TB_CHESS_KING = 6,
};

/* clang-format 14 reads "(color) * 8" and "(piece) & 7" as casts and would print "(color)*8"
 * and "(piece)&7"; these lines keep their spacing by hand. */
// clang-format off
#define TB_CHESS_PIECE(color, type) ((color) * 8 + (type))
#define TB_CHESS_PIECE_COLOR(piece) ((piece) >> 3)
#define TB_CHESS_PIECE_TYPE(piece)  ((piece) & 7)

#define TB_CHESS_SQ(file, rank) ((rank) * 8 + (file))
#define TB_CHESS_FILE(sq)       ((sq) & 7)
#define TB_CHESS_RANK(sq)       ((sq) >> 3)
#define TB_CHESS_NOSQ           64
#define TB_CHESS_BIT(sq)        (1ULL << (sq))
// clang-format on

/* FEN piece letters (upper case White): 'N' -> white knight, 'q' -> black queen; 0 for any
 * other character. */
int tb_chess_piece_from_fen(char c);
/* The FEN letter of a piece code ('P' ... 'K', 'p' ... 'k'); 0 for an empty square or a code
 * that is no piece. */
char tb_chess_piece_to_fen(int piece);

/* "e4" -> 28; -1 if s does not start with a square. Reads exactly two characters. */
int tb_chess_square_parse(const char *s);
/* 28 -> "e4" into buf[3]; returns buf. */
char *tb_chess_square_name(int sq, char buf[3]);

/* ---- moves ------------------------------------------------------------------------------- */

typedef uint16_t tb_chess_move; /* 0 is "no move" */

enum tb_chess_move_kind {
    TB_CHESS_MK_NORMAL = 0,  /* quiet moves and ordinary captures, double pawn pushes */
    TB_CHESS_MK_EP = 1,      /* en passant capture (3.7.4) */
    TB_CHESS_MK_CASTLE = 2,  /* to = the rook's square (3.8) */
                             /* 3 is never produced here: host/bughouse uses it for drops */
    TB_CHESS_MK_PROMO_N = 4, /* promotion (3.7.5); the kind names the new piece */
    TB_CHESS_MK_PROMO_B = 5,
    TB_CHESS_MK_PROMO_R = 6,
    TB_CHESS_MK_PROMO_Q = 7,
};

static inline tb_chess_move tb_chess_move_new(int from, int to, int kind)
{
    return (tb_chess_move)(from | (to << 6) | (kind << 12));
}
static inline int tb_chess_move_from(tb_chess_move m)
{
    return m & 63;
}
static inline int tb_chess_move_to(tb_chess_move m)
{
    return (m >> 6) & 63;
}
static inline int tb_chess_move_kind(tb_chess_move m)
{
    return m >> 12;
}
/* Promotion piece type (TB_CHESS_KNIGHT..QUEEN), or 0. */
static inline int tb_chess_move_promo(tb_chess_move m)
{
    return (m >> 12) >= TB_CHESS_MK_PROMO_N ? (int)(m >> 12) - TB_CHESS_MK_PROMO_N + 2 : 0;
}
static inline bool tb_chess_move_is_castle(tb_chess_move m)
{
    return (m >> 12) == TB_CHESS_MK_CASTLE;
}
/* Where the king ends up: for castling the c- or g-file square of its rank, else to. */
int tb_chess_move_king_to(tb_chess_move m);

/* Room for every legal move of any position the FEN reader accepts (218 is the most known for a
 * legal position; the reader's material limits keep even odd positions below this). */
#define TB_CHESS_MAX_MOVES 384
typedef struct tb_chess_movelist {
    int count;
    tb_chess_move moves[TB_CHESS_MAX_MOVES];
} tb_chess_movelist;

/* ---- position ---------------------------------------------------------------------------- */

/* Castling rights, by index: white king side, white queen side, black king side, black queen
 * side. Each right remembers its rook's square (TB_CHESS_NOSQ when the right is gone), which is
 * what Chess960 needs and what X-FEN/Shredder-FEN castling fields describe. */
enum { TB_CHESS_CR_WK = 0, TB_CHESS_CR_WQ = 1, TB_CHESS_CR_BK = 2, TB_CHESS_CR_BQ = 3 };

/* A position. Copyable by assignment. Read it through the functions below; the fields are
 * public only so that it can live on the stack and be copied. */
typedef struct tb_chess_pos {
    uint64_t by_color[2];
    uint64_t by_type[7]; /* index TB_CHESS_PAWN..KING; [0] unused */
    uint8_t board[64];   /* piece codes */
    uint8_t side;        /* TB_CHESS_WHITE or TB_CHESS_BLACK */
    uint8_t ep;          /* en passant target square, else TB_CHESS_NOSQ: as read from a FEN;
                            after a double push only when an enemy pawn stands beside it */
    uint8_t castle_rook[4];
    uint8_t king_sq[2];
    bool chess960;
    uint16_t halfmove; /* plies since the last capture or pawn move (9.3) */
    uint16_t fullmove;
    uint64_t key; /* Zobrist key of pieces, side, castling rights and e.p. as stored (not the
                     counters); tb_chess_repetition_key gives the 9.2.2 identity */
} tb_chess_pos;

/* What make needs to undo a move. */
typedef struct tb_chess_undo {
    uint64_t key;
    uint8_t captured; /* piece code taken, 0 if none */
    uint8_t ep;
    uint8_t castle_rook[4];
    uint16_t halfmove;
} tb_chess_undo;

/* The standard starting position. */
void tb_chess_pos_startpos(tb_chess_pos *pos);

/* Chess960 starting position number 0..959 (Scharnagl numbering; 518 is the standard array),
 * with chess960 set. Returns TB_ERR_ARG for a number out of range. */
int tb_chess_pos_960(tb_chess_pos *pos, int number);

enum {
    TB_CHESS_FEN_960 = 1,   /* Chess960 even when every castling right looks standard */
    TB_CHESS_FEN_DROPS = 2, /* material of two sets (a variant with drops, host/bughouse):
                               up to 16 pawns, and pieces beyond two sets only as promotions */
};

/* Reads a FEN (6 fields; 4 are accepted, with halfmove 0 and fullmove 1). Castling fields may be
 * KQkq, X-FEN (K/Q for the outermost rook on a side, else the rook's file) or Shredder-FEN
 * (HAha): every letter names the rook of one right. A position is Chess960 (Guideline II,
 * pos->chess960) when flags has TB_CHESS_FEN_960 or when a castling right needs it: a king off
 * the e-file or a castling rook off the corner. Castling is the same move either way; the flag
 * decides the UCI form (e1h1 against e1g1) and the PGN Variant tag.
 * Rejects, naming the problem in err: wrong field count, bad piece letters or rank lengths, not
 * exactly one king per side, pawns on rank 1 or 8, more pieces than promotions can give (e.g. 10
 * queens), the side not to move in check, a castling right without its king and rook on the
 * back rank, a right whose rook is not on the side it names, a king on the a- or h-file with a
 * right (Guideline II: the king starts between the rooks), two rights on one side, rights of
 * both colours with kings (or same-side rooks) on different files (the arrays are mirrored), an
 * e.p. square that no double push can have produced, bad counters. The side to move may be in
 * check however the check arose. The message names the field and column (err->column). On error
 * pos is unchanged. */
int tb_chess_pos_from_fen(tb_chess_pos *pos, const char *fen, unsigned flags, struct tb_error *err);

/* Writes the FEN; castling in X-FEN: K/Q/k/q for the outermost rook on a side, the rook's file
 * letter when another rook of that colour stands further out (never ambiguous). Returns the length
 * written (excluding the NUL), or TB_ERR_FULL if len is too small (buf then holds a NUL-terminated
 * prefix). 100 bytes always suffice. */
int tb_chess_pos_to_fen(const tb_chess_pos *pos, char *buf, size_t len);

/* Piece code on a square (0 if empty). */
static inline int tb_chess_piece_at(const tb_chess_pos *pos, int sq)
{
    return pos->board[sq];
}
/* Occupied squares as a 64-bit set, bit n = square n. */
static inline uint64_t tb_chess_occupancy(const tb_chess_pos *pos)
{
    return pos->by_color[0] | pos->by_color[1];
}
static inline int tb_chess_side_to_move(const tb_chess_pos *pos)
{
    return pos->side;
}

/* Is the side to move in check? */
bool tb_chess_in_check(const tb_chess_pos *pos);
/* Is square sq attacked by a piece of colour by? */
bool tb_chess_attacked(const tb_chess_pos *pos, int sq, int by);

/* Every legal move of the side to move (pins, check evasions, castling conditions of 3.8,
 * e.p. 3.7.4, promotions to Q, R, B, N 3.7.5). Returns the count. */
int tb_chess_gen_legal(const tb_chess_pos *pos, tb_chess_movelist *list);

/* Is m one of the legal moves here? */
bool tb_chess_is_legal(const tb_chess_pos *pos, tb_chess_move m);

/* Plays a legal move (the caller guarantees legality, e.g. from tb_chess_gen_legal). Fills undo.
 * In debug builds the position invariants are checked after every make and unmake. */
void tb_chess_make(tb_chess_pos *pos, tb_chess_move m, tb_chess_undo *undo);
void tb_chess_unmake(tb_chess_pos *pos, tb_chess_move m, const tb_chess_undo *undo);

/* A drop for variants with pieces in hand (host/bughouse): puts piece on the empty square sq
 * as the side to move's move (side, e.p., counters and key kept as make does). The caller
 * guarantees the square is empty, the piece is the mover's and the result is legal. */
void tb_chess_make_drop(tb_chess_pos *pos, int sq, int piece, tb_chess_undo *undo);
void tb_chess_unmake_drop(tb_chess_pos *pos, int sq, const tb_chess_undo *undo);

/* Recomputes every derived field and checks consistency; TB_OK or TB_ERR_STATE. */
int tb_chess_pos_check(const tb_chess_pos *pos);

/* Leaf count of the legal move tree to depth (perft); 1 for depth <= 0. pos is restored. */
uint64_t tb_chess_perft(tb_chess_pos *pos, int depth);

/* Perft split by root move ("divide"): fills moves[i] and counts[i] (perft of depth - 1 after
 * moves[i]) for every legal move, in generation order. Returns the number of moves, TB_ERR_ARG
 * for depth < 1, or TB_ERR_FULL if more than cap moves (TB_CHESS_MAX_MOVES always suffices). */
int tb_chess_perft_divide(tb_chess_pos *pos, int depth, tb_chess_move *moves, uint64_t *counts,
                          int cap);

/* The squares a move changes on a physical board, for move recognition (D.2.3, 4.7):
 * from/to of the moving piece as it ends (for castling: the king's squares), the square of the
 * captured piece (differs from to for e.p.; TB_CHESS_NOSQ if none), and for castling the rook's
 * from and to squares (else TB_CHESS_NOSQ). */
struct tb_chess_move_squares {
    uint8_t from, to;
    uint8_t capture_sq;
    uint8_t rook_from, rook_to;
    uint8_t piece;    /* moving piece code */
    uint8_t captured; /* captured piece code, 0 if none */
    uint8_t promo;    /* promotion piece type, 0 if none */
};
void tb_chess_move_squares(const tb_chess_pos *pos, tb_chess_move m,
                           struct tb_chess_move_squares *out);

/* ---- result of a position (Article 5, 9) ------------------------------------------------- */

enum tb_chess_state {
    TB_CHESS_PLAYING = 0,
    TB_CHESS_CHECKMATE,   /* 5.1.1 */
    TB_CHESS_STALEMATE,   /* 5.2.1 */
    TB_CHESS_DEAD,        /* 5.2.2: no series of legal moves can mate */
    TB_CHESS_FIVEFOLD,    /* 9.6.1 */
    TB_CHESS_SEVENTYFIVE, /* 9.6.2 */
};

/* Checkmate, stalemate or dead position of a single position (no history). */
enum tb_chess_state tb_chess_pos_state(const tb_chess_pos *pos);

/* Dead position (5.2.2): at least K v K, K+B v K, K+N v K, K+B(s) v K+B(s) all on one colour. */
bool tb_chess_pos_is_dead(const tb_chess_pos *pos);

/* Could colour ever checkmate the other king, by any series of legal moves (6.9, flag fall)?
 * Decided on material (can_mate.c), exactly for every class of material: false for a bare king;
 * for a lone knight unless the other side has a pawn, knight, bishop or rook (never against
 * queens alone); for bishops all on one square colour unless the other side has a pawn, a
 * knight or a bishop on the other colour; true for anything more. Positions where the material
 * could mate but the pieces cannot get there (locked pawns) count as "can mate", so a flag fall
 * is a loss unless the draw is certain. */
bool tb_chess_can_mate(const tb_chess_pos *pos, int color);

/* The repetition key of 9.2.2: side to move, pieces on squares, castling rights, and the e.p.
 * square only when an e.p. capture is actually legal. */
uint64_t tb_chess_repetition_key(const tb_chess_pos *pos);

/* ---- a game: a start position and the moves played ---------------------------------------- */

#define TB_CHESS_GAME_MAX_PLIES 2048

/* Large: allocate it, do not put it on a stack. */
typedef struct tb_chess_game {
    tb_chess_pos start;
    tb_chess_pos pos; /* current position */
    int plies;        /* moves played */
    tb_chess_move moves[TB_CHESS_GAME_MAX_PLIES];
    tb_chess_undo undo[TB_CHESS_GAME_MAX_PLIES];
    uint64_t rep_keys[TB_CHESS_GAME_MAX_PLIES + 1]; /* repetition key before each ply */
} tb_chess_game;

void tb_chess_game_init(tb_chess_game *game, const tb_chess_pos *start);
/* Plays a move; TB_ERR_ILLEGAL if it is not legal (nothing changes), TB_ERR_FULL at the cap. */
int tb_chess_game_push(tb_chess_game *game, tb_chess_move m);
/* Takes back the last move; TB_ERR_STATE if none. */
int tb_chess_game_pop(tb_chess_game *game);
/* How many times the current position has occurred (9.2.2 identity), counting this one. */
int tb_chess_game_repetitions(const tb_chess_game *game);
/* Game state including 9.6 automatic draws (fivefold, 75 moves) on top of tb_chess_pos_state. */
enum tb_chess_state tb_chess_game_state(const tb_chess_game *game);
/* Claims (9.2, 9.3) available to the side to move in the current position. */
bool tb_chess_game_can_claim_threefold(const tb_chess_game *game);
bool tb_chess_game_can_claim_fifty(const tb_chess_game *game);

/* ---- notation (Appendix C) --------------------------------------------------------------- */

/* Piece letters: English (KQRBN; PGN), Dutch (KDTLP), German (KDTLS). */
enum tb_chess_letters { TB_CHESS_LETTERS_EN = 0, TB_CHESS_LETTERS_NL, TB_CHESS_LETTERS_DE };

/* The upper-case letter for a piece type in a letter set ('N', 'P', 'S' ...); 0 for a pawn. */
char tb_chess_piece_letter(int ptype, enum tb_chess_letters letters);

/* UCI: "e2e4", "e7e8q"; castling as king to its destination ("e1g1") in standard chess and as
 * king-takes-rook ("e1h1") in Chess960. Returns the length, or TB_ERR_FULL (needs 6 bytes). */
int tb_chess_move_to_uci(const tb_chess_pos *pos, tb_chess_move m, char *buf, size_t len);
/* Parses UCI for the position; also accepts king-takes-rook castling. TB_ERR_PARSE for bad text,
 * TB_ERR_ILLEGAL for a well-formed but illegal move. */
int tb_chess_move_from_uci(const tb_chess_pos *pos, const char *s, tb_chess_move *out);

/* SAN of a legal move (C.10 disambiguation: file first, then rank, then both), captures,
 * "e.p." never (PGN style) unless TB_CHESS_SAN_EP is given, "=Q" promotion unless
 * TB_CHESS_SAN_NOEQ, "+" check, "#" mate, castling as "O-O" unless TB_CHESS_SAN_ZERO ("0-0").
 * Returns the length, or TB_ERR_FULL (16 bytes always suffice). */
enum {
    TB_CHESS_SAN_EP = 1,   /* append " e.p." to en passant captures */
    TB_CHESS_SAN_NOEQ = 2, /* promotion as "e8Q" instead of "e8=Q" */
    TB_CHESS_SAN_ZERO = 4, /* castling as 0-0 / 0-0-0 (Appendix C) */
};
int tb_chess_move_to_san(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters letters,
                         unsigned flags, char *buf, size_t len);

/* Long notation with the departure square (C.13): "Pg1f3" (Dutch), "Ng1-f3"-style variants are
 * not produced; pawns have no letter ("e2e4"), captures use "x" ("Lf1xb5"). */
int tb_chess_move_to_long(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters letters,
                          char *buf, size_t len);

/* Parses what people write: "Nf3", "N1f3", "Ngf3", "Ng1f3", "exd6", "exd6 e.p.", "e8=Q",
 * "e8Q", "e8/Q", "0-0", "O-O", "O-O-O", trailing "+", "#", "!", "?" ignored; in the given letter
 * set. TB_ERR_PARSE for text that is no move, TB_ERR_ILLEGAL for no legal match or an ambiguous
 * one; err (may be NULL) says which. */
int tb_chess_move_from_san(const tb_chess_pos *pos, const char *s, enum tb_chess_letters letters,
                           tb_chess_move *out, struct tb_error *err);

/* UCI or English SAN, whichever it is. */
int tb_chess_move_parse(const tb_chess_pos *pos, const char *s, tb_chess_move *out,
                        struct tb_error *err);

/* ---- PGN and scoresheets (pgn_game.c, pgn_read.c, pgn_write.c, scoresheet.c) -------------- */

/* A game as PGN holds it: the moves (in .game, replayable), the tags, the comments and NAGs, and
 * the result. Everything lives in fixed arrays so that reading a game allocates nothing:
 * tags and comment texts share the text arena. Past any limit the reader returns TB_ERR_FULL
 * naming the limit. The struct is large (about 140 kB): allocate it, do not put it on a stack. */
#define TB_CHESS_PGN_MAX_TAGS  64
#define TB_CHESS_PGN_MAX_NOTES 4096 /* comments and NAGs together */
#define TB_CHESS_PGN_TEXT_SIZE 65536

/* Offsets into the game's text arena; each string there is NUL-terminated. */
struct tb_chess_pgn_tag {
    uint32_t name, value;
};

enum tb_chess_pgn_note_kind {
    TB_CHESS_PGN_COMMENT = 0,      /* {text} */
    TB_CHESS_PGN_LINE_COMMENT = 1, /* ;text to the end of the line */
    TB_CHESS_PGN_NAG = 2,          /* $n; "!" "?" "!!" "??" "!?" "?!" are read as $1..$6 */
};

/* A comment or NAG standing after ply `ply` (0: before the first move), in the order read. */
struct tb_chess_pgn_note {
    uint16_t ply;
    uint8_t kind;  /* enum tb_chess_pgn_note_kind */
    uint8_t nag;   /* for TB_CHESS_PGN_NAG */
    uint32_t text; /* for comments: offset into the text arena (verbatim; a line break inside a
                    * {comment} reads as one space) */
};

typedef struct tb_chess_pgn_game {
    tb_chess_game game; /* start position and the moves */
    char result[8];     /* "1-0", "0-1", "1/2-1/2" or "*" */
    long number;        /* 1-based number of the game in its input (reader only) */
    long line;          /* line where the game starts (reader only) */
    int ntags;
    struct tb_chess_pgn_tag tags[TB_CHESS_PGN_MAX_TAGS];
    int nnotes; /* sorted by ply */
    struct tb_chess_pgn_note notes[TB_CHESS_PGN_MAX_NOTES];
    uint32_t text_used;
    char text[TB_CHESS_PGN_TEXT_SIZE];
} tb_chess_pgn_game;

/* An empty game from start (NULL: the standard position), result "*", no tags. */
void tb_chess_pgn_game_init(tb_chess_pgn_game *g, const tb_chess_pos *start);
/* The value of a tag, NULL if absent. Tag names compare exactly ("White"). */
const char *tb_chess_pgn_tag_get(const tb_chess_pgn_game *g, const char *name);
/* Sets (adds or replaces) a tag. Names are letters, digits and '_'; values are raw bytes without
 * line breaks. TB_ERR_ARG for a bad name or value, TB_ERR_FULL when tags or text are full. */
int tb_chess_pgn_tag_set(tb_chess_pgn_game *g, const char *name, const char *value,
                         struct tb_error *err);
/* Adds a {comment} after ply (0..plies; 0 = before the first move), after the notes already
 * there. The text may not contain '}' (TB_ERR_ARG). TB_ERR_FULL when notes or text are full. */
int tb_chess_pgn_add_comment(tb_chess_pgn_game *g, int ply, const char *text, struct tb_error *err);
/* Adds a NAG ($1 good move ... $255) after ply (1..plies). */
int tb_chess_pgn_add_nag(tb_chess_pgn_game *g, int ply, int nag, struct tb_error *err);

/* Reads games one at a time from a buffer in memory (the caller owns it and keeps it alive).
 * Accepts LF and CRLF, tags with \" and \\ escapes and any bytes in values, move numbers as
 * "1.e4", "1. e4" and "1... e5", comments {..} and ;.. (kept), NAGs $n and !/? suffixes (kept),
 * variations (..) nested (skipped), "%" escape lines (skipped), results 1-0 0-1 1/2-1/2 *,
 * [FEN] start positions ([Variant "Chess960"] or "Fischerandom" makes it a Chess960 game, as
 * does a FEN whose castling rights only Chess960 allows; a Variant alone starts from array 518).
 * A game without a result ends at the next tag section or the end of input; its result is then
 * its Result tag if valid, else "*". */
typedef struct tb_chess_pgn_reader {
    const char *buf;
    size_t len;
    size_t pos;
    long line;  /* current line, 1-based */
    long games; /* games started so far */
    int resync; /* after an error: skip to the next tag section first */
} tb_chess_pgn_reader;

void tb_chess_pgn_reader_init(tb_chess_pgn_reader *r, const char *buf, size_t len);
/* Reads the next game into g. Returns 1 for a game, 0 at the end of input, or an error:
 * TB_ERR_PARSE (malformed tag, token, FEN or move text), TB_ERR_ILLEGAL (a move that is not
 * legal or is ambiguous), TB_ERR_FULL (a limit above). err then says, independent of any file
 * name, "game 12 (White - Black), move 34... (ply 68): 'Nd2': <reason>" with err->line and
 * err->column at the offending text; g holds the game up to the error. The next call continues
 * with the next game. */
int tb_chess_pgn_read(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, struct tb_error *err);

/* Writes g in PGN export form: the Seven Tag Roster in order (missing ones as "?", Result from
 * g->result), Variant/SetUp/FEN when the start needs them and the tags lack them, the other
 * tags in stored order, a blank line, movetext in SAN wrapped below 80 columns with move
 * numbers, comments and NAGs ($n), the result, and one '\n'. Separate games with a blank line.
 * snprintf semantics: writes at most len bytes including the NUL and returns the full length;
 * negative on error (TB_ERR_STATE if the moves do not replay). To export a game played
 * elsewhere: tb_chess_pgn_game_init, copy or push its moves into g->game, set tags, add
 * comments (e.g. where the two boards disagreed). */
int tb_chess_pgn_write(const tb_chess_pgn_game *g, char *buf, size_t len);

/* A plain-text scoresheet of g for the arbiter (Article 8, Appendix C): a header in the letter
 * set's language (event, site, date, round, White, Black, result), then numbered move pairs in
 * two columns: 0-0 / 0-0-0, " e.p." shown, promotion as d8D (Dutch, German) or d8=Q (English),
 * + and #, the result, and lines for both players' signatures (8.7). snprintf semantics as
 * tb_chess_pgn_write. */
int tb_chess_scoresheet_write(const tb_chess_pgn_game *g, enum tb_chess_letters letters, char *buf,
                              size_t len);

#endif /* TB_CHESS_H */
