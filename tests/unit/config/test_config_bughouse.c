/* The [bughouse] section (doorgeefschaak in the daemon): the mode, the time control (6.3), who
 * hears the partner's board (default nobody), the seats' names, packs and outputs; every bad
 * entry named with its line and key, nothing changed. */
#include <stdio.h>
#include <string.h>

#include "config_check.h"
#include "tb_config.h"
#include "tb_test.h"

TB_TEST(bughouse_section_sets_mode_control_hearing_and_seats)
{
    struct tb_config c;
    struct tb_config_report rep;
    ASSERT_OK(config_check_parse("[arbiter]\npin=371946\n", &c, &rep));
    ASSERT_FALSE(c.bughouse.enabled); /* the twin game unless asked */
    ASSERT_EQ(c.bughouse.hear_other_board, 0);
    ASSERT_OK(config_check_parse("[arbiter]\npin=371946\n[bughouse]\nenabled = yes\n", &c, &rep));
    ASSERT_TRUE(c.bughouse.enabled);
    ASSERT_STR_EQ(c.bughouse.control, "");     /* 6.3: 7 minutes */
    ASSERT_EQ(c.bughouse.hear_other_board, 0); /* the partner's board: nobody by default */
    ASSERT_OK(config_check_parse(
        "[arbiter]\npin=371946\n[bughouse]\nenabled = yes\ncontrol = 5m+2s\n"
        "hear_other_board = white_a, black_b\nwhite_a = Anna\nblack_b = Bert Meier\n"
        "pack_black_a = en\naudio_white_b = wav:/tmp/wb.wav\naudio_black_b = null\n",
        &c, &rep));
    ASSERT_STR_EQ(c.bughouse.control, "5m+2s");
    ASSERT_EQ(c.bughouse.hear_other_board, (1u << 0) | (1u << 3));
    ASSERT_STR_EQ(c.bughouse.name[0], "Anna");
    ASSERT_STR_EQ(c.bughouse.name[3], "Bert Meier");
    ASSERT_STR_EQ(c.bughouse.pack[1], "en");
    ASSERT_STR_EQ(c.bughouse.audio[2], "wav:/tmp/wb.wav");
    ASSERT_STR_EQ(c.bughouse.audio[3], "null");
    ASSERT_OK(config_check_parse(
        "[arbiter]\npin=371946\n[bughouse]\nenabled = no\nhear_other_board = none\n", &c, &rep));
    ASSERT_FALSE(c.bughouse.enabled);
    ASSERT_STR_EQ(tb_config_seat_name(2), "white_b");
    ASSERT_NULL(tb_config_seat_name(4));
}

/* D.2 keeps a DGT e-board from the VI player's side of a twin game; in doorgeefschaak the
 * [player vi] board is only board A, and a club may play on two DGT boards. */
TB_TEST(law_D_2_dgt_board_a_only_in_bughouse_mode)
{
    struct tb_config c;
    struct tb_config_report rep;
    ASSERT_OK(config_check_parse(
        "[arbiter]\npin=371946\n[player vi]\nboard = dgt:/dev/ttyACM0\n"
        "[player sighted]\nboard = dgt:/dev/ttyACM1\n[bughouse]\nenabled = yes\n",
        &c, &rep));
    ASSERT_STR_EQ(c.player[TB_CONFIG_VI].board, "dgt:/dev/ttyACM0");
    ASSERT_EQ(config_check_parse("[arbiter]\npin=371946\n[bughouse]\nenabled = no\n[player vi]\n"
                                 "board = dgt:/dev/ttyACM0\n",
                                 &c, &rep),
              TB_ERR_PARSE);
    ASSERT_EQ(rep.problem[0].line, 6);
    ASSERT_STR_CONTAINS(rep.problem[0].msg, "a DGT e-board cannot be the VI player's board");
}

TB_TEST(bughouse_bad_entries_name_line_and_key)
{
    static const struct config_check_bad bad[] = {
        {"[arbiter]\npin=371946\n[bughouse]\nenabled = maybe\n", 4,
         "enabled 'maybe' is not yes or no"},
        {"[arbiter]\npin=371946\n[bughouse]\ncontrol = 7 minutes\n", 4, "control: time control"},
        {"[arbiter]\npin=371946\n[bughouse]\nhear_other_board = white_c\n", 4,
         "hear_other_board: 'white_c' is not a seat"},
        {"[arbiter]\npin=371946\n[bughouse]\npack_white_a = ../x\n", 4,
         "pack_white_a '../x' is not a pack name"},
        {"[arbiter]\npin=371946\n[bughouse]\naudio_black_c = null\n", 4,
         "unknown key 'audio_black_c' in [bughouse]"},
        {"[arbiter]\npin=371946\n[bughouse]\nwhite_a = A\nwhite_a = B\n", 5,
         "white_a is set twice in [bughouse] (first at line 4)"},
        {"[arbiter]\npin=371946\n[bughouse]\nblack_b = "
         "a name much longer than the forty-seven bytes a BPGN tag may hold here\n",
         4, "black_b is longer than 47 bytes"},
        {"[arbiter]\npin=371946\n[bughouse]\nenabled =\n", 4, "enabled has no value"},
    };
    config_check_refused(bad, sizeof bad / sizeof bad[0]);
}
