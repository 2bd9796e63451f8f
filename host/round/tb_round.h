/* tb_round.h - a round of a tournament as the hall runs it (docs/broadcast.md, "The round"):
 * the pairing program's pairings, each board's public PGN, the results list. Pure: text in,
 * text out, no I/O.
 *
 * The pairings come as the pairing programs export them: PGN (one game per pairing, tags
 * White, Black, Round, Board, WhiteFideId, BlackFideId, WhiteTitle, BlackTitle, WhiteElo,
 * BlackElo, Event, Site, Date; no moves) or CSV with a header line naming the same fields.
 * Every value is checked as a table's new-game takes it (1 to 48 bytes, no quote or
 * backslash), so what the file says is what each table's PGN will say.
 */
#ifndef TB_ROUND_H
#define TB_ROUND_H

#include <stdbool.h>
#include <stddef.h>

#include "tb_err.h"

#define TB_ROUND_MAX_BOARDS 512
#define TB_ROUND_VALUE_MAX  49 /* one value: 1..48 bytes, as a table's new-game takes it */

/* The fields of a pairing, in the order the board's PGN carries the extra ones. */
enum tb_round_field {
    TB_ROUND_EVENT,
    TB_ROUND_SITE,
    TB_ROUND_DATE,
    TB_ROUND_ROUND, /* "r.b" once parsed: the round and the board, as LiveChess writes it */
    TB_ROUND_WHITE,
    TB_ROUND_BLACK,
    TB_ROUND_BOARD,
    TB_ROUND_WHITE_TITLE,
    TB_ROUND_BLACK_TITLE,
    TB_ROUND_WHITE_ELO,
    TB_ROUND_BLACK_ELO,
    TB_ROUND_WHITE_FIDE,
    TB_ROUND_BLACK_FIDE,
    TB_ROUND_WHITE_RANK, /* the players' start ranks (the pairing program's starting-rank
                            numbers, 1..9999): only for the results TRF, not a PGN tag */
    TB_ROUND_BLACK_RANK,
    TB_ROUND_FIELDS
};
/* The PGN tag name of a field ("WhiteFideId"). */
const char *tb_round_field_name(enum tb_round_field f);

struct tb_round_pairing {
    int board;                                   /* 1..TB_ROUND_MAX_BOARDS */
    int line;                                    /* where the file gives it */
    char v[TB_ROUND_FIELDS][TB_ROUND_VALUE_MAX]; /* "" when the file gives none */
};

/* A round: its pairings in board order. Large (about 330 KB): allocate it. */
struct tb_round {
    char round[TB_ROUND_VALUE_MAX]; /* the round's number as the file gives it ("3") */
    int n;
    struct tb_round_pairing p[TB_ROUND_MAX_BOARDS];
};

/* Parses a pairings file's text (PGN when its first non-blank byte is '[', else CSV). On error
 * TB_ERR_PARSE with err "NAME:LINE: what is wrong" (name: the file's name for the message) and
 * r unspecified: the caller keeps the round it had. */
int tb_round_parse(const char *name, const char *text, size_t len, struct tb_round *r,
                   struct tb_error *err);

/* The pairing of a board, or NULL. */
const struct tb_round_pairing *tb_round_board(const struct tb_round *r, int board);

/* Whether a table's PGN is this pairing's game: its White, Black and Round tags are the
 * pairing's. */
bool tb_round_pgn_is(const struct tb_round_pairing *p, const char *pgn);

/* The value of a tag in a PGN's header into buf ("" when absent); true when found. */
bool tb_round_pgn_tag(const char *pgn, const char *name, char *buf, size_t cap);

/* The board's public PGN: the table's PGN (when it is this pairing's game, tb_round_pgn_is)
 * with the pairing's Board, titles, ratings and FIDE ids added after its tags; otherwise the
 * pairing alone, no moves, result "*". snprintf semantics. */
int tb_round_board_pgn(const struct tb_round_pairing *p, const char *table_pgn, char *buf,
                       size_t cap);

/* The results list: results[i] is board p[i]'s result ("*" while playing). CSV with a header
 * line (Board,White,Black,Result; values quoted where they need it) or a text table. snprintf
 * semantics. */
int tb_round_results_csv(const struct tb_round *r, const char *const *results, char *buf,
                         size_t cap);
int tb_round_results_text(const struct tb_round *r, const char *const *results, char *buf,
                          size_t cap);

/* The round's results as FIDE's Tournament Report File (TRF-16, FIDE Handbook C.04 Annex 2)
 * player records: a 012 line (Event) and a 001 line per player in start-rank order, with the
 * start rank, title, name, rating, FIDE id, this round's points and the rank they give, and
 * this round's column (opponent's start rank, colour w/b, result 1 = 0; blank while playing).
 * Needs every player's start rank: without one, TB_ERR_ARG and err naming the board and
 * player. Lines end CR LF. snprintf semantics otherwise. */
int tb_round_results_trf(const struct tb_round *r, const char *const *results, char *buf,
                         size_t cap, struct tb_error *err);

#endif /* TB_ROUND_H */
