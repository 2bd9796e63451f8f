/* Tests of the journal: format, torn tails, corruption, recovery after kill -9. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tb_journal.h"
#include "tb_test.h"

static void path_in_tmp(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", tb_test_tmp_dir(), name);
}

/* Builds n records with payload "record <seq>" into buf; returns the total length and the
 * offset of each record in offs. */
static size_t build(uint8_t *buf, size_t cap, int n, size_t *offs, uint64_t first_seq)
{
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        char payload[32];
        int plen = snprintf(payload, sizeof payload, "record %d", (int)first_seq + i);
        offs[i] = len;
        int w = tb_journal_encode(buf + len, cap - len, 100, first_seq + (uint64_t)i,
                                  1000 + (uint64_t)i, payload, (size_t)plen);
        ASSERT_GT(w, 0);
        len += (size_t)w;
    }
    return len;
}

static void write_file(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(fwrite(buf, 1, len, f), len);
    ASSERT_OK(fclose(f));
}

/* Writes buf as the file name in the scratch directory (its path into path) and opens it. */
static struct tb_journal *write_and_open(const char *name, const void *buf, size_t len, char *path,
                                         size_t cap, struct tb_journal_recovery *rec)
{
    struct tb_journal *j;
    path_in_tmp(path, cap, name);
    write_file(path, buf, len);
    ASSERT_OK(tb_journal_open(&j, path, rec, NULL));
    return j;
}

static long file_size(const char *path)
{
    struct stat st;
    ASSERT_OK(stat(path, &st));
    return (long)st.st_size;
}

/* Counts valid records and errors of a buffer; checks payloads name their sequence. */
static int count_records(const uint8_t *buf, size_t len, int *errors, struct tb_journal_iter *out)
{
    struct tb_journal_iter it;
    struct tb_journal_record r;
    struct tb_error e;
    int n = 0, rc;
    *errors = 0;
    tb_journal_iter_init(&it, buf, len);
    while ((rc = tb_journal_iter_next(&it, &r, &e)) != 0) {
        if (rc < 0) {
            ASSERT_EQ(rc, TB_ERR_CRC);
            (*errors)++;
            continue;
        }
        char want[32];
        snprintf(want, sizeof want, "record %llu", (unsigned long long)r.seq);
        ASSERT_EQ(r.len, strlen(want));
        ASSERT_TRUE(memcmp(r.payload, want, r.len) == 0);
        n++;
    }
    if (out)
        *out = it;
    return n;
}

TB_TEST(crc32_matches_the_ieee_check_value)
{
    ASSERT_U64_EQ(tb_journal_crc32(0, "123456789", 9), 0xcbf43926u);
    /* Continuing a CRC gives the same as one pass. */
    uint32_t c = tb_journal_crc32(0, "1234", 4);
    ASSERT_U64_EQ(tb_journal_crc32(c, "56789", 5), 0xcbf43926u);
}

TB_TEST(encode_rejects_oversized_payload)
{
    static uint8_t buf[TB_JOURNAL_MAX_PAYLOAD + 64];
    ASSERT_EQ(tb_journal_encode(buf, sizeof buf, 1, 1, 0, buf, TB_JOURNAL_MAX_PAYLOAD + 1),
              TB_ERR_ARG);
    ASSERT_EQ(tb_journal_encode(buf, 40, 1, 1, 0, buf, 9), TB_ERR_ARG); /* does not fit */
}

TB_TEST(round_trip_of_typed_records_through_a_file)
{
    char path[512];
    path_in_tmp(path, sizeof path, "game.tbj");
    struct tb_journal *j;
    struct tb_journal_recovery rec;
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.records, 0);

    struct tb_journal_decision start = {.board = TB_JOURNAL_BOARD_NONE};
    strcpy(start.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    strcpy(start.text, "vi=sim:a.script white de-fide; sighted=keys: black nl");
    struct tb_journal_event ev = {.board = 0,
                                  .kind = 1,
                                  .arg = 12,
                                  .board_seq = 7,
                                  .board_ms = 123456,
                                  .host_ms = 5000,
                                  .occupancy = 0xffff00000000ffffull};
    struct tb_journal_move mv = {.board = 0, .ply = 1, .move = 0x1234};
    strcpy(mv.san, "e4");
    struct tb_journal_decision arb = {.id = 3, .board = 1, .count = 2};
    strcpy(arb.who, "arbiter");
    strcpy(arb.text, "takeback 2: scoresheets agree up to 11...Nf6 (D.2.9)");

    ASSERT_EQ(tb_journal_append_decision(j, TB_JOURNAL_GAME_START, 4000, &start), 1);
    ASSERT_EQ(tb_journal_append_event(j, 5000, &ev), 2);
    ASSERT_EQ(tb_journal_append_move(j, 5001, &mv), 3);
    ASSERT_EQ(tb_journal_append_decision(j, TB_JOURNAL_ARBITER, 6000, &arb), 4);
    ASSERT_EQ(tb_journal_append(j, 999, 6001, "", 0), 5);
    ASSERT_OK(tb_journal_close(j));

    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.records, 5);
    ASSERT_EQ(rec.torn_bytes, 0);
    ASSERT_EQ(rec.corrupt, 0);
    ASSERT_U64_EQ(rec.last_seq, 5);
    ASSERT_U64_EQ(rec.last_time_ms, 6001);
    size_t len;
    const uint8_t *buf = tb_journal_contents(j, &len);
    struct tb_journal_iter it;
    struct tb_journal_record r;
    tb_journal_iter_init(&it, buf, len);

    struct tb_journal_decision d;
    ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 1);
    ASSERT_EQ(r.type, TB_JOURNAL_GAME_START);
    ASSERT_U64_EQ(r.time_ms, 4000);
    ASSERT_OK(tb_journal_decision_decode(&d, &r, NULL));
    ASSERT_STR_EQ(d.fen, start.fen);
    ASSERT_STR_EQ(d.text, start.text);
    ASSERT_EQ(d.board, TB_JOURNAL_BOARD_NONE);

    struct tb_journal_event e2;
    ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 1);
    ASSERT_OK(tb_journal_event_decode(&e2, &r, NULL));
    ASSERT_EQ(e2.kind, 1);
    ASSERT_EQ(e2.arg, 12);
    ASSERT_EQ(e2.board_seq, 7);
    ASSERT_EQ(e2.board_ms, 123456);
    ASSERT_U64_EQ(e2.host_ms, 5000);
    ASSERT_U64_EQ(e2.occupancy, 0xffff00000000ffffull);

    struct tb_journal_move m2;
    ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 1);
    ASSERT_OK(tb_journal_move_decode(&m2, &r, NULL));
    ASSERT_EQ(m2.ply, 1);
    ASSERT_EQ(m2.move, 0x1234);
    ASSERT_STR_EQ(m2.san, "e4");

    ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 1);
    ASSERT_OK(tb_journal_decision_decode(&d, &r, NULL));
    ASSERT_EQ(d.id, 3);
    ASSERT_EQ(d.count, 2);
    ASSERT_STR_EQ(d.who, "arbiter");
    ASSERT_STR_EQ(d.text, arb.text);

    ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 1);
    ASSERT_EQ(r.type, 999);
    ASSERT_EQ(r.len, 0);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 0);
    ASSERT_FALSE(it.torn);
    ASSERT_OK(tb_journal_close(j));
}

TB_TEST(decoders_reject_malformed_payloads)
{
    uint8_t buf[600];
    struct tb_journal_decision d = {.id = 1};
    strcpy(d.text, "hello");
    int n = tb_journal_decision_encode(&d, buf, sizeof buf);
    ASSERT_GT(n, 0);
    struct tb_journal_record r = {.type = TB_JOURNAL_ARBITER, .seq = 9, .payload = buf};
    struct tb_error e;
    for (int cut = 0; cut < n; cut++) { /* every truncation is malformed */
        r.len = (uint32_t)cut;
        ASSERT_EQ(tb_journal_decision_decode(&d, &r, &e), TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(e.msg, "record 9");
    }
    r.len = (uint32_t)n + 1; /* trailing byte */
    buf[n] = 0;
    ASSERT_EQ(tb_journal_decision_decode(&d, &r, &e), TB_ERR_PARSE);
    r.len = (uint32_t)n;
    ASSERT_OK(tb_journal_decision_decode(&d, &r, &e));
    ASSERT_STR_EQ(d.text, "hello");

    struct tb_journal_move mv = {.ply = 1};
    strcpy(mv.san, "Nf3");
    n = tb_journal_move_encode(&mv, buf, sizeof buf);
    buf[6] = '\0'; /* a NUL inside the SAN */
    r = (struct tb_journal_record){.type = TB_JOURNAL_MOVE, .payload = buf, .len = (uint32_t)n};
    ASSERT_EQ(tb_journal_move_decode(&mv, &r, &e), TB_ERR_PARSE);
    r.type = TB_JOURNAL_BOARD_EVENT;
    ASSERT_EQ(tb_journal_move_decode(&mv, &r, &e), TB_ERR_PARSE);
    struct tb_journal_event ev;
    ASSERT_EQ(tb_journal_event_decode(&ev, &r, &e), TB_ERR_PARSE); /* wrong length */
}

TB_TEST(torn_tail_at_every_byte_of_the_last_record_is_dropped)
{
    uint8_t buf[1024];
    size_t offs[4];
    size_t len = build(buf, sizeof buf, 4, offs, 1);
    for (size_t cut = offs[3]; cut < len; cut++) {
        int errors;
        struct tb_journal_iter it;
        ASSERT_EQ(count_records(buf, cut, &errors, &it), 3);
        ASSERT_EQ(errors, 0);
        ASSERT_EQ(it.valid_end, offs[3]);
        ASSERT_EQ(it.torn, cut > offs[3]);
    }
}

TB_TEST(torn_tail_in_a_file_is_cut_and_appends_continue)
{
    uint8_t buf[1024];
    size_t offs[4];
    size_t len = build(buf, sizeof buf, 4, offs, 1);
    char path[512];
    path_in_tmp(path, sizeof path, "torn.tbj");
    for (size_t cut = offs[3] + 1; cut < len; cut++) {
        write_file(path, buf, cut);
        struct tb_journal *j;
        struct tb_journal_recovery rec;
        ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
        ASSERT_EQ(rec.records, 3);
        ASSERT_EQ(rec.torn_bytes, cut - offs[3]);
        ASSERT_U64_EQ(rec.last_seq, 3);
        ASSERT_EQ(file_size(path), (long)offs[3]);
        ASSERT_EQ(tb_journal_append(j, 100, 77, "record 4", 8), 4);
        ASSERT_OK(tb_journal_close(j));
        ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
        ASSERT_EQ(rec.records, 4);
        ASSERT_EQ(rec.torn_bytes, 0);
        size_t n;
        const uint8_t *c = tb_journal_contents(j, &n);
        int errors;
        ASSERT_EQ(count_records(c, n, &errors, NULL), 4);
        ASSERT_EQ(errors, 0);
        ASSERT_OK(tb_journal_close(j));
    }
}

TB_TEST(zero_filled_tail_after_power_cut_is_dropped)
{
    uint8_t buf[8192] = {0};
    size_t offs[3];
    size_t len = build(buf, sizeof buf, 3, offs, 1);
    int errors;
    struct tb_journal_iter it;
    ASSERT_EQ(count_records(buf, len + 4096, &errors, &it), 3);
    ASSERT_EQ(errors, 0);
    ASSERT_TRUE(it.torn);
    ASSERT_EQ(it.valid_end, len);
}

TB_TEST(bit_flip_at_every_byte_of_a_middle_record_is_reported)
{
    uint8_t buf[1024];
    size_t offs[5];
    size_t len = build(buf, sizeof buf, 5, offs, 1);
    for (size_t at = offs[2]; at < offs[3]; at++) {
        for (int bit = 0; bit < 8; bit += 3) {
            buf[at] ^= (uint8_t)(1u << bit);
            int errors;
            struct tb_journal_iter it;
            ASSERT_EQ(count_records(buf, len, &errors, &it), 4);
            ASSERT_EQ(errors, 1);
            ASSERT_FALSE(it.torn);
            ASSERT_EQ(it.corrupt, 1);
            buf[at] ^= (uint8_t)(1u << bit);
        }
    }
}

TB_TEST(corruption_report_names_records_bytes_and_ply)
{
    uint8_t buf[1024];
    size_t offs[5];
    size_t len = build(buf, sizeof buf, 5, offs, 1);
    buf[offs[2] + TB_JOURNAL_HEADER_SIZE] ^= 0x40;
    struct tb_journal_iter it;
    struct tb_journal_record r;
    struct tb_error e;
    tb_journal_iter_init(&it, buf, len);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), TB_ERR_CRC);
    char want[96];
    snprintf(want, sizeof want, "records 3 to 3 lost (bytes %zu to %zu unreadable), after ply 0",
             offs[2], offs[3] - 1);
    ASSERT_STR_CONTAINS(e.msg, want);
    ASSERT_U64_EQ(it.loss.first_seq, 3);
    ASSERT_U64_EQ(it.loss.last_seq, 3);
    ASSERT_EQ(it.loss.offset, offs[2]);
    ASSERT_EQ(it.loss.bytes, offs[3] - offs[2]);
    ASSERT_U64_EQ(it.lost, 1);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_U64_EQ(r.seq, 4);
}

/* The ply in a loss report is the last intact move's: the arbiter hears "from ply P". */
TB_TEST(a_loss_names_the_ply_of_the_last_move_before_it)
{
    uint8_t buf[2048], pl[64];
    size_t len = 0, offs[6];
    for (int i = 0; i < 6; i++) {
        struct tb_journal_move mv = {.board = 0, .ply = (uint16_t)(20 + i), .move = 1};
        strcpy(mv.san, "Nf3");
        int n = tb_journal_move_encode(&mv, pl, sizeof pl);
        offs[i] = len;
        len += (size_t)tb_journal_encode(buf + len, sizeof buf - len, TB_JOURNAL_MOVE,
                                         (uint64_t)i + 1, 0, pl, (size_t)n);
    }
    memset(buf + offs[3] + 2, 0xee, offs[5] - offs[3] - 4); /* moves 23 and 24 */
    struct tb_journal_iter it;
    struct tb_journal_record r;
    struct tb_error e;
    tb_journal_iter_init(&it, buf, len);
    int rc;
    while ((rc = tb_journal_iter_next(&it, &r, &e)) == 1) {
    }
    ASSERT_EQ(rc, TB_ERR_CRC);
    ASSERT_STR_CONTAINS(e.msg, "records 4 to 5 lost");
    ASSERT_STR_CONTAINS(e.msg, "after ply 22");
    ASSERT_EQ(it.loss.ply, 22);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_EQ(it.ply, 25);
}

TB_TEST(sequence_gap_between_valid_records_is_reported)
{
    uint8_t buf[1024];
    size_t offs[3], len = build(buf, sizeof buf, 2, offs, 1);
    len += build(buf + len, sizeof buf - len, 1, offs + 2, 5); /* 1, 2, then 5 */
    struct tb_journal_iter it;
    struct tb_journal_record r;
    struct tb_error e;
    tb_journal_iter_init(&it, buf, len);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), TB_ERR_CRC);
    ASSERT_STR_CONTAINS(e.msg, "records 3 to 4 lost (no bytes unreadable)");
    ASSERT_EQ(it.loss.bytes, 0);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_U64_EQ(r.seq, 5);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 0);
}

/* A record whose sequence number goes back (a stale copy, a block written twice) is not handed
 * out: it would replay an old event twice. */
TB_TEST(an_older_record_after_damage_is_not_read_again)
{
    uint8_t buf[1024];
    size_t offs[6];
    size_t len = build(buf, sizeof buf, 4, offs, 1);
    size_t copy_at = len;
    memcpy(buf + len, buf + offs[1], offs[2] - offs[1]); /* record 2 again */
    len += offs[2] - offs[1];
    len += build(buf + len, sizeof buf - len, 1, offs + 4, 5);
    int errors;
    struct tb_journal_iter it;
    ASSERT_EQ(count_records(buf, len, &errors, &it), 5);
    ASSERT_EQ(errors, 1);
    ASSERT_EQ(it.loss.offset, copy_at);
    ASSERT_U64_EQ(it.lost, 0); /* bytes, no record */
}

/* The header has its own CRC: a damaged payload costs its record and nothing is read out of it,
 * even a whole record stored inside it. */
TB_TEST(a_damaged_payload_is_skipped_whole)
{
    uint8_t inner[128], buf[1024];
    int n = tb_journal_encode(inner, sizeof inner, 100, 2, 0, "record 2", 8);
    size_t len = (size_t)tb_journal_encode(buf, sizeof buf, 100, 1, 0, "record 1", 8);
    size_t outer = len;
    len += (size_t)tb_journal_encode(buf + len, sizeof buf - len, 7, 2, 0, inner, (size_t)n);
    size_t offs[1];
    len += build(buf + len, sizeof buf - len, 1, offs, 3);
    buf[outer + TB_JOURNAL_HEADER_SIZE + n - 1] ^= 1; /* the outer payload's last byte */
    struct tb_journal_iter it;
    struct tb_journal_record r;
    struct tb_error e;
    tb_journal_iter_init(&it, buf, len);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), TB_ERR_CRC);
    ASSERT_EQ(it.loss.offset, outer);
    ASSERT_EQ(it.loss.bytes, TB_JOURNAL_HEADER_SIZE + (size_t)n);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_U64_EQ(r.seq, 3);
}

TB_TEST(open_keeps_middle_corruption_and_appends_after_the_last_record)
{
    uint8_t buf[1024];
    size_t offs[4];
    size_t len = build(buf, sizeof buf, 4, offs, 1);
    buf[offs[1] + 12] ^= 1; /* record 2's sequence number */
    char path[512];
    struct tb_journal_recovery rec;
    struct tb_journal *j = write_and_open("corrupt.tbj", buf, len, path, sizeof path, &rec);
    ASSERT_EQ(rec.records, 3);
    ASSERT_EQ(rec.corrupt, 1);
    ASSERT_EQ(rec.torn_bytes, 0);
    ASSERT_EQ(file_size(path), (long)len); /* nothing destroyed */
    ASSERT_EQ(tb_journal_append(j, 100, 1, "record 5", 8), 5);
    ASSERT_OK(tb_journal_close(j));
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.records, 4);
    ASSERT_U64_EQ(rec.last_seq, 5);
    ASSERT_OK(tb_journal_close(j));
}

TB_TEST(append_is_buffered_until_sync)
{
    char path[512];
    path_in_tmp(path, sizeof path, "buffered.tbj");
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    ASSERT_EQ(tb_journal_append(j, 100, 1, "record 1", 8), 1);
    ASSERT_EQ(file_size(path), 0);
    ASSERT_OK(tb_journal_sync(j));
    ASSERT_EQ(file_size(path), TB_JOURNAL_HEADER_SIZE + 8);
    ASSERT_U64_EQ(tb_journal_last_seq(j), 1);
    ASSERT_OK(tb_journal_close(j));
    ASSERT_OK(tb_journal_close(NULL));
}

TB_TEST(open_reports_an_unwritable_path)
{
    struct tb_journal *j = (struct tb_journal *)(uintptr_t)1; /* not NULL, never read */
    struct tb_error e;
    ASSERT_EQ(tb_journal_open(&j, "/nonexistent-dir/x/game.tbj", NULL, &e), TB_ERR_SYS);
    ASSERT_NULL(j);
    ASSERT_STR_CONTAINS(e.msg, "/nonexistent-dir/x/game.tbj");
}

/* The child appends and syncs records forever, telling the parent each synced sequence number
 * through a pipe; the parent kills it with SIGKILL mid-stream and recovers. */
static void child_appends(const char *path, int wfd)
{
    struct tb_journal *j;
    if (tb_journal_open(&j, path, NULL, NULL) != TB_OK)
        _exit(2);
    for (uint64_t seq = 1;; seq++) {
        char payload[32];
        int n = snprintf(payload, sizeof payload, "record %llu", (unsigned long long)seq);
        if (tb_journal_append(j, 100, seq, payload, (size_t)n) != (int64_t)seq)
            _exit(3);
        if (seq % 3 == 0) { /* some records only buffered or written, not yet synced */
            if (tb_journal_sync(j) != TB_OK)
                _exit(4);
            if (write(wfd, &seq, sizeof seq) != sizeof seq)
                _exit(5);
        } else if (seq % 3 == 1) {
            tb_journal_flush(j);
        }
    }
}

TB_TEST(kill9_mid_stream_loses_no_synced_record)
{
    char path[512];
    path_in_tmp(path, sizeof path, "killed.tbj");
    int fds[2];
    ASSERT_OK(pipe(fds));
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        child_appends(path, fds[1]);
        _exit(0);
    }
    close(fds[1]);
    uint64_t synced = 0, seq;
    while (synced < 300 && read(fds[0], &seq, sizeof seq) == sizeof seq)
        synced = seq;
    ASSERT_OK(kill(pid, SIGKILL));
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));
    while (read(fds[0], &seq, sizeof seq) == sizeof seq) /* syncs reported before the kill */
        synced = seq;
    close(fds[0]);
    ASSERT_GE(synced, 300);

    struct tb_journal *j;
    struct tb_journal_recovery rec;
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.corrupt, 0);
    ASSERT_GE(rec.last_seq, synced);
    size_t len;
    const uint8_t *buf = tb_journal_contents(j, &len);
    int errors;
    ASSERT_EQ((uint64_t)count_records(buf, len, &errors, NULL), rec.last_seq);
    ASSERT_EQ(errors, 0);
    /* Recovery then append continues the sequence. */
    int64_t next = tb_journal_append(j, 100, 0, "x", 1);
    ASSERT_EQ(next, (int64_t)rec.last_seq + 1);
    ASSERT_OK(tb_journal_close(j));
}

TB_TEST(a_second_process_cannot_append_to_an_open_journal)
{
    char path[512];
    path_in_tmp(path, sizeof path, "locked.tbj");
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        struct tb_journal *k;
        struct tb_error e;
        int rc = tb_journal_open(&k, path, NULL, &e);
        _exit(rc == TB_ERR_STATE && strstr(e.msg, "in use by another process") ? 0 : 1);
    }
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    ASSERT_OK(tb_journal_close(j));
    /* Closed: another process may take it now. */
    pid = fork();
    if (pid == 0) {
        struct tb_journal *k;
        _exit(tb_journal_open(&k, path, NULL, NULL) == TB_OK && tb_journal_close(k) == TB_OK ? 0
                                                                                             : 1);
    }
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_EQ(WEXITSTATUS(status), 0);
}

/* Valid records between random garbage: every valid record is found, in order, nothing else is
 * returned as a record, and every stretch of garbage between records is reported. */
TB_TEST(records_among_random_garbage_are_all_found_and_garbage_never_read_as_records)
{
    static uint8_t buf[16384];
    unsigned seed = 7;
    for (int round = 0; round < 200; round++) {
        size_t len = 0;
        int records = 0, gaps = 0;
        for (int i = 0; i < 8; i++) {
            size_t junk = 0;
            if (i > 0 && (seed >> 8) % 3 == 0) { /* garbage between records */
                junk = 1 + (seed >> 4) % 200;
                for (size_t k = 0; k < junk; k++) {
                    seed = seed * 1103515245u + 12345u;
                    buf[len + k] = (uint8_t)(k % 5 == 0 ? 'T' : seed >> 16);
                }
                len += junk;
                gaps++;
            }
            seed = seed * 1103515245u + 12345u;
            char payload[32];
            int plen = snprintf(payload, sizeof payload, "record %d", i + 1);
            int w = tb_journal_encode(buf + len, sizeof buf - len, 100, (uint64_t)i + 1, 0, payload,
                                      (size_t)plen);
            ASSERT_GT(w, 0);
            len += (size_t)w;
            records++;
        }
        int errors;
        struct tb_journal_iter it;
        ASSERT_EQ(count_records(buf, len, &errors, &it), records);
        ASSERT_EQ(errors, gaps);
        ASSERT_FALSE(it.torn);
        if (gaps) {
            struct tb_journal_record r;
            struct tb_error e;
            tb_journal_iter_init(&it, buf, len);
            while (tb_journal_iter_next(&it, &r, &e) == 1) {
            }
            ASSERT_STR_CONTAINS(e.msg, "no record missing");
        }
    }
}

/* ---- format versions -------------------------------------------------------------------- */

/* A format 1 record as the previous release wrote it: "TBJ1", a 32-byte header, one CRC over
 * header bytes 0..27 and the payload. Written here byte by byte, independently of the library. */
static size_t v1_record(uint8_t *out, uint16_t type, uint64_t seq, uint64_t time_ms,
                        const char *payload)
{
    size_t len = strlen(payload);
    memset(out, 0, 32);
    memcpy(out, "TBJ1", 4);
    out[4] = (uint8_t)type;
    out[5] = (uint8_t)(type >> 8);
    out[8] = (uint8_t)len;
    for (int i = 0; i < 8; i++) {
        out[12 + i] = (uint8_t)(seq >> (8 * i));
        out[20 + i] = (uint8_t)(time_ms >> (8 * i));
    }
    memcpy(out + 32, payload, len);
    uint32_t crc = tb_journal_crc32(tb_journal_crc32(0, out, 28), out + 32, len);
    for (int i = 0; i < 4; i++)
        out[28 + i] = (uint8_t)(crc >> (8 * i));
    return 32 + len;
}

TB_TEST(a_format_1_journal_is_read_and_continued_in_format_2)
{
    uint8_t buf[1024];
    size_t len = 0, offs[4];
    for (int i = 0; i < 3; i++) {
        char p[32];
        snprintf(p, sizeof p, "record %d", i + 1);
        offs[i] = len;
        len += v1_record(buf + len, 100, (uint64_t)i + 1, 10, p);
    }
    buf[offs[1] + 33] ^= 4; /* damage in format 1 is found the same way */
    int errors;
    struct tb_journal_iter it;
    ASSERT_EQ(count_records(buf, len, &errors, &it), 2);
    ASSERT_EQ(errors, 1);
    ASSERT_U64_EQ(it.loss.first_seq, 2);
    buf[offs[1] + 33] ^= 4;

    char path[512];
    struct tb_journal_recovery rec;
    struct tb_journal *j = write_and_open("v1.tbj", buf, len, path, sizeof path, &rec);
    ASSERT_EQ(rec.records, 3);
    ASSERT_EQ(rec.v1_records, 3);
    ASSERT_EQ(tb_journal_append(j, 100, 11, "record 4", 8), 4);
    ASSERT_OK(tb_journal_close(j));
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.records, 4);
    ASSERT_EQ(rec.v1_records, 3);
    size_t n;
    const uint8_t *c = tb_journal_contents(j, &n);
    ASSERT_EQ(count_records(c, n, &errors, NULL), 4);
    ASSERT_EQ(errors, 0);
    struct tb_journal_record r;
    tb_journal_iter_init(&it, c, n);
    for (int i = 0; i < 4; i++) {
        ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 1);
        ASSERT_EQ(r.format, i < 3 ? 1 : 2);
    }
    ASSERT_OK(tb_journal_close(j));
}

/* A journal of a later format is refused whole, and left as it is (a torn-tail cut would
 * destroy it). A newer record is told from a damaged one by its header CRC. */
TB_TEST(a_newer_format_is_refused_and_nothing_changed)
{
    uint8_t buf[1024];
    size_t offs[3];
    size_t len = build(buf, sizeof buf, 3, offs, 1);
    uint8_t *h = buf + offs[1];
    h[3] = '3';
    uint32_t crc = tb_journal_crc32(0, h, 32);
    for (int i = 0; i < 4; i++)
        h[32 + i] = (uint8_t)(crc >> (8 * i));
    struct tb_journal_iter it;
    struct tb_journal_record r;
    struct tb_error e;
    tb_journal_iter_init(&it, buf, len);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), TB_ERR_SUPP);
    ASSERT_STR_CONTAINS(e.msg, "format 3");
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 0);

    char path[512];
    path_in_tmp(path, sizeof path, "v3.tbj");
    write_file(path, buf, len);
    struct tb_journal *j;
    ASSERT_EQ(tb_journal_open(&j, path, NULL, &e), TB_ERR_SUPP);
    ASSERT_STR_CONTAINS(e.msg, path);
    ASSERT_STR_CONTAINS(e.msg, "reads formats 1 to 2");
    ASSERT_EQ(file_size(path), (long)len);

    /* The same byte changed by damage (header CRC not matching): a lost record, read on. */
    h[3] = '2';
    h[32] ^= 0xff;
    int errors;
    ASSERT_EQ(count_records(buf, len, &errors, NULL), 2);
    ASSERT_EQ(errors, 1);
}

/* A file that is not a journal (or whose end is damaged beyond what a crash leaves) is not cut:
 * its bytes are kept, reported, and records follow them. */
TB_TEST(a_file_that_is_not_a_journal_is_not_cut)
{
    static uint8_t junk[TB_JOURNAL_HEADER_SIZE + TB_JOURNAL_MAX_PAYLOAD + 8192];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)(i * 7 + 3);
    char path[512];
    struct tb_journal_recovery rec;
    struct tb_journal *j = write_and_open("notes.txt", junk, sizeof junk, path, sizeof path, &rec);
    ASSERT_EQ(rec.records, 0);
    ASSERT_EQ(rec.corrupt, 1);
    ASSERT_EQ(rec.torn_bytes, 0);
    size_t n;
    const struct tb_journal_loss *l = tb_journal_losses(j, &n);
    ASSERT_EQ(n, 1);
    ASSERT_EQ(l->offset, 0);
    ASSERT_EQ(l->bytes, sizeof junk);
    ASSERT_EQ(file_size(path), (long)sizeof junk);
    ASSERT_EQ(tb_journal_append(j, 100, 1, "record 1", 8), 1);
    ASSERT_OK(tb_journal_close(j));
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.records, 1);
    ASSERT_EQ(rec.corrupt, 1);
    l = tb_journal_losses(j, &n);
    ASSERT_EQ(l->bytes, sizeof junk);
    ASSERT_U64_EQ(l->last_seq + 1, l->first_seq); /* bytes, no record known missing */
    ASSERT_OK(tb_journal_close(j));
}

/* The last record whole, its header intact, its payload damaged: a write that completed and was
 * damaged later (a cut-short write ends early). It is reported and kept, not cut as torn. */
TB_TEST(a_damaged_last_record_with_its_header_intact_is_a_loss_not_a_torn_tail)
{
    uint8_t buf[1024];
    size_t offs[3];
    size_t len = build(buf, sizeof buf, 3, offs, 1);
    buf[len - 1] ^= 0x20;
    char path[512];
    struct tb_journal_recovery rec;
    struct tb_journal *j = write_and_open("lastbad.tbj", buf, len, path, sizeof path, &rec);
    ASSERT_EQ(rec.records, 2);
    ASSERT_EQ(rec.torn_bytes, 0);
    ASSERT_U64_EQ(rec.lost, 1);
    size_t n;
    const struct tb_journal_loss *l = tb_journal_losses(j, &n);
    ASSERT_EQ(n, 1);
    ASSERT_U64_EQ(l->first_seq, 3);
    ASSERT_EQ(l->offset, offs[2]);
    ASSERT_EQ(file_size(path), (long)len);
    ASSERT_EQ(tb_journal_append(j, 100, 1, "record 4", 8), 4);
    ASSERT_OK(tb_journal_close(j));
    /* Its header damaged instead: nothing says where it ends; dropped as a torn tail. */
    buf[len - 1] ^= 0x20;
    buf[offs[2] + 9] ^= 1;
    j = write_and_open("lasthdr.tbj", buf, len, path, sizeof path, &rec);
    ASSERT_EQ(rec.records, 2);
    ASSERT_EQ(rec.torn_bytes, len - offs[2]);
    ASSERT_U64_EQ(rec.lost, 0);
    ASSERT_OK(tb_journal_close(j));
}

/* A journal starts at record 1: one that starts later has lost its beginning, and says so. */
TB_TEST(a_journal_missing_its_first_records_says_so)
{
    uint8_t buf[1024];
    size_t offs[2];
    size_t len = build(buf, sizeof buf, 2, offs, 5);
    struct tb_journal_iter it;
    struct tb_journal_record r;
    struct tb_error e;
    tb_journal_iter_init(&it, buf, len);
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), TB_ERR_CRC);
    ASSERT_STR_CONTAINS(e.msg, "records 1 to 4 lost (no bytes unreadable)");
    ASSERT_EQ(tb_journal_iter_next(&it, &r, &e), 1);
    ASSERT_U64_EQ(r.seq, 5);
}

/* A clock reading and a DGT board's reading keep every field; other events stay 27 bytes; an
 * extension where the encoder writes none is refused (one payload, one meaning). */
TB_TEST(clock_and_piece_events_round_trip_plain_events_stay_short)
{
    uint8_t buf[TB_JOURNAL_EVENT_MAX];
    struct tb_journal_event plain = {.board = 1, .kind = 2, .arg = 28};
    ASSERT_EQ(tb_journal_event_encode(&plain, buf, sizeof buf), 27);

    struct tb_journal_event clk = {.board = 1, .kind = TB_JOURNAL_KIND_CLOCK};
    clk.clock_ms[0] = 5399000;
    clk.clock_ms[1] = -1;
    clk.clock_run = 1;
    int n = tb_journal_event_encode(&clk, buf, sizeof buf);
    ASSERT_EQ(n, 38);
    struct tb_journal_record r = {
        .type = TB_JOURNAL_BOARD_EVENT, .payload = buf, .len = (uint32_t)n};
    struct tb_journal_event back;
    ASSERT_OK(tb_journal_event_decode(&back, &r, NULL));
    ASSERT_EQ(back.clock_ms[0], 5399000);
    ASSERT_EQ(back.clock_ms[1], -1);
    ASSERT_EQ(back.clock_run, 1);

    struct tb_journal_event snap = {
        .board = 1, .kind = 6, .has_pieces = true, .occupancy = 0xffff00000000ffffull};
    for (int sq = 0; sq < 64; sq++)
        snap.pieces[sq] = (uint8_t)(sq % 15);
    n = tb_journal_event_encode(&snap, buf, sizeof buf);
    ASSERT_EQ(n, 70);
    r.len = (uint32_t)n;
    ASSERT_OK(tb_journal_event_decode(&back, &r, NULL));
    ASSERT_TRUE(back.has_pieces);
    ASSERT_OK(memcmp(back.pieces, snap.pieces, 64));
    ASSERT_U64_EQ(back.occupancy, snap.occupancy);

    struct tb_journal_event place = {.board = 1, .kind = 2, .arg = 60, .piece = 9};
    n = tb_journal_event_encode(&place, buf, sizeof buf);
    ASSERT_EQ(n, 38);
    buf[27] = 0; /* a place naming no piece: the encoder would write 27 bytes */
    r.len = (uint32_t)n;
    ASSERT_EQ(tb_journal_event_decode(&back, &r, NULL), TB_ERR_PARSE);
    ASSERT_EQ(tb_journal_event_encode(&clk, buf, sizeof buf), 38);
    r.len = 27; /* a clock reading cut to 27 bytes */
    ASSERT_EQ(tb_journal_event_decode(&back, &r, NULL), TB_ERR_PARSE);
}

/* A move record may name the moves before it (recovery bridges lost move records with them):
 * read back as written; a history of nothing, longer than the limit or reaching before the
 * first ply is malformed, and so is every cut of it. */
TB_TEST(a_move_record_carries_the_moves_before_it)
{
    uint8_t buf[200];
    struct tb_journal_move mv = {.board = 1, .ply = 30, .move = 0x0abc, .nhist = 3};
    strcpy(mv.san, "Qxf7#");
    mv.hist[0] = 0x0101, mv.hist[1] = 0x0202, mv.hist[2] = 0x0303;
    int n = tb_journal_move_encode(&mv, buf, sizeof buf);
    ASSERT_EQ(n, 6 + 5 + 1 + 6);
    struct tb_journal_record r = {.type = TB_JOURNAL_MOVE, .seq = 4, .payload = buf};
    struct tb_journal_move got;
    struct tb_error e;
    for (int cut = 6 + 5 + 1; cut < n; cut++) {
        r.len = (uint32_t)cut;
        ASSERT_EQ(tb_journal_move_decode(&got, &r, &e), TB_ERR_PARSE);
    }
    r.len = (uint32_t)n;
    ASSERT_OK(tb_journal_move_decode(&got, &r, &e));
    ASSERT_EQ(got.nhist, 3);
    ASSERT_EQ(got.hist[2], 0x0303);
    ASSERT_STR_EQ(got.san, "Qxf7#");
    r.len = 6 + 5; /* without a history, as older records are */
    ASSERT_OK(tb_journal_move_decode(&got, &r, &e));
    ASSERT_EQ(got.nhist, 0);
    buf[11] = 0; /* a history of nothing */
    r.len = 12;
    ASSERT_EQ(tb_journal_move_decode(&got, &r, &e), TB_ERR_PARSE);
    mv.ply = 3; /* reaching before ply 1 */
    n = tb_journal_move_encode(&mv, buf, sizeof buf);
    r.len = (uint32_t)n;
    ASSERT_EQ(tb_journal_move_decode(&got, &r, &e), TB_ERR_PARSE);
    mv.ply = 100;
    mv.nhist = TB_JOURNAL_MOVE_HISTORY + 5; /* written up to the limit */
    n = tb_journal_move_encode(&mv, buf, sizeof buf);
    ASSERT_EQ(n, 6 + 5 + 1 + 2 * TB_JOURNAL_MOVE_HISTORY);
}
