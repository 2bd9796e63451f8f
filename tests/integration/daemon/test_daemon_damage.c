/* A damaged journal costs the damaged records only: the daemon recovers every agreed move whose
 * record is intact, also after the damage, never proposes to take one back, and tells the
 * arbiter which records were lost and from which ply. Damage over a whole game's journal: one
 * flipped bit at seeded positions, a zeroed 4 KiB page at every page of the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture.h"
#include "tb_journal.h"
#include "tb_test.h"

#define MAX_RECORDS 8192

static uint8_t *read_file(const char *path, size_t *len)
{
    static uint8_t buf[4 << 20];
    FILE *f = fopen(path, "rb");
    ASSERT_NOT_NULL(f);
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

/* What a journal holds: each record's type by sequence number, and the agreed moves. */
struct content {
    uint16_t type[MAX_RECORDS]; /* 0: not read */
    int nseq;
    int plies;
    int last_ply; /* of the last intact move record */
};

static void scan(const uint8_t *buf, size_t len, struct content *c)
{
    memset(c, 0, sizeof *c);
    struct tb_journal_iter it;
    struct tb_journal_record r;
    tb_journal_iter_init(&it, buf, len);
    int rc;
    while ((rc = tb_journal_iter_next(&it, &r, NULL)) != 0) {
        if (rc < 0 || r.seq >= MAX_RECORDS)
            continue;
        c->type[r.seq] = r.type;
        if ((int)r.seq >= c->nseq)
            c->nseq = (int)r.seq + 1;
        struct tb_journal_move mv;
        if (r.type == TB_JOURNAL_MOVE && tb_journal_move_decode(&mv, &r, NULL) == TB_OK) {
            c->plies++;
            c->last_ply = mv.ply;
        }
    }
}

struct outcome {
    int runs, events_only, moves_hit;
    int intact_moves_lost; /* moves up to the last intact move record not in the recovered game */
    int pgn_differs_all;   /* PGN differs, whatever was hit */
    int pgn_differs;       /* among the runs where only board events were hit */
    int proposals;         /* a mismatch open after recovery (it would take moves back) */
};

/* Recovers from a damaged copy: every intact move kept, nothing proposed, the loss said. */
static void recover_damaged(const uint8_t *buf, size_t len, const char *name,
                            const struct content *whole, const char *moves, const char *pgn,
                            struct outcome *o)
{
    struct content got;
    scan(buf, len, &got);
    bool events_only = true, moves_hit = false;
    for (int s = 1; s < whole->nseq; s++) {
        if (got.type[s] || !whole->type[s])
            continue;
        events_only &= whole->type[s] == TB_JOURNAL_BOARD_EVENT;
        moves_hit |= whole->type[s] == TB_JOURNAL_MOVE;
    }
    if (got.nseq == whole->nseq && got.plies == whole->plies && events_only) {
        bool any = false;
        for (int s = 1; s < whole->nseq; s++)
            any |= whole->type[s] && !got.type[s];
        if (!any)
            return; /* the damage hit no record (padding of a torn region) */
    }
    struct fx g;
    fx_init(&g, name);
    mkdir(g.journal, 0755);
    char path[600];
    snprintf(path, sizeof path, "%s/current.tbj", g.journal);
    FILE *out = fopen(path, "wb");
    ASSERT_NOT_NULL(out);
    ASSERT_EQ(fwrite(buf, 1, len, out), len);
    ASSERT_OK(fclose(out));
    fx_options(&g, "null:", "null:");
    fx_start(&g);
    o->runs++;
    char rec[2048];
    fx_moves(&g, rec, sizeof rec);
    /* a prefix of the game, never another move */
    if (strncmp(moves, rec, strlen(rec)) != 0)
        TB_FAIL("%s: recovered '%s', the game is '%s'", name, rec, moves);
    int plies = fx_plies(&g);
    if (plies < got.last_ply) /* every move up to the last intact record is kept */
        o->intact_moves_lost += got.last_ply - plies;
    o->moves_hit += moves_hit;
    struct tb_daemon_counters c;
    tb_daemon_counters(g.d, &c);
    o->proposals += c.mismatch != 0;
    ASSERT_STR_CONTAINS(g.log, "lost");
    ASSERT_STR_CONTAINS(fx_req(&g, "status"), "journal damage at start: ");
    bool differs = strcmp(fx_req(&g, "pgn"), pgn) != 0;
    o->pgn_differs_all += differs;
    if (events_only) {
        o->events_only++;
        if (differs) {
            o->pgn_differs++;
            if (getenv("TB_DAMAGE_VERBOSE")) {
                size_t k = 0;
                while (g.answer[k] && g.answer[k] == pgn[k])
                    k++;
                k = k > 80 ? k - 80 : 0;
                fprintf(stderr, "%s: the PGN differs:\n%.300s\n--- whole:\n%.300s\n", name,
                        g.answer + k, pgn + k);
            }
        }
    }
    fx_free(&g);
}

static void reference(struct fx *f, char *moves, size_t mlen, char *pgn, size_t plen)
{
    fx_init(f, "whole");
    fx_demo_with_mismatch(f);
    fx_start(f);
    fx_run_resolving(f);
    fx_stop(f);
    /* the reference: the intact journal recovered as the damaged ones are */
    fx_options(f, "null:", "null:");
    fx_start(f);
    fx_moves(f, moves, mlen);
    snprintf(pgn, plen, "%s", fx_req(f, "pgn"));
    fx_stop(f);
}

static void report(const char *what, const struct outcome *o)
{
    fprintf(stderr,
            "%s: %d recoveries, %d with board events lost only (%d PGN differ), %d with a move "
            "record lost; intact moves lost %d, mismatches proposed %d, PGN differs %d in all\n",
            what, o->runs, o->events_only, o->pgn_differs, o->moves_hit, o->intact_moves_lost,
            o->proposals, o->pgn_differs_all);
}

enum damage { FLIP, PAGE };

/* Damage at many places of a whole game's journal, each recovered. */
static void sweep(enum damage kind, struct outcome *o)
{
    static char moves[2048], pgn[65536], name[64];
    static uint8_t copy[4 << 20];
    static struct content whole;
    struct fx f;
    reference(&f, moves, sizeof moves, pgn, sizeof pgn);
    char path[600];
    snprintf(path, sizeof path, "%s/current.tbj", f.journal);
    size_t len;
    const uint8_t *buf = read_file(path, &len);
    scan(buf, len, &whole);
    ASSERT_GT(whole.plies, 20);
    uint64_t x = 0x2545f4914f6cdd1dull;
    for (size_t i = 0; i < 160; i++) {
        memcpy(copy, buf, len);
        size_t at;
        if (kind == FLIP) { /* seeded, mid-journal */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            at = (size_t)(x % (len - 200)) + 100;
            copy[at] ^= (uint8_t)(1u << (x >> 60 & 7));
        } else { /* every 512-byte sector past the first record */
            at = 512 * (i + 1);
            if (at + 4096 >= len)
                break;
            memset(copy + at, 0, 4096);
        }
        snprintf(name, sizeof name, "%s%zu", kind == FLIP ? "flip" : "page", at);
        recover_damaged(copy, len, name, &whole, moves, pgn, o);
    }
    report(kind == FLIP ? "one flipped bit" : "a zeroed 4 KiB page", o);
    ASSERT_EQ(o->intact_moves_lost, 0);
    ASSERT_EQ(o->proposals, 0);
    fx_free(&f);
}

/* One flipped bit at 160 seeded positions over the whole journal: every move kept, and where
 * only board events were hit, the PGN is the undamaged journal's, byte for byte. */
TB_TEST(one_flipped_bit_loses_no_intact_move)
{
    struct outcome o = {0};
    sweep(FLIP, &o);
    ASSERT_GT(o.runs, 120);
    ASSERT_EQ(o.pgn_differs, 0);
}

/* A zeroed 4 KiB page at every 512-byte sector of the journal past its first record: the moves
 * whose records the page held come back from the next intact move record (it names the moves
 * before it), so every move up to the last intact record is kept; nothing is proposed, and the
 * arbiter is told what was lost. */
TB_TEST(a_zeroed_page_loses_no_move_up_to_the_last_intact_record)
{
    struct outcome o = {0};
    sweep(PAGE, &o);
    ASSERT_GT(o.runs, 5);
}
