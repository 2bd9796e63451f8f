/* A VI player on one board of a doorgeefschaak match: seat 0 (White on board A) hears, in German
 * (de-fide), every move of Black on board A (D.2.1; drops "Springer auf Felix drei", 2.2), every
 * piece passed to them the moment the partner's capture is completed ("Du bekommst: Springer",
 * 2.1), the answer to a request for their pieces (2.6) equal to what they hold at that moment,
 * and the question their own drop or promotion waits on; never a move of board B unless they
 * asked to hear it, never their own moves. Whole generated matches through two simulated
 * boards, checked against a reckoning made here from the record and the boards' script alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_bugmatch.h"
#include "tb_test.h"

#define VI   0 /* the VI player's seat: White on board A */
#define WORD 160

struct heard {
    enum tb_bugmatch_out_kind kind;
    uint64_t ms;
    int board;
    char words[WORD];
};

struct list {
    struct heard *h;
    int n, cap;
};

static void add(struct list *l, enum tb_bugmatch_out_kind kind, uint64_t ms, int board,
                const char *words)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->h = realloc(l->h, (size_t)l->cap * sizeof *l->h);
        ASSERT_NOT_NULL(l->h);
    }
    struct heard *h = &l->h[l->n++];
    h->kind = kind;
    h->ms = ms;
    h->board = board;
    snprintf(h->words, sizeof h->words, "%s", words);
}

static struct tb_voice_pack *german(void)
{
    struct tb_voice_pack *pack = NULL;
    struct tb_error err;
    if (tb_voice_pack_load("de-fide", &pack, &err))
        TB_FAIL("de-fide: %s", err.msg);
    return pack;
}

/* ---- the reckoning from the record ------------------------------------------------------- */

/* A move as its opponent hears it, from the position before it (D.2.1, 2.2). */
static void move_words(const struct tb_voice_pack *pack, const tb_bug_pos *before, tb_bug_move m,
                       char *buf)
{
    if (tb_bug_move_is_drop(m)) {
        ASSERT_GT(
            tb_voice_phrase_drop(pack, tb_bug_move_drop_type(m), tb_chess_move_to(m), buf, WORD),
            0);
        return;
    }
    tb_bug_pos after = *before;
    tb_bug_undo undo;
    tb_bug_make(&after, m, &undo);
    int check = !tb_bug_in_check(&after)                           ? 0
                : tb_bug_pos_state(&after) == TB_BUG_POS_CHECKMATE ? 2
                                                                   : 1;
    ASSERT_GT(tb_voice_phrase_move_check(pack, &before->chess, m, TB_VOICE_LONG, check, buf, WORD),
              0);
}

/* What seat 0 is to hear of the record, and when each ply was completed: the board's two
 * players' time used (no increments, 6.3), which is when the script presses the clock. */
struct reckoning {
    struct list moves;    /* MOVE: Black's on A (and B's when heard), window (from, to] */
    uint64_t from[4096];  /* per expected move: the completion before it on that board */
    struct list received; /* RECEIVED at the completion of the partner's capture */
    uint64_t at[TB_BUG_RECORD_MAX_PLIES];
    int promotions_a, drops_a; /* seat 0's own, for coverage */
};

static void reckon(const struct tb_voice_pack *pack, const tb_bug_record *rec, bool hear_b,
                   struct reckoning *r)
{
    tb_bug_pos pos[2] = {rec->start[0], rec->start[1]};
    int64_t used[2][2] = {{0, 0}, {0, 0}};
    uint64_t last[2] = {0, 0};
    char words[WORD];
    for (int k = 0; k < rec->nplies; k++) {
        const struct tb_bug_ply *p = &rec->plies[k];
        int b = p->board, side = pos[b].chess.side;
        used[b][side] = rec->base_ms - p->clock_ms;
        r->at[k] = (uint64_t)(used[b][0] + used[b][1]);
        if ((b == 0 && side == TB_CHESS_BLACK) || (b == 1 && hear_b)) {
            ASSERT_LT(r->moves.n, 4096);
            move_words(pack, &pos[b], p->move, words);
            r->from[r->moves.n] = last[b];
            add(&r->moves, TB_BUGMATCH_OUT_MOVE, r->at[k], b, words);
        }
        if (b == 0 && side == TB_CHESS_WHITE) {
            r->drops_a += tb_bug_move_is_drop(p->move);
            r->promotions_a += tb_chess_move_promo(p->move) != 0;
        }
        tb_bug_undo undo;
        tb_bug_make(&pos[b], p->move, &undo);
        if (undo.passed) {
            (void)tb_bug_pool_add(&pos[b ^ 1], undo.passed);
            /* 1.4: Black on B's captures are White's pieces, for White on A */
            if (b == 1 && side == TB_CHESS_BLACK) {
                ASSERT_EQ(TB_CHESS_PIECE_COLOR(undo.passed), TB_CHESS_WHITE);
                ASSERT_GT(
                    tb_voice_phrase_received(pack, TB_CHESS_PIECE_TYPE(undo.passed), words, WORD),
                    0);
                add(&r->received, TB_BUGMATCH_OUT_RECEIVED, r->at[k], 0, words);
            }
        }
        last[b] = r->at[k];
    }
}

/* What seat 0 holds at ms t (2.6), when no move of theirs is under way: the record's plies
 * completed by then. -1 when White's move on A may be under way (their hand is in flux). */
static int pool_at(const tb_bug_record *rec, const struct reckoning *r, uint64_t t, uint8_t pool[6])
{
    tb_bug_pos pos[2] = {rec->start[0], rec->start[1]};
    bool more_on_a = false;
    for (int k = 0; k < rec->nplies; k++) {
        if (r->at[k] == t)
            return -1; /* a completion at that very millisecond: board order decides */
        if (r->at[k] > t) {
            more_on_a = more_on_a || rec->plies[k].board == 0;
            continue;
        }
        tb_bug_undo undo;
        int b = rec->plies[k].board;
        tb_bug_make(&pos[b], rec->plies[k].move, &undo);
        if (undo.passed)
            (void)tb_bug_pool_add(&pos[b ^ 1], undo.passed);
    }
    if (pos[0].chess.side == TB_CHESS_WHITE && more_on_a)
        return -1;
    memcpy(pool, pos[0].pool[TB_CHESS_WHITE], 6);
    return 0;
}

/* ---- the match as the boards play it ----------------------------------------------------- */

static int collect(void *user, const struct tb_script_event *ev, long line)
{
    (void)line;
    return tb_script_list_push(user, ev);
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The question seat 0's move k waits on, from the script: the move's events on board A after
 * the completion before it; a choice after the move's last lift or placement is one the move
 * waited for (promotions: any piece; drops: the kinds in hand that may go there, 2.2-2.5). */
static bool waits(const struct tb_script_list *script, uint64_t from, uint64_t to,
                  const tb_bug_pos *pos, tb_bug_move m, unsigned *kinds)
{
    uint64_t last_handled = 0, chosen = 0;
    bool any_choice = false;
    for (size_t i = 0; i < script->n; i++) {
        const struct tb_script_event *ev = &script->ev[i];
        if (ev->board[0] != 'A' || ev->ms <= from || ev->ms > to)
            continue;
        if (ev->kind == TB_SCRIPT_LIFT || ev->kind == TB_SCRIPT_PLACE)
            last_handled = ev->ms;
        if (ev->kind == TB_SCRIPT_CHOOSE) {
            chosen = ev->ms;
            any_choice = true;
        }
    }
    *kinds = 0;
    if (tb_bug_move_is_drop(m)) {
        for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
            if (pos->pool[TB_CHESS_WHITE][t] &&
                tb_bug_drop_verdict(pos, t, tb_chess_move_to(m)) == TB_BUG_DROP_OK)
                *kinds |= 1u << t;
        if (__builtin_popcount(*kinds) < 2)
            return false;
    } else if (tb_chess_move_promo(m) != 0) {
        *kinds = 1u << TB_CHESS_KNIGHT | 1u << TB_CHESS_BISHOP | 1u << TB_CHESS_ROOK |
                 1u << TB_CHESS_QUEEN;
    } else {
        return false;
    }
    return any_choice && chosen > last_handled;
}

/* How many of seat 0's own moves wait for their piece with a question (once each). */
static int questions_of(const tb_bug_record *rec, const struct reckoning *r,
                        const struct tb_script_list *script)
{
    tb_bug_pos pos[2] = {rec->start[0], rec->start[1]};
    uint64_t from = 0;
    int n = 0;
    unsigned kinds;
    for (int k = 0; k < rec->nplies; k++) {
        const struct tb_bug_ply *p = &rec->plies[k];
        if (p->board == 0 && pos[0].chess.side == TB_CHESS_WHITE)
            n += waits(script, from, r->at[k], &pos[0], p->move, &kinds);
        if (p->board == 0)
            from = r->at[k];
        tb_bug_undo undo;
        tb_bug_make(&pos[p->board], p->move, &undo);
        if (undo.passed)
            (void)tb_bug_pool_add(&pos[p->board ^ 1], undo.passed);
    }
    return n;
}

/* What seat 0 is told of the outputs waiting, in its words. */
static void drain_heard(tb_bugmatch *m, const struct tb_voice_pack *pack, struct list *heard)
{
    struct tb_bugmatch_out o;
    char words[WORD];
    while (tb_bugmatch_poll(m, &o)) {
        if (!(o.hear & (1u << VI)))
            continue;
        int n = tb_bugmatch_out_say(pack, &o, TB_VOICE_LONG, words, WORD);
        ASSERT_GE(n, 0);
        if (n > 0)
            add(heard, o.kind, o.ms, o.board, words);
    }
}

struct outcome {
    int moves, received, pools, questions, drops_heard, own_drops, own_promotions;
};

/* Why the generator ended a game, in the voice's terms. */
static enum tb_voice_game_end end_of(enum tb_bug_reason r)
{
    switch (r) {
    case TB_BUG_CHECKMATE:
        return TB_VOICE_END_MATE;
    case TB_BUG_RESIGNED:
        return TB_VOICE_END_RESIGN;
    case TB_BUG_BOTH_FLAGS:
        return TB_VOICE_END_FLAGS;
    case TB_BUG_STALEMATE:
        return TB_VOICE_END_STALEMATE;
    case TB_BUG_DEAD:
        return TB_VOICE_END_DEAD;
    case TB_BUG_AGREED:
        return TB_VOICE_END_AGREED;
    default:
        return TB_VOICE_END_FLAG;
    }
}

/* One seeded match: what seat 0 heard, against the reckoning. */
static void vi_match(uint64_t seed, const struct tb_voice_pack *pack, bool hear_b,
                     struct outcome *sum)
{
    static tb_bug_record rec;
    static struct reckoning r;
    struct tb_bug_gen_config gc = {
        .seed = seed, .resign_permille = 2, .min_think_ms = 2000, .pass_ms = 1500};
    struct tb_bugmatch_gen_config sc = {.blip_ms = 100, .noise = true};
    struct tb_script_list script = {0};
    struct tb_error err;
    ASSERT_GT(tb_bug_gen_game(&gc, &rec), 0);
    if (tb_bugmatch_gen_script(&rec, &sc, seed, collect, &script, &err))
        TB_FAIL("seed %llu: %s", (unsigned long long)seed, err.msg);
    memset(&r, 0, sizeof r);
    reckon(pack, &rec, hear_b, &r);

    struct tb_bugmatch_config cfg;
    tb_bugmatch_config_default(&cfg);
    cfg.sensor.promo_prompt_ms = 1; /* every wait for a piece is asked about at once */
    cfg.hear_other_board[VI] = hear_b;
    tb_bugmatch *m;
    ASSERT_OK(tb_bugmatch_new(&cfg, &m, &err));

    /* requests for the hand at random moments between the events */
    uint64_t s = seed * 7919, end = script.ev[script.n - 1].ms;
    struct list asked = {0};
    struct list heard = {0};
    uint64_t next_ask = rng(&s) % 20000;
    char words[WORD];
    for (size_t i = 0; i <= script.n; i++) {
        uint64_t t = i < script.n ? script.ev[i].ms : end + 1;
        while (next_ask < t && next_ask <= end) {
            uint8_t pool[6];
            if (pool_at(&rec, &r, next_ask, pool) == 0) {
                ASSERT_OK(tb_bugmatch_ask_pool(m, VI, next_ask));
                ASSERT_GT(tb_voice_phrase_pool(pack, pool, words, WORD), 0);
                add(&asked, TB_BUGMATCH_OUT_POOL, next_ask, 0, words);
            }
            next_ask += 1 + rng(&s) % 20000;
        }
        if (i < script.n) {
            const struct tb_script_event *ev = &script.ev[i];
            int rc = tb_bugmatch_feed_script(m, ev->board[0] - 'A', ev);
            if (rc && !(rc == TB_ERR_STATE && ev->kind == TB_SCRIPT_CHOOSE))
                TB_FAIL("seed %llu: event %zu refused (%d)", (unsigned long long)seed, i, rc);
        }
        drain_heard(m, pack, &heard);
    }
    ASSERT_OK(tb_bugmatch_tick(m, end + 24ULL * 3600 * 1000));
    drain_heard(m, pack, &heard); /* the last move is decided a blip window after its events */
    ASSERT_EQ((long)tb_bugmatch_dropped(m), 0);

    /* walk the heard list kind by kind against the reckoning */
    int im[2] = {0, 0}, ir = 0, ip = 0, questions = 0, ends[2] = {0, 0};
    tb_bug_pos pos[2] = {rec.start[0], rec.start[1]};
    int next_ply = 0;
    for (int h = 0; h < heard.n; h++) {
        const struct heard *x = &heard.h[h];
        const char *what = x->words;
        switch (x->kind) {
        case TB_BUGMATCH_OUT_MOVE: {
            /* each board's moves in its order (a move made on one board may be completed after
             * a later one on the other) */
            int b = x->board, e = im[b];
            while (e < r.moves.n && r.moves.h[e].board != b)
                e++;
            if (e >= r.moves.n || strcmp(what, r.moves.h[e].words) != 0 || x->ms <= r.from[e] ||
                x->ms > r.moves.h[e].ms)
                TB_FAIL("seed %llu: heard move '%s' at %llu on %c; expected '%s' in (%llu, %llu]",
                        (unsigned long long)seed, what, (unsigned long long)x->ms, 'A' + b,
                        e < r.moves.n ? r.moves.h[e].words : "nothing",
                        e < r.moves.n ? (unsigned long long)r.from[e] : 0ULL,
                        e < r.moves.n ? (unsigned long long)r.moves.h[e].ms : 0ULL);
            sum->drops_heard += b == 0 && strstr(what, " auf ") != NULL;
            im[b] = e + 1;
            break;
        }
        case TB_BUGMATCH_OUT_RECEIVED:
            if (ir >= r.received.n || strcmp(what, r.received.h[ir].words) != 0 ||
                x->ms != r.received.h[ir].ms)
                TB_FAIL("seed %llu: heard '%s' at %llu; expected '%s' at %llu",
                        (unsigned long long)seed, what, (unsigned long long)x->ms,
                        ir < r.received.n ? r.received.h[ir].words : "nothing",
                        ir < r.received.n ? (unsigned long long)r.received.h[ir].ms : 0ULL);
            ir++;
            break;
        case TB_BUGMATCH_OUT_POOL:
            if (ip >= asked.n || strcmp(what, asked.h[ip].words) != 0 || x->ms != asked.h[ip].ms)
                TB_FAIL("seed %llu: answered '%s' at %llu; holds '%s' at %llu",
                        (unsigned long long)seed, what, (unsigned long long)x->ms,
                        ip < asked.n ? asked.h[ip].words : "nothing",
                        ip < asked.n ? (unsigned long long)asked.h[ip].ms : 0ULL);
            ip++;
            break;
        case TB_BUGMATCH_OUT_CHOOSE: {
            /* seat 0's own move under way: the first of White's plies on A completed after it */
            for (; next_ply < rec.nplies; next_ply++) {
                const struct tb_bug_ply *p = &rec.plies[next_ply];
                if (r.at[next_ply] >= x->ms && p->board == 0 && pos[0].chess.side == TB_CHESS_WHITE)
                    break;
                tb_bug_undo undo;
                tb_bug_make(&pos[p->board], p->move, &undo);
                if (undo.passed)
                    (void)tb_bug_pool_add(&pos[p->board ^ 1], undo.passed);
            }
            ASSERT_LT(next_ply, rec.nplies);
            uint64_t from = 0;
            for (int k = next_ply - 1; k >= 0 && !from; k--)
                from = rec.plies[k].board == 0 ? r.at[k] : 0;
            unsigned kinds;
            tb_bug_move mv = rec.plies[next_ply].move;
            if (!waits(&script, from, r.at[next_ply], &pos[0], mv, &kinds))
                TB_FAIL("seed %llu: asked '%s' at %llu, the move waited for nothing",
                        (unsigned long long)seed, what, (unsigned long long)x->ms);
            char want[WORD];
            ASSERT_GT(tb_voice_phrase_drop_choice(pack, tb_chess_move_to(mv), kinds, want, WORD),
                      0);
            ASSERT_STR_EQ(what, want);
            questions++;
            break;
        }
        case TB_BUGMATCH_OUT_RESULT: { /* 5.1: each game's end, told to all four */
            const struct tb_bug_verdict *v = &rec.verdict[x->board];
            char want[WORD];
            ASSERT_GT(tb_voice_phrase_game_over(pack, 'A' + x->board, end_of(v->reason),
                                                v->result == TB_BUG_WHITE_WINS   ? 1
                                                : v->result == TB_BUG_BLACK_WINS ? 2
                                                                                 : 0,
                                                want, WORD),
                      0);
            ASSERT_STR_EQ(what, want);
            ends[x->board]++;
            break;
        }
        default:
            TB_FAIL("seed %llu: seat 0 heard '%s' (output kind %d)", (unsigned long long)seed, what,
                    x->kind);
        }
    }
    int moves = 0;
    for (int e = 0; e < r.moves.n; e++)
        moves += e < im[r.moves.h[e].board];
    if (ends[0] != 1 || ends[1] != 1) /* both games end, each heard once */
        TB_FAIL("seed %llu: heard the end of A %d times, of B %d times", (unsigned long long)seed,
                ends[0], ends[1]);
    int want_questions = questions_of(&rec, &r, &script);
    if (moves != r.moves.n || ir != r.received.n || ip != asked.n || questions != want_questions)
        TB_FAIL("seed %llu: heard %d of %d moves, %d of %d pieces passed, %d of %d answers, %d "
                "of %d questions",
                (unsigned long long)seed, moves, r.moves.n, ir, r.received.n, ip, asked.n,
                questions, want_questions);
    sum->own_drops += r.drops_a; /* made by seat 0 and never said to them */
    sum->own_promotions += r.promotions_a;
    sum->moves += moves;
    sum->questions += questions;
    sum->received += ir;
    sum->pools += ip;
    free(heard.h);
    free(asked.h);
    free(r.moves.h);
    free(r.received.h);
    tb_script_list_free(&script);
    tb_bugmatch_free(m);
}

TB_TEST(law_D_2_1_vi_seat_hears_the_opponents_moves_and_the_pieces_passed_to_them)
{
    struct tb_voice_pack *pack = german();
    struct outcome sum = {0};
    for (uint64_t seed = 1; seed <= 100; seed++)
        vi_match(seed, pack, false, &sum);
    printf("100 matches: seat 0 heard %d moves (%d drops), %d pieces passed, %d answers, "
           "%d questions; made %d drops and %d promotions of their own\n",
           sum.moves, sum.drops_heard, sum.received, sum.pools, sum.questions, sum.own_drops,
           sum.own_promotions);
    ASSERT_GT(sum.drops_heard, 100);
    ASSERT_GT(sum.received, 300);
    ASSERT_GT(sum.pools, 300);
    ASSERT_GT(sum.questions, 20);
    ASSERT_GT(sum.own_drops, 100);
    ASSERT_GT(sum.own_promotions, 5);
    tb_voice_pack_free(pack);
}

TB_TEST(law_9_1_vi_seat_hears_board_b_only_when_configured)
{
    struct tb_voice_pack *pack = german();
    struct outcome sum = {0};
    for (uint64_t seed = 101; seed <= 110; seed++)
        vi_match(seed, pack, true, &sum);
    ASSERT_GT(sum.moves, 10 * 40);
    tb_voice_pack_free(pack);
}

/* ---- the words themselves, on typed boards ----------------------------------------------- */

static void typed(tb_bugmatch *m, int board, const char *move, uint64_t ms)
{
    struct tb_error err;
    if (tb_bugmatch_typed(m, board, move, ms, &err))
        TB_FAIL("%c %s: %s", 'A' + board, move, err.msg);
    ASSERT_OK(tb_bugmatch_press(m, board, ms + 100));
}

/* Everything seat 0 was told since the last call, one phrase a line. */
static const char *told(tb_bugmatch *m, const struct tb_voice_pack *pack)
{
    static char text[1024];
    struct list heard = {0};
    drain_heard(m, pack, &heard);
    text[0] = '\0';
    for (int i = 0; i < heard.n; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s\n", heard.h[i].words);
    free(heard.h);
    return text;
}

TB_TEST(law_2_1_vi_seat_is_told_the_piece_passed_and_the_drop_in_german)
{
    struct tb_voice_pack *pack = german();
    struct tb_bugmatch_config cfg;
    struct tb_error err;
    tb_bugmatch *m;
    tb_bugmatch_config_default(&cfg);
    cfg.typed[0] = cfg.typed[1] = true;
    ASSERT_OK(tb_bugmatch_new(&cfg, &m, &err));
    ASSERT_OK(tb_bugmatch_start(m, 0));
    typed(m, 0, "e4", 1000);
    typed(m, 1, "e4", 1500);
    ASSERT_STR_EQ(told(m, pack), ""); /* their own move, board B's move: nothing */
    typed(m, 0, "e5", 2000);          /* Black on A */
    ASSERT_STR_EQ(told(m, pack), "Bauer Eva sieben Eva fünf\n");
    typed(m, 1, "Nc6", 2500);
    typed(m, 1, "d4", 3000);
    typed(m, 1, "Nxd4", 3500); /* the partner, Black on B, takes a pawn */
    ASSERT_STR_EQ(told(m, pack), "Du bekommst: Bauer\n");
    typed(m, 1, "Qxd4", 4000); /* a knight for Black on A */
    ASSERT_OK(tb_bugmatch_ask_pool(m, VI, 4200));
    ASSERT_STR_EQ(told(m, pack), "Du hast: 1 Bauer\n");
    typed(m, 0, "Nf3", 5000);
    typed(m, 0, "N@d4", 5500); /* 2.2: Black drops the knight passed to them */
    ASSERT_STR_EQ(told(m, pack), "Springer auf David vier\n");
    typed(m, 0, "P@e3", 6000); /* seat 0's own drop: not said to them */
    ASSERT_OK(tb_bugmatch_ask_pool(m, VI, 6200));
    ASSERT_STR_EQ(told(m, pack), "Du hast nichts\n");
    tb_bugmatch_free(m);
    tb_voice_pack_free(pack);
}
