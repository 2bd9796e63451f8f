/* fixture.c - two boards and a match for hand-written event sequences. */
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_test.h"

void fx_init(struct fixture *f, const char *fen, bool swap)
{
    struct tb_match_config cfg;
    struct tb_error err;
    tb_chess_pos pos;
    memset(f, 0, sizeof *f);
    tb_match_config_default(&cfg);
    if (swap) {
        cfg.board[0].color = TB_CHESS_BLACK;
        cfg.board[1].color = TB_CHESS_WHITE;
    }
    if (fen && tb_chess_pos_from_fen(&pos, fen, 0, &err) < 0)
        TB_FAIL("bad fen in test: %s", err.msg);
    f->t = 1000;
    if (tb_match_new(&cfg, fen ? &pos : NULL, f->t, &f->m, &err) < 0)
        TB_FAIL("tb_match_new: %s", err.msg);
    f->cap = 4096;
    f->outs = calloc((size_t)f->cap, sizeof *f->outs);
    if (!f->outs)
        TB_FAIL("out of memory");
    fx_drain(f);
    fx_mark(f);
}

void fx_free(struct fixture *f)
{
    tb_match_free(f->m);
    free(f->outs);
    memset(f, 0, sizeof *f);
}

void fx_drain(struct fixture *f)
{
    struct tb_match_out o;
    while (tb_match_poll(f->m, &o)) {
        if (f->nout == f->cap)
            TB_FAIL("more than %d outputs", f->cap);
        f->outs[f->nout++] = o;
    }
}

void fx_mark(struct fixture *f)
{
    fx_drain(f);
    f->mark = f->nout;
}

static void event(struct fixture *f, int board, enum tb_match_event_kind kind, const char *sq)
{
    struct tb_match_event ev = {.kind = kind};
    int s = tb_chess_square_parse(sq);
    if (s < 0)
        TB_FAIL("bad square in test: %s", sq);
    ev.square = (uint8_t)s;
    f->t += 300;
    int rc = tb_match_board_event(f->m, board, &ev, f->t);
    if (rc < 0)
        TB_FAIL("board event %s %s: %d", kind == TB_MATCH_EV_LIFT ? "lift" : "place", sq, rc);
    fx_drain(f);
}

void fx_lift(struct fixture *f, int board, const char *sq)
{
    event(f, board, TB_MATCH_EV_LIFT, sq);
}

void fx_place(struct fixture *f, int board, const char *sq)
{
    event(f, board, TB_MATCH_EV_PLACE, sq);
}

void fx_hand(struct fixture *f, int board, const char *from, const char *to)
{
    fx_lift(f, board, from);
    fx_place(f, board, to);
    fx_wait(f, 300);
}

void fx_wait(struct fixture *f, uint64_t ms)
{
    f->t += ms;
    if (tb_match_tick(f->m, f->t) < 0)
        TB_FAIL("tick failed");
    fx_drain(f);
}

void fx_board_pos(const struct fixture *f, int board, tb_chess_pos *pos)
{
    tb_chess_move moves[TB_CHESS_GAME_MAX_PLIES];
    tb_chess_undo undo;
    const tb_chess_game *g = tb_match_game(f->m);
    int n = tb_match_history(f->m, board, moves, TB_CHESS_GAME_MAX_PLIES);
    *pos = g->start;
    for (int i = 0; i < n; i++)
        tb_chess_make(pos, moves[i], &undo);
}

int fx_feed_event(void *user, const struct tb_script_event *ev)
{
    struct fx_feed *fd = user;
    if (ev->kind == TB_SCRIPT_EXPECT)
        return 0;
    int rc = tb_match_feed_script(fd->f->m, fd->board, ev);
    if (rc < 0)
        return rc;
    fx_drain(fd->f);
    return 0;
}

void fx_move(struct fixture *f, int board, const char *uci)
{
    struct tb_sensor_gen_config cfg;
    struct tb_sensor_gen gen;
    struct tb_error err;
    tb_chess_pos pos;
    tb_chess_move mv;
    fx_board_pos(f, board, &pos);
    if (tb_chess_move_from_uci(&pos, uci, &mv) < 0)
        TB_FAIL("move %s is not legal on board %d", uci, board);
    tb_sensor_gen_config_default(&cfg);
    cfg.board = board ? "sighted" : "vi";
    if (tb_sensor_gen_init(&gen, &cfg, 7 + f->t) < 0)
        TB_FAIL("generator");
    gen.t = f->t;
    struct fx_feed fd = {f, board};
    if (tb_sensor_gen_moves(&gen, &pos, &mv, 1, fx_feed_event, &fd, &err) < 0)
        TB_FAIL("generating %s: %s", uci, err.msg);
    f->t = gen.t;
    fx_wait(f, 300);
}

const struct tb_match_out *fx_find(const struct fixture *f, enum tb_match_out_kind kind)
{
    for (int i = f->mark; i < f->nout; i++)
        if (f->outs[i].kind == kind)
            return &f->outs[i];
    return NULL;
}

int fx_count(const struct fixture *f, enum tb_match_out_kind kind)
{
    int n = 0;
    for (int i = f->mark; i < f->nout; i++)
        n += f->outs[i].kind == kind;
    return n;
}

const struct tb_match_announce *fx_announce(const struct fixture *f, int board, bool is_move,
                                            enum tb_match_msg msg)
{
    for (int i = f->mark; i < f->nout; i++) {
        const struct tb_match_out *o = &f->outs[i];
        if (o->kind != TB_MATCH_OUT_ANNOUNCE || o->u.announce.board != board)
            continue;
        if (is_move ? o->u.announce.is_move : (!o->u.announce.is_move && o->u.announce.msg == msg))
            return &o->u.announce;
    }
    return NULL;
}

uint64_t fx_squares(const char *names)
{
    uint64_t set = 0;
    for (const char *p = names; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        int sq = tb_chess_square_parse(p);
        if (sq < 0)
            TB_FAIL("bad square list in test: %s", names);
        set |= TB_CHESS_BIT(sq);
        p += 2;
    }
    return set;
}

void fx_dump(const struct fixture *f, char *buf, size_t len)
{
    char line[1200];
    buf[0] = '\0';
    for (int i = f->mark; i < f->nout; i++) {
        tb_match_out_format(&f->outs[i], line, sizeof line);
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s\n", line);
    }
}
