/* The daemon's input table (daemon_inputs.c): every journal record type recovery must replay is
 * owned by exactly one row (an input's, or recovery's own for the records that are no input),
 * and a record that cannot be read back into its input is skipped, named by its sequence, and
 * changes nothing of the recovered game. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon_inputs.h"
#include "daemon_shell.h"
#include "fixture.h"
#include "tb_file.h"
#include "tb_journal.h"
#include "tb_test.h"

#ifndef TB_JOURNAL_HEADER
#error "TB_JOURNAL_HEADER: host/journal/tb_journal.h, whose record types are checked"
#endif

/* The values of enum tb_journal_type as tb_journal.h writes them ("TB_JOURNAL_X = N,"). */
static int record_types(uint16_t *types, int max)
{
    char *text = NULL;
    size_t len = 0;
    ASSERT_OK(tb_read_file(TB_JOURNAL_HEADER, &text, &len, NULL));
    const char *p = strstr(text, "enum tb_journal_type {");
    ASSERT_NOT_NULL(p);
    const char *end = strstr(p, "};");
    ASSERT_NOT_NULL(end);
    int n = 0;
    for (const char *q = strstr(p, "TB_JOURNAL_"); q && q < end; q = strstr(q + 1, "TB_JOURNAL_")) {
        const char *eq = q;
        while (isalnum((unsigned char)*eq) || *eq == '_')
            eq++;
        while (*eq == ' ')
            eq++;
        if (*eq != '=' || (q > p && q[-1] != ' ' && q[-1] != '\n'))
            continue; /* a name in a comment */
        ASSERT_LT(n, max);
        types[n++] = (uint16_t)strtoul(eq + 1, NULL, 10);
    }
    free(text);
    return n;
}

TB_TEST(input_table_owns_every_record_type_recovery_replays_once)
{
    uint16_t types[64];
    int n = record_types(types, 64);
    ASSERT_GT(n, 17); /* 1 to 16, TOUCH and HELD today: the header was read */
    for (int i = 0; i < n; i++) {
        int owners = tb_daemon__record_owners(tb_daemon__inputs, types[i]);
        if (owners != 1)
            TB_FAIL("journal record type %u has %d owners in the input table and recovery's own "
                    "records (exactly 1 wanted)",
                    types[i], owners);
    }
    for (int k = 1; k < TB_DAEMON__IN_KINDS; k++) {
        const struct tb_daemon__in_row *row = &tb_daemon__inputs[k];
        ASSERT_EQ((int)row->kind, k);
        ASSERT_NOT_NULL(row->name);
        ASSERT_TRUE(row->modes != 0);
        /* a row that changes the game is journaled and read back; the session's own are not */
        ASSERT_EQ(row->changes_game, row->records[0] != 0);
        ASSERT_EQ(row->changes_game, row->decode != NULL);
        if (row->way == TB_DAEMON__WAY_CHECKED)
            ASSERT_NOT_NULL(row->take);
        for (size_t r = 0; r < sizeof row->records / sizeof row->records[0] && row->records[r]; r++)
            ASSERT_TRUE(tb_daemon__in_row_of_record(tb_daemon__inputs, row->records[r]) == row);
    }
}

static void write_file(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(fwrite(buf, 1, len, f), len);
    ASSERT_OK(fclose(f));
}

/* The game recovered from the journal bytes buf in a fresh directory: its PGN and moves. */
static void recovered(const char *name, const uint8_t *buf, size_t len, char *pgn, size_t plen,
                      char *moves, size_t mlen, char **log)
{
    struct fx g;
    char path[600];
    fx_init(&g, name);
    mkdir(g.journal, 0755);
    snprintf(path, sizeof path, "%s/current.tbj", g.journal);
    write_file(path, buf, len);
    fx_options(&g, "null:", "null:");
    fx_start(&g);
    snprintf(pgn, plen, "%s", fx_req(&g, "pgn"));
    fx_moves(&g, moves, mlen);
    *log = strdup(g.log);
    fx_free(&g);
}

/* The records of buf again in a new journal at path, with records no input can be read from
 * after the record of sequence at: a board event, a promotion of a board that is none, a typed
 * move and a takeback cut short. Their sequences into seq[4]. */
static void doctored(const char *path, const uint8_t *buf, size_t len, uint64_t at, uint64_t *seq)
{
    struct tb_journal *j;
    struct tb_journal_recovery rv;
    ASSERT_OK(tb_journal_open(&j, path, &rv, NULL));
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    tb_journal_iter_init(&it, buf, len);
    while (tb_journal_iter_next(&it, &rec, NULL) == 1) {
        ASSERT_GT(tb_journal_append(j, rec.type, rec.time_ms, rec.payload, rec.len), 0);
        if (rec.seq != at)
            continue;
        static const uint8_t cut[3] = {1, 2, 3};
        struct tb_journal_decision dec = {.board = 7};
        snprintf(dec.text, sizeof dec.text, "q");
        seq[0] = (uint64_t)tb_journal_append(j, TB_JOURNAL_BOARD_EVENT, rec.time_ms, cut, 3);
        seq[1] = (uint64_t)tb_journal_append_decision(j, TB_JOURNAL_PROMOTION, rec.time_ms, &dec);
        seq[2] = (uint64_t)tb_journal_append(j, TB_JOURNAL_TYPED_MOVE, rec.time_ms, cut, 1);
        seq[3] = (uint64_t)tb_journal_append(j, TB_JOURNAL_TAKEBACK, rec.time_ms, cut, 2);
    }
    ASSERT_OK(tb_journal_commit(j, NULL));
    ASSERT_OK(tb_journal_close(j));
}

TB_TEST(recovery_skips_an_unreadable_input_record_naming_its_sequence)
{
    static char pgn[65536], moves[2048], pgn2[65536], moves2[2048], path[600];
    struct fx f;
    fx_init(&f, "played");
    fx_demo_with_mismatch(&f);
    fx_start(&f);
    fx_run_resolving(&f);
    fx_stop(&f);
    snprintf(path, sizeof path, "%s/current.tbj", f.journal);
    char *buf = NULL;
    size_t len = 0;
    ASSERT_OK(tb_read_file(path, &buf, &len, NULL));
    char *log, *log2;
    recovered("plain", (const uint8_t *)buf, len, pgn, sizeof pgn, moves, sizeof moves, &log);
    ASSERT_STR_CONTAINS(pgn, "mismatch 1");
    ASSERT_GT(strlen(moves), 20);

    /* the bad records half way: the game goes on after them as before */
    char dpath[700];
    snprintf(dpath, sizeof dpath, "%s/doctored.tbj", f.dir);
    uint64_t seq[4] = {0};
    doctored(dpath, (const uint8_t *)buf, len, 60, seq);
    free(buf);
    ASSERT_OK(tb_read_file(dpath, &buf, &len, NULL));
    recovered("doctored", (const uint8_t *)buf, len, pgn2, sizeof pgn2, moves2, sizeof moves2,
              &log2);
    ASSERT_STR_EQ(moves2, moves);
    ASSERT_STR_EQ(pgn2, pgn);
    for (int i = 0; i < 4; i++) {
        char line[64];
        ASSERT_GT(seq[i], 60);
        snprintf(line, sizeof line, "journal record %llu: ", (unsigned long long)seq[i]);
        const char *at = strstr(log2, line);
        if (!at)
            TB_FAIL("no log line names record %llu:\n%s", (unsigned long long)seq[i], log2);
        const char *nl = strchr(at, '\n');
        if (!nl || !strstr(at, "(skipped)") || strstr(at, "(skipped)") > nl)
            TB_FAIL("record %llu is not said to be skipped: %.*s", (unsigned long long)seq[i],
                    nl ? (int)(nl - at) : 200, at);
    }
    ASSERT_TRUE(strstr(log, "(skipped)") == NULL);
    free(buf);
    free(log);
    free(log2);
    fx_free(&f);
}
