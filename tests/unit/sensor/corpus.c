/* corpus.c - generate and replay event scripts for the game corpus in memory. */
#include "corpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_file.h"

static int push(void *user, const struct tb_script_event *ev)
{
    return tb_script_list_push(user, ev);
}

int corpus_generate(struct tb_script_list *sc, const struct tb_sensor_gen_config *cfg,
                    uint64_t seed, const tb_chess_pos *start, const tb_chess_move *moves, int n)
{
    struct tb_sensor_gen gen;
    int rc = tb_sensor_gen_init(&gen, cfg, seed);
    sc->n = 0;
    if (rc < 0)
        return rc;
    return tb_sensor_gen_moves(&gen, start, moves, n, push, sc, NULL);
}

static void fail(struct corpus_stats *st, const char *what, int index, const char *want,
                 const char *got)
{
    st->wrong_moves += got[0] != '!' && got[0] != '(';
    st->missed_displaced += strncmp(want, "! displaced", 11) == 0;
    st->false_touch += strncmp(got, "! touch", 7) == 0;
    if (st->failures++ == 0)
        snprintf(st->first_failure, sizeof st->first_failure,
                 "%s: output %d: expected '%s', got '%s'", what, index + 1, want, got);
}

/* REPLICATING with the move of the next expect line that is a move (none: PLAYING). */
static void copy_next(tb_sensor *s, const struct tb_script_list *sc, size_t next)
{
    tb_chess_move m;
    for (; next < sc->n; next++) {
        const struct tb_script_event *ev = &sc->ev[next];
        if (ev->kind != TB_SCRIPT_EXPECT || ev->text[0] == '!')
            continue;
        if (tb_chess_move_from_uci(tb_sensor_position(s), ev->text, &m) == TB_OK &&
            tb_sensor_set_mode(s, TB_SENSOR_REPLICATING, m) == TB_OK)
            return;
        break;
    }
    tb_sensor_set_mode(s, TB_SENSOR_PLAYING, 0);
}

void corpus_replay(tb_sensor *s, const struct tb_script_list *sc, const tb_chess_pos *start,
                   const char *what, bool replicate, struct corpus_stats *st)
{
    struct tb_sensor_out o;
    char line[200];
    size_t next = 0; /* index of the next expect line to compare */
    int nout = 0;

    tb_sensor_reset(s, start, 0);
    if (replicate)
        copy_next(s, sc, 0);
    for (size_t i = 0; i <= sc->n; i++) {
        if (i == sc->n)
            tb_sensor_flush(s);
        else if (sc->ev[i].kind != TB_SCRIPT_EXPECT && tb_sensor_feed(s, &sc->ev[i]) == TB_OK)
            st->events++;
        while (tb_sensor_poll(s, &o)) {
            if (o.kind == TB_SENSOR_OUT_TOUCH)
                continue;
            st->outputs++;
            if (o.kind == TB_SENSOR_OUT_MOVE && o.ms - o.event_ms > st->max_latency_ms)
                st->max_latency_ms = o.ms - o.event_ms;
            tb_sensor_out_format(&o, line, sizeof line);
            while (next < sc->n && sc->ev[next].kind != TB_SCRIPT_EXPECT)
                next++;
            if (next >= sc->n) {
                fail(st, what, nout, "(nothing)", line);
                return;
            }
            if (strcmp(sc->ev[next].text, line) != 0) {
                fail(st, what, nout, sc->ev[next].text, line);
                return;
            }
            st->problems += o.kind == TB_SENSOR_OUT_PROBLEM;
            next++;
            nout++;
            if (replicate && o.kind == TB_SENSOR_OUT_MOVE)
                copy_next(s, sc, next);
        }
    }
    while (next < sc->n && sc->ev[next].kind != TB_SCRIPT_EXPECT)
        next++;
    if (next < sc->n)
        fail(st, what, nout, sc->ev[next].text, "(nothing)");
}

static bool has_promotion(const tb_chess_game *game)
{
    for (int i = 0; i < game->plies; i++)
        if (tb_chess_move_promo(game->moves[i]))
            return true;
    return false;
}

static tb_sensor *new_sensor(const struct tb_sensor_gen_config *cfg)
{
    tb_sensor *s = NULL;
    struct tb_sensor_config scfg;
    tb_sensor_config_default(&scfg);
    scfg.blip_ms = cfg->blip_ms;
    scfg.wobble_ms = cfg->blip_ms;
    if (tb_sensor_new(&scfg, &s) < 0)
        return NULL;
    return s;
}

int corpus_run_file(const char *path, uint64_t seed, const struct tb_sensor_gen_config *cfg,
                    const struct corpus_opts *opt, struct corpus_stats *st)
{
    char *text;
    size_t len;
    struct tb_error err;
    if (tb_read_file(path, &text, &len, &err) != TB_OK) {
        snprintf(st->first_failure, sizeof st->first_failure, "%s", err.msg);
        st->failures++;
        return err.code;
    }
    tb_chess_pgn_game *g = malloc(sizeof *g);
    tb_sensor *s = NULL;
    struct tb_script_list sc = {0};
    int rc = TB_OK;
    if (!g || !(s = new_sensor(cfg))) {
        rc = TB_ERR_MEM;
        goto out;
    }
    tb_chess_pgn_reader rd;
    tb_chess_pgn_reader_init(&rd, text, len);
    while (opt->max_games == 0 || st->games < opt->max_games) {
        int r = tb_chess_pgn_read(&rd, g, &err);
        if (r == 0)
            break;
        if (r < 0) {
            snprintf(st->first_failure, sizeof st->first_failure, "%s: %s", path, err.msg);
            st->failures++;
            rc = r;
            break;
        }
        if (opt->promo_only && !has_promotion(&g->game))
            continue;
        st->games++;
        st->plies += g->game.plies;
        uint64_t game_seed = seed * 1000003u + (uint64_t)st->games;
        rc = corpus_generate(&sc, cfg, game_seed, &g->game.start, g->game.moves, g->game.plies);
        if (rc < 0)
            break;
        char what[160];
        snprintf(what, sizeof what, "%s game %ld seed %llu", path, st->games,
                 (unsigned long long)game_seed);
        corpus_replay(s, &sc, &g->game.start, what, opt->replicate, st);
    }
out:
    tb_script_list_free(&sc);
    tb_sensor_free(s);
    free(g);
    free(text);
    return rc;
}

/* A random legal game from pos: castling taken with high odds whenever legal, so each game
 * castles on both sides of the board as often as it can. */
static int random_game(uint64_t *x, tb_chess_pos pos, tb_chess_move *moves, int max)
{
    int n = 0;
    tb_chess_movelist list;
    tb_chess_undo undo;
    while (n < max && tb_chess_gen_legal(&pos, &list) > 0 && pos.halfmove < 100) {
        *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
        tb_chess_move m = list.moves[*x % (uint64_t)list.count];
        for (int i = 0; i < list.count && (*x >> 40) % 5 != 0; i++)
            if (tb_chess_move_is_castle(list.moves[(i + *x) % (uint64_t)list.count]))
                m = list.moves[(i + *x) % (uint64_t)list.count];
        moves[n++] = m;
        tb_chess_make(&pos, m, &undo);
    }
    return n;
}

void corpus_run_960(uint64_t seed, long ngames, const struct tb_sensor_gen_config *cfg,
                    bool replicate, struct corpus_stats *st)
{
    static tb_chess_move moves[120];
    struct tb_script_list sc = {0};
    tb_sensor *s = new_sensor(cfg);
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    if (!s) {
        st->failures++;
        return;
    }
    for (long i = 0; i < ngames; i++) {
        tb_chess_pos start;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int number = ngames % 960 == 0 ? (int)(i % 960) : (int)(x % 960);
        tb_chess_pos_960(&start, number);
        int n = random_game(&x, start, moves, 120);
        st->games++;
        st->plies += n;
        uint64_t game_seed = seed * 1000003u + (uint64_t)i;
        if (corpus_generate(&sc, cfg, game_seed, &start, moves, n) < 0) {
            st->failures++;
            break;
        }
        char what[160];
        snprintf(what, sizeof what, "Chess960 #%d game %ld seed %llu", number, i,
                 (unsigned long long)game_seed);
        corpus_replay(s, &sc, &start, what, replicate, st);
    }
    tb_script_list_free(&sc);
    tb_sensor_free(s);
}

/* One trial: the events of mv alone from pos, through s. */
static void move_trial(tb_sensor *s, struct tb_sensor_gen *gen, const tb_chess_pos *pos,
                       tb_chess_move mv, struct tb_script_list *sc, struct trial_stats *st)
{
    struct tb_sensor_out o;
    char line[200];
    int moves = 0, right = 0, reports = 0;
    sc->n = 0;
    gen->t = 1000;
    if (tb_sensor_gen_move(gen, pos, mv, push, sc, NULL) < 0)
        return;
    tb_sensor_reset(s, pos, 0);
    for (size_t i = 0; i <= sc->n; i++) {
        if (i == sc->n)
            tb_sensor_flush(s);
        else if (sc->ev[i].kind != TB_SCRIPT_EXPECT)
            tb_sensor_feed(s, &sc->ev[i]);
        while (tb_sensor_poll(s, &o)) {
            if (o.kind == TB_SENSOR_OUT_MOVE) {
                moves++;
                right += o.move == mv;
            } else if (o.kind == TB_SENSOR_OUT_PROBLEM) {
                reports++;
            } else {
                continue;
            }
            if ((o.kind == TB_SENSOR_OUT_MOVE && o.move != mv) || o.kind == TB_SENSOR_OUT_PROBLEM)
                if (!st->first[0] && tb_sensor_out_format(&o, line, sizeof line) > 0)
                    snprintf(st->first, sizeof st->first, "move %ld: %s", st->moves + 1, line);
        }
    }
    st->moves++;
    st->false_moves += moves - right;
    st->missed += right == 0;
    st->false_reports += reports > 0;
}

int corpus_move_trials(const char *path, const struct tb_sensor_gen_config *cfg, uint32_t window_ms,
                       long max_moves, uint64_t seed, struct trial_stats *st)
{
    char *text;
    size_t len;
    struct tb_error err;
    if (tb_read_file(path, &text, &len, &err) != TB_OK) {
        snprintf(st->first, sizeof st->first, "%s", err.msg);
        return err.code;
    }
    struct tb_sensor_config scfg;
    struct tb_sensor_gen gen;
    struct tb_script_list sc = {0};
    tb_sensor *s = NULL;
    tb_chess_pgn_game *g = malloc(sizeof *g);
    tb_sensor_config_default(&scfg);
    scfg.blip_ms = scfg.wobble_ms = window_ms;
    int rc = !g || tb_sensor_new(&scfg, &s) < 0 ? TB_ERR_MEM : tb_sensor_gen_init(&gen, cfg, seed);
    tb_chess_pgn_reader rd;
    tb_chess_pgn_reader_init(&rd, text, len);
    while (rc == TB_OK && (max_moves == 0 || st->moves < max_moves)) {
        int r = tb_chess_pgn_read(&rd, g, &err);
        if (r <= 0) {
            rc = r;
            break;
        }
        tb_chess_pos pos = g->game.start;
        for (int i = 0; i < g->game.plies && (max_moves == 0 || st->moves < max_moves); i++) {
            tb_chess_undo undo;
            move_trial(s, &gen, &pos, g->game.moves[i], &sc, st);
            tb_chess_make(&pos, g->game.moves[i], &undo);
        }
    }
    tb_script_list_free(&sc);
    tb_sensor_free(s);
    free(g);
    free(text);
    return rc < 0 ? rc : TB_OK;
}
