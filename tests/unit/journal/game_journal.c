/* game_journal.c - a corpus game as the daemon journals it (game_journal.h). */
#include "game_journal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_chess.h"
#include "tb_file.h"
#include "tb_script.h"
#include "tb_sensor.h"

/* Events of one board, split into moves at the generator's expect lines. */
struct board_events {
    struct tb_script_list list;
};

static int push(void *user, const struct tb_script_event *ev)
{
    return tb_script_list_push(&((struct board_events *)user)->list, ev);
}

static int gen_board(struct board_events *be, const char *name, uint64_t seed,
                     const tb_chess_game *g, struct tb_error *err)
{
    struct tb_sensor_gen_config cfg;
    struct tb_sensor_gen gen;
    tb_sensor_gen_config_default(&cfg);
    cfg.board = name;
    cfg.blips = true;
    if (tb_sensor_gen_init(&gen, &cfg, seed) != TB_OK)
        return tb_error_set(err, TB_ERR_ARG, "bad board %s", name);
    return tb_sensor_gen_moves(&gen, &g->start, g->moves, g->plies, push, be, err);
}

/* Appends the events of one move (from *at up to its expect line) of board b. */
static int append_move_events(struct tb_journal *j, const struct board_events *be, size_t *at,
                              int b, uint64_t *t)
{
    static const uint8_t kinds[] = {[TB_SCRIPT_LIFT] = 1,
                                    [TB_SCRIPT_PLACE] = 2,
                                    [TB_SCRIPT_PRESS] = 3,
                                    [TB_SCRIPT_RELEASE] = 4,
                                    [TB_SCRIPT_CHOOSE] = 5};
    for (; *at < be->list.n; (*at)++) {
        const struct tb_script_event *ev = &be->list.ev[*at];
        if (ev->kind == TB_SCRIPT_EXPECT) {
            (*at)++;
            return TB_OK;
        }
        if (ev->kind == TB_SCRIPT_NONE)
            continue;
        *t += 1 + ev->ms % 97;
        struct tb_journal_event je = {.board = (uint8_t)b,
                                      .kind = kinds[ev->kind],
                                      .arg = ev->kind == TB_SCRIPT_CHOOSE ? (uint8_t)ev->piece
                                                                          : ev->square,
                                      .board_seq = (uint32_t)*at,
                                      .board_ms = (uint32_t)ev->ms,
                                      .host_ms = *t};
        if (tb_journal_append_event(j, *t, &je) < 0)
            return TB_ERR_SYS;
    }
    return TB_OK;
}

static int write_game(struct tb_journal *j, const tb_chess_game *g, struct board_events be[2],
                      struct tb_error *err)
{
    struct tb_journal_decision start = {.board = TB_JOURNAL_BOARD_NONE};
    snprintf(start.who, sizeof start.who, "daemon");
    tb_chess_pos_to_fen(&g->start, start.fen, sizeof start.fen);
    snprintf(start.text, sizeof start.text, "vi=reed:/dev/ttyACM0 white; sighted=reed: black");
    uint64_t t = 1000;
    if (tb_journal_append_decision(j, TB_JOURNAL_GAME_START, t, &start) < 0 ||
        tb_journal_commit(j, err) != TB_OK)
        return TB_ERR_SYS;
    size_t at[2] = {0, 0};
    tb_chess_pos pos = g->start;
    for (int ply = 0; ply < g->plies; ply++) {
        int mover = ply % 2; /* the VI player has White: each move is made, then replicated */
        if (append_move_events(j, &be[mover], &at[mover], mover, &t) != TB_OK ||
            append_move_events(j, &be[!mover], &at[!mover], !mover, &t) != TB_OK)
            return tb_error_set(err, TB_ERR_SYS, "ply %d: cannot append an event", ply + 1);
        struct tb_journal_move mv = {
            .board = (uint8_t)mover, .ply = (uint16_t)(ply + 1), .move = g->moves[ply]};
        tb_chess_move_to_san(&pos, g->moves[ply], TB_CHESS_LETTERS_EN, 0, mv.san, sizeof mv.san);
        tb_chess_undo u;
        tb_chess_make(&pos, g->moves[ply], &u);
        if (tb_journal_append_move(j, t, &mv) < 0 || tb_journal_commit(j, err) != TB_OK)
            return TB_ERR_SYS;
        if (ply % 20 == 19) { /* now and then an arbiter's note */
            struct tb_journal_decision d = {.id = (uint32_t)ply, .board = TB_JOURNAL_BOARD_NONE};
            snprintf(d.who, sizeof d.who, "arbiter");
            snprintf(d.text, sizeof d.text, "clock check after ply %d", ply + 1);
            if (tb_journal_append_decision(j, TB_JOURNAL_ARBITER, t, &d) < 0 ||
                tb_journal_commit(j, err) != TB_OK)
                return TB_ERR_SYS;
        }
    }
    return TB_OK;
}

static int read_game(const char *pgn, long game, tb_chess_pgn_game *g, struct tb_error *err)
{
    char *text;
    size_t len;
    int rc = tb_read_file(pgn, &text, &len, err);
    if (rc != TB_OK)
        return rc;
    tb_chess_pgn_reader rd;
    tb_chess_pgn_reader_init(&rd, text, len);
    for (long n = 0; n < game && rc >= 0; n++)
        rc = tb_chess_pgn_read(&rd, g, err);
    free(text);
    if (rc == 0)
        return tb_error_set(err, TB_ERR_NOTFOUND, "%s: no game %ld", pgn, game);
    return rc < 0 ? rc : TB_OK;
}

int game_journal_make(struct game_journal *gj, const char *pgn, long game, const char *path,
                      struct tb_error *err)
{
    memset(gj, 0, sizeof *gj);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    struct board_events be[2] = {{{0}}, {{0}}};
    struct tb_journal *j = NULL;
    int rc = g ? read_game(pgn, game, g, err) : TB_ERR_MEM;
    if (rc == TB_OK)
        rc = gen_board(&be[0], "vi", 3, &g->game, err);
    if (rc == TB_OK)
        rc = gen_board(&be[1], "sighted", 4, &g->game, err);
    if (rc == TB_OK)
        rc = tb_journal_open(&j, path, NULL, err);
    if (rc == TB_OK)
        rc = write_game(j, &g->game, be, err);
    if (rc == TB_OK)
        rc = tb_journal_close(j);
    else
        tb_journal_close(j);
    char *text = NULL; /* read as char, kept as bytes: no pointer written through another type */
    if (rc == TB_OK)
        rc = tb_read_file(path, &text, &gj->len, err);
    gj->buf = (uint8_t *)text;
    if (rc == TB_OK) {
        gj->plies = g->game.plies;
        struct tb_journal_iter it;
        struct tb_journal_record r;
        tb_journal_iter_init(&it, gj->buf, gj->len);
        while (tb_journal_iter_next(&it, &r, NULL) == 1 && gj->records < GAME_JOURNAL_MAX_RECORDS)
            gj->offset[gj->records++] = r.offset;
        gj->offset[gj->records] = gj->len;
        if (it.valid_end != gj->len || it.corrupt)
            rc =
                tb_error_set(err, TB_ERR_STATE, "%s: the journal written does not read back", path);
    }
    tb_script_list_free(&be[0].list);
    tb_script_list_free(&be[1].list);
    free(g);
    return rc;
}

void game_journal_free(struct game_journal *gj)
{
    free(gj->buf);
    gj->buf = NULL;
}

size_t game_journal_touched(const struct game_journal *gj, size_t from, size_t to, uint64_t *first,
                            uint64_t *last)
{
    size_t n = 0;
    for (size_t i = 0; i < gj->records; i++) {
        if (gj->offset[i] < to && gj->offset[i + 1] > from) {
            if (!n)
                *first = i + 1;
            *last = i + 1;
            n++;
        }
    }
    return n;
}
