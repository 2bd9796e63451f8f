/* fuzz_voice.c - fuzz target of the phrase-pack loader (voice/pack.c) and of the phrases built
 * from what it accepts (voice/phrase.c).
 *
 * Each input is a pack's text, read by tb_voice_pack_load_text (what tb_voice_pack_load_file
 * reads a file's bytes with). A refused pack must say why (a message naming the pack, a line
 * inside the text) and hand out nothing; an accepted one must build every move phrase of a few
 * positions (castling, e.p., promotions, checks), every square and every system message, each a
 * terminated string of the length returned or a "too small" error, and its speech text. The
 * positions and their legal moves are the same for every input: made once. */
#include <stdbool.h>

#include "fuzz_chess.h"
#include "tb_fuzz.h"
#include "tb_voice.h"

#define OUT  4096
#define NAME "fuzz.pack"

static void check_text(char *buf, int n)
{
    TB_FUZZ_CHECK(n == TB_ERR_FULL || (n >= 0 && n < OUT && (size_t)n == strlen(buf)));
    if (n == TB_ERR_FULL)
        return;
    TB_FUZZ_CHECK(memchr(buf, '\0', OUT));
}

/* Every square's words, whole: a pack that loads never makes a phrase fail (see
 * TB_VOICE_WORD_MAX). */
static void check_squares(const struct tb_voice_pack *pack)
{
    static char buf[OUT];
    for (int sq = 0; sq < 64; sq++) {
        int n = tb_voice_phrase_square(pack, sq, buf, sizeof buf);
        TB_FUZZ_CHECK(n > 0 && n <= TB_VOICE_SQUARE_MAX);
        check_text(buf, n);
    }
}

struct position {
    tb_chess_pos pos;
    tb_chess_movelist legal;
};

static const char *const fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
};
#define NPOS (sizeof fens / sizeof fens[0])

static const struct position *positions(void)
{
    static struct position made[NPOS];
    static bool done;
    if (!done) {
        for (size_t i = 0; i < NPOS; i++) {
            if (tb_chess_pos_from_fen(&made[i].pos, fens[i], 0, NULL) != TB_OK)
                abort();
            tb_chess_gen_legal(&made[i].pos, &made[i].legal);
        }
        done = true;
    }
    return made;
}

static void check_moves(const struct tb_voice_pack *pack, const struct position *at)
{
    static char buf[OUT], speech[OUT];
    const tb_chess_pos *pos = &at->pos;
    for (int i = 0; i < at->legal.count; i++) {
        for (int form = TB_VOICE_LONG; form <= TB_VOICE_SHORT; form++) {
            int n = tb_voice_phrase_move(pack, pos, at->legal.moves[i], (enum tb_voice_form)form,
                                         buf, sizeof buf);
            check_text(buf, n);
            if (n >= 0)
                check_text(speech, tb_voice_pack_speech_text(pack, buf, speech, sizeof speech));
        }
    }
    /* A move that is not legal here is refused. */
    TB_FUZZ_CHECK(tb_voice_phrase_move(pack, pos, tb_chess_move_new(0, 63, 0), TB_VOICE_LONG, buf,
                                       sizeof buf) == TB_ERR_ILLEGAL);
}

static void check_messages(const struct tb_voice_pack *pack)
{
    static char buf[OUT];
    const struct tb_voice_square_action lift[] = {{12, TB_CHESS_PIECE(TB_CHESS_WHITE, 1)}, {60, 0}};
    const struct tb_voice_square_action place[] = {{28, TB_CHESS_PIECE(TB_CHESS_BLACK, 5)}};
    struct tb_voice_msg_args args = {.board = TB_CHESS_BLACK,
                                     .move = "Eva vier",
                                     .n = 41,
                                     .white_ms = 3723000,
                                     .black_ms = 59000,
                                     .lift = lift,
                                     .nlift = 2,
                                     .place = place,
                                     .nplace = 1};
    for (int m = 0; m < TB_VOICE_MSG_COUNT; m++) {
        int n = tb_voice_phrase_msg(pack, (enum tb_voice_msg)m, &args, buf, sizeof buf);
        check_text(buf, n);
        char small[12];
        n = tb_voice_phrase_msg(pack, (enum tb_voice_msg)m, &args, small, sizeof small);
        TB_FUZZ_CHECK(n == TB_ERR_FULL || (n >= 0 && (size_t)n == strlen(small)));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct position *pos = positions();
    long lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';

    struct tb_voice_pack *pack = NULL;
    struct tb_error err;
    memset(&err, 0, sizeof err);
    int rc = tb_voice_pack_load_text(NAME, (const char *)data, size, &pack, &err);
    if (rc != TB_OK) {
        TB_FUZZ_CHECK_ERROR(rc, err);
        TB_FUZZ_CHECK(pack == NULL);
        TB_FUZZ_CHECK(err.line >= 0 && err.line <= lines);
        TB_FUZZ_CHECK(strncmp(err.msg, NAME ":", strlen(NAME ":")) == 0);
        return 0;
    }
    TB_FUZZ_CHECK(pack != NULL && tb_voice_pack_name(pack) != NULL);
    struct tb_voice_settings st;
    tb_voice_pack_settings(pack, &st);
    TB_FUZZ_CHECK(memchr(st.espeak_voice, '\0', sizeof st.espeak_voice));
    check_squares(pack);
    for (size_t i = 0; i < NPOS; i++)
        check_moves(pack, &pos[i]);
    check_messages(pack);
    tb_voice_pack_free(pack);
    return 0;
}
