/* header.c - the header of a record in the player's language, shared by braille, the talking
 * book and large print so that all three say the same. */
#include <stdio.h>
#include <string.h>

#include "record_internal.h"
#include "tb_record.h"

static const char *const words[TB_RECORD_W_COUNT][3] = {
    {"Event", "Toernooi", "Turnier"},
    {"Site", "Plaats", "Ort"},
    {"Date", "Datum", "Datum"},
    {"Round", "Ronde", "Runde"},
    {"White", "Wit", "Weiß"},
    {"Black", "Zwart", "Schwarz"},
    {"Time control", "Bedenktijd", "Bedenkzeit"},
    {"Result", "Uitslag", "Ergebnis"},
};

const char *tb_record__word(enum tb_record__word w, enum tb_chess_letters lang)
{
    return words[w][(unsigned)lang <= 2 ? lang : 0];
}

int tb_record__header(const tb_chess_pgn_game *g, enum tb_chess_letters lang, char (*lines)[400],
                      int max)
{
    static const char *const tags[] = {"Event", "Site",  "Date",       "Round",
                                       "White", "Black", "TimeControl"};
    int n = 0;
    for (int i = 0; i < (int)(sizeof tags / sizeof tags[0]) && n < max - 1; i++) {
        const char *v = tb_chess_pgn_tag_get(g, tags[i]);
        if (!v || !*v || !strcmp(v, "?") || !strcmp(v, "-") || !strcmp(v, "????.??.??"))
            continue;
        snprintf(lines[n++], 400, "%s: %s", tb_record__word((enum tb_record__word)i, lang), v);
    }
    snprintf(lines[n++], 400, "%s: %s", tb_record__word(TB_RECORD_W_RESULT, lang), g->result);
    return n;
}

int tb_record_header_text(const tb_chess_pgn_game *g, enum tb_chess_letters lang, char *buf,
                          size_t len)
{
    char lines[8][400];
    int n = tb_record__header(g, lang, lines, 8);
    size_t k = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < n; i++) {
        int w = snprintf(buf + k, len > k ? len - k : 0, "%s. ", lines[i]);
        if (w < 0 || k + (size_t)w >= len)
            return TB_ERR_FULL;
        k += (size_t)w;
    }
    return (int)k;
}
