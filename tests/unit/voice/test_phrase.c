/* Phrases of every kind of move in every shipped pack, long and short (D.2.1), and the system
 * messages. The written text is what a player hears, so it is checked exactly. */
#include "tb_test.h"
#include "tb_voice.h"

struct row {
    const char *fen, *uci;
    const char *de_long, *de_short, *nl_long, *nl_short, *en_long, *en_short;
};

#define START    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define CASTLE_W "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
#define CASTLE_B "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1"

static const struct row rows[] = {
    /* quiet piece move */
    {START, "g1f3", "Springer Gustav eins Felix drei", "Springer Felix drei",
     "paard Gustav een Felix drie", "paard Felix drie", "knight Gustav one Felix three",
     "knight Felix three"},
    /* pawn move: the short form leaves the pawn's word out, as SAN does */
    {START, "e2e4", "Bauer Eva zwei Eva vier", "Eva vier", "pion Eva twee Eva vier", "Eva vier",
     "pawn Eva two Eva four", "Eva four"},
    /* capture */
    {"rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "f1b5",
     "Läufer Felix eins schlägt Bella fünf", "Läufer schlägt Bella fünf",
     "loper Felix een slaat Bella vijf", "loper slaat Bella vijf",
     "bishop Felix one takes Bella five", "bishop takes Bella five"},
    /* capture with check */
    {"rnbqkbnr/p1p1pppp/8/1p1p4/8/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "f1b5",
     "Läufer Felix eins schlägt Bella fünf, Schach", "Läufer schlägt Bella fünf, Schach",
     "loper Felix een slaat Bella vijf, schaak", "loper slaat Bella vijf, schaak",
     "bishop Felix one takes Bella five, check", "bishop takes Bella five, check"},
    /* pawn capture: SAN exd5 */
    {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4d5",
     "Bauer Eva vier schlägt David fünf", "Eva schlägt David fünf",
     "pion Eva vier slaat David vijf", "Eva slaat David vijf", "pawn Eva four takes David five",
     "Eva takes David five"},
    /* en passant (3.7.4) */
    {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6",
     "Bauer Eva fünf schlägt David sechs en passant", "Eva schlägt David sechs en passant",
     "pion Eva vijf slaat David zes en passant", "Eva slaat David zes en passant",
     "pawn Eva five takes David six en passant", "Eva takes David six en passant"},
    /* castling, both sides, both colours (D.2.1: Kurze / Lange Rochade) */
    {CASTLE_W, "e1g1", "Kurze Rochade", "Kurze Rochade", "korte rokade", "korte rokade",
     "short castling", "short castling"},
    {CASTLE_W, "e1c1", "Lange Rochade", "Lange Rochade", "lange rokade", "lange rokade",
     "long castling", "long castling"},
    {CASTLE_B, "e8g8", "Kurze Rochade", "Kurze Rochade", "korte rokade", "korte rokade",
     "short castling", "short castling"},
    {CASTLE_B, "e8c8", "Lange Rochade", "Lange Rochade", "lange rokade", "lange rokade",
     "long castling", "long castling"},
    /* castling that gives check */
    {"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "Kurze Rochade, Schach", "Kurze Rochade, Schach",
     "korte rokade, schaak", "korte rokade, schaak", "short castling, check",
     "short castling, check"},
    /* promotion, all four pieces (3.7.5; D.2.1: the chosen piece is announced) */
    {"8/4P3/8/8/8/8/k7/7K w - - 0 1", "e7e8q", "Bauer Eva sieben Eva acht Dame", "Eva acht Dame",
     "pion Eva zeven Eva acht dame", "Eva acht dame", "pawn Eva seven Eva eight queen",
     "Eva eight queen"},
    {"8/4P3/8/8/8/8/k7/7K w - - 0 1", "e7e8r", "Bauer Eva sieben Eva acht Turm", "Eva acht Turm",
     "pion Eva zeven Eva acht toren", "Eva acht toren", "pawn Eva seven Eva eight rook",
     "Eva eight rook"},
    {"8/4P3/8/8/8/8/k7/7K w - - 0 1", "e7e8b", "Bauer Eva sieben Eva acht Läufer",
     "Eva acht Läufer", "pion Eva zeven Eva acht loper", "Eva acht loper",
     "pawn Eva seven Eva eight bishop", "Eva eight bishop"},
    {"8/4P3/8/8/8/8/k7/7K w - - 0 1", "e7e8n", "Bauer Eva sieben Eva acht Springer",
     "Eva acht Springer", "pion Eva zeven Eva acht paard", "Eva acht paard",
     "pawn Eva seven Eva eight knight", "Eva eight knight"},
    /* promotion with check */
    {"7k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8q", "Bauer Eva sieben Eva acht Dame, Schach",
     "Eva acht Dame, Schach", "pion Eva zeven Eva acht dame, schaak", "Eva acht dame, schaak",
     "pawn Eva seven Eva eight queen, check", "Eva eight queen, check"},
    /* promotion with capture, underpromotion */
    {"4r3/3P4/8/8/8/8/k7/7K w - - 0 1", "d7e8n", "Bauer David sieben schlägt Eva acht Springer",
     "David schlägt Eva acht Springer", "pion David zeven slaat Eva acht paard",
     "David slaat Eva acht paard", "pawn David seven takes Eva eight knight",
     "David takes Eva eight knight"},
    /* mate (5.1.1) */
    {"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", "d8h4",
     "Dame David acht Hector vier, Matt", "Dame Hector vier, Matt",
     "dame David acht Hector vier, mat", "dame Hector vier, mat",
     "queen David eight Hector four, checkmate", "queen Hector four, checkmate"},
    /* C.10 disambiguation by file (black to move) */
    {"rnbqkb1r/ppp1pppp/5n2/3p4/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 2", "b8d7",
     "Springer Bella acht David sieben", "Springer Bella David sieben",
     "paard Bella acht David zeven", "paard Bella David zeven", "knight Bella eight David seven",
     "knight Bella David seven"},
    /* by rank */
    {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "Turm Anna eins Anna drei", "Turm eins Anna drei",
     "toren Anna een Anna drie", "toren een Anna drie", "rook Anna one Anna three",
     "rook one Anna three"},
    /* by file and rank */
    {"4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Dame Anna eins Bella zwei",
     "Dame Anna eins Bella zwei", "dame Anna een Bella twee", "dame Anna een Bella twee",
     "queen Anna one Bella two", "queen Anna one Bella two"},
    /* king move */
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d2", "König Eva eins David zwei", "König David zwei",
     "koning Eva een David twee", "koning David twee", "king Eva one David two", "king David two"},
};

static struct tb_voice_pack *load(const char *name)
{
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    int rc = tb_voice_pack_load(name, &pack, &err);
    if (rc)
        TB_FAIL("pack %s: %s", name ? name : "(default)", err.msg);
    return pack;
}

static void check_pack(const char *name, int column)
{
    struct tb_voice_pack *pack = load(name);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct row *r = &rows[i];
        const char *want[6] = {r->de_long,  r->de_short, r->nl_long,
                               r->nl_short, r->en_long,  r->en_short};
        tb_chess_pos pos;
        tb_chess_move m;
        struct tb_error err = {0};
        ASSERT_OK(tb_chess_pos_from_fen(&pos, r->fen, 0, &err));
        ASSERT_OK(tb_chess_move_from_uci(&pos, r->uci, &m));
        for (int form = 0; form < 2; form++) {
            char buf[256];
            int n = tb_voice_phrase_move(pack, &pos, m, (enum tb_voice_form)form, buf, sizeof buf);
            if (n < 0 || strcmp(buf, want[column + form]) != 0)
                TB_FAIL("%s %s %s (%s): got \"%s\" (%d), want \"%s\"", name, r->uci,
                        form ? "short" : "long", r->fen, n < 0 ? "" : buf, n, want[column + form]);
            ASSERT_EQ(n, (int)strlen(want[column + form]));
        }
    }
    tb_voice_pack_free(pack);
}

/* D.2.1: the German words, exactly. */
TB_TEST(law_D_2_1_moves_de_fide)
{
    check_pack("de-fide", 0);
}
TB_TEST(moves_nl)
{
    check_pack("nl", 2);
}
TB_TEST(moves_en)
{
    check_pack("en", 4);
}

TB_TEST(default_pack_is_de_fide)
{
    struct tb_voice_pack *pack = load(NULL);
    ASSERT_STR_EQ(tb_voice_pack_name(pack), "de-fide");
    struct tb_voice_settings st;
    tb_voice_pack_settings(pack, &st);
    ASSERT_STR_EQ(st.espeak_voice, "de");
    ASSERT_EQ(st.rate, 175);
    tb_voice_pack_free(pack);
}

TB_TEST(illegal_move_is_refused)
{
    struct tb_voice_pack *pack = load("de-fide");
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    char buf[256] = "unchanged";
    ASSERT_EQ(tb_voice_phrase_move(pack, &pos, tb_chess_move_new(12, 36, 0), TB_VOICE_LONG, buf,
                                   sizeof buf),
              TB_ERR_ILLEGAL);
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_from_uci(&pos, "g1f3", &m));
    ASSERT_EQ(tb_voice_phrase_move(pack, &pos, m, TB_VOICE_LONG, buf, 10), TB_ERR_FULL);
    tb_voice_pack_free(pack);
}

TB_TEST(chess960_castling_names_the_side)
{
    /* Guideline II: the king's destination (g or c file) decides short or long. */
    struct tb_voice_pack *pack = load("de-fide");
    tb_chess_pos pos;
    struct tb_error err = {0};
    ASSERT_OK(
        tb_chess_pos_from_fen(&pos, "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", TB_CHESS_FEN_960, &err));
    tb_chess_move m;
    char buf[128];
    ASSERT_OK(tb_chess_move_from_uci(&pos, "e1g1", &m));
    ASSERT_TRUE(tb_voice_phrase_move(pack, &pos, m, TB_VOICE_LONG, buf, sizeof buf) > 0);
    ASSERT_STR_EQ(buf, "Kurze Rochade");
    ASSERT_OK(tb_chess_move_from_uci(&pos, "e1b1", &m));
    ASSERT_TRUE(tb_voice_phrase_move(pack, &pos, m, TB_VOICE_LONG, buf, sizeof buf) > 0);
    ASSERT_STR_EQ(buf, "Lange Rochade");
    tb_voice_pack_free(pack);
}

static void msg(const struct tb_voice_pack *pack, enum tb_voice_msg m,
                const struct tb_voice_msg_args *a, const char *want)
{
    char buf[512];
    int n = tb_voice_phrase_msg(pack, m, a, buf, sizeof buf);
    if (n < 0)
        TB_FAIL("message %d: error %d, want \"%s\"", (int)m, n, want);
    ASSERT_STR_EQ(buf, want);
}

TB_TEST(messages_de_fide)
{
    struct tb_voice_pack *pack = load("de-fide");
    struct tb_voice_square_action lift[] = {{21, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT)}};
    struct tb_voice_square_action place[] = {{12, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN)},
                                             {6, 0}};
    /* D.2.9 */
    msg(pack, TB_VOICE_MSG_MISMATCH, &(struct tb_voice_msg_args){.board = TB_CHESS_BLACK},
        "Bretter weichen ab, Brett Schwarz");
    msg(pack, TB_VOICE_MSG_PUT_RIGHT,
        &(struct tb_voice_msg_args){.lift = lift, .nlift = 1, .place = place, .nplace = 2},
        "Bitte korrigieren: weißen Springer von Felix drei nehmen, weißen Bauern auf Eva zwei "
        "stellen, Figur auf Gustav eins stellen");
    msg(pack, TB_VOICE_MSG_ILLEGAL, NULL, "Unzulässiger Zug");
    msg(pack, TB_VOICE_MSG_WAIT, NULL, "Bitte warten");
    msg(pack, TB_VOICE_MSG_ARBITER, NULL, "Schiedsrichter gerufen");
    msg(pack, TB_VOICE_MSG_REPLICATE,
        &(struct tb_voice_msg_args){.move = "Springer Gustav eins Felix drei"},
        "Bitte nachziehen: Springer Gustav eins Felix drei");
    /* D.2.6: time and number of moves */
    msg(pack, TB_VOICE_MSG_CLOCK,
        &(struct tb_voice_msg_args){.white_ms = 303999, .black_ms = 3660000, .n = 12},
        "Weiß 5 Minuten 3 Sekunden, Schwarz 61 Minuten 0 Sekunden, 12 Züge");
    /* D.2.7 */
    msg(pack, TB_VOICE_MSG_MOVE_NUMBER,
        &(struct tb_voice_msg_args){.n = 12, .move = "Kurze Rochade"}, "Zug 12: Kurze Rochade");
    /* D.2.8 */
    msg(pack, TB_VOICE_MSG_CORRECTION, &(struct tb_voice_msg_args){.move = "Dame Hector vier"},
        "Korrektur: Dame Hector vier");
    msg(pack, TB_VOICE_MSG_NO_MOVE, NULL, "Noch kein Zug");
    char buf[64];
    ASSERT_EQ(tb_voice_phrase_msg(pack, TB_VOICE_MSG_REPLICATE, NULL, buf, sizeof buf), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_phrase_msg(pack, TB_VOICE_MSG_PUT_RIGHT, NULL, buf, sizeof buf), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_phrase_msg(pack, TB_VOICE_MSG_COUNT, NULL, buf, sizeof buf), TB_ERR_ARG);
    tb_voice_pack_free(pack);
}

TB_TEST(messages_nl_en)
{
    struct tb_voice_pack *nl = load("nl"), *en = load("en");
    struct tb_voice_square_action lift[] = {{28, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_QUEEN)}};
    struct tb_voice_msg_args a = {.board = TB_CHESS_WHITE, .lift = lift, .nlift = 1};
    msg(nl, TB_VOICE_MSG_MISMATCH, &a, "Borden verschillen, bord wit");
    msg(en, TB_VOICE_MSG_MISMATCH, &a, "The boards differ, white board");
    msg(nl, TB_VOICE_MSG_PUT_RIGHT, &a, "Graag herstellen: zwarte dame van Eva vier nemen");
    msg(en, TB_VOICE_MSG_PUT_RIGHT, &a, "Please correct: take the black queen off Eva four");
    a.n = 7;
    a.move = "korte rokade";
    msg(nl, TB_VOICE_MSG_MOVE_NUMBER, &a, "Zet 7: korte rokade");
    msg(en, TB_VOICE_MSG_ILLEGAL, &a, "Illegal move");
    tb_voice_pack_free(nl);
    tb_voice_pack_free(en);
}

/* 4.6, D.2.1: a promotion waits for its piece; the player chooses it on the board's button, each
 * press naming the next piece; 7.5.2: a move ended without a choice gets the queen. */
TB_TEST(law_4_6_promotion_words_in_every_pack)
{
    static const struct {
        const char *pack, *ask, *none, *queen, *piece[4]; /* queen, rook, bishop, knight */
    } want[] = {
        {"de-fide",
         "Umwandlung: welche Figur?",
         "Keine Umwandlung",
         "Keine Figur gewählt: Dame",
         {"Dame", "Turm", "Läufer", "Springer"}},
        {"nl",
         "Promotie: welk stuk?",
         "Geen promotie",
         "Geen stuk gekozen: dame",
         {"dame", "toren", "loper", "paard"}},
        {"en",
         "Promotion: which piece?",
         "No promotion",
         "No piece chosen: queen",
         {"queen", "rook", "bishop", "knight"}},
    };
    static const int ptype[4] = {TB_CHESS_QUEEN, TB_CHESS_ROOK, TB_CHESS_BISHOP, TB_CHESS_KNIGHT};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct tb_voice_pack *pack = load(want[i].pack);
        msg(pack, TB_VOICE_MSG_PROMOTION_ASK, NULL, want[i].ask);
        msg(pack, TB_VOICE_MSG_PROMOTION_NONE, NULL, want[i].none);
        msg(pack, TB_VOICE_MSG_PROMOTION_QUEEN,
            &(struct tb_voice_msg_args){.piece = TB_CHESS_QUEEN}, want[i].queen);
        for (int k = 0; k < 4; k++)
            msg(pack, TB_VOICE_MSG_PROMOTION_PIECE, &(struct tb_voice_msg_args){.piece = ptype[k]},
                want[i].piece[k]);
        char buf[64];
        /* a piece no promotion gives is refused, not said */
        ASSERT_EQ(tb_voice_phrase_msg(pack, TB_VOICE_MSG_PROMOTION_PIECE,
                                      &(struct tb_voice_msg_args){.piece = TB_CHESS_KING}, buf,
                                      sizeof buf),
                  TB_ERR_ARG);
        ASSERT_EQ(tb_voice_phrase_msg(pack, TB_VOICE_MSG_PROMOTION_PIECE, NULL, buf, sizeof buf),
                  TB_ERR_ARG);
        tb_voice_pack_free(pack);
    }
}

TB_TEST(squares_in_the_scheme)
{
    struct tb_voice_pack *pack = load("de-fide");
    char buf[64];
    ASSERT_EQ(tb_voice_phrase_square(pack, 0, buf, sizeof buf), 9);
    ASSERT_STR_EQ(buf, "Anna eins");
    ASSERT_TRUE(tb_voice_phrase_square(pack, 63, buf, sizeof buf) > 0);
    ASSERT_STR_EQ(buf, "Hector acht");
    ASSERT_EQ(tb_voice_phrase_square(pack, 64, buf, sizeof buf), TB_ERR_ARG);
    tb_voice_pack_free(pack);
}

/* voice-notes 2.8: phoneme spellings go to eSpeak only, as whole words; written text stays. */
TB_TEST(speech_text_applies_phoneme_spellings)
{
    struct tb_voice_pack *pack = load("de-fide");
    char buf[256];
    ASSERT_TRUE(tb_voice_pack_speech_text(pack, "Kurze Rochade", buf, sizeof buf) > 0);
    ASSERT_STR_EQ(buf, "Kurze [[rOS'a:d@]]");
    ASSERT_TRUE(tb_voice_pack_speech_text(pack, "Bauer Eva fünf schlägt David sechs en passant",
                                          buf, sizeof buf) > 0);
    ASSERT_STR_EQ(buf, "Bauer Eva fünf schlägt [[d'a:vIt]] sechs [[A~pas'A~]]");
    ASSERT_TRUE(tb_voice_pack_speech_text(pack, "Cesar, Davids Rochaden", buf, sizeof buf) > 0);
    ASSERT_STR_EQ(buf, "[[ts'E:zar]], Davids Rochaden");
    ASSERT_EQ(tb_voice_pack_speech_text(pack, "Kurze Rochade", buf, 12), TB_ERR_FULL);
    tb_voice_pack_free(pack);
}

/* The de-fide pack with every file and rank word made `len` bytes long ("Anna..." padded with
 * 'x'), written to the temporary directory and loaded. */
static struct tb_voice_pack *load_long_words(size_t len)
{
    char in_path[1024], out_path[1024];
    snprintf(in_path, sizeof in_path, "%s/de-fide.pack", getenv("TB_VOICE_PACKS"));
    snprintf(out_path, sizeof out_path, "%s/long-words.pack", tb_test_tmp_dir());
    FILE *in = fopen(in_path, "r"), *out = fopen(out_path, "w");
    ASSERT_NOT_NULL(in);
    ASSERT_NOT_NULL(out);
    char line[512];
    bool square_section = false;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '[')
            square_section = strncmp(line, "[files]", 7) == 0 || strncmp(line, "[ranks]", 7) == 0;
        if (!square_section || !strchr(line, '=') || line[0] == '#') {
            fputs(line, out);
            continue;
        }
        char word[TB_VOICE_WORD_MAX + 1];
        line[strcspn(line, "\n")] = '\0';
        const char *value = strchr(line, '=') + 2;
        size_t n = strlen(value);
        ASSERT_LT(n, len);
        ASSERT_LT(len, sizeof word);
        memcpy(word, value, n);
        memset(word + n, 'x', len - n);
        word[len] = '\0';
        fprintf(out, "%.*s= %s\n", (int)(strchr(line, '=') - line), line, word);
    }
    fclose(in);
    fclose(out);
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    if (tb_voice_pack_load_file(out_path, &pack, &err))
        TB_FAIL("long-words pack: %s", err.msg);
    return pack;
}

/* A pack whose square words are as long as a pack may make them still gives whole phrases:
 * squares, departure files of the short form (C.10), correction instructions (D.2.9). */
TB_TEST(longest_words_give_whole_phrases)
{
    struct tb_voice_pack *pack = load_long_words(TB_VOICE_WORD_MAX);
    char square[TB_VOICE_SQUARE_MAX + 1], buf[1024];
    ASSERT_EQ(tb_voice_phrase_square(pack, 12, square, sizeof square), TB_VOICE_SQUARE_MAX);
    ASSERT_EQ(strncmp(square, "Evaxxx", 6), 0);
    ASSERT_STR_CONTAINS(square, "x zweixxx");
    ASSERT_EQ(tb_voice_phrase_square(pack, 12, buf, TB_VOICE_SQUARE_MAX), TB_ERR_FULL);

    struct tb_voice_square_action lift[] = {{12, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN)}};
    struct tb_voice_msg_args a = {.lift = lift, .nlift = 1};
    int n = tb_voice_phrase_msg(pack, TB_VOICE_MSG_PUT_RIGHT, &a, buf, sizeof buf);
    ASSERT_EQ(n, (int)strlen(buf));
    ASSERT_STR_CONTAINS(buf, square);
    ASSERT_STR_CONTAINS(buf, "Bitte korrigieren: weißen Bauern von Evax");
    /* Too small a buffer is said so, never handed a cut phrase. */
    ASSERT_EQ(tb_voice_phrase_msg(pack, TB_VOICE_MSG_PUT_RIGHT, &a, buf, (size_t)n), TB_ERR_FULL);

    tb_chess_pos pos;
    tb_chess_move m;
    ASSERT_OK(tb_chess_pos_from_fen(
        &pos, "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1", 0, NULL));
    ASSERT_OK(tb_chess_move_from_uci(&pos, "g2h3", &m)); /* gxh3 */
    n = tb_voice_phrase_move(pack, &pos, m, TB_VOICE_SHORT, buf, sizeof buf);
    ASSERT_EQ(n, (int)strlen(buf));
    ASSERT_EQ(strncmp(buf, "Gustavxxx", 9), 0);
    ASSERT_STR_CONTAINS(buf, "x schlägt Hectorx");
    ASSERT_EQ(tb_voice_phrase_move(pack, &pos, m, TB_VOICE_SHORT, buf, (size_t)n), TB_ERR_FULL);
    n = tb_voice_phrase_move(pack, &pos, m, TB_VOICE_LONG, buf, sizeof buf);
    ASSERT_EQ(n, (int)strlen(buf));
    tb_voice_phrase_square(pack, 14, square, sizeof square); /* g2, whole */
    ASSERT_STR_CONTAINS(buf, square);
    tb_voice_phrase_square(pack, 23, square, sizeof square); /* h3, whole */
    ASSERT_STR_CONTAINS(buf, square);
    tb_voice_pack_free(pack);
}
