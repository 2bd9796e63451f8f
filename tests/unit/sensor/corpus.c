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
    if (st->failures++ == 0)
        snprintf(st->first_failure, sizeof st->first_failure,
                 "%s: output %d: expected '%s', got '%s'", what, index + 1, want, got);
}

void corpus_replay(tb_sensor *s, const struct tb_script_list *sc, const tb_chess_pos *start,
                   const char *what, struct corpus_stats *st)
{
    struct tb_sensor_out o;
    char line[200];
    size_t next = 0; /* index of the next expect line to compare */
    int nout = 0;

    tb_sensor_reset(s, start, 0);
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
            next++;
            nout++;
        }
    }
    while (next < sc->n && sc->ev[next].kind != TB_SCRIPT_EXPECT)
        next++;
    if (next < sc->n)
        fail(st, what, nout, sc->ev[next].text, "(nothing)");
}

int corpus_run_file(const char *path, uint64_t seed, const struct tb_sensor_gen_config *cfg,
                    long max_games, struct corpus_stats *st)
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
    struct tb_sensor_config scfg;
    tb_sensor_config_default(&scfg);
    scfg.blip_ms = cfg->blip_ms;
    scfg.promo_wait_ms = cfg->promo_wait_ms;
    if (!g || tb_sensor_new(&scfg, &s) < 0) {
        rc = TB_ERR_MEM;
        goto out;
    }
    tb_chess_pgn_reader rd;
    tb_chess_pgn_reader_init(&rd, text, len);
    while (max_games == 0 || st->games < max_games) {
        int r = tb_chess_pgn_read(&rd, g, &err);
        if (r == 0)
            break;
        if (r < 0) {
            snprintf(st->first_failure, sizeof st->first_failure, "%s: %s", path, err.msg);
            st->failures++;
            rc = r;
            break;
        }
        st->games++;
        st->plies += g->game.plies;
        uint64_t game_seed = seed * 1000003u + (uint64_t)st->games;
        rc = corpus_generate(&sc, cfg, game_seed, &g->game.start, g->game.moves, g->game.plies);
        if (rc < 0)
            break;
        char what[160];
        snprintf(what, sizeof what, "%s game %ld seed %llu", path, st->games,
                 (unsigned long long)game_seed);
        corpus_replay(s, &sc, &g->game.start, what, st);
    }
out:
    tb_script_list_free(&sc);
    tb_sensor_free(s);
    free(g);
    free(text);
    return rc;
}
