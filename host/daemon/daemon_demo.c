/* daemon_demo.c - the event script of a game on two boards (D.2.1): each move made on the board
 * of the player to move, then replicated on the other board, with human handling from the
 * recogniser's generator; optionally one replication made wrong and then put right (D.2.9). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_daemon.h"
#include "tb_sensor.h"

static int collect(void *user, const struct tb_script_event *ev)
{
    return ev->kind == TB_SCRIPT_EXPECT ? 0 : tb_script_list_push(user, ev);
}

/* Writes the events of one move made on a board, starting at *cursor; moves the cursor past
 * the last of them. */
static int one_move(FILE *f, struct tb_sensor_gen *g, const tb_chess_pos *pos, tb_chess_move m,
                    uint64_t *cursor, struct tb_error *err)
{
    struct tb_script_list e = {0};
    g->t = 0;
    int rc = tb_sensor_gen_moves(g, pos, &m, 1, collect, &e, err);
    uint64_t first = e.n ? e.ev[0].ms : 0;
    for (size_t i = 0; rc == TB_OK && i < e.n; i++) {
        struct tb_script_event ev = e.ev[i];
        ev.ms = *cursor + (ev.ms - first);
        ev.us = ev.ms * 1000;
        char line[200];
        if (tb_script_format(&ev, line, sizeof line) < 0)
            rc = tb_error_set(err, TB_ERR_ARG, "cannot write a script line");
        else
            fprintf(f, "%s\n", line);
        if (i == e.n - 1)
            *cursor = ev.ms;
    }
    tb_script_list_free(&e);
    return rc;
}

static void line(FILE *f, uint64_t ms, const char *board, const char *what, int sq)
{
    char s[3];
    fprintf(f, "%llu %s %s %s\n", (unsigned long long)ms, board, what, tb_chess_square_name(sq, s));
}

/* A wrong replication: the same piece to another square, quietly; else another quiet move. */
static tb_chess_move wrong_move(const tb_chess_pos *pos, tb_chess_move m)
{
    tb_chess_movelist list;
    tb_chess_gen_legal(pos, &list);
    tb_chess_move other = 0;
    for (int i = 0; i < list.count; i++) {
        tb_chess_move w = list.moves[i];
        if (w == m || tb_chess_move_kind(w) != TB_CHESS_MK_NORMAL ||
            tb_chess_piece_at(pos, tb_chess_move_to(w)))
            continue;
        if (tb_chess_move_from(w) == tb_chess_move_from(m))
            return w;
        if (!other)
            other = w;
    }
    return other;
}

int tb_daemon_demo_script_write(const struct tb_daemon_demo_script *s, const char *path,
                                struct tb_error *err)
{
    tb_chess_pos pos;
    if (s->start)
        pos = *s->start;
    else
        tb_chess_pos_startpos(&pos);
    FILE *f = fopen(path, "w");
    if (!f)
        return tb_error_set(err, TB_ERR_SYS, "%s: %s", path, strerror(errno));
    static const char *const names[2] = {"vi", "sighted"};
    struct tb_sensor_gen gen[2];
    for (int b = 0; b < 2; b++) {
        struct tb_sensor_gen_config gc;
        tb_sensor_gen_config_default(&gc);
        gc.board = names[b];
        gc.blips = s->blips;
        gc.hesitations = false;
        tb_sensor_gen_init(&gen[b], &gc, s->seed * 2 + (uint64_t)b + 1);
    }
    fprintf(f,
            "# A game on two boards (FIDE Appendix D): the vi board plays %s, the sighted "
            "board %s;\n# every move is made on one board and replicated on the other.\n",
            s->vi_color ? "Black" : "White", s->vi_color ? "White" : "Black");
    uint64_t cursor = 2000; /* both boards are connected and read by then */
    int rc = TB_OK;
    for (int ply = 1; ply <= s->nmoves && rc == TB_OK; ply++) {
        tb_chess_move m = s->moves[ply - 1];
        if (!tb_chess_is_legal(&pos, m)) {
            rc = tb_error_set(err, TB_ERR_ILLEGAL, "ply %d is not legal", ply);
            break;
        }
        int mover = pos.side == s->vi_color ? 0 : 1, other = 1 - mover;
        fprintf(f, "# ply %d: the %s board moves, the %s board replicates\n", ply, names[mover],
                names[other]);
        if (ply > 1)
            fprintf(f, "# sync: agreed %d @%llu\n", ply - 1, (unsigned long long)cursor);
        rc = one_move(f, &gen[mover], &pos, m, &cursor, err);
        cursor += s->pause_ms;
        fprintf(f, "# sync: made %d @%llu\n", ply, (unsigned long long)cursor);
        tb_chess_move w = ply == s->wrong_ply ? wrong_move(&pos, m) : 0;
        bool m_done = false;
        if (rc == TB_OK && w) {
            fprintf(f, "# the %s board replicates a wrong move, then puts it right (D.2.9)\n",
                    names[other]);
            rc = one_move(f, &gen[other], &pos, w, &cursor, err);
            cursor += s->hold_ms;
            fprintf(f, "# sync: resolved @%llu\n", (unsigned long long)cursor);
            /* As the put-right instruction says: the same piece goes on to the announced
             * move's square (the move is then made); another piece goes back first. */
            bool same_piece = tb_chess_move_from(w) == tb_chess_move_from(m);
            line(f, cursor, names[other], "lift", tb_chess_move_to(w));
            cursor += 400;
            line(f, cursor, names[other], "place",
                 same_piece ? tb_chess_move_to(m) : tb_chess_move_from(w));
            cursor += s->pause_ms;
            if (same_piece)
                m_done = true;
        }
        if (rc == TB_OK && !m_done)
            rc = one_move(f, &gen[other], &pos, m, &cursor, err);
        cursor += s->pause_ms;
        tb_chess_undo u;
        tb_chess_make(&pos, m, &u);
    }
    if (fclose(f) != 0 && rc == TB_OK)
        rc = tb_error_set(err, TB_ERR_SYS, "%s: %s", path, strerror(errno));
    return rc;
}

/* Kasparov - Cid, Galicia simul 1991 (the shared corpus, Kasparov.pgn game 805): short, with a
 * queen-side castling and captures, ending in mate on move 13. */
static const char demo_game[] = "e4 e5 Nf3 Nc6 Bb5 d6 d4 f6 c3 Bg4 h3 Bh5 Nbd2 Be7 Qa4 Qd7 d5 "
                                "O-O-O dxc6 bxc6 Ba6+ Kb8 Qb3+ Ka8 Qb7#";

int tb_daemon_demo_moves(tb_chess_move *moves, int cap)
{
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    int n = 0;
    const char *p = demo_game;
    while (*p && n < cap) {
        char san[16];
        size_t len = strcspn(p, " ");
        snprintf(san, sizeof san, "%.*s", (int)len, p);
        p += len + (p[len] == ' ');
        tb_chess_move m;
        if (tb_chess_move_from_san(&pos, san, TB_CHESS_LETTERS_EN, &m, NULL) != TB_OK)
            return TB_ERR_STATE;
        tb_chess_undo u;
        tb_chess_make(&pos, m, &u);
        moves[n++] = m;
    }
    return n;
}
