/* broadcast.c - the game shown: agreed moves, takebacks, results, the live PGN file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "broadcast_internal.h"
#include "tb_file.h"
#include "tb_clock.h"

void tb_broadcast_config_default(struct tb_broadcast_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->max_clients = 8;
    cfg->out_max = 65536;
    tb_broadcast_identity_default(&cfg->id);
}

static int copy_path(char *dst, size_t cap, const char *src, const char *what, struct tb_error *err)
{
    if (!src || !src[0]) {
        dst[0] = '\0';
        return TB_OK;
    }
    if (strlen(src) >= cap)
        return tb_error_set(err, TB_ERR_ARG, "broadcast: %s path too long: %s", what, src);
    strcpy(dst, src);
    return TB_OK;
}

tb_broadcast *tb_broadcast_new(const struct tb_broadcast_config *cfg, struct tb_error *err)
{
    if (!cfg) {
        tb_error_set(err, TB_ERR_ARG, "broadcast: no configuration");
        return NULL;
    }
    if (cfg->max_clients < 0 || cfg->max_clients > 64 || cfg->out_max < 4096 || cfg->tcp_port < 0 ||
        cfg->tcp_port > 65535) {
        tb_error_set(err, TB_ERR_ARG,
                     "broadcast: max_clients must be 0..64, out_max at least 4096, the port "
                     "0..65535");
        return NULL;
    }
    if (tb_broadcast_identity_check(&cfg->id, err) != TB_OK)
        return NULL;
    tb_broadcast *bc = calloc(1, sizeof *bc);
    if (!bc) {
        tb_error_set(err, TB_ERR_MEM, "broadcast: out of memory");
        return NULL;
    }
    bc->cfg = *cfg;
    bc->listen_fd = -1;
    bc->game = malloc(sizeof *bc->game);
    bc->clk = malloc(sizeof(uint64_t) * TB_CHESS_GAME_MAX_PLIES);
    bc->scratch = malloc(sizeof *bc->scratch);
    bc->text_cap = 1 << 17;
    bc->text = malloc(bc->text_cap);
    strcpy(bc->result, "*");
    tb_broadcast_board_init(&bc->board, &cfg->id);
    if (!bc->game || !bc->clk || !bc->scratch || !bc->text) {
        tb_error_set(err, TB_ERR_MEM, "broadcast: out of memory");
        tb_broadcast_free(bc);
        return NULL;
    }
    if (cfg->pgn_dir && cfg->pgn_dir[0]) {
        if (tb_broadcast__writer_start(&bc->writer, bc->text_cap) != TB_OK) {
            tb_error_set(err, TB_ERR_MEM, "broadcast: cannot start the PGN writer");
            tb_broadcast_free(bc);
            return NULL;
        }
    }
    if (copy_path(bc->pty_link, sizeof bc->pty_link, cfg->pty_link, "pty", err) ||
        copy_path(bc->pgn_dir, sizeof bc->pgn_dir, cfg->pgn_dir, "PGN directory", err) ||
        tb_broadcast__io_open(bc, err) != TB_OK) {
        tb_broadcast_free(bc);
        return NULL;
    }
    /* Until the first game the board shows the standard start, as a board set up does. */
    tb_chess_pos start;
    struct tb_dgt_update ch[64];
    tb_chess_pos_startpos(&start);
    tb_broadcast_board_show(&bc->board, &start, 0, ch);
    tb_broadcast_board_mark_start(&bc->board, 0);
    return bc;
}

void tb_broadcast_free(tb_broadcast *bc)
{
    if (!bc)
        return;
    tb_broadcast__io_close(bc);
    tb_broadcast__writer_stop(&bc->writer);
    free(bc->game);
    free(bc->clk);
    free(bc->scratch);
    free(bc->text);
    free(bc);
}

static int mkdir_one(const char *path, struct tb_error *err)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return TB_OK;
    return tb_error_set(err, TB_ERR_SYS, "live PGN: cannot make the directory %s: %s", path,
                        strerror(errno));
}

static bool same_pos(const tb_chess_pos *a, const tb_chess_pos *b)
{
    return memcmp(a->board, b->board, 64) == 0 && a->side == b->side &&
           memcmp(a->castle_rook, b->castle_rook, 4) == 0 && a->chess960 == b->chess960 &&
           a->fullmove == b->fullmove;
}

/* Does the file at path hold the start of game (same start, its moves the first of game's)? */
static bool continues(tb_broadcast *bc, const char *path, const tb_chess_game *game)
{
    char *text;
    size_t len;
    if (tb_read_file(path, &text, &len, NULL) != TB_OK)
        return false;
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    const tb_chess_game *g = &bc->scratch->game;
    bool ok = tb_chess_pgn_read(&r, bc->scratch, NULL) == 1 && same_pos(&g->start, &game->start) &&
              g->plies <= game->plies;
    for (int i = 0; ok && i < g->plies; i++)
        ok = g->moves[i] == game->moves[i];
    free(text);
    return ok;
}

/* <pgn_dir>/<day>/<name>.pgn, a new name for each game: a second game of the same pairing and
 * round on a day (a replay after an arbiter's decision) gets "-2", "-3" ... With resume (a game
 * shown before a restart), the newest file of the name goes on when it holds the game's start.
 * *resumed says which. */
static int choose_path(tb_broadcast *bc, const tb_chess_game *resume, bool *resumed,
                       struct tb_error *err)
{
    *resumed = false;
    char day[32], name[160];
    tb_broadcast_day_name(&bc->tags, day, sizeof day);
    tb_broadcast_pgn_name(&bc->tags, name, sizeof name);
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/%s", bc->pgn_dir, day);
    int rc = mkdir_one(bc->pgn_dir, err);
    if (rc == TB_OK)
        rc = mkdir_one(dir, err);
    if (rc != TB_OK)
        return rc;
    bc->temps_removed += (uint64_t)tb_broadcast__clean_temps(dir);
    size_t stem = strlen(name) - 4; /* ".pgn" */
    char last[sizeof bc->path] = "";
    for (int k = 1; k < 1000; k++) {
        if (k == 1)
            snprintf(bc->path, sizeof bc->path, "%s/%s", dir, name);
        else
            snprintf(bc->path, sizeof bc->path, "%s/%.*s-%d.pgn", dir, (int)stem, name, k);
        struct stat st;
        if (stat(bc->path, &st) != 0) {
            if (resume && last[0] && continues(bc, last, resume)) {
                memcpy(bc->path, last, sizeof bc->path);
                *resumed = true;
            }
            return TB_OK;
        }
        memcpy(last, bc->path, sizeof last);
    }
    return tb_error_set(err, TB_ERR_FULL, "live PGN: 999 games named %s in %s", name, dir);
}

/* The text now, handed to the writer thread: the caller never waits for the disk. A failure to
 * write shows in the stats (the file keeps its previous text). */
static int write_pgn(tb_broadcast *bc, struct tb_error *err)
{
    if (!bc->pgn_dir[0])
        return TB_OK;
    int n = tb_broadcast_pgn_text(&bc->tags, bc->game, bc->clk, bc->result, bc->termination,
                                  bc->scratch, bc->text, bc->text_cap);
    if (n < 0)
        return tb_error_set(err, n, "live PGN: the game does not export");
    if ((size_t)n >= bc->text_cap)
        return tb_error_set(err, TB_ERR_FULL, "live PGN: longer than %zu bytes", bc->text_cap);
    tb_broadcast__writer_put(&bc->writer, bc->path, bc->text, (size_t)n);
    return TB_OK;
}

void tb_broadcast_pgn_flush(tb_broadcast *bc)
{
    if (bc)
        tb_broadcast__writer_flush(&bc->writer);
}

static void show(tb_broadcast *bc, const tb_chess_pos *pos, uint64_t now_ms)
{
    struct tb_dgt_update ch[64];
    int n = tb_broadcast_board_show(&bc->board, pos, now_ms, ch);
    tb_broadcast__io_changes(bc, ch, n, now_ms);
}

static int new_game(tb_broadcast *bc, const struct tb_broadcast_tags *tags,
                    const tb_chess_pos *start, const tb_chess_game *resume, uint64_t now_ms,
                    int *file_plies, struct tb_error *err)
{
    if (!bc || !tags)
        return tb_error_set(err, TB_ERR_ARG, "broadcast: new game without tags");
    tb_chess_pos std;
    if (!start) {
        tb_chess_pos_startpos(&std);
        start = &std;
    }
    /* Tags are checked by exporting an empty game with them before anything changes. */
    tb_chess_game_init(bc->game, start);
    if (tb_broadcast_pgn_text(tags, bc->game, NULL, "*", NULL, bc->scratch, bc->text,
                              bc->text_cap) < 0) {
        bc->have_game = false;
        return tb_error_set(err, TB_ERR_ARG,
                            "broadcast: a tag holds a line break or a tag is too long");
    }
    /* The last game's last text (its result) reaches its own file before the path changes:
     * the writer keeps only the newest text. */
    tb_broadcast_pgn_flush(bc);
    bc->tags = *tags;
    bc->have_game = true;
    bc->over = false;
    strcpy(bc->result, "*");
    bc->termination[0] = '\0';
    show(bc, start, now_ms);
    tb_broadcast_board_mark_start(&bc->board, now_ms);
    bool resumed = false;
    if (bc->pgn_dir[0]) {
        int rc = choose_path(bc, resume, &resumed, err);
        if (rc != TB_OK) {
            bc->path[0] = '\0';
            return rc;
        }
    }
    if (resumed) {
        if (file_plies) /* choose_path read the file into the scratch game */
            *file_plies = bc->scratch->game.plies;
        return TB_OK; /* the file keeps its text until the game resumed replaces it */
    }
    /* The new game's file is on the disk before the call returns, so the next game's name
     * never takes it and no follower ever finds the name without its text. */
    int rc = write_pgn(bc, err);
    tb_broadcast_pgn_flush(bc);
    return rc;
}

int tb_broadcast_new_game(tb_broadcast *bc, const struct tb_broadcast_tags *tags,
                          const tb_chess_pos *start, uint64_t now_ms, struct tb_error *err)
{
    return new_game(bc, tags, start, NULL, now_ms, NULL, err);
}

int tb_broadcast_resume_game(tb_broadcast *bc, const struct tb_broadcast_tags *tags,
                             const tb_chess_game *game, uint64_t now_ms, struct tb_error *err)
{
    if (!bc || !game)
        return tb_error_set(err, TB_ERR_ARG, "broadcast: no game to resume");
    int rc = new_game(bc, tags, &game->start, game, now_ms, NULL, err);
    if (rc == TB_OK)
        rc = tb_broadcast_agreed(bc, game, NULL, now_ms, err);
    if (rc == TB_OK)
        tb_broadcast_pgn_flush(bc);
    return rc;
}

int tb_broadcast_resume_shown(tb_broadcast *bc, const struct tb_broadcast_tags *tags,
                              const tb_chess_game *game, const uint64_t *clk_ms, uint64_t now_ms,
                              struct tb_error *err)
{
    if (!bc || !game)
        return tb_error_set(err, TB_ERR_ARG, "broadcast: no game to resume");
    int plies = 0;
    int rc = new_game(bc, tags, &game->start, game, now_ms, &plies, err);
    if (rc != TB_OK || plies == 0)
        return rc;
    tb_chess_game *shown = malloc(sizeof *shown); /* large: never on the stack */
    if (!shown)
        return tb_error_set(err, TB_ERR_MEM, "broadcast: out of memory");
    tb_chess_game_init(shown, &game->start);
    for (int i = 0; i < plies; i++)
        tb_chess_game_push(shown, game->moves[i]);
    rc = tb_broadcast_agreed_clk(bc, shown, clk_ms, NULL, now_ms, err);
    free(shown);
    return rc == TB_OK ? plies : rc;
}

static void end_by_rules(tb_broadcast *bc)
{
    const tb_chess_pos *pos = &bc->game->pos;
    switch (tb_chess_game_state(bc->game)) {
    case TB_CHESS_CHECKMATE: /* 5.1.1: the side to move is mated */
        strcpy(bc->result, pos->side == TB_CHESS_WHITE ? "0-1" : "1-0");
        strcpy(bc->termination, "normal");
        break;
    case TB_CHESS_STALEMATE:   /* 5.2.1 */
    case TB_CHESS_DEAD:        /* 5.2.2 */
    case TB_CHESS_FIVEFOLD:    /* 9.6.1 */
    case TB_CHESS_SEVENTYFIVE: /* 9.6.2 */
        strcpy(bc->result, "1/2-1/2");
        strcpy(bc->termination, "normal");
        break;
    default:
        return;
    }
    bc->over = true;
}

int tb_broadcast_agreed(tb_broadcast *bc, const tb_chess_game *game,
                        const struct tb_broadcast_clock *clock, uint64_t now_ms,
                        struct tb_error *err)
{
    return tb_broadcast_agreed_clk(bc, game, NULL, clock, now_ms, err);
}

int tb_broadcast_agreed_clk(tb_broadcast *bc, const tb_chess_game *game, const uint64_t *clk_ms,
                            const struct tb_broadcast_clock *clock, uint64_t now_ms,
                            struct tb_error *err)
{
    if (!bc || !game)
        return tb_error_set(err, TB_ERR_ARG, "broadcast: no game given");
    if (!bc->have_game)
        return tb_error_set(err, TB_ERR_STATE, "broadcast: no game started (new game first)");
    if (!same_pos(&game->start, &bc->game->start))
        return tb_error_set(err, TB_ERR_ARG,
                            "broadcast: the agreed game starts from another position than the "
                            "game shown (new game first)");
    int common = 0;
    while (common < game->plies && common < bc->game->plies &&
           game->moves[common] == bc->game->moves[common])
        common++;
    bool changed = common != game->plies || common != bc->game->plies;
    if (bc->over && changed)
        return tb_error_set(err, TB_ERR_STATE, "broadcast: the game is over (%s); a new game first",
                            bc->result);
    /* The moves replay here first (in the scratch game): a list that does not changes nothing. */
    tb_chess_game *check = &bc->scratch->game;
    tb_chess_game_init(check, &game->start);
    for (int i = 0; i < game->plies; i++) {
        if (tb_chess_game_push(check, game->moves[i]) != TB_OK)
            return tb_error_set(err, TB_ERR_ILLEGAL,
                                "broadcast: agreed move %d does not replay; nothing shown", i + 1);
    }
    tb_chess_game *g = bc->game;
    while (g->plies > common)
        tb_chess_game_pop(g); /* a takeback (D.2.9): back to the common part */
    for (int i = common; i < game->plies; i++) {
        tb_chess_game_push(g, game->moves[i]);
        bc->clk[i] = TB_BROADCAST_NO_CLK;
    }
    if (clock) {
        tb_broadcast_board_set_clock(&bc->board, clock, now_ms);
        /* The mover's time after the last new move: its clock stopped at the press. */
        if (clock->known && g->plies > common) {
            int mover = (g->pos.side == TB_CHESS_WHITE) ? TB_CHESS_BLACK : TB_CHESS_WHITE;
            uint64_t ms = mover == TB_CHESS_WHITE ? clock->white_ms : clock->black_ms;
            if (clock->running == mover && now_ms > clock->at_ms)
                ms = now_ms - clock->at_ms >= ms ? 0 : ms - (now_ms - clock->at_ms);
            bc->clk[g->plies - 1] = ms;
        }
    }
    for (int i = 0; clk_ms && i < g->plies; i++) /* the caller's record over the reading */
        if (clk_ms[i] != TB_BROADCAST_NO_CLK && clk_ms[i] != bc->clk[i]) {
            bc->clk[i] = clk_ms[i];
            changed = true;
        }
    show(bc, &g->pos, now_ms);
    if (!changed)
        return TB_OK;
    end_by_rules(bc);
    return write_pgn(bc, err);
}

int tb_broadcast_result(tb_broadcast *bc, const struct tb_broadcast_end *end, uint64_t now_ms,
                        struct tb_error *err)
{
    (void)now_ms;
    if (!bc || !end)
        return tb_error_set(err, TB_ERR_ARG, "broadcast: no result given");
    if (!bc->have_game)
        return tb_error_set(err, TB_ERR_STATE, "broadcast: no game started");
    if (bc->over)
        return tb_error_set(err, TB_ERR_STATE, "broadcast: the result is already %s", bc->result);
    bool side_ok = end->side == TB_CHESS_WHITE || end->side == TB_CHESS_BLACK;
    const char *result = NULL, *why = NULL;
    struct tb_clock_judgement j;
    switch (end->kind) {
    case TB_BROADCAST_RESIGN: /* 5.1.2 */
        if (side_ok)
            result = end->side == TB_CHESS_WHITE ? "0-1" : "1-0";
        why = "normal";
        break;
    case TB_BROADCAST_DRAW_AGREED: /* 5.2.3 */
        result = "1/2-1/2";
        why = "normal";
        break;
    case TB_BROADCAST_FLAG: /* 6.9 */
        if (side_ok && tb_clock_judge_flag(&bc->game->pos, end->side, &j) == TB_OK &&
            j.verdict != TB_CLOCK_ENDED)
            result = j.result;
        why = "time forfeit";
        break;
    case TB_BROADCAST_CLAIM_THREEFOLD: /* 9.2 */
        if (!tb_chess_game_can_claim_threefold(bc->game))
            return tb_error_set(err, TB_ERR_ILLEGAL,
                                "broadcast: no threefold repetition to claim (9.2)");
        result = "1/2-1/2";
        why = "normal";
        break;
    case TB_BROADCAST_CLAIM_FIFTY: /* 9.3 */
        if (!tb_chess_game_can_claim_fifty(bc->game))
            return tb_error_set(err, TB_ERR_ILLEGAL, "broadcast: no fifty-move claim (9.3)");
        result = "1/2-1/2";
        why = "normal";
        break;
    case TB_BROADCAST_ARBITER:
        if (end->result && (!strcmp(end->result, "1-0") || !strcmp(end->result, "0-1") ||
                            !strcmp(end->result, "1/2-1/2")))
            result = end->result;
        why = "adjudication";
        break;
    }
    if (!result)
        return tb_error_set(err, TB_ERR_ARG,
                            "broadcast: result kind %d with side %d / result '%s' is none",
                            (int)end->kind, end->side, end->result ? end->result : "");
    strcpy(bc->result, result);
    strcpy(bc->termination, why);
    bc->over = true;
    return write_pgn(bc, err);
}

const char *tb_broadcast_result_text(const tb_broadcast *bc)
{
    return bc ? bc->result : "*";
}

const char *tb_broadcast_pgn_path(const tb_broadcast *bc)
{
    return bc ? bc->path : "";
}

void tb_broadcast_stats(tb_broadcast *bc, struct tb_broadcast_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!bc)
        return;
    for (int i = 0; i < bc->nreaders; i++) {
        const struct tb_broadcast__reader *r = &bc->readers[i];
        if (r->fd >= 0 && !r->away && (!r->pty || r->s.stats.commands))
            out->readers++;
    }
    out->dropped = bc->dropped;
    out->closed = bc->closed;
    tb_broadcast__writer_stats(&bc->writer, &out->pgn_writes, &out->pgn_failures, &out->pgn_error);
    out->pgn_temps_removed = bc->temps_removed;
}

const struct tb_broadcast_board *tb_broadcast_board_of(const tb_broadcast *bc)
{
    return bc ? &bc->board : NULL;
}
