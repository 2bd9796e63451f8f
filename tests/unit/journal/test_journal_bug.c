/* Doorgeefschaak inputs in the journal: the binary record (TB_JOURNAL_BUG_INPUT_BIN) for every
 * verb, the words of older journals (TB_JOURNAL_BUG_INPUT_TEXT) read into the same input, and
 * malformed bytes and words refused with a message naming the record and the place. */
#include <stdio.h>
#include <string.h>

#include "tb_journal.h"
#include "tb_test.h"

#define SEQ 42

static struct tb_journal_bug_input input(uint8_t verb, uint8_t board, uint8_t seat, uint8_t side,
                                         char piece, const char *move)
{
    struct tb_journal_bug_input in = {
        .verb = verb, .board = board, .seat = seat, .side = side, .piece = piece};
    snprintf(in.move, sizeof in.move, "%s", move);
    return in;
}

/* One of each verb, with the fields it uses; unused fields as a decoder gives them. */
static const struct {
    const char *text; /* as the daemon wrote it before the binary record */
    uint8_t verb, board, seat, side;
    char piece;
    const char *move;
    uint8_t bytes[8]; /* the binary payload */
    size_t nbytes;
} cases[] = {
    {"time", TB_JOURNAL_BUG_TIME, TB_JOURNAL_BOARD_NONE, 0, 0, 0, "", {0}, 1},
    {"hand 2", TB_JOURNAL_BUG_HAND, TB_JOURNAL_BOARD_NONE, 2, 0, 0, "", {1, 2}, 2},
    {"hand 3", TB_JOURNAL_BUG_HAND, TB_JOURNAL_BOARD_NONE, 3, 0, 0, "", {1, 3}, 2},
    {"resign 0 1", TB_JOURNAL_BUG_RESIGN, 0, 0, 1, 0, "", {2, 0, 1}, 3},
    {"resign 1 0", TB_JOURNAL_BUG_RESIGN, 1, 0, 0, 0, "", {2, 1, 0}, 3},
    {"choose 1 n", TB_JOURNAL_BUG_CHOOSE, 1, 0, 0, 'n', "", {3, 1, 'n'}, 3},
    {"choose 0 p", TB_JOURNAL_BUG_CHOOSE, 0, 0, 0, 'p', "", {3, 0, 'p'}, 3},
    {"move 0 N@f3", TB_JOURNAL_BUG_MOVE, 0, 0, 0, 0, "N@f3", {4, 0, 4, 'N', '@', 'f', '3'}, 7},
    {"move 1 exd5", TB_JOURNAL_BUG_MOVE, 1, 0, 0, 0, "exd5", {4, 1, 4, 'e', 'x', 'd', '5'}, 7},
    {"accept 0", TB_JOURNAL_BUG_ACCEPT, 0, 0, 0, 0, "", {5, 0}, 2},
    {"replace 1", TB_JOURNAL_BUG_REPLACE, 1, 0, 0, 0, "", {6, 1}, 2},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static struct tb_journal_bug_input case_input(int i)
{
    return input(cases[i].verb, cases[i].board, cases[i].seat, cases[i].side, cases[i].piece,
                 cases[i].move);
}

static void assert_same(const struct tb_journal_bug_input *a, const struct tb_journal_bug_input *b)
{
    ASSERT_EQ(a->verb, b->verb);
    ASSERT_EQ(a->board, b->board);
    ASSERT_EQ(a->seat, b->seat);
    ASSERT_EQ(a->side, b->side);
    ASSERT_EQ(a->piece, b->piece);
    ASSERT_STR_EQ(a->move, b->move);
}

static struct tb_journal_record binary(const uint8_t *p, size_t len)
{
    return (struct tb_journal_record){
        .type = TB_JOURNAL_BUG_INPUT_BIN, .seq = SEQ, .payload = p, .len = (uint32_t)len};
}

/* A TB_JOURNAL_BUG_INPUT_TEXT decision as the daemon wrote it, into buf. */
static struct tb_journal_record text_record(const char *text, uint8_t *buf, size_t cap)
{
    struct tb_journal_decision dec = {.board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "control");
    snprintf(dec.text, sizeof dec.text, "%s", text);
    int n = tb_journal_decision_encode(&dec, buf, cap);
    ASSERT_GT(n, 0);
    return (struct tb_journal_record){
        .type = TB_JOURNAL_BUG_INPUT_TEXT, .seq = SEQ, .payload = buf, .len = (uint32_t)n};
}

TB_TEST(every_verb_encodes_to_its_bytes_and_decodes_to_the_same_input)
{
    for (int i = 0; i < NCASES; i++) {
        struct tb_journal_bug_input in = case_input(i), back;
        uint8_t buf[4 + TB_JOURNAL_BUG_MOVE_MAX], again[sizeof buf];
        int n = tb_journal_bug_input_encode(&in, buf, sizeof buf, NULL);
        ASSERT_EQ(n, (int)cases[i].nbytes);
        ASSERT_TRUE(memcmp(buf, cases[i].bytes, (size_t)n) == 0);
        struct tb_journal_record r = binary(buf, (size_t)n);
        ASSERT_OK(tb_journal_bug_input_decode(&back, &r, NULL));
        assert_same(&back, &in);
        ASSERT_EQ(tb_journal_bug_input_encode(&back, again, sizeof again, NULL), n);
        ASSERT_TRUE(memcmp(buf, again, (size_t)n) == 0);
        char words[TB_JOURNAL_BUG_TEXT_MAX];
        ASSERT_EQ(tb_journal_bug_input_format(&in, words, sizeof words),
                  (int)strlen(cases[i].text));
        ASSERT_STR_EQ(words, cases[i].text);
    }
}

TB_TEST(a_move_of_the_longest_length_round_trips_and_one_byte_more_is_refused)
{
    char move[TB_JOURNAL_BUG_MOVE_MAX + 1];
    memset(move, 'x', TB_JOURNAL_BUG_MOVE_MAX);
    move[TB_JOURNAL_BUG_MOVE_MAX] = '\0';
    struct tb_journal_bug_input in = input(TB_JOURNAL_BUG_MOVE, 1, 0, 0, 0, move), back;
    uint8_t buf[4 + TB_JOURNAL_BUG_MOVE_MAX];
    int n = tb_journal_bug_input_encode(&in, buf, sizeof buf, NULL);
    ASSERT_EQ(n, 3 + TB_JOURNAL_BUG_MOVE_MAX);
    struct tb_journal_record r = binary(buf, (size_t)n);
    ASSERT_OK(tb_journal_bug_input_decode(&back, &r, NULL));
    ASSERT_STR_EQ(back.move, move);
    ASSERT_EQ(tb_journal_bug_input_encode(&in, buf, (size_t)n - 1, NULL), TB_ERR_FULL);
    /* the words of an older journal: 101 bytes are no move */
    uint8_t dbuf[600];
    char text[TB_JOURNAL_BUG_TEXT_MAX + 8];
    snprintf(text, sizeof text, "move 1 %sx", move);
    struct tb_error e = {0};
    r = text_record(text, dbuf, sizeof dbuf);
    ASSERT_EQ(tb_journal_bug_input_decode(&back, &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "word 3");
}

/* Older journals: the text form of every verb gives the input the binary form gives. */
TB_TEST(the_text_form_of_older_journals_decodes_to_the_same_input_for_every_verb)
{
    for (int i = 0; i < NCASES; i++) {
        uint8_t buf[600];
        struct tb_journal_bug_input want = case_input(i), got;
        struct tb_journal_record r = text_record(cases[i].text, buf, sizeof buf);
        struct tb_error e = {0};
        ASSERT_OK(tb_journal_bug_input_decode(&got, &r, &e));
        assert_same(&got, &want);
    }
}

TB_TEST(malformed_words_are_refused_naming_the_record_and_the_word)
{
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"", "word 1 is empty"},
        {"jump 0", "'jump' is no verb"},
        {"Hand 2", "is no verb"},
        {"hand", "hand takes 1 words after it, not 0"},
        {"hand 2 x", "not 2"},
        {"hand  2", "word 2 is empty"},
        {" hand 2", "word 1 is empty"},
        {"hand 2 ", "word 3 is empty"},
        {"hand 4", "word 2 '4' is not a seat"},
        {"hand -1", "is not a seat"},
        {"hand 02", "is not a seat"},
        {"hand x", "is not a seat"},
        {"time 0", "time takes 0 words"},
        {"resign 0", "resign takes 2 words"},
        {"resign 2 0", "word 2 '2' is not a board"},
        {"resign 0 2", "word 3 '2' is not a side"},
        {"resign 0 w", "is not a side"},
        {"choose 0 k", "word 3 'k' is not a piece"},
        {"choose 0 N", "is not a piece"},
        {"choose 0 nn", "is not a piece"},
        {"choose a n", "is not a board"},
        {"move 0", "move takes 2 words"},
        {"move 0 N@f3 e4", "not 3"},
        {"move 0 N\tf3", "is not a move"},
        {"move 0 N\x7f", "is not a move"},
        {"accept 2", "is not a board"},
        {"accept a", "is not a board"},
        {"replace", "replace takes 1 words"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t buf[600];
        struct tb_journal_bug_input got;
        struct tb_error e = {0};
        struct tb_journal_record r = text_record(bad[i].text, buf, sizeof buf);
        ASSERT_EQ(tb_journal_bug_input_decode(&got, &r, &e), TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(e.msg, "journal record 42");
        ASSERT_STR_CONTAINS(e.msg, bad[i].says);
    }
    /* a text record whose decision payload is itself damaged */
    uint8_t buf[600];
    struct tb_journal_record r = text_record("hand 2", buf, sizeof buf);
    r.len--;
    struct tb_journal_bug_input got;
    struct tb_error e = {0};
    ASSERT_EQ(tb_journal_bug_input_decode(&got, &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "journal record 42: malformed decision payload");
}

TB_TEST(malformed_bytes_are_refused_naming_the_record_and_the_byte)
{
    static const struct {
        uint8_t bytes[8];
        size_t n;
        const char *says;
    } bad[] = {
        {{0}, 0, "no verb at byte 0"},
        {{7}, 1, "unknown verb at byte 0"},
        {{255, 0}, 2, "unknown verb at byte 0"},
        {{0, 0}, 2, "time: 1 bytes after its end at byte 1"},
        {{1}, 1, "hand ends at byte 1, before a seat"},
        {{1, 4}, 2, "hand: byte 1 (4) is not a seat"},
        {{1, 2, 0}, 3, "1 bytes after its end at byte 2"},
        {{2, 2, 0}, 3, "resign: byte 1 (2) is not a board"},
        {{2, 0, 2}, 3, "resign: byte 2 (2) is not a side"},
        {{2, 0}, 2, "resign ends at byte 2, before a side"},
        {{3, 0, 'k'}, 3, "choose: byte 2 (107) is not a piece"},
        {{3, 0, 'Q'}, 3, "is not a piece"},
        {{3, 0, 0}, 3, "is not a piece"},
        {{4, 0, 0}, 3, "move: bytes 2 to 2 are not a move"},
        {{4, 0, 101}, 3, "move ends at byte 3, before a move"},
        {{4, 0, 3, 'e', '4'}, 5, "move ends at byte 5, before a move"},
        {{4, 0, 2, 'e', ' '}, 5, "bytes 2 to 4 are not a move"},
        {{4, 0, 2, 'e', 0}, 5, "are not a move"},
        {{4, 0, 2, 'e', 0xe4}, 5, "are not a move"},
        {{4, 2, 2, 'e', '4'}, 5, "move: byte 1 (2) is not a board"},
        {{4, 0, 2, 'e', '4', 0}, 6, "1 bytes after its end at byte 5"},
        {{5, 2}, 2, "accept: byte 1 (2) is not a board"},
        {{6}, 1, "replace ends at byte 1, before a board"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb_journal_bug_input got;
        struct tb_error e = {0};
        struct tb_journal_record r = binary(bad[i].bytes, bad[i].n);
        ASSERT_EQ(tb_journal_bug_input_decode(&got, &r, &e), TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(e.msg, "journal record 42: doorgeefschaak input");
        ASSERT_STR_CONTAINS(e.msg, bad[i].says);
    }
    /* every cut of every valid payload is refused too */
    for (int i = 0; i < NCASES; i++)
        for (size_t cut = 0; cut < cases[i].nbytes; cut++) {
            struct tb_journal_bug_input got;
            struct tb_journal_record r = binary(cases[i].bytes, cut);
            ASSERT_EQ(tb_journal_bug_input_decode(&got, &r, NULL), TB_ERR_PARSE);
        }
    /* another record type is no input */
    struct tb_journal_record r = binary(cases[1].bytes, cases[1].nbytes);
    r.type = TB_JOURNAL_ARBITER;
    struct tb_journal_bug_input got;
    struct tb_error e = {0};
    ASSERT_EQ(tb_journal_bug_input_decode(&got, &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "journal record 42 (type 6) is no doorgeefschaak input");
}

TB_TEST(an_input_no_decoder_would_give_is_not_encoded)
{
    static const struct {
        uint8_t verb, board, seat, side;
        char piece;
        const char *move, *says;
    } bad[] = {
        {7, 0, 0, 0, 0, "", "verb 7 is none of 0 to 6"},
        {TB_JOURNAL_BUG_HAND, 0, 4, 0, 0, "", "hand: 4 is not a seat"},
        {TB_JOURNAL_BUG_RESIGN, TB_JOURNAL_BOARD_NONE, 0, 0, 0, "", "255 is not a board"},
        {TB_JOURNAL_BUG_RESIGN, 0, 0, 2, 0, "", "2 is not a side"},
        {TB_JOURNAL_BUG_CHOOSE, 0, 0, 0, 'K', "", "75 is not a piece"},
        {TB_JOURNAL_BUG_MOVE, 0, 0, 0, 0, "", "'' is not a move"},
        {TB_JOURNAL_BUG_MOVE, 0, 0, 0, 0, "e2 e4", "'e2 e4' is not a move"},
        {TB_JOURNAL_BUG_ACCEPT, 3, 0, 0, 0, "", "accept: 3 is not a board"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb_journal_bug_input in =
            input(bad[i].verb, bad[i].board, bad[i].seat, bad[i].side, bad[i].piece, bad[i].move);
        uint8_t buf[4 + TB_JOURNAL_BUG_MOVE_MAX];
        struct tb_error e = {0};
        ASSERT_EQ(tb_journal_bug_input_encode(&in, buf, sizeof buf, &e), TB_ERR_ARG);
        ASSERT_STR_CONTAINS(e.msg, bad[i].says);
    }
    struct tb_journal_bug_input in = case_input(7); /* a move: 7 bytes */
    uint8_t buf[8];
    ASSERT_EQ(tb_journal_bug_input_encode(&in, buf, 6, NULL), TB_ERR_FULL);
    ASSERT_EQ(tb_journal_bug_input_encode(&in, buf, 0, NULL), TB_ERR_FULL);
    ASSERT_EQ(tb_journal_bug_input_format(&in, (char *)buf, 0), TB_ERR_ARG);
}

/* Appended to a journal file, read back after a reopen: the records the daemon writes. */
TB_TEST(inputs_appended_to_a_journal_are_read_back_after_a_reopen)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bug.tbj", tb_test_tmp_dir());
    struct tb_journal *j;
    struct tb_journal_recovery rec;
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    for (int i = 0; i < NCASES; i++) {
        struct tb_journal_bug_input in = case_input(i);
        ASSERT_EQ(tb_journal_append_bug_input(j, 1000 + (uint64_t)i, &in), i + 1);
    }
    struct tb_journal_bug_input bad = input(TB_JOURNAL_BUG_HAND, 0, 9, 0, 0, "");
    ASSERT_EQ(tb_journal_append_bug_input(j, 2000, &bad), TB_ERR_ARG); /* nothing appended */
    ASSERT_OK(tb_journal_close(j));
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.records, (size_t)NCASES);
    size_t len;
    const uint8_t *buf = tb_journal_contents(j, &len);
    struct tb_journal_iter it;
    struct tb_journal_record r;
    tb_journal_iter_init(&it, buf, len);
    for (int i = 0; i < NCASES; i++) {
        ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 1);
        ASSERT_EQ(r.type, TB_JOURNAL_BUG_INPUT_BIN);
        struct tb_journal_bug_input want = case_input(i), got;
        ASSERT_OK(tb_journal_bug_input_decode(&got, &r, NULL));
        assert_same(&got, &want);
    }
    ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 0);
    ASSERT_OK(tb_journal_close(j));
}
