/* daemon_recover.c - recovery: the journal replayed on start through the same code path as live
 * input (with the replay effects: nothing written, said or done), so a restarted daemon is where
 * the stopped one was; past damage the game is taken from the intact move records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_clock.h"
#include "daemon_inputs.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_result.h"
#include "daemon_table.h"

#define GAP_MAX   3  /* plies lost with their move records that recovery looks for */
#define GAP_CHECK 24 /* later move records a candidate must make legal */

static void skipped(struct tb_daemon *d, const struct tb_journal_record *rec, const char *why)
{
    tb_daemon__log(d, TB_CONFIG_LOG_WARN, "journal record %llu: %s (skipped)",
                   (unsigned long long)rec->seq, why);
}

/* Past damage (docs/journal.md, "Recovery past damage"): the board events after a loss are not
 * fed (they continue a handling whose start is lost) until the next intact move record; there
 * the game is set from the move records, both boards showing it, and replay goes on. */
struct past_damage {
    bool damaged;                   /* a loss was found */
    bool skip;                      /* board events are not fed until the next move record */
    unsigned long skipped;          /* board events not fed */
    int resynced;                   /* plies taken from their move records */
    int gap_from, gap_to;           /* plies lost with their move records (0: none) */
    int inferred;                   /* plies lost with their records, found from the later ones */
    int unplaced_from, unplaced_to; /* intact move records after a gap, not placed */
    /* notes taken from records past a loss, at their times: the match had moved on live */
    int note_at[16];
    uint64_t note_t[16];
    int nnote;
    tb_chess_move *moves; /* the intact move records by ply (0: lost), from a first pass */
    int nmoves;
};

/* Counts the sequences of k legal moves from pos after which the move records later[0..n) (0:
 * lost, not checked) are legal in turn; the first one found into out. Stops past 1. */
static int gap_fill(tb_chess_pos *pos, int k, const tb_chess_move *later, int n, tb_chess_move *out,
                    tb_chess_move *first)
{
    if (k == 0) {
        tb_chess_pos p = *pos;
        for (int i = 0; i < n; i++) {
            tb_chess_undo u;
            if (!later[i])
                return 1; /* cannot check past another loss */
            if (!tb_chess_is_legal(&p, later[i]))
                return 0;
            tb_chess_make(&p, later[i], &u);
        }
        return 1;
    }
    tb_chess_movelist list;
    tb_chess_gen_legal(pos, &list);
    int found = 0;
    for (int i = 0; i < list.count && found < 2; i++) {
        tb_chess_undo u;
        tb_chess_make(pos, list.moves[i], &u);
        out[0] = list.moves[i];
        int f = gap_fill(pos, k - 1, later, n, out + 1, first + 1);
        tb_chess_unmake(pos, list.moves[i], &u);
        if (f && !found)
            first[0] = list.moves[i], memcpy(first + 1, out + 1, sizeof *out * (size_t)(k - 1));
        found += f;
    }
    return found;
}

/* Plies known+1..ply-1 were lost with their records: when exactly one sequence of legal moves
 * makes the later move records legal, it is what was played (the boards agreed on each). */
static bool gap_infer(struct tb_daemon *d, const struct past_damage *pd, int known, int ply,
                      tb_chess_move *moves)
{
    int k = ply - 1 - known;
    if (k < 1 || k > GAP_MAX || !pd->moves)
        return false;
    tb_chess_pos pos = tb_match_game(d->session->match)->pos;
    int n = pd->nmoves - (ply - 1);
    n = n > GAP_CHECK ? GAP_CHECK : n < 0 ? 0 : n;
    tb_chess_move out[GAP_MAX], first[GAP_MAX];
    if (gap_fill(&pos, k, pd->moves + ply - 1, n, out, first) != 1)
        return false;
    memcpy(moves + known, first, sizeof *first * (size_t)k);
    return true;
}

/* The moves of plies known+1..ply-1 from the history the move record carries, when it reaches
 * back that far and agrees with the game where they overlap. */
static bool gap_from_history(const tb_chess_game *g, int known, const struct tb_journal_move *mv,
                             tb_chess_move *moves)
{
    int first = mv->ply - mv->nhist; /* the ply of hist[0] */
    if (first > known + 1)
        return false;
    for (int p = first; p <= known; p++)
        if (p >= 1 && g->moves[p - 1] != mv->hist[p - first])
            return false;
    for (int p = known + 1; p < mv->ply; p++)
        moves[p - 1] = mv->hist[p - first];
    return true;
}

/* A move record after damage: the game up to it is the game's moves before it and this one. */
static void resync(struct tb_daemon *d, struct past_damage *pd, const struct tb_journal_move *mv,
                   uint64_t t)
{
    const tb_chess_game *g = tb_match_game(d->session->match);
    int known = g->plies < mv->ply - 1 ? g->plies : mv->ply - 1;
    if (mv->ply < 1 || mv->ply > TB_CHESS_GAME_MAX_PLIES)
        return;
    if (!pd->skip && g->plies == mv->ply && g->moves[mv->ply - 1] == mv->move)
        return;                                   /* the replay agreed it by itself */
    tb_chess_move moves[TB_CHESS_GAME_MAX_PLIES]; /* 4 KiB */
    memcpy(moves, g->moves, sizeof moves[0] * (size_t)known);
    if (known < mv->ply - 1 && gap_from_history(g, known, mv, moves)) {
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "journal: plies %d to %d were lost with their records; ply %d's record "
                       "names them",
                       known + 1, mv->ply - 1, mv->ply);
        pd->inferred += mv->ply - 1 - known;
        known = mv->ply - 1;
    }
    if (known < mv->ply - 1 && gap_infer(d, pd, known, mv->ply, moves)) {
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "journal: plies %d to %d were lost with their records; the one sequence "
                       "of moves the later move records allow is taken",
                       known + 1, mv->ply - 1);
        pd->inferred += mv->ply - 1 - known;
        known = mv->ply - 1;
    }
    if (known < mv->ply - 1) { /* moves lost with their records: this one cannot be placed */
        if (!pd->gap_from) {
            pd->gap_from = known + 1;
            pd->gap_to = mv->ply - 1;
            pd->unplaced_from = mv->ply;
        }
        pd->unplaced_to = mv->ply;
        pd->skip = true;
        return;
    }
    moves[known] = mv->move;
    struct tb_error err = {0};
    if (tb_match_set_game(d->session->match, moves, known + 1, t, &err) != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "journal: ply %d (%s) cannot be placed: %s", mv->ply,
                       mv->san, err.msg);
        pd->skip = true;
        return;
    }
    tb_daemon__log(d, TB_CONFIG_LOG_INFO,
                   "journal: ply %d (%s) taken from its move record, the board events before it "
                   "were lost",
                   mv->ply, mv->san);
    tb_daemon__result_rules(d, t);      /* the game's end by the rules, as live */
    for (int i = 0; i < pd->nnote; i++) /* said at this very time: after this move, as live */
        if (pd->note_t[i] == t && pd->note_at[i] < d->session->nnotes)
            d->session->note[pd->note_at[i]].ply = mv->ply;
    pd->nnote = 0;
    pd->skip = false;
    pd->resynced++;
}

/* Past a loss the match does not see the board events, so it does not take its decisions
 * again: the PGN's notes come from the journal's records of them, in the same words. */
static void note_of_record(struct tb_daemon *d, const struct tb_journal_record *rec);
static void note_of(struct tb_daemon *d, struct past_damage *pd,
                    const struct tb_journal_record *rec)
{
    int before = d->session->nnotes;
    note_of_record(d, rec);
    if (d->session->nnotes > before && pd->nnote < 16) {
        pd->note_at[pd->nnote] = d->session->nnotes - 1;
        pd->note_t[pd->nnote++] = rec->time_ms;
    }
}

static void note_of_record(struct tb_daemon *d, const struct tb_journal_record *rec)
{
    struct tb_journal_decision dec;
    if (tb_journal_decision_decode(&dec, rec, NULL) != TB_OK)
        return;
    int board = dec.board < TBD_BOARDS ? dec.board : 0;
    switch (rec->type) {
    case TB_JOURNAL_MISMATCH: { /* "kind: text | resolution" (daemon_feed.c) */
        char *text = strstr(dec.text, ": "), *bar = strstr(dec.text, " | ");
        const char *ply = text ? strstr(text, ", ply ") : NULL;
        if (!text || !bar || !ply)
            return;
        *text = *bar = '\0';
        tb_daemon__note_mismatch(d, dec.id, dec.text, board, atoi(ply + 6), text + 2);
        return;
    }
    case TB_JOURNAL_RESOLUTION:
        tb_daemon__note_resolved(d, !strcmp(dec.who, "arbiter"), dec.text);
        return;
    case TB_JOURNAL_TOUCH:
    case TB_JOURNAL_HELD:
        tb_daemon__note(d, tb_match_game(d->session->match)->plies, "%s (%s board): %s",
                        tb_daemon__note_what(rec->type), tb_daemon__board_name(board), dec.text);
        return;
    case TB_JOURNAL_ARBITER: /* a resolve whose mismatch the lost events had opened */
        tb_daemon__note(d, tb_match_game(d->session->match)->plies, "arbiter resolve #%u", dec.id);
        return;
    default:
        return;
    }
}

/* A move record: past damage the game is set from it; else the replay has agreed it already. */
static void move_record(struct tb_daemon *d, const struct tb_journal_record *rec,
                        struct past_damage *pd, uint64_t t)
{
    struct tb_error err = {0};
    struct tb_journal_move mv;
    struct tb_match_status st;
    tb_match_status(d->session->match, &st);
    if (pd->damaged && tb_journal_move_decode(&mv, rec, &err) == TB_OK)
        resync(d, pd, &mv, t);
    else if (tb_journal_move_decode(&mv, rec, &err) == TB_OK && st.plies < mv.ply)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "journal: ply %d (%s) was agreed, the replay has only %d plies", mv.ply,
                       mv.san, st.plies);
}

static void clock_record(struct tb_daemon *d, const struct tb_journal_record *rec,
                         struct past_damage *pd, uint64_t t)
{
    (void)pd, (void)t;
    tb_daemon__clock_record(d, rec); /* the game's clock: a journal stop's time given back */
}

/* The match's own decisions (mismatch, resolution, notes) are retaken by the replay; past a
 * loss they are the PGN's notes. */
static void decision_record(struct tb_daemon *d, const struct tb_journal_record *rec,
                            struct past_damage *pd, uint64_t t)
{
    (void)t;
    if (pd->skip)
        note_of(d, pd, rec);
}

/* The records that are no input (the input table owns the others), and what recovery does with
 * each. The game's start is read before the first record (replay). */
static const struct {
    uint16_t type;
    void (*replay)(struct tb_daemon *d, const struct tb_journal_record *rec, struct past_damage *pd,
                   uint64_t t);
} kept[] = {
    {TB_JOURNAL_GAME_START, decision_record}, {TB_JOURNAL_MOVE, move_record},
    {TB_JOURNAL_MISMATCH, decision_record},   {TB_JOURNAL_RESOLUTION, decision_record},
    {TB_JOURNAL_CLOCK, clock_record},         {TB_JOURNAL_TOUCH, decision_record},
    {TB_JOURNAL_HELD, decision_record},
};

int tb_daemon__record_owners(const struct tb_daemon__in_row *inputs, uint16_t type)
{
    int n = 0;
    for (int k = 1; k < TB_DAEMON__IN_KINDS; k++)
        for (size_t i = 0; i < sizeof inputs[k].records / sizeof inputs[k].records[0]; i++)
            n += inputs[k].records[i] && inputs[k].records[i] == type;
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        n += kept[i].type == type;
    return n;
}

/* An input's record: decoded into the input, which the session takes as live (the replay's
 * store writes nothing). An undecodable one is skipped, changing nothing. */
static void replay_input(struct tb_daemon *d, const struct tb_daemon__in_row *row,
                         const struct tb_journal_record *rec, struct past_damage *pd, uint64_t t)
{
    struct tb_daemon__in_data data;
    struct tb_daemon__input in = {.kind = row->kind};
    struct tb_error err = {0};
    if (!(row->modes & d->session->mode->ctl_modes))
        return; /* another mode's record: not this game's */
    memset(&data, 0, sizeof data);
    if (row->decode(d, rec, &data, &in, &err) != TB_OK) {
        skipped(d, rec, err.msg[0] ? err.msg : "cannot be read");
        return;
    }
    if (in.board) /* a link that replays skips what the journal holds */
        tb_daemon__board_recovered(d, in.board->board, in.board->board_seq);
    if (pd->skip && !row->past_loss) {
        pd->skipped += in.board != NULL; /* its move record has it */
        return;
    }
    if (tb_daemon__input(d, &in, t, &err) < 0 && !row->quiet_refusal)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "journal record %llu: %s refused again: %s",
                       (unsigned long long)rec->seq, data.what, err.msg);
    if (pd->skip)
        note_of(d, pd, rec); /* an arbiter's resolve whose mismatch the lost events had opened */
}

static void replay_record(struct tb_daemon *d, const struct tb_journal_record *rec,
                          struct past_damage *pd)
{
    uint64_t t = rec->time_ms;
    if (t < d->last_mt)
        t = d->last_mt;
    d->vnow = t;
    d->last_mt = t;
    if (!pd->skip) /* past a loss the match waits for the next move record: no timer runs */
        tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_TIME}, t, NULL);
    const struct tb_daemon__in_row *row = tb_daemon__in_row_of_record(d->inputs, rec->type);
    if (row) {
        replay_input(d, row, rec, pd, t);
        return;
    }
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (kept[i].type == rec->type)
            kept[i].replay(d, rec, pd, t);
}

/* The start position of the journal's game, from its GAME_START record. */
static void game_start(struct tb_daemon *d, const struct tb_journal_record *rec)
{
    struct tb_journal_decision dec;
    struct tb_error err = {0};
    if (tb_journal_decision_decode(&dec, rec, &err) != TB_OK)
        return;
    if (dec.fen[0] && tb_chess_pos_from_fen(&d->session->start, dec.fen, 0, &err) != TB_OK)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "journal: game start FEN: %s", err.msg);
}

/* What recovery past damage did, for the log and the arbiter's status. */
static void past_damage_said(struct tb_daemon *d, const struct past_damage *pd)
{
    struct tb_match_status st;
    tb_match_status(d->session->match, &st);
    char gap[200] = "no agreed move lost";
    if (pd->inferred && !pd->gap_from)
        snprintf(gap, sizeof gap,
                 "%d plies lost with their records were found from the later move records, no "
                 "agreed move lost",
                 pd->inferred);
    if (pd->gap_from)
        snprintf(gap, sizeof gap,
                 "plies %d to %d are lost with their records, so the intact records of plies %d "
                 "to %d cannot be placed: the game is kept up to ply %d",
                 pd->gap_from, pd->gap_to, pd->unplaced_from, pd->unplaced_to, pd->gap_from - 1);
    tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                   "journal %s: recovered past the damage: %d plies taken from their move records, "
                   "%lu board events after a loss not fed; %s; %d plies agreed",
                   d->journal_path, pd->resynced, pd->skipped, gap, st.plies);
    size_t u = strlen(d->session->damage);
    snprintf(d->session->damage + u, sizeof d->session->damage - u, "; %s", gap);
}

/* The intact move records by ply (0 where lost); the count of plies. NULL: none, no memory. */
static tb_chess_move *known_moves(const uint8_t *buf, size_t len, int *n)
{
    tb_chess_move *moves = calloc(TB_CHESS_GAME_MAX_PLIES, sizeof *moves);
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    struct tb_journal_move mv;
    int rc;
    *n = 0;
    tb_journal_iter_init(&it, buf, len);
    while (moves && (rc = tb_journal_iter_next(&it, &rec, NULL)) != 0) {
        if (rc < 0 || rec.type != TB_JOURNAL_MOVE || tb_journal_move_decode(&mv, &rec, NULL) ||
            mv.ply < 1 || mv.ply > TB_CHESS_GAME_MAX_PLIES)
            continue;
        if (rec.type == TB_JOURNAL_MOVE && mv.ply <= *n) /* a takeback or a new game */
            memset(moves + mv.ply, 0, sizeof *moves * (size_t)(*n - mv.ply));
        moves[mv.ply - 1] = mv.move;
        *n = mv.ply;
    }
    return moves;
}

static int replay(struct tb_daemon *d, const uint8_t *buf, size_t len, struct tb_error *err)
{
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    struct tb_error e = {0};
    tb_journal_iter_init(&it, buf, len);
    unsigned long n = 0;
    int rc;
    struct past_damage pd = {0};
    if (tb_journal_losses(d->session->journal, &(size_t){0}))
        pd.moves = known_moves(buf, len, &pd.nmoves);
    d->session->fx = &tb_daemon__replay;
    while ((rc = tb_journal_iter_next(&it, &rec, &e)) != 0) {
        if (rc < 0) { /* each loss was logged at open (log_losses) */
            pd.damaged = pd.skip = rc == TB_ERR_CRC;
            continue;
        }
        if (n++ == 0) {
            if (rec.type == TB_JOURNAL_GAME_START)
                game_start(d, &rec);
            if ((rc = tb_match_new(&d->session->mcfg, &d->session->start, rec.time_ms,
                                   &d->session->match, err)) != TB_OK)
                break;
            d->vnow = d->last_mt = rec.time_ms;
        }
        replay_record(d, &rec, &pd);
    }
    if (pd.skip &&
        d->session->match) { /* the end is past a loss: the agreed game, the boards read anew */
        const tb_chess_game *g = tb_match_game(d->session->match);
        tb_match_set_game(d->session->match, g->moves, g->plies, d->last_mt, NULL);
    }
    d->session->fx = &tb_daemon__live;
    if (pd.damaged)
        past_damage_said(d, &pd);
    free(pd.moves);
    if (n)
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "journal %s: %lu records replayed", d->journal_path,
                       n);
    return rc < 0 && !d->session->match ? rc : TB_OK;
}

/* What damage cost, for the arbiter: which records, which bytes, from which ply. */
static void log_losses(struct tb_daemon *d, const struct tb_journal_recovery *rec)
{
    size_t n;
    const struct tb_journal_loss *l = tb_journal_losses(d->session->journal, &n);
    tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                   "journal %s: %zu corrupt regions skipped, %llu records lost, %zu kept",
                   d->journal_path, rec->corrupt, (unsigned long long)rec->lost, rec->records);
    snprintf(d->session->damage, sizeof d->session->damage, "%llu records lost in %zu places",
             (unsigned long long)rec->lost, rec->corrupt);
    for (size_t i = 0; i < n; i++, l++) {
        char bytes[64] = "no bytes unreadable", moves[96] = "";
        if (i == 0 && l->last_seq >= l->first_seq) {
            size_t u = strlen(d->session->damage);
            snprintf(d->session->damage + u, sizeof d->session->damage - u,
                     ", the first: records %llu to %llu, from ply %u",
                     (unsigned long long)l->first_seq, (unsigned long long)l->last_seq,
                     l->ply + 1u);
        }
        if (l->bytes)
            snprintf(bytes, sizeof bytes, "bytes %zu to %zu", l->offset, l->offset + l->bytes - 1);
        if (l->next_ply == l->ply + 1)
            snprintf(moves, sizeof moves, "; the next intact move is ply %u: no agreed move lost",
                     l->next_ply);
        else if (l->next_ply)
            snprintf(moves, sizeof moves, "; the next intact move is ply %u", l->next_ply);
        if (l->last_seq >= l->first_seq)
            tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                           "journal %s: records %llu to %llu lost (%s), from ply %u%s",
                           d->journal_path, (unsigned long long)l->first_seq,
                           (unsigned long long)l->last_seq, bytes, l->ply + 1u, moves);
        else
            tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                           "journal %s: %s unreadable after ply %u, no record known lost%s",
                           d->journal_path, bytes, l->ply, moves);
    }
}

int tb_daemon__recover(struct tb_daemon *d, const struct tb_journal_recovery *rec,
                       struct tb_error *err)
{
    if (rec->torn_bytes)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "journal %s: a torn last record (%zu bytes) was dropped; %zu records kept",
                       d->journal_path, rec->torn_bytes, rec->records);
    if (rec->corrupt)
        log_losses(d, rec);
    size_t len;
    const uint8_t *buf = tb_journal_contents(d->session->journal, &len);
    int rc = replay(d, buf, len, err);
    if (d->session->match) /* everything replayed was on disk */
        d->session->agreed = tb_match_game(d->session->match)->plies;
    return rc;
}
