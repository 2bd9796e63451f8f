/* scoresheet.c - a game as a plain-text scoresheet (Article 8, Appendix C) in English, Dutch
 * or German piece letters, for the arbiter and the players. */
#include <stdio.h>
#include <string.h>

#include "notation_internal.h"
#include "tb_chess.h"

#define MOVE_COL 14 /* width of the White column */

struct sheet_words {
    const char *labels[7]; /* Event, Site, Date, Round, White, Black, Result */
    const char *sign[2];   /* signature lines of White and Black (8.7) */
};

static const struct sheet_words words[3] = {
    {{"Event", "Site", "Date", "Round", "White", "Black", "Result"},
     {"Signature White", "Signature Black"}},
    {{"Toernooi", "Plaats", "Datum", "Ronde", "Wit", "Zwart", "Uitslag"},
     {"Handtekening wit", "Handtekening zwart"}},
    {{"Turnier", "Ort", "Datum", "Runde", "Wei\xc3\x9f", "Schwarz", "Ergebnis"},
     {"Unterschrift Wei\xc3\x9f", "Unterschrift Schwarz"}},
};

/* Characters as a reader sees them: UTF-8 continuation bytes take no column. */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

static void pad(struct tb_chess__out *o, const char *s, size_t width)
{
    tb_chess__puts(o, s);
    for (size_t w = text_width(s); w < width; w++)
        tb_chess__putc(o, ' ');
}

/* A tag worth printing: present and not only placeholders ("?", "????.??.??"). */
static const char *shown(const tb_chess_pgn_game *g, const char *name)
{
    const char *v = tb_chess_pgn_tag_get(g, name);
    if (!v || strspn(v, "?. ") == strlen(v))
        return "";
    return v;
}

static void header_line(struct tb_chess__out *o, const char *label, const char *value,
                        const char *extra)
{
    char l[24];
    snprintf(l, sizeof l, "%s:", label);
    if (!*value) {
        tb_chess__puts(o, l);
        tb_chess__putc(o, '\n');
        return;
    }
    pad(o, l, 11);
    tb_chess__puts(o, value);
    if (*extra) {
        tb_chess__puts(o, " (");
        tb_chess__puts(o, extra);
        tb_chess__putc(o, ')');
    }
    tb_chess__putc(o, '\n');
}

static void number(struct tb_chess__out *o, int n)
{
    char num[16];
    snprintf(num, sizeof num, "%4d.  ", n);
    tb_chess__puts(o, num);
}

int tb_chess_scoresheet_write(const tb_chess_pgn_game *g, enum tb_chess_letters letters, char *buf,
                              size_t len)
{
    if (!g || (unsigned)letters > TB_CHESS_LETTERS_DE)
        return TB_ERR_ARG;
    const char *const *label = words[letters].labels;
    /* Appendix C: 0-0 and 0-0-0, e.p. written out; Dutch and German promote as d8D. */
    unsigned flags = TB_CHESS_SAN_ZERO | TB_CHESS_SAN_EP;
    if (letters != TB_CHESS_LETTERS_EN)
        flags |= TB_CHESS_SAN_NOEQ;

    struct tb_chess__out o;
    tb_chess__out_init(&o, buf, len);
    static const char *const tags[4] = {"Event", "Site", "Date", "Round"};
    for (int i = 0; i < 4; i++)
        header_line(&o, label[i], shown(g, tags[i]), "");
    header_line(&o, label[4], shown(g, "White"), shown(g, "WhiteElo"));
    header_line(&o, label[5], shown(g, "Black"), shown(g, "BlackElo"));
    header_line(&o, label[6], g->result, "");
    tb_chess__putc(&o, '\n');
    pad(&o, "", 7); /* the width of number() */
    pad(&o, label[4], MOVE_COL);
    tb_chess__puts(&o, label[5]);
    tb_chess__putc(&o, '\n');

    /* White's move waits for Black's, so that no line ends in padding. */
    tb_chess_pos pos = g->game.start;
    char white[24] = "";
    for (int i = 0; i < g->game.plies; i++) {
        tb_chess_move m = g->game.moves[i];
        char san[24];
        if (tb_chess_move_to_san(&pos, m, letters, flags, san, sizeof san) < 0)
            return TB_ERR_STATE;
        if (pos.side == TB_CHESS_WHITE) {
            number(&o, pos.fullmove);
            strcpy(white, san);
        } else {
            if (i == 0) {
                number(&o, pos.fullmove);
                strcpy(white, "...");
            }
            pad(&o, white, MOVE_COL);
            tb_chess__puts(&o, san);
            tb_chess__putc(&o, '\n');
            white[0] = '\0';
        }
        tb_chess_undo undo;
        tb_chess_make(&pos, m, &undo);
    }
    if (white[0]) {
        tb_chess__puts(&o, white);
        tb_chess__putc(&o, '\n');
    }
    tb_chess__putc(&o, '\n');
    header_line(&o, label[6], g->result, "");
    /* 8.7: both players confirm the result by signing. */
    for (int i = 0; i < 2; i++) {
        char l[40];
        snprintf(l, sizeof l, "%s:", words[letters].sign[i]);
        tb_chess__putc(&o, '\n');
        pad(&o, l, 23);
        tb_chess__puts(&o, "______________________________\n");
    }
    return (int)o.n;
}
