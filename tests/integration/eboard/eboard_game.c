/* eboard_game.c - the e-board whole-game tests' shared parts (eboard_game.h).
 *
 * style: real-time wait: a child process on a pty, polled until its link appears. */
#define _DEFAULT_SOURCE
#include "eboard_game.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tb_file.h"
#include "tb_test.h"

void eb_emu_start(struct eb_emu *e, const char *program, const char *name, const char *script,
                  const char *side_flag, const char *const *extra)
{
    snprintf(e->link, sizeof e->link, "%s/%s-board", tb_test_tmp_dir(), name);
    snprintf(e->log, sizeof e->log, "%s/%s-board.log", tb_test_tmp_dir(), name);
    snprintf(e->side_log, sizeof e->side_log, "%s/%s-side.log", tb_test_tmp_dir(), name);
    unlink(e->link);
    unlink(e->side_log);
    const char *argv[40] = {program,   "--link",    e->link,  "--script", script,     "--board",
                            "sighted", "--no-wait", "--lead", "0",        "--forever"};
    int n = 11;
    if (side_flag) {
        argv[n++] = side_flag;
        argv[n++] = e->side_log;
    }
    for (int i = 0; extra && extra[i] && n < 38; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    e->pid = fork();
    ASSERT_GE(e->pid, 0);
    if (e->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* never outlives the test */
        if (!freopen(e->log, "w", stderr))
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    struct stat st;
    for (int i = 0; i < 500 && lstat(e->link, &st) != 0; i++)
        usleep(10000);
    ASSERT_OK(lstat(e->link, &st));
}

void eb_emu_stop(struct eb_emu *e)
{
    int status;
    kill(e->pid, SIGTERM);
    ASSERT_EQ(waitpid(e->pid, &status, 0), e->pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
}

uint32_t eb_pause_ms(void)
{
    return (uint32_t)tb_test_ms(EB_PAUSE_MS);
}

tb_chess_pgn_game *eb_load_game(const char *file, long number)
{
    char path[1024], *buf;
    size_t len;
    struct tb_error err;
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    ASSERT_OK(tb_read_file(path, &buf, &len, &err));
    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_NOT_NULL(g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, buf, len);
    for (long i = 0; i < number; i++)
        ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 1);
    free(buf);
    return g;
}

void eb_write_script(struct fx *f, const tb_chess_game *g, uint32_t pause_ms, bool presses)
{
    struct tb_daemon_demo_script ds = {.moves = g->moves,
                                       .nmoves = g->plies,
                                       .vi_color = TB_CHESS_WHITE,
                                       .pause_ms = pause_ms,
                                       .seed = 7};
    struct tb_error err = {0};
    if (tb_daemon_demo_script_write(&ds, f->script, &err) != TB_OK)
        TB_FAIL("script: %s", err.msg);
    char *buf;
    size_t len;
    ASSERT_OK(tb_read_file(f->script, &buf, &len, &err));
    FILE *out = fopen(f->script, "w");
    ASSERT_NOT_NULL(out);
    tb_chess_pos after = g->start;
    for (char *line = buf, *end; line < buf + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(buf + len - line));
        if (!end)
            end = buf + len;
        int ply;
        unsigned long long at;
        char sq[3];
        if (sscanf(line, "# ply %d:", &ply) == 1 && ply >= 1 && ply <= g->plies) {
            tb_chess_undo u;
            tb_chess_make(&after, g->moves[ply - 1], &u);
        }
        int s = -1;
        if (sscanf(line, "%llu sighted place %2s", &at, sq) == 2 &&
            (s = tb_chess_square_parse(sq)) >= 0 && tb_chess_piece_at(&after, s))
            fprintf(out, "%llu sighted place %s %c\n", at, sq,
                    tb_chess_piece_to_fen(tb_chess_piece_at(&after, s)));
        else
            fprintf(out, "%.*s\n", (int)(end - line), line);
        if (presses && sscanf(line, "# sync: made %d @%llu", &ply, &at) == 2)
            fprintf(out, "%llu sighted press %s\n", at, ply % 2 ? "white" : "black");
    }
    fclose(out);
    free(buf);
}

unsigned long long eb_script_end(const char *path)
{
    char *buf;
    size_t len;
    struct tb_error err;
    ASSERT_OK(tb_read_file(path, &buf, &len, &err));
    unsigned long long last = 0, t;
    for (char *l = buf; l && l < buf + len; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (sscanf(l, "%llu ", &t) == 1)
            last = t;
    free(buf);
    return last;
}

void eb_copy_lift(const char *script, int ply, unsigned long long *lift, unsigned long long *place)
{
    char *buf;
    size_t len;
    struct tb_error err;
    ASSERT_OK(tb_read_file(script, &buf, &len, &err));
    char mark[64];
    snprintf(mark, sizeof mark, "# sync: made %d @", ply);
    char *l = strstr(buf, mark);
    ASSERT_NOT_NULL(l);
    *lift = *place = 0;
    for (; l && l < buf + len; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        unsigned long long t;
        char what[16];
        if (sscanf(l, "%llu sighted %15s", &t, what) != 2)
            continue;
        if (!*lift && strcmp(what, "lift") == 0)
            *lift = t;
        else if (*lift && strcmp(what, "place") == 0) {
            *place = t;
            break;
        }
    }
    free(buf);
    ASSERT_GT(*lift, 0);
    ASSERT_GT(*place, *lift);
}

static int want_plies;
static bool game_over(struct fx *f)
{
    return fx_plies(f) >= want_plies && strstr(fx_req(f, "status"), "state: in-sync");
}

void eb_run_game(struct fx *f, const tb_chess_pgn_game *g, const char *name)
{
    want_plies = g->game.plies;
    int ms = (int)eb_script_end(f->script) + 15000;
    if (!fx_run_until(f, ms, game_over))
        TB_FAIL("%s: %d of %d plies agreed; status:\n%s\nlog:\n%s", name, fx_plies(f), want_plies,
                fx_req(f, "status"), f->log);
}

void eb_expect_game(struct fx *f, const tb_chess_pgn_game *g)
{
    static char want[16384], got[16384];
    fx_san_list(&g->game.start, g->game.moves, g->game.plies, want, sizeof want);
    ASSERT_STR_EQ(fx_moves(f, got, sizeof got), want);
    ASSERT_TRUE(strstr(f->log, "MISMATCH") == NULL);
    const char *pgn = fx_req(f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "[White \"VI player\"]");
    /* the movetext as the source has it: every SAN, in order */
    const char *at = pgn;
    for (char *tok = strtok(want, " "); tok; tok = strtok(NULL, " ")) {
        at = strstr(at, tok);
        ASSERT_NOT_NULL(at);
        at += strlen(tok);
    }
}

void eb_start_daemon(struct fx *f, const struct eb_emu *e, const char *scheme)
{
    char res[600];
    snprintf(res, sizeof res, "%s:%s", scheme, e->link);
    fx_options(f, "script", res);
    f->o.speed = TB_DAEMON_SPEED_REALTIME;
    f->o.cfg.player[0].colour = TB_CONFIG_WHITE;
    f->o.cfg.player[1].colour = TB_CONFIG_BLACK;
    f->o.exit_when_done = false;
    fx_start(f);
}

void eb_play(struct fx *f, struct eb_emu *e, const char *program, const char *scheme,
             const char *name, tb_chess_pgn_game *g, uint32_t pause_ms, const char *const *extra)
{
    eb_write_script(f, &g->game, pause_ms, false);
    eb_emu_start(e, program, name, f->script, "--led-log", extra);
    eb_start_daemon(f, e, scheme);
    eb_run_game(f, g, name);
}

static bool has_mismatch(struct fx *f)
{
    return strstr(fx_req(f, "status"), "state: blocked") != NULL;
}
static bool in_sync(struct fx *f)
{
    return fx_plies(f) >= 1 && strstr(fx_req(f, "status"), "state: in-sync");
}

void eb_swapped_pieces(const char *program, const char *scheme, const char *name)
{
    struct fx f;
    struct eb_emu e;
    fx_init(&f, name);
    static const char script[] = "2000 vi lift e2\n"
                                 "2300 vi place e4\n"
                                 "3000 sighted lift e2\n"
                                 "3300 sighted place e4\n"
                                 "5000 sighted lift b8\n"
                                 "5200 sighted lift c8\n"
                                 "5400 sighted place b8 b\n"
                                 "5600 sighted place c8 n\n"
                                 "12000 sighted lift b8\n"
                                 "12200 sighted lift c8\n"
                                 "12400 sighted place b8 n\n"
                                 "12600 sighted place c8 b\n";
    fx_script(&f, script);
    eb_emu_start(&e, program, name, f.script, "--led-log", NULL);
    eb_start_daemon(&f, &e, scheme);
    ASSERT_TRUE(fx_run_until(&f, 10000, has_mismatch));
    ASSERT_STR_CONTAINS(f.log, "swapped");
    ASSERT_STR_CONTAINS(f.log, "on b8 a black bishop instead of the black knight");
    ASSERT_STR_CONTAINS(f.log, "on c8 a black knight instead of the black bishop");
    ASSERT_STR_CONTAINS(f.log, "D.2.9: the scoresheets agree");
    /* the board's corner LEDs show the two squares to put right */
    fx_run_until(&f, 500, NULL);
    char *leds;
    size_t len;
    struct tb_error err;
    ASSERT_OK(tb_read_file(e.side_log, &leds, &len, &err));
    /* the VI player's move, to copy (corner LEDs: e3, between e2 and e4, shows lit too) */
    ASSERT_TRUE(strstr(leds, " e2 e4\n") || strstr(leds, " e2 e3 e4\n"));
    ASSERT_STR_CONTAINS(leds, " b8 c8\n");
    free(leds);
    ASSERT_TRUE(fx_run_until(&f, 12000, in_sync));
    ASSERT_STR_CONTAINS(f.log, "RESOLVED");
    /* put right: the LEDs go out */
    fx_run_until(&f, 500, NULL);
    ASSERT_OK(tb_read_file(e.side_log, &leds, &len, &err));
    ASSERT_TRUE(len > 5 && strcmp(leds + len - 5, " off\n") == 0);
    free(leds);
    /* the sighted player asks to hear the last move again: it is shown too */
    fx_req(&f, "repeat sighted");
    fx_run_until(&f, 500, NULL);
    ASSERT_OK(tb_read_file(e.side_log, &leds, &len, &err));
    const char *last = leds + len - 1;
    while (last > leds && last[-1] != '\n')
        last--;
    ASSERT_TRUE(strstr(last, " e2 e4\n") || strstr(last, " e2 e3 e4\n"));
    free(leds);
    fx_free(&f);
    eb_emu_stop(&e);
}

void eb_unplugged_mid_move(const char *program, const char *scheme, const char *name)
{
    tb_chess_pgn_game *g = eb_load_game("Korchnoi.pgn", 851);
    g->game.plies = EB_UNPLUG_PLIES;
    struct fx f;
    struct eb_emu e;
    fx_init(&f, name);
    eb_write_script(&f, &g->game, 1500, false);
    unsigned long long lift, place;
    eb_copy_lift(f.script, 9, &lift, &place); /* 5. ..., the copy of White's fifth move */
    char unplug[64];
    snprintf(unplug, sizeof unplug, "%llu:%llu", lift + 1, place - lift + 300);
    const char *const extra[] = {"--unplug", unplug, NULL};
    eb_play(&f, &e, program, scheme, name, g, 1500, extra);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(f.log, "sighted board lost");
    ASSERT_STR_CONTAINS(f.log, "sighted board is back");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "1 reconnects");
    fx_free(&f);
    eb_emu_stop(&e);
    free(g);
}
