/* test_broadcast.c - the virtual DGT board and the live PGN text (host/broadcast), pure part:
 * a program reading the board in single-board and in bus mode rebuilds a whole real game fed
 * as agreed positions, with a takeback in the middle; identity, clock, garbage; PGN text. */
#include <stdlib.h>
#include <string.h>

#include "bcast_client.h"
#include "tb_broadcast.h"
#include "tb_file.h"
#include "tb_run.h"
#include "tb_test.h"

/* Game 197 of twic0920.pgn has castling, en passant and a promotion (INDEX.tsv). */
#define GAME_FILE "twic0920.pgn"

struct rig {
    struct tb_broadcast_board board;
    struct tb_broadcast_session s;
    struct bcast_client c;
    uint64_t now;
};

static void to_client(void *user, const uint8_t *b, size_t n)
{
    bcast_client_feed(user, b, n);
}

static void rig_init(struct rig *r, bool bus)
{
    tb_chess_pos start;
    struct tb_dgt_update ch[64];
    tb_broadcast_board_init(&r->board, NULL);
    tb_chess_pos_startpos(&start);
    tb_broadcast_board_show(&r->board, &start, 0, ch);
    tb_broadcast_board_mark_start(&r->board, 0);
    tb_broadcast_session_init(&r->s, &r->board);
    bcast_client_init(&r->c, bus);
    r->now = 1000;
}

static void send(struct rig *r, const uint8_t *b, size_t n)
{
    tb_broadcast_session_input(&r->s, &r->board, b, n, r->now, to_client, &r->c);
}

static void send1(struct rig *r, int cmd)
{
    uint8_t b = (uint8_t)cmd;
    send(r, &b, 1);
}

static void send_bus(struct rig *r, int cmd, int address)
{
    uint8_t b[4];
    ASSERT_EQ(tb_dgt_bus_cmd_encode(b, sizeof b, cmd, address), 4);
    send(r, b, 4);
}

/* The agreed position changes: the board shows it, the session hears of the changes. */
static void agree(struct rig *r, const tb_chess_pos *pos)
{
    struct tb_dgt_update ch[64];
    r->now += 1500;
    int n = tb_broadcast_board_show(&r->board, pos, r->now, ch);
    tb_broadcast_session_changes(&r->s, ch, n, to_client, &r->c);
}

static void assert_shows(const struct rig *r, const tb_chess_pos *pos)
{
    uint8_t want[64];
    tb_dgt_codes_of_pos(pos, TB_DGT_ORIENT_NORMAL, want);
    ASSERT_TRUE(memcmp(r->c.shadow, want, 64) == 0);
}

/* The agreed positions of the game in order, with a takeback of two plies at the middle
 * (D.2.9: the arbiter takes back to where the boards last agreed) and the game then played
 * on to its end. Calls step after each. */
static void play(struct rig *r, const tb_chess_pgn_game *g, void (*step)(struct rig *, int))
{
    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_game_init(game, &g->game.start);
    int mid = g->game.plies / 2, taken = 0;
    for (int i = 0; i < g->game.plies; i++) {
        ASSERT_OK(tb_chess_game_push(game, g->game.moves[i]));
        agree(r, &game->pos);
        step(r, game->plies);
        assert_shows(r, &game->pos);
        if (i + 1 == mid && !taken) {
            taken = 1;
            tb_chess_game_pop(game);
            tb_chess_game_pop(game);
            agree(r, &game->pos);
            step(r, game->plies);
            assert_shows(r, &game->pos); /* the taken-back position */
            i -= 2;
        }
    }
    free(game);
}

static void no_step(struct rig *r, int ply)
{
    (void)r;
    (void)ply;
}

TB_TEST(single_board_client_follows_the_agreed_game_and_a_takeback)
{
    tb_chess_pgn_game *g = bcast_load_game(GAME_FILE, 197);
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, false);
    send1(r, TB_DGT_CMD_RESET);
    send1(r, TB_DGT_CMD_SEND_BRD);
    ASSERT_EQ(r->c.dumps, 1);
    assert_shows(r, &g->game.start);
    send1(r, TB_DGT_CMD_SEND_UPDATE_BRD);
    play(r, g, no_step);
    /* Every field update was one the position needed: one or two per ply, a few for castling,
     * en passant and the takeback, never a position of its own. */
    ASSERT_GT(r->c.updates, 2 * g->game.plies);
    ASSERT_LT(r->c.updates, 2 * g->game.plies + 16);
    ASSERT_EQ(r->c.bad, 0);
    struct tb_dgt_decoder_stats st;
    tb_dgt_decoder_stats(r->c.dec, &st);
    ASSERT_U64_EQ(st.garbage, 0);
    /* A dump at the end agrees with the updates. */
    uint8_t before[64];
    memcpy(before, r->c.shadow, 64);
    send1(r, TB_DGT_CMD_SEND_BRD);
    ASSERT_TRUE(memcmp(before, r->c.shadow, 64) == 0);
    bcast_client_free(&r->c);
    free(r);
    free(g);
}

/* Bus mode as DGT LiveChess drives it: ping, the board, the changes since the last poll. */
static void bus_poll(struct rig *r, int ply)
{
    (void)ply;
    int addr = tb_broadcast_bus_address(&r->board.id);
    int before = r->c.updates;
    send_bus(r, TB_DGT_BUS_SEND_CHANGES, addr);
    ASSERT_EQ(r->c.updates, before + 1);
    /* A repeat gives the same records and changes nothing when applied again. */
    uint8_t data[TB_DGT_MAX_LEN];
    size_t n = r->c.ndata;
    memcpy(data, r->c.data, n);
    send_bus(r, TB_DGT_BUS_REPEAT_CHANGES, addr);
    ASSERT_EQ(r->c.ndata, n);
    ASSERT_TRUE(memcmp(data, r->c.data, n) == 0);
}

TB_TEST(bus_mode_client_follows_the_agreed_game_and_a_takeback)
{
    tb_chess_pgn_game *g = bcast_load_game(GAME_FILE, 197);
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, true);
    int addr = tb_broadcast_bus_address(&r->board.id);
    send_bus(r, TB_DGT_BUS_PING, 0);
    ASSERT_EQ(r->c.pings, 1);
    ASSERT_EQ(r->c.address, addr);
    send_bus(r, TB_DGT_BUS_SEND_BRD, addr);
    ASSERT_EQ(r->c.dumps, 1);
    assert_shows(r, &g->game.start);
    send_bus(r, TB_DGT_BUS_SEND_CHANGES, addr); /* nothing yet */
    ASSERT_EQ(r->c.ndata, 0);
    play(r, g, bus_poll);
    ASSERT_EQ(r->c.bad, 0);
    /* From the start: the start record, then every change; applied to the start position it
     * gives the position now. */
    send_bus(r, TB_DGT_BUS_SEND_FROM_START, addr);
    ASSERT_EQ(r->c.last_bus_id, TB_DGT_BUS_MSG_FROM_START);
    ASSERT_EQ(r->c.data[0], TB_DGT_EE_BEGINPOS);
    uint8_t fields[64];
    tb_dgt_codes_of_pos(&g->game.start, TB_DGT_ORIENT_NORMAL, fields);
    ASSERT_OK(bcast_client_apply_ee(fields, r->c.data, r->c.ndata));
    ASSERT_TRUE(memcmp(fields, r->c.shadow, 64) == 0);
    bcast_client_free(&r->c);
    free(r);
    free(g);
}

TB_TEST(bus_mode_answers_its_address_only_and_drops_bad_checksums)
{
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, true);
    int addr = tb_broadcast_bus_address(&r->board.id);
    ASSERT_EQ(addr, 1025); /* serial 01025 */
    send_bus(r, TB_DGT_BUS_SEND_BRD, addr + 1);
    send_bus(r, TB_DGT_BUS_SEND_BRD, 0); /* only PING goes to every board */
    ASSERT_EQ(r->c.dumps, 0);
    uint8_t bad[4];
    tb_dgt_bus_cmd_encode(bad, sizeof bad, TB_DGT_BUS_SEND_BRD, addr);
    bad[3] ^= 1;
    send(r, bad, 4);
    ASSERT_EQ(r->c.dumps, 0);
    ASSERT_U64_EQ(r->s.stats.bad_checksum, 1);
    /* IGNORE_NEXT_BUS_PING: the next ping goes unanswered, the one after is answered. */
    send_bus(r, TB_DGT_BUS_IGNORE_NEXT_PING, addr);
    send_bus(r, TB_DGT_BUS_PING, 0);
    ASSERT_EQ(r->c.pings, 0);
    send_bus(r, TB_DGT_BUS_PING, addr);
    ASSERT_EQ(r->c.pings, 1);
    send_bus(r, TB_DGT_BUS_SEND_VERSION, addr);
    ASSERT_EQ(r->c.major, 1);
    ASSERT_EQ(r->c.minor, 2);
    /* SET_START_GAME is answered and the START_TAG is what SEND_FROM_START begins with. */
    send_bus(r, TB_DGT_BUS_SET_START_GAME, addr);
    ASSERT_EQ(r->c.last_bus_id, TB_DGT_BUS_MSG_START_GAME_WRITTEN);
    send_bus(r, TB_DGT_BUS_SEND_FROM_START, addr);
    ASSERT_EQ(r->c.ndata, 1);
    ASSERT_EQ(r->c.data[0], TB_DGT_EE_START_TAG);
    /* Draughts commands are well formed and ignored. */
    send_bus(r, TB_DGT_BUS_SEND_BRD_50B, addr);
    ASSERT_EQ(r->c.last_bus_id, TB_DGT_BUS_MSG_FROM_START);
    /* END_BUSMODE: single-board from here. */
    send_bus(r, TB_DGT_BUS_END_BUSMODE, addr);
    ASSERT_EQ(r->s.mode, TB_BROADCAST_IDLE);
    bcast_client_free(&r->c);
    free(r);
}

TB_TEST(board_powers_up_in_bus_mode_and_a_single_board_command_leaves_it)
{
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, false);
    ASSERT_EQ(r->s.mode, TB_BROADCAST_BUS);
    send1(r, TB_DGT_CMD_SEND_UPDATE_NICE);
    ASSERT_EQ(r->s.mode, TB_BROADCAST_UPDATE_NICE);
    send1(r, TB_DGT_CMD_TO_BUSMODE);
    ASSERT_EQ(r->s.mode, TB_BROADCAST_BUS);
    send1(r, TB_DGT_CMD_SEND_BRD);
    ASSERT_EQ(r->s.mode, TB_BROADCAST_IDLE);
    ASSERT_EQ(r->c.dumps, 1);
    bcast_client_free(&r->c);
    free(r);
}

TB_TEST(identity_replies_as_a_real_board)
{
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, false);
    send1(r, TB_DGT_CMD_RETURN_SERIALNR);
    send1(r, TB_DGT_CMD_RETURN_LONG_SERIALNR);
    send1(r, TB_DGT_CMD_SEND_VERSION);
    send1(r, TB_DGT_CMD_SEND_TRADEMARK);
    send1(r, TB_DGT_CMD_RETURN_BUSADRES);
    ASSERT_STR_EQ(r->c.serial, "01025");
    ASSERT_STR_EQ(r->c.long_serial, "0000001025");
    ASSERT_EQ(r->c.major, 1);
    ASSERT_EQ(r->c.minor, 2);
    ASSERT_STR_CONTAINS(r->c.trademark, "twinboard");
    ASSERT_EQ(r->c.busadres, 1025);
    ASSERT_U64_EQ(r->s.stats.commands, 5);
    bcast_client_free(&r->c);
    free(r);
}

TB_TEST(bwtime_shows_the_clock_white_left_and_no_clock_when_none)
{
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, false);
    struct tb_dgt_bwtime bw;
    send1(r, TB_DGT_CMD_SEND_CLK);
    ASSERT_EQ(tb_dgt_bwtime_decode(r->c.bw, &bw), TB_DGT_BW_NO_CLOCK);
    struct tb_broadcast_clock clk = {true, 5400000, 5395500, TB_CHESS_BLACK, r->now};
    tb_broadcast_board_set_clock(&r->board, &clk, r->now);
    r->now += 2500; /* Black's clock ran 2.5 s */
    send1(r, TB_DGT_CMD_SEND_CLK);
    ASSERT_EQ(tb_dgt_bwtime_decode(r->c.bw, &bw), TB_DGT_BW_TIMES);
    ASSERT_EQ(bw.left.seconds, 5400);
    ASSERT_EQ(bw.right.seconds, 5393); /* 5395.5 - 2.5 */
    ASSERT_TRUE(tb_dgt_bwtime_right_runs(&bw));
    ASSERT_TRUE(bw.status & TB_DGT_ST_RUNNING);
    /* More than 9:59:59 shows as 9:59:59. */
    clk = (struct tb_broadcast_clock){true, 40000000, 100, TB_BROADCAST_NO_SIDE, r->now};
    tb_broadcast_board_set_clock(&r->board, &clk, r->now);
    send1(r, TB_DGT_CMD_SEND_CLK);
    ASSERT_EQ(tb_dgt_bwtime_decode(r->c.bw, &bw), TB_DGT_BW_TIMES);
    ASSERT_EQ(bw.left.seconds, 35999);
    ASSERT_EQ(bw.right.seconds, 0);
    ASSERT_TRUE(bw.right.flag_fell);
    ASSERT_FALSE(bw.status & TB_DGT_ST_RUNNING);
    bcast_client_free(&r->c);
    free(r);
}

TB_TEST(update_sends_bwtime_each_second_update_nice_only_when_it_changes)
{
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, false);
    struct tb_broadcast_clock clk = {true, 60000, 60000, TB_BROADCAST_NO_SIDE, r->now};
    tb_broadcast_board_set_clock(&r->board, &clk, r->now);
    send1(r, TB_DGT_CMD_SEND_UPDATE_NICE);
    for (int i = 0; i < 10; i++, r->now += 500)
        tb_broadcast_session_tick(&r->s, &r->board, r->now, to_client, &r->c);
    ASSERT_EQ(r->c.bwtimes, 1); /* stopped clock: said once */
    clk.running = TB_CHESS_WHITE;
    clk.at_ms = r->now;
    tb_broadcast_board_set_clock(&r->board, &clk, r->now);
    for (int i = 0; i <= 20; i++, r->now += 250)
        tb_broadcast_session_tick(&r->s, &r->board, r->now, to_client, &r->c);
    /* 5 s of running: the reading changed five times (60 s -> 55 s), plus the start. */
    ASSERT_GE(r->c.bwtimes, 6);
    ASSERT_LE(r->c.bwtimes, 7);
    clk.running = TB_BROADCAST_NO_SIDE;
    tb_broadcast_board_set_clock(&r->board, &clk, r->now);
    send1(r, TB_DGT_CMD_SEND_UPDATE);
    int before = r->c.bwtimes;
    for (int i = 0; i < 40; i++, r->now += 100)
        tb_broadcast_session_tick(&r->s, &r->board, r->now, to_client, &r->c);
    ASSERT_EQ(r->c.bwtimes - before, 4); /* once a second over 4 s, clock stopped or not */
    bcast_client_free(&r->c);
    free(r);
}

TB_TEST(garbage_and_unknown_commands_change_nothing)
{
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, false);
    send1(r, TB_DGT_CMD_SEND_UPDATE_BRD);
    uint8_t before[64];
    memcpy(before, r->board.codes, 64);
    uint64_t log = r->board.log_end;
    /* Bytes that are no command, the boot loader, LEDs, a clock message, a battery request. */
    const uint8_t junk[] = {0x00, 0x7F, 0x4E, 0x3A, 0x60, 0x04, 0x01, 0x00, 0x3F, 0x00,
                            0x2B, 0x03, 0x03, 0x03, 0x00, 0x4C, 0x99, 0xFF, 0x12};
    for (int k = 0; k < 500; k++)
        send(r, junk, sizeof junk);
    ASSERT_TRUE(memcmp(before, r->board.codes, 64) == 0);
    ASSERT_U64_EQ(r->board.log_end, log);
    ASSERT_EQ(r->s.mode, TB_BROADCAST_UPDATE_BRD);
    ASSERT_EQ(r->c.dumps + r->c.updates + r->c.bwtimes, 0);
    ASSERT_GT(r->s.stats.garbage, 0);
    ASSERT_GT(r->s.stats.ignored, 0);
    /* Still answers. */
    send1(r, TB_DGT_CMD_SEND_BRD);
    ASSERT_EQ(r->c.dumps, 1);
    bcast_client_free(&r->c);
    free(r);
}

TB_TEST(change_log_holds_a_move_as_piece_records)
{
    struct rig *r = calloc(1, sizeof *r);
    rig_init(r, false);
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_parse(&pos, "e2e4", &m, NULL));
    tb_chess_undo u;
    tb_chess_make(&pos, m, &u);
    agree(r, &pos);
    struct tb_dgt_update ch[64];
    ASSERT_EQ(tb_broadcast_board_show(&r->board, &pos, r->now, ch), 0); /* shown already */
    /* The log's last four bytes: e2 (field 52) empty, then a white pawn on e4 (field 36). */
    uint64_t e = r->board.log_end;
    ASSERT_EQ(r->board.log[(e - 4) % TB_BROADCAST_LOG_SIZE], TB_DGT_EE_PIECE | TB_DGT_EMPTY);
    ASSERT_EQ(r->board.log[(e - 3) % TB_BROADCAST_LOG_SIZE], 52);
    ASSERT_EQ(r->board.log[(e - 2) % TB_BROADCAST_LOG_SIZE] & ~TB_DGT_EE_QUICK,
              TB_DGT_EE_PIECE | TB_DGT_WPAWN);
    ASSERT_EQ(r->board.log[(e - 1) % TB_BROADCAST_LOG_SIZE], 36);
    bcast_client_free(&r->c);
    free(r);
}

TB_TEST(live_pgn_has_the_roster_clock_comments_and_the_chess960_start)
{
    struct tb_broadcast_tags t;
    memset(&t, 0, sizeof t);
    strcpy(t.event, "Club championship");
    strcpy(t.date, "2026.11.24");
    strcpy(t.round, "3");
    strcpy(t.white, "Jansen, Piet");
    strcpy(t.black, "de Vries, Anna");
    strcpy(t.time_control, "5400+30");
    tb_chess_game *game = malloc(sizeof *game);
    tb_chess_pgn_game *scratch = malloc(sizeof *scratch);
    tb_chess_pos start;
    ASSERT_OK(tb_chess_pos_960(&start, 0));
    tb_chess_game_init(game, &start);
    tb_chess_movelist ml;
    tb_chess_gen_legal(&game->pos, &ml);
    ASSERT_OK(tb_chess_game_push(game, ml.moves[0]));
    uint64_t clk[1] = {5399000};
    char buf[4096];
    int n = tb_broadcast_pgn_text(&t, game, clk, "*", NULL, scratch, buf, sizeof buf);
    ASSERT_GT(n, 0);
    ASSERT_STR_CONTAINS(buf, "[Event \"Club championship\"]\n[Site \"?\"]\n[Date \"2026.11.24\"]\n"
                             "[Round \"3\"]\n[White \"Jansen, Piet\"]\n"
                             "[Black \"de Vries, Anna\"]\n[Result \"*\"]\n");
    ASSERT_STR_CONTAINS(buf, "[Variant \"Chess960\"]");
    ASSERT_STR_CONTAINS(buf, "[SetUp \"1\"]");
    ASSERT_STR_CONTAINS(buf, "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]");
    ASSERT_STR_CONTAINS(buf, "[TimeControl \"5400+30\"]");
    ASSERT_STR_CONTAINS(buf, "{[%clk 1:29:59]}");
    /* A tag with a line break is refused. */
    strcpy(t.white, "a\nb");
    ASSERT_EQ(tb_broadcast_pgn_text(&t, game, clk, "*", NULL, scratch, buf, sizeof buf),
              TB_ERR_ARG);
    free(game);
    free(scratch);
}

TB_TEST(pgn_file_names_use_safe_characters_only)
{
    struct tb_broadcast_tags t;
    memset(&t, 0, sizeof t);
    strcpy(t.date, "2026.11.24");
    strcpy(t.round, "3.1");
    strcpy(t.white, "Müller, Jörg");
    strcpy(t.black, "../../etc/passwd");
    char name[200], day[32];
    ASSERT_GT(tb_broadcast_pgn_name(&t, name, sizeof name), 0);
    ASSERT_STR_EQ(name, "r3.1_M__ller__J__rg-_._.._etc_passwd.pgn");
    ASSERT_GT(tb_broadcast_day_name(&t, day, sizeof day), 0);
    ASSERT_STR_EQ(day, "2026-11-24");
    strcpy(t.date, "????.??.??");
    strcpy(t.white, ".hidden");
    t.black[0] = '\0';
    tb_broadcast_day_name(&t, day, sizeof day);
    ASSERT_STR_EQ(day, "undated");
    tb_broadcast_pgn_name(&t, name, sizeof name);
    ASSERT_STR_EQ(name, "r3.1__hidden-unknown.pgn");
}
