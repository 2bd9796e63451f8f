/* The game by ear (issue 13): review phrases, counts with singular and plural, confirmation
 * words, the earcon, and finding packs by name. What a player hears is checked word for word in
 * German (de-fide), Dutch and English. */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tb_test.h"
#include "tb_voice.h"

static struct tb_voice_pack *load(const char *name)
{
    struct tb_voice_pack *p = NULL;
    struct tb_error err = {0};
    if (tb_voice_pack_load(name, &p, &err))
        TB_FAIL("%s", err.msg);
    return p;
}

static tb_chess_game *game_of(const char *fen, const char *const *uci, int n)
{
    tb_chess_game *g = calloc(1, sizeof *g);
    tb_chess_pos start;
    if (fen) {
        struct tb_error err = {0};
        if (tb_chess_pos_from_fen(&start, fen, 0, &err))
            TB_FAIL("%s", err.msg);
    } else {
        tb_chess_pos_startpos(&start);
    }
    tb_chess_game_init(g, &start);
    for (int i = 0; i < n; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_from_uci(&g->pos, uci[i], &m));
        ASSERT_OK(tb_chess_game_push(g, m));
    }
    return g;
}

static const char *const ruy[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};

/* Phrase of fn in each pack, compared with want[] (de-fide, nl, en). */
#define EACH_PACK(want, call)                                                                      \
    do {                                                                                           \
        static const char *const names_[] = {"de-fide", "nl", "en"};                               \
        for (int i_ = 0; i_ < 3; i_++) {                                                           \
            struct tb_voice_pack *pack = load(names_[i_]);                                         \
            char buf[4096];                                                                        \
            int n_ = (call);                                                                       \
            ASSERT_EQ(n_, (int)strlen(want[i_]));                                                  \
            ASSERT_STR_EQ(buf, want[i_]);                                                          \
            tb_voice_pack_free(pack);                                                              \
        }                                                                                          \
    } while (0)

TB_TEST(last_moves_with_numbers_and_colours)
{
    tb_chess_game *g = game_of(NULL, ruy, 6);
    static const char *const want[] = {
        "Zug 2, Schwarz: Springer Bella acht Cesar sechs. Zug 3, Weiß: Läufer Felix eins Bella "
        "fünf. Zug 3, Schwarz: Bauer Anna sieben Anna sechs",
        "Zet 2, zwart: paard Bella acht Cesar zes. Zet 3, wit: loper Felix een Bella vijf. Zet 3, "
        "zwart: pion Anna zeven Anna zes",
        "Move 2, black: knight Bella eight Cesar six. Move 3, white: bishop Felix one Bella five. "
        "Move 3, black: pawn Anna seven Anna six"};
    EACH_PACK(want, tb_voice_review_last(pack, g, 3, TB_VOICE_LONG, buf, sizeof buf));
    /* More asked than played: the whole game; the short form as SAN has it. */
    static const char *const all_short[] = {
        "Zug 1, Weiß: Eva vier. Zug 1, Schwarz: Eva fünf. Zug 2, Weiß: Springer Felix drei. Zug "
        "2, Schwarz: Springer Cesar sechs. Zug 3, Weiß: Läufer Bella fünf. Zug 3, Schwarz: Anna "
        "sechs",
        "Zet 1, wit: Eva vier. Zet 1, zwart: Eva vijf. Zet 2, wit: paard Felix drie. Zet 2, zwart: "
        "paard Cesar zes. Zet 3, wit: loper Bella vijf. Zet 3, zwart: Anna zes",
        "Move 1, white: Eva four. Move 1, black: Eva five. Move 2, white: knight Felix three. Move "
        "2, black: knight Cesar six. Move 3, white: bishop Bella five. Move 3, black: Anna six"};
    EACH_PACK(all_short, tb_voice_review_last(pack, g, 100, TB_VOICE_SHORT, buf, sizeof buf));
    free(g);
}

TB_TEST(nothing_to_review_before_the_first_move)
{
    tb_chess_game *g = game_of(NULL, NULL, 0);
    static const char *const want[] = {"Noch kein Zug", "Nog geen zet", "No move yet"};
    EACH_PACK(want, tb_voice_review_last(pack, g, 5, TB_VOICE_LONG, buf, sizeof buf));
    EACH_PACK(want, tb_voice_review_scoresheet(pack, g, NULL, TB_VOICE_LONG, buf, sizeof buf));
    free(g);
}

TB_TEST(score_from_a_move_number)
{
    tb_chess_game *g = game_of(NULL, ruy, 6);
    static const char *const want[] = {
        "Zug 3, Weiß: Läufer Felix eins Bella fünf. Zug 3, Schwarz: Bauer Anna sieben Anna sechs",
        "Zet 3, wit: loper Felix een Bella vijf. Zet 3, zwart: pion Anna zeven Anna zes",
        "Move 3, white: bishop Felix one Bella five. Move 3, black: pawn Anna seven Anna six"};
    EACH_PACK(want, tb_voice_review_from(pack, g, 3, TB_VOICE_LONG, buf, sizeof buf));
    struct tb_voice_pack *de = load("de-fide");
    char buf[1024];
    ASSERT_EQ(tb_voice_review_from(de, g, 4, TB_VOICE_LONG, buf, sizeof buf), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_review_from(de, g, 0, TB_VOICE_LONG, buf, sizeof buf), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_review_ply(de, g, 6, TB_VOICE_LONG, buf, sizeof buf), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_review_ply(de, g, -1, TB_VOICE_LONG, buf, sizeof buf), TB_ERR_ARG);
    ASSERT_GT(tb_voice_review_from(de, g, 1, TB_VOICE_LONG, buf, sizeof buf), 0);
    ASSERT_STR_CONTAINS(buf, "Zug 1, Weiß: Bauer Eva zwei Eva vier. Zug 1, Schwarz:");
    /* Too small a buffer: an error, never a shortened text. */
    ASSERT_EQ(tb_voice_review_from(de, g, 1, TB_VOICE_LONG, buf, 40), TB_ERR_FULL);
    tb_voice_pack_free(de);
    free(g);
}

/* A game from a FEN with Black to move numbers its plies from the FEN's move number. */
TB_TEST(numbering_of_a_game_from_a_fen)
{
    static const char *const moves[] = {"e7e5", "g1f3"};
    tb_chess_game *g =
        game_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 17", moves, 2);
    static const char *const want[] = {
        ("Zug 17, Schwarz: Bauer Eva sieben Eva fünf. Zug 18, Weiß: Springer Gustav eins Felix "
         "drei"),
        "Zet 17, zwart: pion Eva zeven Eva vijf. Zet 18, wit: paard Gustav een Felix drie",
        "Move 17, black: pawn Eva seven Eva five. Move 18, white: knight Gustav one Felix three"};
    EACH_PACK(want, tb_voice_review_from(pack, g, 17, TB_VOICE_LONG, buf, sizeof buf));
    static const char *const second[] = {"Zug 18, Weiß: Springer Gustav eins Felix drei",
                                         "Zet 18, wit: paard Gustav een Felix drie",
                                         "Move 18, white: knight Gustav one Felix three"};
    EACH_PACK(second, tb_voice_review_ply(pack, g, 1, TB_VOICE_LONG, buf, sizeof buf));
    free(g);
}

TB_TEST(position_of_the_pieces_grouped_by_colour_and_kind)
{
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    static const char *const want[] = {
        "Weiß: König Eva eins, Dame David eins, Türme Anna eins und Hector eins, Läufer Cesar "
        "eins und Felix eins, Springer Bella eins und Gustav eins, Bauern Anna zwei, Bella zwei, "
        "Cesar zwei, David zwei, Eva zwei, Felix zwei, Gustav zwei und Hector zwei. Schwarz: "
        "König Eva acht, Dame David acht, Türme Anna acht und Hector acht, Läufer Cesar acht und "
        "Felix acht, Springer Bella acht und Gustav acht, Bauern Anna sieben, Bella sieben, Cesar "
        "sieben, David sieben, Eva sieben, Felix sieben, Gustav sieben und Hector sieben",
        "Wit: koning Eva een, dame David een, torens Anna een en Hector een, lopers Cesar een en "
        "Felix een, paarden Bella een en Gustav een, pionnen Anna twee, Bella twee, Cesar twee, "
        "David twee, Eva twee, Felix twee, Gustav twee en Hector twee. Zwart: koning Eva acht, "
        "dame David acht, torens Anna acht en Hector acht, lopers Cesar acht en Felix acht, "
        "paarden Bella acht en Gustav acht, pionnen Anna zeven, Bella zeven, Cesar zeven, David "
        "zeven, Eva zeven, Felix zeven, Gustav zeven en Hector zeven",
        "White: king Eva one, queen David one, rooks Anna one and Hector one, bishops Cesar one "
        "and Felix one, knights Bella one and Gustav one, pawns Anna two, Bella two, Cesar two, "
        "David two, Eva two, Felix two, Gustav two and Hector two. Black: king Eva eight, queen "
        "David eight, rooks Anna eight and Hector eight, bishops Cesar eight and Felix eight, "
        "knights Bella eight and Gustav eight, pawns Anna seven, Bella seven, Cesar seven, David "
        "seven, Eva seven, Felix seven, Gustav seven and Hector seven"};
    EACH_PACK(want, tb_voice_review_position(pack, &pos, buf, sizeof buf));
}

/* One piece of a kind takes the singular, two the plural with "und" before the last square. */
TB_TEST(position_singular_and_plural)
{
    tb_chess_pos pos;
    struct tb_error err = {0};
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/p7/8/8/8/8/PP6/R3K2N w - - 0 1", 0, &err));
    static const char *const want[] = {
        "Weiß: König Eva eins, Turm Anna eins, Springer Hector eins, Bauern Anna zwei und Bella "
        "zwei. Schwarz: König Eva acht, Bauer Anna sieben",
        "Wit: koning Eva een, toren Anna een, paard Hector een, pionnen Anna twee en Bella twee. "
        "Zwart: koning Eva acht, pion Anna zeven",
        "White: king Eva one, rook Anna one, knight Hector one, pawns Anna two and Bella two. "
        "Black: king Eva eight, pawn Anna seven"};
    EACH_PACK(want, tb_voice_review_position(pack, &pos, buf, sizeof buf));
}

TB_TEST(side_to_move)
{
    tb_chess_game *g = game_of(NULL, ruy, 1);
    static const char *const black[] = {"Schwarz am Zug", "Zwart aan zet", "Black to move"};
    EACH_PACK(black, tb_voice_review_to_move(pack, &g->pos, buf, sizeof buf));
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    static const char *const white[] = {"Weiß am Zug", "Wit aan zet", "White to move"};
    EACH_PACK(white, tb_voice_review_to_move(pack, &start, buf, sizeof buf));
    free(g);
}

TB_TEST(check_state_in_check_none_mate_stalemate)
{
    tb_chess_pos pos;
    struct tb_error err = {0};
    tb_chess_pos_startpos(&pos);
    static const char *const none[] = {"Kein Schach", "Geen schaak", "No check"};
    EACH_PACK(none, tb_voice_review_check(pack, &pos, buf, sizeof buf));
    static const char *const check_moves[] = {"e2e4", "f7f5", "d1h5"};
    tb_chess_game *g = game_of(NULL, check_moves, 3);
    static const char *const check[] = {"Schwarz steht im Schach", "Zwart staat schaak",
                                        "Black is in check"};
    EACH_PACK(check, tb_voice_review_check(pack, &g->pos, buf, sizeof buf));
    free(g);
    /* 5.1.1: fool's mate */
    static const char *const fool[] = {"f2f3", "e7e5", "g2g4", "d8h4"};
    g = game_of(NULL, fool, 4);
    static const char *const mate[] = {"Weiß ist schachmatt", "Wit staat mat",
                                       "White is checkmated"};
    EACH_PACK(mate, tb_voice_review_check(pack, &g->pos, buf, sizeof buf));
    free(g);
    /* 5.2.1 */
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0, &err));
    static const char *const stale[] = {"Patt, Schwarz hat keinen Zug", "Pat, zwart heeft geen zet",
                                        "Stalemate, black has no move"};
    EACH_PACK(stale, tb_voice_review_check(pack, &pos, buf, sizeof buf));
}

TB_TEST(material_count_with_plurals_and_balance)
{
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    static const char *const even[] = {
        "Weiß: 1 Dame, 2 Türme, 2 Läufer, 2 Springer, 8 Bauern. Schwarz: 1 Dame, 2 Türme, 2 "
        "Läufer, 2 Springer, 8 Bauern. Material gleich",
        "Wit: 1 dame, 2 torens, 2 lopers, 2 paarden, 8 pionnen. Zwart: 1 dame, 2 torens, 2 lopers, "
        "2 paarden, 8 pionnen. Materiaal gelijk",
        "White: 1 queen, 2 rooks, 2 bishops, 2 knights, 8 pawns. Black: 1 queen, 2 rooks, 2 "
        "bishops, 2 knights, 8 pawns. Material is equal"};
    EACH_PACK(even, tb_voice_review_material(pack, &pos, buf, sizeof buf));
    struct tb_error err = {0};
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/p7/8/8/8/8/PP6/R3K3 w - - 0 1", 0, &err));
    static const char *const white_up[] = {
        "Weiß: 1 Turm, 2 Bauern. Schwarz: 1 Bauer. Weiß 6 Punkte vorn",
        "Wit: 1 toren, 2 pionnen. Zwart: 1 pion. Wit 6 punten voor",
        "White: 1 rook, 2 pawns. Black: 1 pawn. White 6 points ahead"};
    EACH_PACK(white_up, tb_voice_review_material(pack, &pos, buf, sizeof buf));
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/pp6/8/8/8/8/P7/4K3 w - - 0 1", 0, &err));
    static const char *const one[] = {"Weiß: 1 Bauer. Schwarz: 2 Bauern. Schwarz 1 Punkt vorn",
                                      "Wit: 1 pion. Zwart: 2 pionnen. Zwart 1 punt voor",
                                      "White: 1 pawn. Black: 2 pawns. Black 1 point ahead"};
    EACH_PACK(one, tb_voice_review_material(pack, &pos, buf, sizeof buf));
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, &err));
    static const char *const bare[] = {"Weiß: König. Schwarz: König. Material gleich",
                                       "Wit: koning. Zwart: koning. Materiaal gelijk",
                                       "White: king. Black: king. Material is equal"};
    EACH_PACK(bare, tb_voice_review_material(pack, &pos, buf, sizeof buf));
}

/* D.2.6: the clock's minutes, seconds and moves in singular and plural. */
TB_TEST(law_D_2_6_clock_singular_and_plural)
{
    struct tb_voice_msg_args one = {.white_ms = 61000, .black_ms = 0, .n = 1};
    static const char *const want1[] = {
        "Weiß 1 Minute 1 Sekunde, Schwarz 0 Minuten 0 Sekunden, 1 Zug",
        "Wit 1 minuut 1 seconde, zwart 0 minuten 0 seconden, 1 zet",
        "White 1 minute 1 second, black 0 minutes 0 seconds, 1 move"};
    EACH_PACK(want1, tb_voice_phrase_msg(pack, TB_VOICE_MSG_CLOCK, &one, buf, sizeof buf));
    struct tb_voice_msg_args many = {.white_ms = 190000, .black_ms = 165000, .n = 12};
    static const char *const want2[] = {
        "Weiß 3 Minuten 10 Sekunden, Schwarz 2 Minuten 45 Sekunden, 12 Züge",
        "Wit 3 minuten 10 seconden, zwart 2 minuten 45 seconden, 12 zetten",
        "White 3 minutes 10 seconds, black 2 minutes 45 seconds, 12 moves"};
    EACH_PACK(want2, tb_voice_phrase_msg(pack, TB_VOICE_MSG_CLOCK, &many, buf, sizeof buf));
}

TB_TEST(spoken_scoresheet_with_result)
{
    static const char *const fool[] = {"f2f3", "e7e5", "g2g4", "d8h4"};
    tb_chess_game *g = game_of(NULL, fool, 4);
    static const char *const want[] = {
        "Zug 1, Weiß: Bauer Felix zwei Felix drei. Zug 1, Schwarz: Bauer Eva sieben Eva fünf. Zug "
        "2, Weiß: Bauer Gustav zwei Gustav vier. Zug 2, Schwarz: Dame David acht Hector vier, "
        "Matt. Schwarz gewinnt",
        "Zet 1, wit: pion Felix twee Felix drie. Zet 1, zwart: pion Eva zeven Eva vijf. Zet 2, "
        "wit: pion Gustav twee Gustav vier. Zet 2, zwart: dame David acht Hector vier, mat. Zwart "
        "wint",
        "Move 1, white: pawn Felix two Felix three. Move 1, black: pawn Eva seven Eva five. Move "
        "2, white: pawn Gustav two Gustav four. Move 2, black: queen David eight Hector four, "
        "checkmate. Black wins"};
    EACH_PACK(want, tb_voice_review_scoresheet(pack, g, "0-1", TB_VOICE_LONG, buf, sizeof buf));
    struct tb_voice_pack *de = load("de-fide");
    char buf[2048];
    ASSERT_EQ(tb_voice_review_scoresheet(de, g, "2-0", TB_VOICE_LONG, buf, sizeof buf), TB_ERR_ARG);
    ASSERT_GT(tb_voice_review_scoresheet(de, g, "1/2-1/2", TB_VOICE_LONG, buf, sizeof buf), 0);
    ASSERT_STR_CONTAINS(buf, "Matt. Remis");
    tb_voice_pack_free(de);
    free(g);
}

TB_TEST(confirmation_words)
{
    static const char *const taken[] = {"Zug genommen", "Zet genoteerd", "Move taken"};
    EACH_PACK(taken, tb_voice_phrase_msg(pack, TB_VOICE_MSG_TAKEN, NULL, buf, sizeof buf));
    static const char *const unrec[] = {"Zug nicht erkannt", "Zet niet herkend",
                                        "Move not recognised"};
    EACH_PACK(unrec, tb_voice_phrase_msg(pack, TB_VOICE_MSG_NOT_RECOGNISED, NULL, buf, sizeof buf));
    enum tb_voice_confirm_mode mode;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_confirm_mode_parse("earcon", &mode, &err));
    ASSERT_EQ(mode, TB_VOICE_CONFIRM_EARCON);
    ASSERT_OK(tb_voice_confirm_mode_parse("off", &mode, &err));
    ASSERT_EQ(mode, TB_VOICE_CONFIRM_OFF);
    ASSERT_OK(tb_voice_confirm_mode_parse("word", &mode, &err));
    ASSERT_EQ(mode, TB_VOICE_CONFIRM_WORD);
    ASSERT_EQ(tb_voice_confirm_mode_parse("beep", &mode, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "\"beep\"");
    ASSERT_EQ(mode, TB_VOICE_CONFIRM_WORD); /* unchanged */
}

/* The earcon: 60 ms of 880 Hz (counted by zero crossings), faded in and out (no click). */
TB_TEST(earcon_is_a_short_faded_tone)
{
    int16_t pcm[4096];
    int n = tb_voice_earcon(pcm, 4096, 22050, TB_VOICE_EARCON_HZ, TB_VOICE_EARCON_MS);
    ASSERT_EQ(n, 22050 * 60 / 1000);
    int crossings = 0, peak = 0;
    for (int i = 1; i < n; i++) {
        crossings += (pcm[i - 1] < 0) != (pcm[i] < 0);
        peak = abs(pcm[i]) > peak ? abs(pcm[i]) : peak;
    }
    /* 880 Hz for 0.06 s is 52.8 periods, two crossings each. */
    ASSERT_GE(crossings, 103);
    ASSERT_LE(crossings, 107);
    ASSERT_GT(peak, 15000);
    ASSERT_LE(peak, 16384);
    ASSERT_LT(abs(pcm[0]), 100);
    ASSERT_LT(abs(pcm[n - 1]), 600);
    ASSERT_EQ(tb_voice_earcon(pcm, 100, 22050, 880, 60), TB_ERR_FULL);
    ASSERT_EQ(tb_voice_earcon(pcm, 4096, 22050, 12000, 60), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_earcon(pcm, 4096, 22050, 880, 0), TB_ERR_ARG);
}

static void list_into(void *arg, const char *name, const char *path)
{
    char *out = arg;
    size_t n = strlen(out);
    snprintf(out + n, 4096 - n, "%s=%s;", name, path);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    fclose(f);
}

/* Any pack file in the pack directories can be named: a new language is a file, found and
 * listed without any list in the code; an earlier directory wins. */
TB_TEST(any_pack_file_can_be_named)
{
    char dir1[1024], dir2[1024], dirs[2100], path[1024];
    snprintf(dir1, sizeof dir1, "%s/packs1", tb_test_tmp_dir());
    snprintf(dir2, sizeof dir2, "%s/packs2", tb_test_tmp_dir());
    ASSERT_OK(mkdir(dir1, 0700));
    ASSERT_OK(mkdir(dir2, 0700));
    /* A copy of the English pack under a new name, and a file that is not a pack. */
    char *en = NULL;
    size_t len = 0;
    const char *src = getenv("TB_VOICE_PACKS");
    ASSERT_NOT_NULL(src);
    snprintf(path, sizeof path, "%s/en.pack", src);
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    en = calloc(1, 65536);
    len = fread(en, 1, 65535, f);
    fclose(f);
    ASSERT_GT(len, 100);
    char *name = strstr(en, "name = en");
    ASSERT_NOT_NULL(name);
    memcpy(name, "name = xy", 9);
    ASSERT_LT(snprintf(path, sizeof path, "%s/en-gb.pack", dir2), (int)sizeof path);
    write_file(path, en);
    ASSERT_LT(snprintf(path, sizeof path, "%s/README", dir2), (int)sizeof path);
    write_file(path, "not a pack\n");
    ASSERT_LT(snprintf(path, sizeof path, "%s/en.pack", dir1),
              (int)sizeof path); /* shadows dir2's, if it had one */
    write_file(path, en);
    ASSERT_LT(snprintf(path, sizeof path, "%s/en.pack", dir2), (int)sizeof path);
    write_file(path, "broken\n");
    snprintf(dirs, sizeof dirs, "%s:%s", dir1, dir2);

    char listed[4096] = "";
    ASSERT_EQ(tb_voice_pack_list(dirs, list_into, listed), 2);
    char want[4096];
    snprintf(want, sizeof want, "en=%s/en.pack;en-gb=%s/en-gb.pack;", dir1, dir2);
    ASSERT_STR_EQ(listed, want);
    struct tb_error err = {0};
    ASSERT_GT(tb_voice_pack_find("en-gb", dirs, path, sizeof path, &err), 0);
    snprintf(want, sizeof want, "%s/en-gb.pack", dir2);
    ASSERT_STR_EQ(path, want);
    ASSERT_EQ(tb_voice_pack_find("fr", dirs, path, sizeof path, &err), TB_ERR_NOTFOUND);
    ASSERT_STR_CONTAINS(err.msg, "\"fr\"");
    ASSERT_STR_CONTAINS(err.msg, dir2);
    ASSERT_EQ(tb_voice_pack_find("../etc", dirs, path, sizeof path, &err), TB_ERR_ARG);

    /* The shipped packs are listed from the search path, and a new one loads by name. */
    listed[0] = '\0';
    ASSERT_GE(tb_voice_pack_list(NULL, list_into, listed), 3);
    ASSERT_STR_CONTAINS(listed, "de-fide=");
    ASSERT_STR_CONTAINS(listed, ";en=");
    ASSERT_STR_CONTAINS(listed, ";nl=");
    ASSERT_OK(setenv("TB_VOICE_PACKS", dirs, 1));
    struct tb_voice_pack *p = load("en-gb");
    ASSERT_STR_EQ(tb_voice_pack_name(p), "xy");
    tb_voice_pack_free(p);
    free(en);
}

/* A pack without the plural of a word is refused, naming the entry. */
TB_TEST(pack_without_a_plural_is_refused)
{
    char path[1024];
    const char *src = getenv("TB_VOICE_PACKS");
    snprintf(path, sizeof path, "%s/de-fide.pack", src);
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    char *text = calloc(1, 65536);
    ASSERT_GT(fread(text, 1, 65535, f), 100);
    fclose(f);
    char *line = strstr(text, "queen.other = Damen\n");
    ASSERT_NOT_NULL(line);
    memmove(line, line + strlen("queen.other = Damen\n"), strlen(line + 20) + 1);
    snprintf(path, sizeof path, "%s/broken.pack", tb_test_tmp_dir());
    write_file(path, text);
    struct tb_voice_pack *p = NULL;
    struct tb_error err = {0};
    ASSERT_EQ(tb_voice_pack_load_file(path, &p, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "[plurals] queen.other: missing entry");
    ASSERT_NULL(p);
    free(text);
}

/* Occurrences of needle in hay. */
static int occurrences(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *s = hay; (s = strstr(s, needle)); s += strlen(needle))
        n++;
    return n;
}

/* Generated: random legal games (seeded) in every pack. The last n half-moves are the scoresheet
 * lines of those half-moves joined; the score from move 1 is the whole scoresheet; the position
 * names every occupied square exactly once and no empty one; the material adds up. */
TB_TEST(review_of_random_games_generated)
{
    static const char *const names[] = {"de-fide", "nl", "en"};
    srand(2013);
    char *buf = malloc(1 << 17), *joined = malloc(1 << 17);
    for (int p = 0; p < 3; p++) {
        struct tb_voice_pack *pack = load(names[p]);
        for (int game_no = 0; game_no < 30; game_no++) {
            tb_chess_game *g = game_of(NULL, NULL, 0);
            int plies = 1 + rand() % 120;
            for (int i = 0; i < plies; i++) {
                tb_chess_movelist list;
                if (tb_chess_gen_legal(&g->pos, &list) == 0)
                    break;
                ASSERT_OK(tb_chess_game_push(g, list.moves[rand() % list.count]));
            }
            int n = 1 + rand() % 10;
            ASSERT_GT(tb_voice_review_last(pack, g, n, TB_VOICE_LONG, buf, 1 << 17), 0);
            size_t at = 0;
            joined[0] = '\0';
            for (int i = g->plies > n ? g->plies - n : 0; i < g->plies; i++) {
                char line[1024];
                ASSERT_GT(tb_voice_review_ply(pack, g, i, TB_VOICE_LONG, line, sizeof line), 0);
                at += (size_t)snprintf(joined + at, (1 << 17) - at, "%s%s", at ? ". " : "", line);
            }
            ASSERT_STR_EQ(buf, joined);
            ASSERT_GT(tb_voice_review_from(pack, g, 1, TB_VOICE_SHORT, buf, 1 << 17), 0);
            ASSERT_GT(tb_voice_review_scoresheet(pack, g, "*", TB_VOICE_SHORT, joined, 1 << 17), 0);
            ASSERT_STR_EQ(buf, joined);
            ASSERT_GT(tb_voice_review_position(pack, &g->pos, buf, 1 << 17), 0);
            for (int sq = 0; sq < 64; sq++) {
                char square[TB_VOICE_SQUARE_MAX + 1];
                ASSERT_GT(tb_voice_phrase_square(pack, sq, square, sizeof square), 0);
                ASSERT_EQ(occurrences(buf, square), tb_chess_piece_at(&g->pos, sq) ? 1 : 0);
            }
            ASSERT_GT(tb_voice_review_material(pack, &g->pos, buf, 1 << 17), 0);
            ASSERT_EQ(occurrences(buf, ". "), 2); /* White. Black. Balance */
            free(g);
        }
        tb_voice_pack_free(pack);
    }
    free(buf);
    free(joined);
}

/* Each request as one text, however long the game: the same words as the function it names. */
TB_TEST(review_requests_as_whole_texts)
{
    struct tb_voice_pack *pack = load("de-fide");
    tb_chess_game *g = game_of(NULL, ruy, 6);
    char *text = NULL, buf[4096];
    ASSERT_GT(tb_voice_review_text(pack, g, TB_VOICE_REVIEW_LAST, 2, NULL, TB_VOICE_LONG, &text),
              0);
    ASSERT_GT(tb_voice_review_last(pack, g, 2, TB_VOICE_LONG, buf, sizeof buf), 0);
    ASSERT_STR_EQ(text, buf);
    free(text);
    ASSERT_GT(tb_voice_review_text(pack, g, TB_VOICE_REVIEW_LAST, 0, NULL, TB_VOICE_LONG, &text),
              0);
    ASSERT_GT(tb_voice_review_last(pack, g, TB_VOICE_REVIEW_LAST_N, TB_VOICE_LONG, buf, sizeof buf),
              0);
    ASSERT_STR_EQ(text, buf);
    free(text);
    ASSERT_GT(tb_voice_review_text(pack, g, TB_VOICE_REVIEW_TO_MOVE, 0, NULL, TB_VOICE_LONG, &text),
              0);
    ASSERT_STR_EQ(text, "Weiß am Zug. Kein Schach");
    free(text);
    ASSERT_GT(
        tb_voice_review_text(pack, g, TB_VOICE_REVIEW_MATERIAL, 0, NULL, TB_VOICE_LONG, &text), 0);
    ASSERT_STR_CONTAINS(text, "Material gleich");
    free(text);
    ASSERT_EQ(tb_voice_review_text(pack, g, TB_VOICE_REVIEW_FROM, 9, NULL, TB_VOICE_LONG, &text),
              TB_ERR_ARG);
    ASSERT_EQ(tb_voice_review_text(pack, g, 99, 0, NULL, TB_VOICE_LONG, &text), TB_ERR_ARG);
    free(g);
    /* A long game: the scoresheet is far longer than a first buffer. */
    g = game_of(NULL, NULL, 0);
    static const char *const shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (int i = 0; i < 200; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_from_uci(&g->pos, shuffle[i % 4], &m));
        ASSERT_OK(tb_chess_game_push(g, m));
    }
    int n = tb_voice_review_text(pack, g, TB_VOICE_REVIEW_SCORESHEET, 0, "1/2-1/2", TB_VOICE_LONG,
                                 &text);
    ASSERT_GT(n, 8000);
    ASSERT_STR_CONTAINS(text, "Zug 100, Schwarz: Springer Felix sechs Gustav acht. Remis");
    free(text);
    free(g);
    tb_voice_pack_free(pack);
}
