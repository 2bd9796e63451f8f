/* pgn_game.c - a game with its PGN tags, comments and NAGs, in fixed arrays. */
#include <string.h>

#include "pgn_internal.h"
#include "tb_chess.h"

void tb_chess_pgn_game_init(tb_chess_pgn_game *g, const tb_chess_pos *start)
{
    tb_chess_pos startpos;
    if (!start) {
        tb_chess_pos_startpos(&startpos);
        start = &startpos;
    }
    tb_chess_game_init(&g->game, start);
    strcpy(g->result, "*");
    g->number = 0;
    g->line = 0;
    g->ntags = 0;
    g->nnotes = 0;
    /* Offset 0 is an empty string, so that 0 can mean "none". */
    g->text[0] = '\0';
    g->text_used = 1;
}

int tb_chess__pgn_text_add(tb_chess_pgn_game *g, const char *s, size_t n, uint32_t *off,
                           struct tb_error *err)
{
    if (n + 1 > TB_CHESS_PGN_TEXT_SIZE - g->text_used)
        return tb_error_set(err, TB_ERR_FULL,
                            "tags and comments exceed the %d bytes a game can hold",
                            TB_CHESS_PGN_TEXT_SIZE);
    *off = g->text_used;
    memcpy(g->text + g->text_used, s, n);
    g->text[g->text_used + n] = '\0';
    g->text_used += (uint32_t)(n + 1);
    return TB_OK;
}

const char *tb_chess_pgn_tag_get(const tb_chess_pgn_game *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (strcmp(g->text + g->tags[i].name, name) == 0)
            return g->text + g->tags[i].value;
    return NULL;
}

bool tb_chess__pgn_tag_name_ok(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return false;
    }
    return true;
}

int tb_chess__pgn_tag_put(tb_chess_pgn_game *g, const char *name, size_t name_len,
                          const char *value, size_t value_len, struct tb_error *err)
{
    int i;
    for (i = 0; i < g->ntags; i++) {
        const char *have = g->text + g->tags[i].name;
        if (strlen(have) == name_len && memcmp(have, name, name_len) == 0)
            break;
    }
    if (i == g->ntags && g->ntags == TB_CHESS_PGN_MAX_TAGS)
        return tb_error_set(err, TB_ERR_FULL, "more than %d tags", TB_CHESS_PGN_MAX_TAGS);
    uint32_t noff = 0, voff = 0;
    if (i == g->ntags) {
        int rc = tb_chess__pgn_text_add(g, name, name_len, &noff, err);
        if (rc < 0)
            return rc;
    } else {
        noff = g->tags[i].name;
    }
    int rc = tb_chess__pgn_text_add(g, value, value_len, &voff, err);
    if (rc < 0)
        return rc;
    g->tags[i].name = noff;
    g->tags[i].value = voff;
    if (i == g->ntags)
        g->ntags++;
    return TB_OK;
}

int tb_chess_pgn_tag_set(tb_chess_pgn_game *g, const char *name, const char *value,
                         struct tb_error *err)
{
    if (!g || !name || !value || !tb_chess__pgn_tag_name_ok(name, strlen(name)))
        return tb_error_set(err, TB_ERR_ARG, "bad tag name '%s'", name ? name : "(null)");
    if (strpbrk(value, "\r\n"))
        return tb_error_set(err, TB_ERR_ARG, "tag %s: a value cannot contain a line break", name);
    return tb_chess__pgn_tag_put(g, name, strlen(name), value, strlen(value), err);
}

/* Inserts after the notes of the same or an earlier ply, keeping the list sorted. */
int tb_chess__pgn_note_add(tb_chess_pgn_game *g, const struct tb_chess_pgn_note *note,
                           struct tb_error *err)
{
    if (g->nnotes == TB_CHESS_PGN_MAX_NOTES)
        return tb_error_set(err, TB_ERR_FULL, "more than %d comments and NAGs",
                            TB_CHESS_PGN_MAX_NOTES);
    int at = g->nnotes;
    while (at > 0 && g->notes[at - 1].ply > note->ply)
        at--;
    memmove(&g->notes[at + 1], &g->notes[at], (size_t)(g->nnotes - at) * sizeof g->notes[0]);
    g->notes[at] = *note;
    g->nnotes++;
    return TB_OK;
}

int tb_chess_pgn_add_comment(tb_chess_pgn_game *g, int ply, const char *text, struct tb_error *err)
{
    if (!g || !text || ply < 0 || ply > g->game.plies)
        return tb_error_set(err, TB_ERR_ARG, "no ply %d for a comment", ply);
    if (strchr(text, '}'))
        return tb_error_set(err, TB_ERR_ARG, "a comment cannot contain '}'");
    if (g->nnotes == TB_CHESS_PGN_MAX_NOTES)
        return tb_error_set(err, TB_ERR_FULL, "more than %d comments and NAGs",
                            TB_CHESS_PGN_MAX_NOTES);
    struct tb_chess_pgn_note note = {.ply = (uint16_t)ply, .kind = TB_CHESS_PGN_COMMENT};
    int rc = tb_chess__pgn_text_add(g, text, strlen(text), &note.text, err);
    return rc < 0 ? rc : tb_chess__pgn_note_add(g, &note, err);
}

int tb_chess_pgn_add_nag(tb_chess_pgn_game *g, int ply, int nag, struct tb_error *err)
{
    if (!g || ply < 1 || ply > g->game.plies)
        return tb_error_set(err, TB_ERR_ARG, "no ply %d for a NAG", ply);
    if (nag < 0 || nag > 255)
        return tb_error_set(err, TB_ERR_ARG, "NAG $%d is out of range (0..255)", nag);
    struct tb_chess_pgn_note note = {
        .ply = (uint16_t)ply, .kind = TB_CHESS_PGN_NAG, .nag = (uint8_t)nag};
    return tb_chess__pgn_note_add(g, &note, err);
}
