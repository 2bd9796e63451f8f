/* The broadcast through twinboardd (docs/broadcast.md): a game on two simulated boards with a
 * wrong replication resolved and a D.2.9 takeback, followed by two DGT programs on the daemon's
 * virtual board (one single-board on the pty, one in bus mode on loopback TCP): each sees exactly
 * the agreed positions in order, never the position of a board that disagreed, and after the
 * takeback the position taken back to. The live PGN is read back at every change of the game by
 * the project's reader and by pgn-extract and equals the daemon's `pgn` answer, while a thread
 * loops reading it and never finds it half written. The `result` request: PIN, PGN, journal
 * (a restarted daemon has it), status, both players hear it. */
#define _DEFAULT_SOURCE /* cfmakeraw */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../../unit/broadcast/bcast_client.h"
#include "fixture.h"
#include "tb_ctl.h"
#include "tb_run.h"
#include "tb_test.h"

/* ---- the script: moves by hand on both boards ------------------------------------------- */

struct script {
    char text[8192];
    size_t n;
    long t;
};

static void hand(struct script *s, const char *board, const char *from, const char *to)
{
    s->n +=
        (size_t)snprintf(s->text + s->n, sizeof s->text - s->n, "%ld %s lift %s\n%ld %s place %s\n",
                         s->t, board, from, s->t + 300, board, to);
    s->t += 800;
}

/* A move made on the board of the player to move, then replicated on the other. */
static void move(struct script *s, bool vi_first, const char *from, const char *to)
{
    hand(s, vi_first ? "vi" : "sighted", from, to);
    hand(s, vi_first ? "sighted" : "vi", from, to);
}

/* ---- a DGT program, checked message by message -------------------------------------------- */

/* The positions the programs must pass through, in order, and those they must never show. */
struct expect {
    uint8_t want[16][64];
    int nwant;
    uint8_t never[4][64];
    int nnever;
};

static void codes(const char *fen, uint8_t out[64])
{
    tb_chess_pos pos;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, fen, 0, NULL));
    tb_dgt_codes_of_pos(&pos, TB_DGT_ORIENT_NORMAL, out);
}

struct prog {
    int fd;
    struct bcast_client c;
    uint8_t fields[64]; /* bus: the board as the change records rebuild it, record by record */
    int updates_seen;
    int at; /* index of the last wanted position seen */
    const struct expect *e;
    const char *name;
};

/* One state of the program's board: the next wanted position (in order), never a forbidden one. */
static void look(struct prog *p, const uint8_t f[64])
{
    for (int i = 0; i < p->e->nnever; i++)
        if (!memcmp(f, p->e->never[i], 64))
            TB_FAIL("%s: shows forbidden position %d (a board that disagreed)", p->name, i);
    if (p->at + 1 < p->e->nwant && !memcmp(f, p->e->want[p->at + 1], 64))
        p->at++;
}

static void prog_read(struct prog *p)
{
    uint8_t buf[4096];
    ssize_t n;
    while ((n = read(p->fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++) { /* one byte at a time: each message seen alone */
            bcast_client_feed(&p->c, buf + i, 1);
            if (!p->c.bus) {
                look(p, p->c.shadow);
                continue;
            }
            for (; p->updates_seen < p->c.updates; p->updates_seen++)
                for (size_t r = 0; r < p->c.ndata;) { /* each change record alone */
                    size_t len = (p->c.data[r] & 0xE0) == 0x40 ? 2
                                 : (p->c.data[r] >= 0x60 && p->c.data[r] <= 0x79 &&
                                    p->c.data[r] != 0x6F && p->c.data[r] != 0x7B)
                                     ? 3
                                     : 1;
                    ASSERT_OK(bcast_client_apply_ee(p->fields, p->c.data + r, len));
                    look(p, p->fields);
                    r += len;
                }
        }
}

static void send_bytes(struct prog *p, const uint8_t *b, size_t n)
{
    ASSERT_EQ(write(p->fd, b, n), (ssize_t)n);
}

static void bus_cmd(struct prog *p, int cmd)
{
    uint8_t b[4];
    tb_dgt_bus_cmd_encode(b, sizeof b, cmd, 1025);
    send_bytes(p, b, 4);
}

/* ---- the daemon with its broadcast -------------------------------------------------------- */

static void configure(struct fx *f)
{
    struct tb_config_broadcast *b = &f->o.cfg.broadcast;
    ASSERT_LT(snprintf(b->dgt, sizeof b->dgt, "%s/dgt", f->dir), (int)sizeof b->dgt);
    b->tcp_port = 0; /* a free port */
    ASSERT_LT(snprintf(b->pgn_dir, sizeof b->pgn_dir, "%s/pgn", f->dir), (int)sizeof b->pgn_dir);
    struct tb_config_game *g = &f->o.cfg.game; /* the game's tags: [game] */
    snprintf(g->event, sizeof g->event, "Club championship");
    snprintf(g->site, sizeof g->site, "Hall 2");
    snprintf(g->date, sizeof g->date, "2026.11.24");
    snprintf(g->round, sizeof g->round, "4.2");
    snprintf(g->white, sizeof g->white, "Navara, David");
}

/* The value after "key " in status, up to the next of stop. */
static void status_field(struct fx *f, const char *key, const char *stop, char *out, size_t len)
{
    const char *st = fx_req(f, "status");
    const char *p = strstr(st, key);
    if (!p)
        TB_FAIL("status has no '%s': %s", key, st);
    p += strlen(key);
    snprintf(out, len, "%.*s", (int)strcspn(p, stop), p);
}

static int tcp_port(struct fx *f)
{
    char port[16];
    status_field(f, "tcp 127.0.0.1:", ",", port, sizeof port);
    return atoi(port);
}

/* The PGN text as read by the project's reader. */
static void parse(const char *text, tb_chess_pgn_game *g)
{
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, strlen(text));
    struct tb_error err = {0};
    if (tb_chess_pgn_read(&r, g, &err) != 1)
        TB_FAIL("PGN does not read: %s\n%s", err.msg, text);
}

/* The live PGN equals the daemon's `pgn` answer (tags of the roster, moves, result), read by our
 * reader, and pgn-extract reads the same moves, result and tags. */
static void check_pgn(struct fx *f, const char *path, int plies)
{
    static char text[1 << 16], answer[1 << 16], out[8192], uci[8192];
    tb_chess_pgn_game *live = malloc(sizeof *live), *daemon = malloc(sizeof *daemon);
    /* the writer thread gets the text to the disk: wait for it (10 s on a loaded machine); the
     * daemon asked again each time, as its clock may note the last move's time in between */
    for (int tries = 0;; tries++) {
        ASSERT_EQ(tb_ctl_answer_text(fx_req(f, "pgn"), answer, sizeof answer), 0);
        parse(answer, daemon);
        ASSERT_EQ(daemon->game.plies, plies);
        size_t len;
        char *t = tb_run_read_file(path, &len);
        snprintf(text, sizeof text, "%s", t);
        free(t);
        parse(text, live);
        if ((live->game.plies == plies && !strcmp(live->result, daemon->result) &&
             live->nnotes == daemon->nnotes) ||
            tries > 1000)
            break;
        usleep(10000);
    }
    ASSERT_EQ(live->game.plies, daemon->game.plies);
    for (int i = 0; i < plies; i++)
        ASSERT_EQ(live->game.moves[i], daemon->game.moves[i]);
    ASSERT_STR_EQ(live->result, daemon->result);
    static const char *const roster[] = {"Event", "Site",  "Date",  "Round",
                                         "White", "Black", "Result"};
    for (int i = 0; i < 7; i++)
        ASSERT_STR_EQ(tb_chess_pgn_tag_get(live, roster[i]),
                      tb_chess_pgn_tag_get(daemon, roster[i]));
    /* with a clock: its time control, and each move's [%clk] as the daemon's `pgn` has it */
    const char *tc = tb_chess_pgn_tag_get(daemon, "TimeControl");
    if (tc) {
        ASSERT_STR_EQ(tb_chess_pgn_tag_get(live, "TimeControl"), tc);
        ASSERT_EQ(live->nnotes, daemon->nnotes);
        for (int i = 0; i < live->nnotes; i++) {
            ASSERT_EQ(live->notes[i].ply, daemon->notes[i].ply);
            ASSERT_STR_EQ(live->text + live->notes[i].text, daemon->text + daemon->notes[i].text);
        }
        ASSERT_EQ(daemon->nnotes, plies);
    }
    /* the second reader */
    size_t n = 0;
    tb_chess_pos pos = live->game.start;
    for (int i = 0; i < plies; i++) {
        char m[8];
        tb_chess_move_to_uci(&pos, live->game.moves[i], m, sizeof m);
        n += (size_t)snprintf(uci + n, sizeof uci - n, "%s ", m);
        tb_chess_undo u;
        tb_chess_make(&pos, live->game.moves[i], &u);
    }
    snprintf(uci + n, sizeof uci - n, "%s", live->result);
    int rc = tb_run(out, sizeof out,
                    "%s/pgn_check.sh '%s' '%s' 'Event=Club championship' 'Site=Hall 2' "
                    "'Date=2026.11.24' 'Round=4.2' 'White=Navara, David' 'Result=%s' 2>&1",
                    TB_BCAST_SCRIPT_DIR, path, uci, live->result);
    if (rc == 77)
        TB_FAIL("pgn-extract is not installed (host/tools/dev test installs it): %s", out);
    if (rc != 0)
        TB_FAIL("pgn_check.sh: %s", out);
    free(live);
    free(daemon);
}

/* Turns the loop; the programs read (the bus program polls its changes) after each turn. At each
 * change of the agreed game the live PGN is checked. Until a mismatch is open or the scripts are
 * done. */
static unsigned run(struct fx *f, struct prog *progs, const char *path, int *checked)
{
    for (int i = 0; i < 20000; i++) {
        struct tb_daemon_counters c;
        tb_daemon_counters(f->d, &c);
        if (c.plies != *checked) {
            check_pgn(f, path, c.plies);
            *checked = c.plies;
        }
        bus_cmd(&progs[1], TB_DGT_BUS_SEND_CHANGES);
        for (int k = 0; k < 2; k++)
            prog_read(&progs[k]);
        if (c.mismatch || c.done)
            return c.mismatch;
        if (tb_daemon_step(f->d, 20) < 0)
            TB_FAIL("daemon step failed");
    }
    TB_FAIL("the game did not move on");
    return 0;
}

/* Steps until both programs have read everything sent so far. */
static void settle(struct fx *f, struct prog *progs)
{
    for (int i = 0; i < 50; i++) {
        bus_cmd(&progs[1], TB_DGT_BUS_SEND_CHANGES);
        tb_daemon_step(f->d, 10);
        usleep(2000);
        for (int k = 0; k < 2; k++)
            prog_read(&progs[k]);
    }
}

TB_TEST(dgt_programs_see_only_agreed_positions_in_order_and_the_live_pgn_is_the_daemons)
{
    struct script s = {.t = 1000};
    move(&s, true, "e2", "e4");  /* 1. e4 */
    move(&s, false, "e7", "e5"); /* 1... e5 */
    hand(&s, "vi", "g1", "f3");  /* 2. Nf3, the sighted board copies it as Nh3: mismatch 1 */
    hand(&s, "sighted", "g1", "h3");
    hand(&s, "sighted", "h3", "f3"); /* put right after the arbiter's resolve */
    move(&s, false, "b8", "c6");     /* 2... Nc6 */
    move(&s, true, "f1", "c4");      /* 3. Bc4 */
    move(&s, false, "f8", "c5");     /* 3... Bc5 */
    hand(&s, "vi", "c2",
         "c3"); /* 4. c3, copied as d3: mismatch 2; the arbiter takes back 3 (c3 too) */
    hand(&s, "sighted", "d2", "d3");
    hand(&s, "vi", "c3", "c2"); /* both boards back to the position after 2... Nc6 */
    hand(&s, "vi", "c5", "f8");
    hand(&s, "vi", "c4", "f1");
    hand(&s, "sighted", "d3", "d2");
    hand(&s, "sighted", "c5", "f8");
    hand(&s, "sighted", "c4", "f1");
    move(&s, true, "f1", "b5");  /* 3. Bb5 */
    move(&s, false, "a7", "a6"); /* 3... a6 */

    struct expect e = {0};
    static const char *const want[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", /* taken back */
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        codes(want[i], e.want[e.nwant++]);
    /* the boards that disagreed: 2. Nh3 on the sighted board; 4. c3 and 4. d3 */
    codes("rnbqkbnr/pppp1ppp/8/4p3/4P3/7N/PPPP1PPP/RNBQKB1R b KQkq - 1 2", e.never[e.nnever++]);
    codes("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/2P2N2/PP1P1PPP/RNBQK2R b KQkq - 0 4",
          e.never[e.nnever++]);
    codes("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 4",
          e.never[e.nnever++]);

    struct fx f;
    fx_init(&f, "bcast_game");
    fx_script(&f, s.text);
    fx_options(&f, "script", "script");
    configure(&f);
    f.o.exit_when_done = false; /* the result comes after the scripts */
    fx_start(&f);

    struct prog progs[2] = {{.e = &e, .name = "pty (single-board)", .at = -1},
                            {.e = &e, .name = "tcp (bus mode)", .at = -1}};
    /* Both programs are there before the first turn of the loop, so they see the game from its
     * start: the pty program asks for the board and field updates; the bus program reads the
     * change log from power-up (the standard start) with SEND_CHANGES. */
    char link[600];
    snprintf(link, sizeof link, "%s/dgt", f.dir);
    progs[0].fd = open(link, O_RDWR | O_NOCTTY | O_NONBLOCK);
    ASSERT_TRUE(progs[0].fd >= 0);
    struct termios t;
    ASSERT_OK(tcgetattr(progs[0].fd, &t));
    cfmakeraw(&t);
    ASSERT_OK(tcsetattr(progs[0].fd, TCSANOW, &t));
    bcast_client_init(&progs[0].c, false);
    static const uint8_t single[] = {TB_DGT_CMD_SEND_BRD, TB_DGT_CMD_SEND_UPDATE_BRD};
    send_bytes(&progs[0], single, sizeof single);

    progs[1].fd = socket(AF_INET, SOCK_STREAM, 0);
    union { /* the address as connect() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_in in;
    } a = {.in.sin_family = AF_INET};
    a.in.sin_port = htons((uint16_t)tcp_port(&f));
    a.in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_OK(connect(progs[1].fd, &a.sa, sizeof a.in));
    fcntl(progs[1].fd, F_SETFL, fcntl(progs[1].fd, F_GETFL) | O_NONBLOCK);
    bcast_client_init(&progs[1].c, true);
    memcpy(progs[1].fields, e.want[0], 64);
    progs[1].at = 0;

    char pgn_path[600];
    status_field(&f, "live PGN ", " (", pgn_path, sizeof pgn_path);
    struct bcast_looper l = {.path = pgn_path};
    pthread_t th;
    ASSERT_OK(pthread_create(&th, NULL, bcast_loop_reader, &l));

    int checked = -1;
    ASSERT_EQ(run(&f, progs, pgn_path, &checked), 1u); /* mismatch 1: Nh3 for Nf3 */
    settle(&f, progs);
    for (int k = 0; k < 2; k++)
        ASSERT_EQ(progs[k].at, 2); /* after 1... e5, nothing of the mismatch */
    ASSERT_STR_EQ(fx_req(&f, "resolve 1 pin=" FX_PIN), "ok\n");
    ASSERT_EQ(run(&f, progs, pgn_path, &checked), 2u); /* mismatch 2: d3 for c3 */
    settle(&f, progs);
    for (int k = 0; k < 2; k++)
        ASSERT_EQ(progs[k].at, 6);
    ASSERT_STR_EQ(fx_req(&f, "takeback 3 pin=" FX_PIN), "ok\n");
    check_pgn(&f, pgn_path, 4); /* the live PGN taken back too */
    checked = 4;
    settle(&f, progs);
    /* the position taken back to (the tracker moves in order only: at 7 or later, it was seen
     * right after the position before mismatch 2, as the scripts play on meanwhile) */
    for (int k = 0; k < 2; k++)
        ASSERT_GE(progs[k].at, 7);
    f.o.exit_when_done = true;
    for (int i = 0; i < 2000 && fx_plies(&f) < 6; i++)
        run(&f, progs, pgn_path, &checked);
    settle(&f, progs);
    for (int k = 0; k < 2; k++) {
        ASSERT_EQ(progs[k].at, e.nwant - 1);
        ASSERT_EQ(progs[k].c.bad, 0);
    }
    check_pgn(&f, pgn_path, 6);

    /* the result: PIN needed, then in the PGN (both), status, the log of what was said */
    ASSERT_STR_CONTAINS(fx_req(&f, "result draw"), "error denied");
    ASSERT_STR_CONTAINS(fx_req(&f, "result threefold pin=" FX_PIN), "error illegal");
    ASSERT_STR_EQ(fx_req(&f, "result draw pin=" FX_PIN), "ok\n");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"),
                        "game over after ply 6: 1/2-1/2, draw agreed (5.2.3)");
    ASSERT_STR_CONTAINS(fx_req(&f, "result resign white pin=" FX_PIN), "error state");
    check_pgn(&f, pgn_path, 6);
    ASSERT_STR_CONTAINS(f.log, "say to vi (White): Partie beendet, remis");
    ASSERT_STR_CONTAINS(f.log, "say to sighted (Black): Partie beendet, remis");

    atomic_store(&l.stop, true);
    pthread_join(th, NULL);
    if (l.bad)
        TB_FAIL("the looping reader saw %ld of %ld reads half written: %s", l.bad, l.reads, l.why);
    ASSERT_GT(l.reads, 10);
    for (int k = 0; k < 2; k++) {
        close(progs[k].fd);
        bcast_client_free(&progs[k].c);
    }
    fx_stop(&f);

    /* a restarted daemon has the result from its journal, and shows it */
    fx_options(&f, "null:", "null:");
    configure(&f);
    f.o.exit_when_done = false;
    fx_start(&f);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"),
                        "game over after ply 6: 1/2-1/2, draw agreed (5.2.3)");
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "1/2-1/2");
    /* the same live PGN file goes on (a follower keeps its address), holding the whole game */
    char again[600];
    status_field(&f, "live PGN ", " (", again, sizeof again);
    ASSERT_STR_EQ(again, pgn_path);
    check_pgn(&f, pgn_path, 6);
    fx_free(&f);
}

/* The arbiter's decision with a reason, resignation, flag (6.9) and new-game tags; the live PGN
 * of each game is its own file. */
TB_TEST(result_requests_and_new_game_tags_reach_the_pgn)
{
    struct script s = {.t = 1000};
    move(&s, true, "e2", "e4");
    struct fx f;
    fx_init(&f, "bcast_result");
    fx_script(&f, s.text);
    fx_options(&f, "script", "script");
    configure(&f);
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 1000), 0u);
    ASSERT_STR_CONTAINS(fx_req(&f, "result arbiter 2-0 pin=" FX_PIN), "error syntax");
    ASSERT_STR_CONTAINS(fx_req(&f, "result resign grey pin=" FX_PIN), "error syntax");
    ASSERT_STR_EQ(fx_req(&f, "result arbiter 0-1 \"illegal device\" pin=" FX_PIN), "ok\n");
    const char *pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "[Result \"0-1\"]");
    ASSERT_STR_CONTAINS(pgn, "the arbiter's decision: illegal device");
    char path1[600], path2[600];
    status_field(&f, "live PGN ", " (", path1, sizeof path1);
    ASSERT_STR_EQ(fx_req(&f, "new-game white=\"Carlsen, Magnus\" round=5 pin=" FX_PIN), "ok\n");
    status_field(&f, "live PGN ", " (", path2, sizeof path2);
    ASSERT_TRUE(strcmp(path1, path2) != 0);
    ASSERT_STR_CONTAINS(path2, "r5_Carlsen__Magnus-");
    pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "[White \"Carlsen, Magnus\"]");
    ASSERT_STR_CONTAINS(pgn, "[Round \"5\"]");
    ASSERT_STR_CONTAINS(pgn, "[Result \"*\"]");
    ASSERT_STR_EQ(fx_req(&f, "result flag black pin=" FX_PIN), "ok\n"); /* 6.9: White can mate */
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "result 1-0");
    size_t len;
    char *first = tb_run_read_file(path1, &len);
    ASSERT_STR_CONTAINS(first, "0-1");
    free(first);
    fx_stop(&f);
    /* recovery: the new game's tags and its result come back from the journal, in its file */
    fx_options(&f, "null:", "null:");
    configure(&f);
    f.o.exit_when_done = false;
    fx_start(&f);
    pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "[White \"Carlsen, Magnus\"]");
    ASSERT_STR_CONTAINS(pgn, "[Result \"1-0\"]");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "Black's flag fell (6.9)");
    char path3[600];
    status_field(&f, "live PGN ", " (", path3, sizeof path3);
    ASSERT_STR_EQ(path3, path2);
    fx_free(&f);
}

/* On the wall clock, as at a table, with the built-in clock running, one move is agreed at a time:
 * after every move the live PGN (its TimeControl and every [%clk] too)
 * is the daemon's `pgn` answer and pgn-extract reads it, while a reader looping on the file never
 * finds it half written. */
TB_TEST(the_live_pgn_after_every_move_is_the_daemons_and_pgn_extract_reads_it)
{
    struct fx f;
    fx_init(&f, "bcast_each");
    tb_chess_move moves[256];
    int n = tb_daemon_demo_moves(moves, 256);
    ASSERT_GT(n, 16);
    n = 16;
    /* a pause long enough for pgn-extract's check of one ply to end before the next is agreed,
       on a loaded machine too: each ply is checked on its own */
    struct tb_daemon_demo_script s = {
        .moves = moves, .nmoves = n, .pause_ms = tb_test_ms(700), .seed = 3};
    struct tb_error err = {0};
    if (tb_daemon_demo_script_write(&s, f.script, &err) != TB_OK)
        TB_FAIL("script: %s", err.msg);
    fx_options(&f, "script", "script");
    configure(&f);
    /* the built-in clock: the live PGN's TimeControl and [%clk] are the daemon's */
    f.o.cfg.clock.source = TB_CONFIG_CLOCK_BUILTIN;
    snprintf(f.o.cfg.clock.control, sizeof f.o.cfg.clock.control, "90m+30s");
    f.o.speed = TB_DAEMON_SPEED_REALTIME;
    f.o.exit_when_done = false;
    fx_start(&f);
    char pgn_path[600];
    status_field(&f, "live PGN ", " (", pgn_path, sizeof pgn_path);
    struct bcast_looper l = {.path = pgn_path};
    pthread_t th;
    ASSERT_OK(pthread_create(&th, NULL, bcast_loop_reader, &l));
    int checked = 0, checks = 0;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct tb_daemon_counters c;
        tb_daemon_counters(f.d, &c);
        ASSERT_EQ(c.mismatch, 0u);
        if (c.plies != checked) {
            if (c.plies != checked + 1)
                TB_FAIL("plies %d to %d agreed in one turn: not checked after each", checked + 1,
                        c.plies);
            check_pgn(&f, pgn_path, c.plies);
            checked = c.plies;
            checks++;
        }
        if (checked == n)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > 120 * tb_test_time_multiplier())
            TB_FAIL("%d of %d plies agreed in 120 s", checked, n);
        ASSERT_GE(tb_daemon_step(f.d, 20), 0);
    }
    atomic_store(&l.stop, true);
    pthread_join(th, NULL);
    ASSERT_EQ(checks, n);
    ASSERT_GT(l.reads, 0);
    if (l.bad)
        TB_FAIL("the looping reader found %ld of %ld texts not whole: %s", l.bad, l.reads, l.why);
    fx_free(&f);
}

/* ---- [broadcast] delay --------------------------------------------------------------------- */

static double mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

/* A single-board DGT program on the daemon's pty, following the game's positions in order. */
static void pty_open(struct fx *f, struct prog *p, const struct expect *e)
{
    char link[600];
    snprintf(link, sizeof link, "%s/dgt", f->dir);
    *p = (struct prog){.e = e, .name = "pty (single-board)", .at = -1};
    p->fd = open(link, O_RDWR | O_NOCTTY | O_NONBLOCK);
    ASSERT_TRUE(p->fd >= 0);
    struct termios t;
    ASSERT_OK(tcgetattr(p->fd, &t));
    cfmakeraw(&t);
    ASSERT_OK(tcsetattr(p->fd, TCSANOW, &t));
    bcast_client_init(&p->c, false);
    static const uint8_t single[] = {TB_DGT_CMD_SEND_BRD, TB_DGT_CMD_SEND_UPDATE_BRD};
    send_bytes(p, single, sizeof single);
}

static void pty_close(struct prog *p)
{
    close(p->fd);
    bcast_client_free(&p->c);
}

/* What the public sees against when each ply was agreed: agreed[k] the time ply k + 1 was
 * agreed (the daemon's `pgn` had it), seen[k] when the live PGN / the board first showed it. */
struct delayed {
    double agreed[16], pgn_seen[16], board_seen[16];
    int agreed_n, pgn_n, board_n; /* plies agreed, and shown so far by each */
    double delay, early;          /* the delay; how much sooner a ply may show (write latency) */
};

static int live_plies(const char *path, char *result, size_t len)
{
    static tb_chess_pgn_game g;
    size_t n;
    char *t = tb_run_read_file(path, &n);
    parse(t, &g);
    free(t);
    snprintf(result, len, "%s", g.result);
    return g.game.plies;
}

/* One look at the live PGN and the board: every ply shown is at least the delay old. */
static void look_public(struct delayed *v, const char *path, struct prog *board)
{
    char result[16];
    int plies = live_plies(path, result, sizeof result);
    double now = mono_ms();
    ASSERT_TRUE(plies >= v->pgn_n); /* nothing shown is taken back: no takeback here */
    for (; v->pgn_n < plies; v->pgn_n++) {
        ASSERT_LT(v->pgn_n, v->agreed_n); /* never a ply not agreed yet */
        double lat = now - v->agreed[v->pgn_n];
        if (lat < v->delay - v->early)
            TB_FAIL("live PGN: ply %d shown %.0f ms after it was agreed (delay %.0f ms)",
                    v->pgn_n + 1, lat, v->delay);
        v->pgn_seen[v->pgn_n] = now;
    }
    if (!board)
        return;
    prog_read(board);
    /* after a restart the plies held back come together: the board leaps to the newest */
    for (int k = board->e->nwant - 1; k > board->at; k--)
        if (!memcmp(board->c.shadow, board->e->want[k], 64))
            board->at = k;
    for (; v->board_n < board->at; v->board_n++) { /* board->at: plies the board showed */
        ASSERT_LT(v->board_n, v->agreed_n);
        double lat = now - v->agreed[v->board_n];
        if (lat < v->delay - v->early)
            TB_FAIL("virtual board: ply %d shown %.0f ms after it was agreed (delay %.0f ms)",
                    v->board_n + 1, lat, v->delay);
        if (!v->board_seen[v->board_n]) /* a program after a restart sees the old plies again */
            v->board_seen[v->board_n] = now;
    }
}

/* The daemon's `pgn` has every agreed ply at once. */
static void note_agreed(struct fx *f, struct delayed *v)
{
    int plies = fx_plies(f);
    if (plies == v->agreed_n)
        return;
    double now = mono_ms();
    static tb_chess_pgn_game g;
    static char answer[1 << 16];
    ASSERT_EQ(tb_ctl_answer_text(fx_req(f, "pgn"), answer, sizeof answer), 0);
    parse(answer, &g);
    ASSERT_EQ(g.game.plies, plies);
    for (; v->agreed_n < plies; v->agreed_n++)
        v->agreed[v->agreed_n] = now;
}

static void delay_configure(struct fx *f, int delay_ms)
{
    configure(f);
    f->o.cfg.broadcast.delay_ms = (uint64_t)delay_ms;
    f->o.cfg.clock.source = TB_CONFIG_CLOCK_BUILTIN;
    snprintf(f->o.cfg.clock.control, sizeof f->o.cfg.clock.control, "90m+30s");
    f->o.speed = TB_DAEMON_SPEED_REALTIME;
    f->o.exit_when_done = false;
}

/* [broadcast] delay = 2 s on the wall clock with the built-in clock running: after each agreed
 * ply the daemon's `pgn` has it at once, while the live PGN and the virtual board show it no
 * sooner than the delay and within the delay + 1 s; the daemon restarted with plies still held
 * back shows none of them sooner (and keeps what the public had); the result too waits for the
 * delay; at the end the live PGN is the daemon's `pgn`, every [%clk] with it. */
TB_TEST(the_delayed_live_pgn_and_board_show_each_ply_once_it_is_the_delay_old)
{
    struct fx f;
    fx_init(&f, "bcast_delay");
    tb_chess_move moves[256];
    enum { N = 5 };
    ASSERT_GT(tb_daemon_demo_moves(moves, 256), N);
    struct tb_daemon_demo_script s = {
        .moves = moves, .nmoves = N, .pause_ms = tb_test_ms(500), .seed = 5};
    struct tb_error err = {0};
    if (tb_daemon_demo_script_write(&s, f.script, &err) != TB_OK)
        TB_FAIL("script: %s", err.msg);
    struct expect e = {0};
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    for (int i = 0; i <= N; i++) {
        tb_dgt_codes_of_pos(&pos, TB_DGT_ORIENT_NORMAL, e.want[e.nwant++]);
        tb_chess_undo u;
        if (i < N)
            tb_chess_make(&pos, moves[i], &u);
    }
    const int delay = tb_test_ms(2000);
    struct delayed v = {.delay = delay, .early = tb_test_ms(100)};
    fx_options(&f, "script", "script");
    delay_configure(&f, delay);
    fx_start(&f);
    struct prog board;
    pty_open(&f, &board, &e);
    char path[600];
    status_field(&f, "live PGN ", " (", path, sizeof path);
    /* until every ply is agreed, then the daemon stops at once: plies held back meanwhile */
    double t0 = mono_ms();
    while (v.agreed_n < N) {
        ASSERT_GE(tb_daemon_step(f.d, 20), 0);
        note_agreed(&f, &v);
        look_public(&v, path, &board);
        struct tb_daemon_counters c;
        tb_daemon_counters(f.d, &c);
        ASSERT_EQ(c.mismatch, 0u);
        if (mono_ms() - t0 > 60000.0 * tb_test_time_multiplier())
            TB_FAIL("%d of %d plies agreed in 60 s", v.agreed_n, N);
    }
    ASSERT_LT(v.pgn_n, N); /* the last ply is held back when the daemon stops */
    int before = v.pgn_n;
    pty_close(&board);
    fx_stop(&f);
    fx_options(&f, "null:", "null:");
    delay_configure(&f, delay);
    fx_start(&f);
    double restarted = mono_ms();
    pty_open(&f, &board, &e);
    board.at = before - 1; /* a program started now first sees the board the public had */
    char again[600];
    status_field(&f, "live PGN ", " (", again, sizeof again);
    ASSERT_STR_EQ(again, path); /* the public's file goes on */
    char result[16];
    ASSERT_GE(live_plies(path, result, sizeof result), before); /* what the public had, kept */
    v.board_n = 0;
    while (v.pgn_n < N || v.board_n < N) {
        ASSERT_GE(tb_daemon_step(f.d, 20), 0);
        look_public(&v, path, &board);
        if (mono_ms() - restarted > delay + tb_test_ms(1000))
            TB_FAIL("after the restart %d of %d plies in the live PGN, %d on the board, after "
                    "the delay + 1 s",
                    v.pgn_n, N, v.board_n);
    }
    /* before the restart each ply was shown at most a second after the delay; after it, the
     * plies held back within the delay + 1 s of the restart (the loop above) */
    double lo = 1e9, hi = 0, blo = 1e9, bhi = 0;
    for (int k = 0; k < before; k++) {
        double lat = v.pgn_seen[k] - v.agreed[k], blat = v.board_seen[k] - v.agreed[k];
        ASSERT_LT(lat, delay + tb_test_ms(1000));
        ASSERT_LT(blat, delay + tb_test_ms(1000));
        lo = lat < lo ? lat : lo, hi = lat > hi ? lat : hi;
        blo = blat < blo ? blat : blo, bhi = blat > bhi ? blat : bhi;
    }
    printf("delay %d ms, plies 1-%d before the restart: agreed -> live PGN %.0f-%.0f ms, -> "
           "virtual board %.0f-%.0f ms\n",
           delay, before, lo, hi, blo, bhi);
    check_pgn(&f, path, N); /* moves, tags and every [%clk] the daemon's */
    /* the result: in `pgn` at once, in the live PGN once it is the delay old */
    ASSERT_STR_EQ(fx_req(&f, "result draw pin=" FX_PIN), "ok\n");
    double drawn = mono_ms(), result_lat = 0;
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "[Result \"1/2-1/2\"]");
    for (;;) {
        ASSERT_GE(tb_daemon_step(f.d, 20), 0);
        live_plies(path, result, sizeof result);
        double lat = mono_ms() - drawn;
        if (strcmp(result, "*") != 0) {
            ASSERT_STR_EQ(result, "1/2-1/2");
            ASSERT_GE(lat, delay - v.early);
            result_lat = lat;
            break;
        }
        if (lat > delay + tb_test_ms(1000))
            TB_FAIL("the result is not in the live PGN after the delay + 1 s");
    }
    printf("restart to the last ply shown %.0f ms; result to the live PGN %.0f ms; all %.0f ms\n",
           v.pgn_seen[N - 1] - restarted, result_lat, mono_ms() - t0);
    pty_close(&board);
    fx_free(&f);
}
