/* match_internal.h - the match's state, shared by its files. */
#ifndef TB_MATCH_INTERNAL_H
#define TB_MATCH_INTERNAL_H

#include "tb_match.h"

#define TB_MATCH_OUT_CAP   256
#define TB_MATCH_MAX_EXTRA 4 /* moves a board can hold beyond the agreed game */
#define TB_MATCH_NOTIME    UINT64_MAX

/* A board's line: moves beyond the agreed game. */
struct tb_match_line {
    int n;
    tb_chess_move moves[TB_MATCH_MAX_EXTRA];
};

/* An open mismatch, or a restoration the arbiter ordered: the positions the boards must show
 * before play goes on. Each board may reach its target or, where the scoresheets allow both,
 * its alternative (the announced move made or not yet made). */
struct tb_match_restore {
    bool open;
    bool confirmed;   /* by the arbiter (always, for the arbiter's own decisions) */
    bool is_mismatch; /* else takeback / set position / new game */
    enum tb_match_arbiter_action action;
    uint32_t id;
    struct tb_match_mismatch mm;
    struct tb_match_line target[TB_MATCH_BOARDS], alt[TB_MATCH_BOARDS];
    bool has_alt[TB_MATCH_BOARDS];
    /* alt is the target with the copy of the announced move still to make (the board's own
     * move made first, its copy not yet: occ_alt is then that position's occupancy) */
    bool alt_due[TB_MATCH_BOARDS];
    tb_chess_move complete; /* D.2.3: the capture to finish (raise's argument) */
    uint64_t occ_target[TB_MATCH_BOARDS], occ_alt[TB_MATCH_BOARDS];
    bool dirty[TB_MATCH_BOARDS]; /* the recogniser's position left the board's scoresheet */
    /* The put-right instruction each board heard last (its lift and fill squares): it is said
     * again only when the board has changed in a way it did not ask for. */
    bool said[TB_MATCH_BOARDS];
    uint64_t said_lift[TB_MATCH_BOARDS], said_fill[TB_MATCH_BOARDS];
    /* What stands on the boards as far as moves tell: the scoresheets' positions when it
     * opened, advanced by every move made on a board since (held, not counted). */
    tb_chess_pos hist[TB_MATCH_BOARDS];
    /* The occupancy each board's lists in mm.fix were built from, and the squares of the
     * piece that caused the mismatch (to name it while it stands there). */
    uint64_t fix_occ[TB_MATCH_BOARDS];
    int hint_board, hint_from, hint_to;
};

struct tb_match {
    struct tb_match_config cfg;
    tb_sensor *sensor[TB_MATCH_BOARDS];
    uint64_t now;

    tb_chess_game game; /* the agreed game */
    struct tb_match_line extra[TB_MATCH_BOARDS];
    int lead;              /* the board whose move waits for replication, -1 if none */
    tb_chess_move pending; /* that move (announced to the other player) */
    unsigned pending_flags;

    /* The copier made their own move before copying the announced one: the board's line is
     * [announced move, own move] and the board shows due_pos (the own move made, the copy not
     * yet). The copy completes both. */
    bool copy_due[TB_MATCH_BOARDS];
    tb_chess_pos due_pos[TB_MATCH_BOARDS];
    tb_chess_move told; /* the waiting move last announced to its copier, at told_ply */
    int told_ply;

    uint64_t incomplete_at[TB_MATCH_BOARDS]; /* D.2.3 report due, TB_MATCH_NOTIME if none */
    uint64_t copy_remind_at; /* the copier, standing still, hears the move to copy again */
    /* a problem on the copier's board put off while their own reply may be under way */
    uint64_t settle_at[TB_MATCH_BOARDS];
    struct tb_sensor_out settled[TB_MATCH_BOARDS];
    uint64_t idle_at[TB_MATCH_BOARDS];  /* a still board not in its position is reported (7.4) */
    uint64_t early_at[TB_MATCH_BOARDS]; /* a move copied before its board showed it: reported */
    uint64_t remind_at; /* the copy of remind_move is announced again, else NOTIME */
    tb_chess_move remind_move;
    uint64_t seen_occ[TB_MATCH_BOARDS]; /* occupancy when last looked at */
    /* a whole-board reading the recogniser did not read as a move (reading.c): judged at
       read_at if the board still shows read_occ */
    uint64_t read_at[TB_MATCH_BOARDS], read_occ[TB_MATCH_BOARDS];
    /* squares lifted from and placed on since the board's last move (captures look alike on
     * the switches: the square taken on tells them apart) */
    uint64_t lifted_since[TB_MATCH_BOARDS], placed_since[TB_MATCH_BOARDS];
    uint8_t choice_since[TB_MATCH_BOARDS];   /* promotion piece chosen since then */
    uint8_t promoted[TB_MATCH_BOARDS];       /* the piece of the promotion the board's last event
                                                completed, until its next lift or place */
    uint8_t place_code[TB_MATCH_BOARDS][64]; /* piece code of each square's last place */
    bool recheck[TB_MATCH_BOARDS];
    /* squares of a swap the last put-right asked for (tb_match__close): touching them is no
     * touch until the board's next move and its reports are through (swap_live) */
    uint64_t swap_sq[TB_MATCH_BOARDS],
        swap_live[TB_MATCH_BOARDS]; /* the copy may stand unseen by the recogniser (copy_check) */

    /* A board that names its pieces: what stands on each square as its events say (0 empty,
     * TB_MATCH_IDENT_UNKNOWN occupied by no chess piece), and when it is compared (ident.c). */
    bool ident_on[TB_MATCH_BOARDS];
    uint8_t ident[TB_MATCH_BOARDS][64];
    uint64_t ident_at[TB_MATCH_BOARDS];

    struct tb_match_restore r;
    uint32_t next_id;

    struct tb_match_status last_status;
    bool status_sent;

    uint32_t seq;
    struct tb_match_out out[TB_MATCH_OUT_CAP];
    int ohead, on;
    unsigned long dropped;
};

/* match.c */
struct tb_match_out *tb_match__emit(tb_match *m, enum tb_match_out_kind kind);
void tb_match__line_pos(const tb_match *m, const struct tb_match_line *line, int n,
                        tb_chess_pos *pos);
void tb_match__sync_state(tb_match *m);
void tb_match__board_pos(const tb_match *m, int b, tb_chess_pos *pos);

/* flow.c: the recognisers' outputs into the game */
void tb_match__drain(tb_match *m);
void tb_match__incomplete_check(tb_match *m, int b, uint64_t t);
void tb_match__incomplete_due(tb_match *m);
void tb_match__remind_due(tb_match *m);
void tb_match__copy_remind_due(tb_match *m);
void tb_match__settle_due(tb_match *m);
void tb_match__idle_due(tb_match *m);
void tb_match__early_due(tb_match *m);
void tb_match__watch(tb_match *m);
void tb_match__set_modes(tb_match *m);
void tb_match__finish(tb_match *m);
int tb_match__typed_move_at(tb_match *m, int b, tb_chess_move mv);
void tb_match__announce_msg(tb_match *m, int b, enum tb_match_msg msg);
void tb_match__announce_fix(tb_match *m, int b, const struct tb_match_fix *fix, uint32_t id);

void tb_match__line_push(struct tb_match_line *l, tb_chess_move mv);
void tb_match__events_read(tb_match *m, int b);
bool tb_match__normalize(tb_match *m);

/* reading.c: a whole-board reading that shows what the events did not */
void tb_match__reading(tb_match *m, int b);
void tb_match__reading_due(tb_match *m);

/* reply.c: the copier's own reply made first; pieces where nobody may put them */
bool tb_match__capture_seen(const tb_match *m, int b, const tb_chess_pos *pos, tb_chess_move mv);
bool tb_match__reply_on_board(tb_match *m, int b);
bool tb_match__reply_under_way(const tb_match *m, int b);
bool tb_match__out_of_place(const tb_match *m, int b);

/* resolve.c: D.2.9 */
void tb_match__raise(tb_match *m, enum tb_match_mismatch_kind kind, int b, tb_chess_move move,
                     tb_chess_move expected, int sq, int sq2, tb_chess_move complete);
void tb_match__check_progress(tb_match *m);
void tb_match__build_fix(const tb_match *m, int b, const tb_chess_pos *hist,
                         const struct tb_match_line *target, int hint_from, int hint_to,
                         struct tb_match_fix *fix);
void tb_match__restore_start(tb_match *m, enum tb_match_arbiter_action action, int n,
                             const tb_chess_pos hist[TB_MATCH_BOARDS]);
void tb_match__close(tb_match *m, bool by_arbiter, const char *why);
void tb_match__refresh_fix(tb_match *m, int b, bool force);
void tb_match__reresolve(tb_match *m);

/* ident.c: a board that names its pieces compared piece by piece */
#define TB_MATCH_IDENT_UNKNOWN 0xFF
void tb_match__ident_event(tb_match *m, int b, const struct tb_match_event *ev);
void tb_match__ident_due(tb_match *m);
/* The squares where board b, as its events leave it, differs from pos: filled or empty, or
 * another piece (0 for a board that does not name its pieces). */
uint64_t tb_match__ident_wrong(const tb_match *m, int b, const tb_chess_pos *pos);
/* "on b1 a white bishop instead of the white knight, ..." for those squares. */
void tb_match__ident_text(const tb_match *m, int b, const tb_chess_pos *pos, char *buf, size_t len);
/* What stands on each square of board b when it names its pieces and they agree with its
 * occupancy: true with out filled (TB_MATCH_IDENT_UNKNOWN: no chess piece). */
bool tb_match__ident_board(const tb_match *m, int b, uint8_t out[64]);

/* text.c */
const char *tb_match__mismatch_words(enum tb_match_mismatch_kind k);
const char *tb_match__color_name(int color);
const char *tb_match__piece_name(int piece);
void tb_match__board_label(const tb_match *m, int b, char *buf, size_t len);
void tb_match__fix_text(const struct tb_match_fix *fix, char *buf, size_t len);
void tb_match__appendf(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* TB_MATCH_INTERNAL_H */
