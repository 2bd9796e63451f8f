/* tb_record.h - the VI player's own record of a game (FIDE Laws D.2.7): a braille scoresheet
 * for an embosser (BRF) or a display (Unicode braille), a DAISY 2.02 talking book, and a
 * large-print PDF. Every writer takes the game and writes where the caller says (a FILE, a
 * directory); nothing is kept between calls. Errors are the codes of tb_err.h with a struct
 * tb_error (NULL allowed) naming what and where. The library never prints.
 *
 * The braille chess notation (docs/record.md): files as letters, ranks and move numbers as
 * lower digits without a numeral sign, piece letters of the language as braille letters (English
 * S for the knight, as the braille chess code has it), x for a capture, 0-0 and 0-0-0 for
 * castling, the piece letter after the square for a promotion, + check, # mate, no sign for
 * en passant, and dots 3-6 before Black's move where a line starts with it. Each sign is the cell
 * that North American ASCII braille (BRF) writes with the print character, so the BRF file reads
 * "12 sf3 exd6" where print has "12. Nf3 exd6".
 */
#ifndef TB_RECORD_H
#define TB_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tb_chess.h"
#include "tb_err.h"

/* ---- braille ------------------------------------------------------------------------------ */

/* A braille cell: dots 1-6 as bits 0-5 (dot 1 = 1, dot 2 = 2, dot 3 = 4, ... dot 6 = 32). */
typedef uint8_t tb_record_cell;

/* The cells of legal move m in pos in the notation above, in the language's piece letters.
 * Returns the number of cells, TB_ERR_ILLEGAL when m is not legal in pos, TB_ERR_FULL when cap
 * is too small (16 cells always suffice). */
int tb_record_braille_move(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters lang,
                           tb_record_cell *cells, size_t cap);

/* The print character BRF writes for a cell (' ' for the empty cell). */
char tb_record_brf_char(tb_record_cell cell);
/* The cell of a BRF character (either case); -1 for a character BRF does not have. */
int tb_record_brf_cell(char c);

#define TB_RECORD_CELLS_DEFAULT 40
#define TB_RECORD_LINES_DEFAULT 25
#define TB_RECORD_CELLS_MIN     16
#define TB_RECORD_LINES_MIN     4
#define TB_RECORD_SIZE_MAX      200

struct tb_record_braille_opts {
    enum tb_chess_letters lang; /* the header's language and the piece letters */
    int grade;                  /* 1 uncontracted, 2 contracted (de, en; Dutch has none) */
    int cells, lines;           /* page size; 0 = the defaults above */
    bool unicode;               /* Unicode braille lines (U+2800..) for a display, no pages */
};

/* The liblouis table list for a language and grade ("de-g2.ctb"); TB_ERR_SUPP (err says which
 * grades the language has) for a grade the language does not have. */
int tb_record_braille_table(enum tb_chess_letters lang, int grade, const char **table,
                            struct tb_error *err);

/* Writes the braille scoresheet of g: the header (event, site, date, round, players, time
 * control, result) translated by liblouis, a blank line, one line per move number ("12 sf3
 * exd6"; Black's move on a line of its own, after dots 3-6, when the pair does not fit), the
 * result. BRF: lines of at most opts->cells cells ending in CR LF, pages of opts->lines lines
 * whose last line carries the page number at its right end, each page ended by a form feed.
 * Unicode: the same lines in U+2800 braille ending in LF, without page numbers or form feeds.
 * Returns the number of pages (1 for Unicode) or an error: TB_ERR_ARG for bad options (err names
 * the option), TB_ERR_SUPP for a missing liblouis table, TB_ERR_STATE when the moves do not
 * replay, TB_ERR_SYS when writing fails. */
int tb_record_braille_write(const tb_chess_pgn_game *g, const struct tb_record_braille_opts *opts,
                            FILE *out, struct tb_error *err);

/* ---- the header ------------------------------------------------------------------------------ */

/* The header every record has, in the language's words, as sentences: "Turnier: Club. Weiß:
 * Anna. Schwarz: Jan. Ergebnis: 1-0. " (event, site, date, round, White, Black, time control,
 * result; tags missing or "?" left out). The talking book says this first. Returns the length
 * or TB_ERR_FULL. */
int tb_record_header_text(const tb_chess_pgn_game *g, enum tb_chess_letters lang, char *buf,
                          size_t len);

/* ---- DAISY 2.02 talking book ---------------------------------------------------------------- */

struct tb_voice;

/* The talking book's audio files (both written by libsndfile; DAISY 2.02 players take both). */
enum tb_record_audio {
    TB_RECORD_AUDIO_MP3, /* MPEG Layer III, 64 kbit/s constant: about a fifth of the WAV */
    TB_RECORD_AUDIO_WAV, /* 16-bit PCM, the voice's samples exactly */
};

/* Writes a DAISY 2.02 talking book of the games into the existing directory dir: ncc.html (the
 * metadata DAISY 2.02 asks for; one level-1 heading per game, whose clip reads the header, one
 * level-2 heading per half-move, in move order), one SMIL file per game and one audio file
 * (gNNN.mp3 or gNNN.wav) per game holding the header and then every half-move, each spoken
 * as the spoken review's scoresheet says it (tb_voice_review_ply in the voice's pack, LONG form),
 * rendered by voice (player's pack and voice; -1 the speaker's). Every navigation point plays one
 * clip of the game's audio. Returns the number of navigation points or an error (err names the
 * game or file). */
int tb_record_daisy_write(const tb_chess_pgn_game *const *games, int ngames, struct tb_voice *voice,
                          int player, enum tb_record_audio audio, const char *dir,
                          struct tb_error *err);

/* ---- large print -------------------------------------------------------------------------- */

#define TB_RECORD_PT_DEFAULT 24
#define TB_RECORD_PT_MIN     12
#define TB_RECORD_PT_MAX     72

struct tb_record_print_opts {
    enum tb_chess_letters lang; /* the header's words and the piece letters */
    double pt;                  /* type size in points; 0 = TB_RECORD_PT_DEFAULT */
    bool figurine;              /* pieces as figurines (U+2654..) instead of letters */
    bool diagram;               /* a diagram of the final position after the moves */
};

/* Writes the games as a large-print PDF on A4 pages (cairo), each game from a new page: the
 * header, then one line per move number ("12. Sf3 exd6"), the result, and optionally the final
 * position. Returns the number of pages or an error (TB_ERR_ARG naming a bad option,
 * TB_ERR_STATE naming a game whose moves do not replay, before anything is written; TB_ERR_SYS
 * when writing fails). */
int tb_record_print_write(const tb_chess_pgn_game *const *games, int ngames,
                          const struct tb_record_print_opts *opts, FILE *out, struct tb_error *err);

#endif /* TB_RECORD_H */
