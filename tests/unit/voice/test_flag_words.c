/* The flag message (6.9) and the clock's words (D.2.6) in every pack, word for word. */
#include <string.h>

#include "tb_test.h"
#include "tb_voice.h"

static const char *const packs[] = {"de-fide", "nl", "en"};

static void say(int pack_i, enum tb_voice_msg msg, const struct tb_voice_msg_args *a,
                const char *want)
{
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    if (tb_voice_pack_load(packs[pack_i], &pack, &err) != TB_OK)
        TB_FAIL("%s: %s", packs[pack_i], err.msg);
    char buf[1024];
    ASSERT_EQ(tb_voice_phrase_msg(pack, msg, a, buf, sizeof buf), (int)strlen(want));
    ASSERT_STR_EQ(buf, want);
    tb_voice_pack_free(pack);
}

TB_TEST(law_6_9_flag_fall_words_with_the_result)
{
    static const char *const lost[] = {"Blättchenfall, Schwarz. Weiß gewinnt",
                                       "Vlag gevallen, zwart. Wit wint",
                                       "Flag fall, black. White wins"};
    static const char *const draw[] = {"Blättchenfall, Weiß. Remis", "Vlag gevallen, wit. Remise",
                                       "Flag fall, white. Draw"};
    static const char *const won[] = {"Blättchenfall, Weiß. Schwarz gewinnt",
                                      "Vlag gevallen, wit. Zwart wint",
                                      "Flag fall, white. Black wins"};
    for (int i = 0; i < 3; i++) {
        say(i, TB_VOICE_MSG_FLAG, &(struct tb_voice_msg_args){.board = TB_CHESS_BLACK, .n = 1},
            lost[i]);
        say(i, TB_VOICE_MSG_FLAG, &(struct tb_voice_msg_args){.board = TB_CHESS_WHITE, .n = 0},
            draw[i]);
        say(i, TB_VOICE_MSG_FLAG, &(struct tb_voice_msg_args){.board = TB_CHESS_WHITE, .n = 2},
            won[i]);
    }
}

TB_TEST(law_D_2_6_clock_words_singular_and_plural)
{
    static const char *const want[] = {
        "Weiß 1 Minute 1 Sekunde, Schwarz 89 Minuten 59 Sekunden, 1 Zug",
        "Wit 1 minuut 1 seconde, zwart 89 minuten 59 seconden, 1 zet",
        "White 1 minute 1 second, black 89 minutes 59 seconds, 1 move"};
    for (int i = 0; i < 3; i++)
        say(i, TB_VOICE_MSG_CLOCK,
            &(struct tb_voice_msg_args){.white_ms = 61999, .black_ms = 5399999, .n = 1}, want[i]);
}
