/* record_internal.h - what the record's writers share. */
#ifndef TB_RECORD_INTERNAL_H
#define TB_RECORD_INTERNAL_H

#include "tb_chess.h"

/* The header's words, by language (en, nl, de). */
enum tb_record__word {
    TB_RECORD_W_EVENT,
    TB_RECORD_W_SITE,
    TB_RECORD_W_DATE,
    TB_RECORD_W_ROUND,
    TB_RECORD_W_WHITE,
    TB_RECORD_W_BLACK,
    TB_RECORD_W_TIME,
    TB_RECORD_W_RESULT,
    TB_RECORD_W_COUNT
};
const char *tb_record__word(enum tb_record__word w, enum tb_chess_letters lang);
/* The header lines of g ("Event: ...", ... "Result: 1-0") into lines[max][len], tags that are
 * missing or "?" left out. Returns how many. */
int tb_record__header(const tb_chess_pgn_game *g, enum tb_chess_letters lang, char (*lines)[400],
                      int max);

#endif
