/* test_broadcast_io.c - the broadcast through its transports and files (host/broadcast): DGT
 * programs on the pty and on loopback TCP (single-board and bus mode at once) follow a whole
 * real game fed as agreed positions with a takeback; the live PGN is read back after every move
 * by the project's reader and by pgn-extract, while a reader thread loops over the file; the
 * result by the rules and by the caller's word; a reader that never reads blocks nothing. */
#define _DEFAULT_SOURCE /* cfmakeraw */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../../unit/broadcast/bcast_client.h"
#include "tb_broadcast.h"
#include "tb_file.h"
#include "tb_run.h"
#include "tb_test.h"

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A program at the other end of a transport. */
struct prog {
    int fd;
    struct bcast_client c;
};

static void prog_open_pty(struct prog *p, const char *link, bool bus)
{
    p->fd = open(link, O_RDWR | O_NOCTTY | O_NONBLOCK);
    ASSERT_TRUE(p->fd >= 0);
    struct termios t;
    ASSERT_OK(tcgetattr(p->fd, &t));
    cfmakeraw(&t);
    ASSERT_OK(tcsetattr(p->fd, TCSANOW, &t));
    bcast_client_init(&p->c, bus);
}

/* Connects fd to 127.0.0.1:port. */
static void loopback(int fd, int port)
{
    union { /* the address as connect() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_in in;
    } a;
    memset(&a, 0, sizeof a);
    a.in.sin_family = AF_INET;
    a.in.sin_port = htons((uint16_t)port);
    a.in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_OK(connect(fd, &a.sa, sizeof a.in));
}

static void prog_connect(struct prog *p, int port, bool bus)
{
    p->fd = socket(AF_INET, SOCK_STREAM, 0);
    loopback(p->fd, port);
    fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL) | O_NONBLOCK);
    bcast_client_init(&p->c, bus);
}

static void prog_close(struct prog *p)
{
    close(p->fd);
    bcast_client_free(&p->c);
}

static void prog_send(struct prog *p, const uint8_t *b, size_t n)
{
    ASSERT_EQ(write(p->fd, b, n), (ssize_t)n);
}

static void prog_cmd(struct prog *p, int cmd)
{
    uint8_t b = (uint8_t)cmd;
    prog_send(p, &b, 1);
}

static void prog_bus(struct prog *p, int cmd, int address)
{
    uint8_t b[4];
    tb_dgt_bus_cmd_encode(b, sizeof b, cmd, address);
    prog_send(p, b, 4);
}

static void prog_read(struct prog *p)
{
    uint8_t buf[4096];
    ssize_t n;
    while ((n = read(p->fd, buf, sizeof buf)) > 0)
        bcast_client_feed(&p->c, buf, (size_t)n);
}

/* One turn of the daemon's loop, then the programs read. */
static void pump(tb_broadcast *bc, struct prog *progs, int n)
{
    struct pollfd fds[16];
    uint64_t deadline;
    int k = tb_broadcast_pollfds(bc, fds, 16, mono_ms(), &deadline);
    ASSERT_GE(k, 0);
    poll(fds, (nfds_t)k, 5);
    ASSERT_OK(tb_broadcast_handle(bc, fds, k, mono_ms()));
    for (int i = 0; i < n; i++)
        prog_read(&progs[i]);
}

static bool shows(const struct prog *p, const tb_chess_pos *pos)
{
    uint8_t want[64];
    tb_dgt_codes_of_pos(pos, TB_DGT_ORIENT_NORMAL, want);
    return memcmp(p->c.shadow, want, 64) == 0;
}

/* Pumps until every program shows pos (10 s at most: a loaded machine). */
static void until_shown(tb_broadcast *bc, struct prog *progs, int n, const tb_chess_pos *pos)
{
    uint64_t end = mono_ms() + 10000;
    for (;;) {
        bool all = true;
        for (int i = 0; i < n; i++)
            all = all && shows(&progs[i], pos);
        if (all)
            return;
        ASSERT_LT(mono_ms(), end);
        pump(bc, progs, n);
    }
}

/* The file read back by the project's reader: the moves so far and the result. */
static void check_own(const char *path, const tb_chess_game *game, const char *result)
{
    size_t len;
    char *text = tb_run_read_file(path, &len);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_error err;
    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 1);
    ASSERT_EQ(g->game.plies, game->plies);
    for (int i = 0; i < game->plies; i++)
        ASSERT_EQ(g->game.moves[i], game->moves[i]);
    ASSERT_STR_EQ(g->result, result);
    ASSERT_STR_EQ(tb_chess_pgn_tag_get(g, "White"), "Navara, David");
    ASSERT_STR_EQ(tb_chess_pgn_tag_get(g, "Round"), "4.2");
    free(g);
    free(text);
}

/* The file read by pgn-extract (pgn_check.sh): moves in UCI, result and tags. */
static void check_other(const char *path, const tb_chess_game *game, const char *result, bool clock)
{
    static char want[32768], out[4096];
    size_t n = 0;
    tb_chess_pos pos = game->start;
    for (int i = 0; i < game->plies; i++) {
        char uci[8];
        tb_chess_move_to_uci(&pos, game->moves[i], uci, sizeof uci);
        n += (size_t)snprintf(want + n, sizeof want - n, "%s ", uci);
        tb_chess_undo u;
        tb_chess_make(&pos, game->moves[i], &u);
    }
    snprintf(want + n, sizeof want - n, "%s", result);
    int rc = tb_run(out, sizeof out,
                    "%s/pgn_check.sh '%s' '%s' 'Event=Club championship' 'Site=Hall 2' "
                    "'Date=2026.11.24' 'Round=4.2' 'White=Navara, David' 'Black=?' "
                    "'Result=%s' %s 2>&1",
                    TB_BCAST_SCRIPT_DIR, path, want, result, clock ? "'TimeControl=5400+30'" : "");
    if (rc == 77)
        TB_FAIL("pgn-extract is not installed (host/tools/dev test installs it): %s", out);
    if (rc != 0)
        TB_FAIL("pgn_check.sh: %s", out);
}

static void fill_tags(struct tb_broadcast_tags *t)
{
    memset(t, 0, sizeof *t);
    strcpy(t->event, "Club championship");
    strcpy(t->site, "Hall 2");
    strcpy(t->date, "2026.11.24");
    strcpy(t->round, "4.2");
    strcpy(t->white, "Navara, David");
    strcpy(t->time_control, "5400+30");
}

/* After an agreed change: the bus program polls its changes, every program shows the agreed
 * position, both PGN readers read the game so far. */
static void everyone_sees(tb_broadcast *bc, struct prog *progs, const tb_chess_game *game,
                          const char *path)
{
    int before = progs[1].c.updates;
    prog_bus(&progs[1], TB_DGT_BUS_SEND_CHANGES, 1025);
    while (progs[1].c.updates == before)
        pump(bc, progs, 3);
    until_shown(bc, progs, 3, &game->pos);
    tb_broadcast_pgn_flush(bc);
    check_own(path, game, "*");
    check_other(path, game, "*", true);
}

TB_TEST(programs_on_pty_and_tcp_follow_the_agreed_game_and_the_live_pgn_is_whole)
{
    char link[512], dir[512];
    snprintf(link, sizeof link, "%s/dgt", tb_test_tmp_dir());
    snprintf(dir, sizeof dir, "%s/pgn", tb_test_tmp_dir());
    struct tb_broadcast_config cfg;
    tb_broadcast_config_default(&cfg);
    cfg.pty_link = link;
    cfg.tcp = true;
    cfg.pgn_dir = dir;
    struct tb_error err;
    tb_broadcast *bc = tb_broadcast_new(&cfg, &err);
    if (!bc)
        TB_FAIL("%s", err.msg);
    ASSERT_GT(tb_broadcast_tcp_port(bc), 0);

    /* Moves agreed while no program holds the pty block nothing. */
    struct prog *progs = calloc(3, sizeof *progs);
    pump(bc, progs, 0);

    prog_open_pty(&progs[0], link, false);                     /* PicoChess-like */
    prog_connect(&progs[1], tb_broadcast_tcp_port(bc), true);  /* LiveChess-like, bus mode */
    prog_connect(&progs[2], tb_broadcast_tcp_port(bc), false); /* single-board, UPDATE_BRD */
    for (int i = 0; i < 20; i++)
        pump(bc, progs, 3);
    int addr = 1025;
    prog_cmd(&progs[0], TB_DGT_CMD_RESET);
    prog_cmd(&progs[0], TB_DGT_CMD_SEND_BRD);
    prog_cmd(&progs[0], TB_DGT_CMD_SEND_UPDATE_NICE);
    prog_cmd(&progs[0], TB_DGT_CMD_SEND_VERSION);
    prog_bus(&progs[1], TB_DGT_BUS_PING, 0);
    prog_bus(&progs[1], TB_DGT_BUS_SEND_BRD, addr);
    prog_cmd(&progs[2], TB_DGT_CMD_SEND_BRD);
    prog_cmd(&progs[2], TB_DGT_CMD_SEND_UPDATE_BRD);

    struct tb_broadcast_tags tags;
    fill_tags(&tags);
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, mono_ms(), &err));
    char path[1024];
    snprintf(path, sizeof path, "%s", tb_broadcast_pgn_path(bc));
    ASSERT_STR_CONTAINS(path, "/2026-11-24/r4.2_Navara__David-unknown.pgn");

    tb_chess_pgn_game *src = bcast_load_game("twic0920.pgn", 197);
    until_shown(bc, progs, 3, &src->game.start);
    ASSERT_EQ(progs[1].c.pings, 1);
    ASSERT_EQ(progs[0].c.major, 1);

    struct bcast_looper l = {.path = path};
    pthread_t th;
    ASSERT_OK(pthread_create(&th, NULL, bcast_loop_reader, &l));

    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_game_init(game, &src->game.start);
    uint64_t white = 5400000, black = 5400000;
    int mid = src->game.plies / 2;
    bool taken = false;
    for (int i = 0; i < src->game.plies; i++) {
        ASSERT_OK(tb_chess_game_push(game, src->game.moves[i]));
        /* The mover pressed: its time stopped; 30 s increment, 20 s thought. */
        if (game->pos.side == TB_CHESS_BLACK)
            white = white - 20000 + 30000;
        else
            black = black - 20000 + 30000;
        struct tb_broadcast_clock clk = {true, white, black, game->pos.side, mono_ms()};
        ASSERT_OK(tb_broadcast_agreed(bc, game, &clk, mono_ms(), &err));
        everyone_sees(bc, progs, game, path);
        if (i + 1 == mid && !taken) {
            /* D.2.9: the arbiter takes two plies back; every program shows that position. */
            taken = true;
            tb_chess_game_pop(game);
            tb_chess_game_pop(game);
            ASSERT_OK(tb_broadcast_agreed(bc, game, NULL, mono_ms(), &err));
            everyone_sees(bc, progs, game, path);
            i -= 2;
        }
    }
    struct tb_broadcast_end end = {TB_BROADCAST_DRAW_AGREED, 0, NULL};
    ASSERT_OK(tb_broadcast_result(bc, &end, mono_ms(), &err));
    tb_broadcast_pgn_flush(bc);
    check_own(path, game, "1/2-1/2");
    check_other(path, game, "1/2-1/2", true);
    atomic_store(&l.stop, true);
    pthread_join(th, NULL);
    if (l.bad)
        TB_FAIL("%ld of %ld reads saw a file not whole: %s", l.bad, l.reads, l.why);
    ASSERT_GT(l.reads, 10);

    struct tb_broadcast_stats st;
    tb_broadcast_stats(bc, &st);
    ASSERT_U64_EQ(st.dropped, 0);
    ASSERT_U64_EQ(st.pgn_failures, 0);
    ASSERT_EQ(progs[0].c.bad + progs[1].c.bad + progs[2].c.bad, 0);
    for (int i = 0; i < 3; i++)
        prog_close(&progs[i]);
    tb_broadcast_free(bc);
    /* The link is gone with the board. */
    ASSERT_TRUE(access(link, F_OK) != 0);
    free(progs);
    free(game);
    free(src);
}

static tb_broadcast *pgn_only(const char *sub)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", tb_test_tmp_dir(), sub);
    struct tb_broadcast_config cfg;
    tb_broadcast_config_default(&cfg);
    cfg.pgn_dir = dir;
    tb_broadcast *bc = tb_broadcast_new(&cfg, NULL);
    ASSERT_NOT_NULL(bc);
    return bc;
}

TB_TEST(law_5_1_1_checkmate_writes_the_result_and_ends_the_game)
{
    tb_broadcast *bc = pgn_only("mate");
    struct tb_broadcast_tags tags;
    fill_tags(&tags);
    tags.time_control[0] = '\0';
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, 0, NULL));
    tb_chess_pgn_game *src = bcast_load_game("twic0920.pgn", 442); /* 1-0 by mate in 29 plies */
    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_game_init(game, &src->game.start);
    for (int i = 0; i < src->game.plies; i++) {
        ASSERT_OK(tb_chess_game_push(game, src->game.moves[i]));
        ASSERT_OK(tb_broadcast_agreed(bc, game, NULL, (uint64_t)i, NULL));
    }
    ASSERT_STR_EQ(tb_broadcast_result_text(bc), "1-0");
    tb_broadcast_pgn_flush(bc);
    check_own(tb_broadcast_pgn_path(bc), game, "1-0");
    check_other(tb_broadcast_pgn_path(bc), game, "1-0", false);
    char *text = tb_run_read_file(tb_broadcast_pgn_path(bc), NULL);
    ASSERT_STR_CONTAINS(text, "[Termination \"normal\"]");
    ASSERT_STR_CONTAINS(text, "#");
    free(text);
    /* Over: nothing more is written. */
    struct tb_error err;
    struct tb_broadcast_end end = {TB_BROADCAST_RESIGN, TB_CHESS_WHITE, NULL};
    ASSERT_EQ(tb_broadcast_result(bc, &end, 99, &err), TB_ERR_STATE);
    tb_chess_game_pop(game);
    ASSERT_EQ(tb_broadcast_agreed(bc, game, NULL, 100, &err), TB_ERR_STATE);
    tb_broadcast_free(bc);
    free(game);
    free(src);
}

TB_TEST(law_9_2_claim_refused_without_repetition_and_flag_judged_by_6_9)
{
    tb_broadcast *bc = pgn_only("claims");
    struct tb_broadcast_tags tags;
    fill_tags(&tags);
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, 0, NULL));
    struct tb_error err;
    struct tb_broadcast_end end = {TB_BROADCAST_CLAIM_THREEFOLD, 0, NULL};
    ASSERT_EQ(tb_broadcast_result(bc, &end, 1, &err), TB_ERR_ILLEGAL);
    ASSERT_STR_CONTAINS(err.msg, "9.2");
    end.kind = TB_BROADCAST_CLAIM_FIFTY;
    ASSERT_EQ(tb_broadcast_result(bc, &end, 1, &err), TB_ERR_ILLEGAL);
    ASSERT_STR_EQ(tb_broadcast_result_text(bc), "*");
    /* Knights shuffled out and back twice: the start position the third time. */
    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    tb_chess_game_init(game, &start);
    const char *moves[] = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"};
    for (int i = 0; i < 8; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_parse(&game->pos, moves[i], &m, NULL));
        ASSERT_OK(tb_chess_game_push(game, m));
        ASSERT_OK(tb_broadcast_agreed(bc, game, NULL, (uint64_t)i + 2, NULL));
    }
    end.kind = TB_BROADCAST_CLAIM_THREEFOLD;
    ASSERT_OK(tb_broadcast_result(bc, &end, 20, &err));
    ASSERT_STR_EQ(tb_broadcast_result_text(bc), "1/2-1/2");
    /* A new game: a new file beside the first; a flag fall with mating material loses. */
    char first[1024];
    snprintf(first, sizeof first, "%s", tb_broadcast_pgn_path(bc));
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, 30, NULL));
    ASSERT_TRUE(strcmp(first, tb_broadcast_pgn_path(bc)) != 0);
    ASSERT_STR_CONTAINS(tb_broadcast_pgn_path(bc), "-2.pgn");
    ASSERT_TRUE(access(first, F_OK) == 0); /* the finished game is kept */
    end = (struct tb_broadcast_end){TB_BROADCAST_FLAG, TB_CHESS_BLACK, NULL};
    ASSERT_OK(tb_broadcast_result(bc, &end, 40, &err));
    ASSERT_STR_EQ(tb_broadcast_result_text(bc), "1-0");
    tb_broadcast_pgn_flush(bc);
    char *text = tb_run_read_file(tb_broadcast_pgn_path(bc), NULL);
    ASSERT_STR_CONTAINS(text, "[Termination \"time forfeit\"]");
    free(text);
    tb_broadcast_free(bc);
    free(game);
}

TB_TEST(a_program_that_never_reads_blocks_nothing_and_is_cut_off)
{
    struct tb_broadcast_config cfg;
    tb_broadcast_config_default(&cfg);
    cfg.tcp = true;
    cfg.out_max = 4096;
    tb_broadcast *bc = tb_broadcast_new(&cfg, NULL);
    ASSERT_NOT_NULL(bc);
    struct prog p;
    int small = 4096;
    p.fd = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(p.fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    loopback(p.fd, tb_broadcast_tcp_port(bc));
    /* A flood of board requests, never a byte read: each handle returns at once. */
    uint8_t flood[4096];
    memset(flood, TB_DGT_CMD_SEND_BRD, sizeof flood);
    uint64_t end = mono_ms() + 20000;
    struct tb_broadcast_stats st;
    do {
        ASSERT_LT(mono_ms(), end);
        (void)!write(p.fd, flood, sizeof flood);
        struct pollfd fds[4];
        uint64_t deadline;
        int k = tb_broadcast_pollfds(bc, fds, 4, mono_ms(), &deadline);
        poll(fds, (nfds_t)k, 5);
        uint64_t t0 = mono_ms();
        ASSERT_OK(tb_broadcast_handle(bc, fds, k, mono_ms()));
        ASSERT_LT(mono_ms() - t0, 1000);
        tb_broadcast_stats(bc, &st);
    } while (st.closed == 0);
    ASSERT_GT(st.dropped, 0);
    close(p.fd);
    tb_broadcast_free(bc);
}

TB_TEST(bad_configuration_and_bad_calls_are_refused_with_a_reason)
{
    struct tb_broadcast_config cfg;
    tb_broadcast_config_default(&cfg);
    struct tb_error err;
    cfg.pty_link = "/nonexistent-dir/dgt";
    ASSERT_NULL(tb_broadcast_new(&cfg, &err));
    ASSERT_STR_CONTAINS(err.msg, "/nonexistent-dir/dgt");
    tb_broadcast_config_default(&cfg);
    strcpy(cfg.id.serial, "12a45");
    ASSERT_NULL(tb_broadcast_new(&cfg, &err));
    ASSERT_STR_CONTAINS(err.msg, "serial");
    tb_broadcast_config_default(&cfg);
    tb_broadcast *bc = tb_broadcast_new(&cfg, &err);
    ASSERT_NOT_NULL(bc);
    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_pos p960;
    tb_chess_pos_960(&p960, 0);
    tb_chess_game_init(game, &p960);
    ASSERT_EQ(tb_broadcast_agreed(bc, game, NULL, 0, &err), TB_ERR_STATE); /* no game yet */
    struct tb_broadcast_tags tags;
    fill_tags(&tags);
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, 0, &err));
    ASSERT_EQ(tb_broadcast_agreed(bc, game, NULL, 0, &err), TB_ERR_ARG); /* another start */
    strcpy(tags.white, "line\nbreak");
    ASSERT_EQ(tb_broadcast_new_game(bc, &tags, NULL, 0, &err), TB_ERR_ARG);
    tb_broadcast_free(bc);
    tb_broadcast_free(NULL);
    free(game);
}

TB_TEST(a_new_game_shows_its_start_to_every_program)
{
    struct tb_broadcast_config cfg;
    tb_broadcast_config_default(&cfg);
    cfg.tcp = true;
    tb_broadcast *bc = tb_broadcast_new(&cfg, NULL);
    ASSERT_NOT_NULL(bc);
    struct prog *progs = calloc(2, sizeof *progs);
    prog_connect(&progs[0], tb_broadcast_tcp_port(bc), false);
    prog_connect(&progs[1], tb_broadcast_tcp_port(bc), true);
    for (int i = 0; i < 20; i++)
        pump(bc, progs, 2);
    prog_cmd(&progs[0], TB_DGT_CMD_SEND_UPDATE);
    struct tb_broadcast_tags tags;
    fill_tags(&tags);
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, mono_ms(), NULL));
    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    tb_chess_game_init(game, &start);
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_parse(&game->pos, "e2e4", &m, NULL));
    ASSERT_OK(tb_chess_game_push(game, m));
    ASSERT_OK(tb_broadcast_agreed(bc, game, NULL, mono_ms(), NULL));
    prog_cmd(&progs[0], TB_DGT_CMD_SEND_BRD);
    until_shown(bc, progs, 1, &game->pos);
    /* The next game is Chess960 array 0: every program sees its start, the bus one by its
     * changes, which begin again after a start record. */
    tb_chess_pos p960;
    ASSERT_OK(tb_chess_pos_960(&p960, 0));
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, &p960, mono_ms(), NULL));
    prog_bus(&progs[1], TB_DGT_BUS_SEND_BRD, 1025);
    until_shown(bc, progs, 2, &p960);
    prog_bus(&progs[1], TB_DGT_BUS_SEND_FROM_START, 1025);
    while (progs[1].c.last_bus_id != TB_DGT_BUS_MSG_FROM_START)
        pump(bc, progs, 2);
    ASSERT_EQ(progs[1].c.ndata, 1);
    ASSERT_EQ(progs[1].c.data[0], TB_DGT_EE_BEGINPOS);
    /* UPDATE mode without a clock: one BWTIME saying so. */
    ASSERT_EQ(progs[0].c.bwtimes, 1);
    struct tb_dgt_bwtime bw;
    ASSERT_EQ(tb_dgt_bwtime_decode(progs[0].c.bw, &bw), TB_DGT_BW_NO_CLOCK);
    for (int i = 0; i < 2; i++)
        prog_close(&progs[i]);
    tb_broadcast_free(bc);
    free(progs);
    free(game);
}

TB_TEST(a_program_that_leaves_the_pty_and_comes_back_reads_the_board_afresh)
{
    char link[512];
    snprintf(link, sizeof link, "%s/dgt2", tb_test_tmp_dir());
    struct tb_broadcast_config cfg;
    tb_broadcast_config_default(&cfg);
    cfg.pty_link = link;
    tb_broadcast *bc = tb_broadcast_new(&cfg, NULL);
    ASSERT_NOT_NULL(bc);
    struct tb_broadcast_tags tags;
    fill_tags(&tags);
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, mono_ms(), NULL));
    struct prog p;
    prog_open_pty(&p, link, false);
    prog_cmd(&p, TB_DGT_CMD_SEND_UPDATE_BRD);
    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    tb_chess_game_init(game, &start);
    prog_cmd(&p, TB_DGT_CMD_SEND_BRD);
    until_shown(bc, &p, 1, &start);
    prog_close(&p);
    /* Moves while nobody reads: the loop goes on, nothing waits for a reader. */
    const char *moves[] = {"d2d4", "g8f6", "c2c4"};
    for (int i = 0; i < 3; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_parse(&game->pos, moves[i], &m, NULL));
        ASSERT_OK(tb_chess_game_push(game, m));
        ASSERT_OK(tb_broadcast_agreed(bc, game, NULL, mono_ms(), NULL));
        for (int k = 0; k < 5; k++)
            pump(bc, NULL, 0);
    }
    prog_open_pty(&p, link, false);
    prog_cmd(&p, TB_DGT_CMD_SEND_BRD);
    until_shown(bc, &p, 1, &game->pos);
    ASSERT_EQ(p.c.dumps, 1);
    ASSERT_EQ(p.c.updates, 0); /* nothing stale from while it was away */
    prog_close(&p);
    tb_broadcast_free(bc);
    free(game);
}

/* After a restart the game goes on in the file it was shown in, when that file holds its start;
 * a game that does not begin with the file's moves gets a file of its own. */
TB_TEST(a_resumed_game_keeps_its_file_and_another_game_gets_its_own)
{
    struct tb_broadcast_tags tags;
    fill_tags(&tags);
    tb_chess_pgn_game *src = bcast_load_game("twic0920.pgn", 442);
    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_game_init(game, &src->game.start);
    tb_broadcast *bc = pgn_only("resume");
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, 0, NULL));
    for (int i = 0; i < 10; i++) {
        ASSERT_OK(tb_chess_game_push(game, src->game.moves[i]));
        ASSERT_OK(tb_broadcast_agreed(bc, game, NULL, (uint64_t)i, NULL));
    }
    char first[1200];
    snprintf(first, sizeof first, "%s", tb_broadcast_pgn_path(bc));
    tb_broadcast_free(bc);        /* the daemon stops */
    for (int i = 10; i < 14; i++) /* moves agreed while the journal had them, before the restart */
        ASSERT_OK(tb_chess_game_push(game, src->game.moves[i]));
    bc = pgn_only("resume");
    ASSERT_OK(tb_broadcast_resume_game(bc, &tags, game, 20, NULL));
    ASSERT_STR_EQ(tb_broadcast_pgn_path(bc), first);
    check_own(first, game, "*");
    check_other(first, game, "*", true);
    tb_broadcast_free(bc);
    /* another game of the same pairing and round: not a continuation, a new file */
    tb_chess_game *other = malloc(sizeof *other);
    tb_chess_game_init(other, &src->game.start);
    tb_chess_movelist legal;
    ASSERT_GT(tb_chess_gen_legal(&other->start, &legal), 1);
    ASSERT_OK(tb_chess_game_push(other, legal.moves[legal.moves[0] == game->moves[0]]));
    bc = pgn_only("resume");
    ASSERT_OK(tb_broadcast_resume_game(bc, &tags, other, 30, NULL));
    ASSERT_TRUE(strcmp(tb_broadcast_pgn_path(bc), first) != 0);
    ASSERT_STR_CONTAINS(tb_broadcast_pgn_path(bc), "-2.pgn");
    check_own(first, game, "*"); /* the first file untouched */
    tb_broadcast_free(bc);
    free(other);
    free(game);
    free(src);
}

/* Makes path a file with mtime age_s seconds ago. */
static void plant(const char *path, long age_s)
{
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs("[Event \"half", f);
    ASSERT_OK(fclose(f));
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= age_s;
    t[1] = t[0];
    ASSERT_OK(utimensat(AT_FDCWD, path, t, 0));
}

/* A writer killed (kill -9) mid-write leaves its temporary file ".<game>.pgn.XXXXXX" beside the
 * live PGN: the next game's start removes it, and nothing else (a temporary file written just
 * now, which another table sharing the directory may be writing; a symbolic link; other files;
 * names that only look alike). */
TB_TEST(temporary_files_left_by_a_killed_writer_are_removed_at_the_next_start)
{
    struct tb_broadcast_tags tags;
    fill_tags(&tags);
    tb_broadcast *bc = pgn_only("temps");
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, 0, NULL));
    char dir[1200], path[1400];
    snprintf(dir, sizeof dir, "%s", tb_broadcast_pgn_path(bc));
    *strrchr(dir, '/') = '\0';
    tb_broadcast_free(bc);
    static const char *const gone[] = {".r1_Carlsen-Nepo.pgn.a1B2c3", ".x.pgn.ZZZZZZ"};
    static const char *const kept[] = {"notes.pgn.a1B2c3", ".x.pgn.abc", ".x.pgn.abc-ef",
                                       ".x.txt.abcdef"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, gone[i]);
        plant(path, 3600);
    }
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, kept[i]);
        plant(path, 3600);
    }
    snprintf(path, sizeof path, "%s/.fresh.pgn.qwerty", dir);
    plant(path, 0);
    char target[1400];
    snprintf(target, sizeof target, "%s/notes.pgn.a1B2c3", dir);
    snprintf(path, sizeof path, "%s/.link.pgn.abcdef", dir);
    ASSERT_OK(symlink(target, path));
    bc = pgn_only("temps");
    ASSERT_OK(tb_broadcast_new_game(bc, &tags, NULL, 10, NULL));
    struct tb_broadcast_stats st;
    tb_broadcast_stats(bc, &st);
    ASSERT_U64_EQ(st.pgn_temps_removed, 2);
    tb_broadcast_free(bc);
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, gone[i]);
        if (access(path, F_OK) == 0)
            TB_FAIL("%s is left", path);
    }
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, kept[i]);
        ASSERT_OK(access(path, F_OK));
    }
    snprintf(path, sizeof path, "%s/.fresh.pgn.qwerty", dir);
    ASSERT_OK(access(path, F_OK));
    snprintf(path, sizeof path, "%s/.link.pgn.abcdef", dir);
    struct stat ls;
    ASSERT_OK(lstat(path, &ls));
    ASSERT_TRUE(S_ISLNK(ls.st_mode));
}
