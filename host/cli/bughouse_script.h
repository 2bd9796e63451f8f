/* bughouse_script.h - the event scripts of two doorgeefschaak boards as `twinboard
 * bughouse-replay` reads them: the lines of docs/event-script.md, each naming its board (A and
 * B unless named otherwise), one file or one per board; and three lines of its own:
 *
 *     <ms> <board> move <SAN|UCI>      a move typed for a typed board ("N@f3" for a drop)
 *     <ms> <board> ask white|black     that player asks what they hold (2.6)
 *     # control: <control>             the clock control (docs/clock.md), before any event
 *     # fen A: <FEN> / # fen B: <FEN>  a board's start (bughouse FEN), before any event
 *     # tag <name>: <value>            a BPGN tag for the games written back: Event, Site,
 *                                      Date, WhiteA, BlackA, WhiteB, BlackB
 */
#ifndef TB_CLI_BUGHOUSE_SCRIPT_H
#define TB_CLI_BUGHOUSE_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "tb_err.h"
#include "tb_script.h"

enum tb_bughouse_item_kind {
    TB_BUGHOUSE_ITEM_EVENT = 0, /* a board event: ev */
    TB_BUGHOUSE_ITEM_MOVE,      /* a typed move: text */
    TB_BUGHOUSE_ITEM_ASK,       /* a player asks for their hand: color */
};

struct tb_bughouse_item {
    enum tb_bughouse_item_kind kind;
    struct tb_script_event ev; /* time and board name for every kind */
    int board;                 /* 0 A, 1 B */
    int color;                 /* ASK */
    char text[32];             /* MOVE */
    int file;                  /* which file, for messages */
    long line;
    size_t seq; /* order read, keeps the sort stable */
};

#define TB_BUGHOUSE_TAGS 7
/* "Event", "Site", "Date", "WhiteA", "BlackA", "WhiteB", "BlackB". */
extern const char *const tb_bughouse_tag_names[TB_BUGHOUSE_TAGS];

struct tb_bughouse_script {
    char name[2][TB_SCRIPT_NAME_MAX]; /* the boards' names in the lines ("A", "B") */
    bool typed[2];                    /* a typed board takes move lines, no board events */
    char control[64];
    char fen[2][128];
    char tag[TB_BUGHOUSE_TAGS][48]; /* "" when not given; in the order of tb_bughouse_tag_names */
    struct tb_bughouse_item *items;
    size_t n, cap;
};

void tb_bughouse_script_init(struct tb_bughouse_script *s);
void tb_bughouse_script_free(struct tb_bughouse_script *s);
/* The board a name stands for: 0, 1, or -1. */
int tb_bughouse_script_board(const struct tb_bughouse_script *s, const char *name);
/* Reads one file's lines (file: its index for messages). TB_ERR_PARSE with err->line and a
 * reason for a malformed line, an unknown board, an event a typed board cannot have or a move
 * for a board with sensors, a directive after the first event or one given twice; TB_ERR_MEM. */
int tb_bughouse_script_read(struct tb_bughouse_script *s, int file, const char *buf, size_t len,
                            struct tb_error *err);
/* Puts the items of all files in time order: at the same millisecond board A first (the order
 * the match takes them), then in the order read. */
void tb_bughouse_script_sort(struct tb_bughouse_script *s);
/* "lift", "press clock", "move", "ask", ... for messages. */
const char *tb_bughouse_item_name(const struct tb_bughouse_item *it);

#endif /* TB_CLI_BUGHOUSE_SCRIPT_H */
