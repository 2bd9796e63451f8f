/* The speaker with the real eSpeak NG: per-player queues in order with nothing lost, urgent
 * cut-in, repeat, completion events on an fd, the audio scoresheet (D.2.7), the German voice
 * really in use, and clear errors for missing eSpeak data or voice. Audio goes to a recording
 * sink (recorder.c) whose play position the test sets. */
#include <poll.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "recorder.h"
#include "tb_test.h"
#include "tb_voice.h"

#define RATE    22050
#define SILENCE 100        /* |sample| below this is silence */
#define GAP     (RATE / 5) /* 200 ms of silence separates two announcements */
#define INSTANT UINT64_MAX

static struct tb_voice_pack *pack;
static struct recorder rec[2];
static struct tb_voice *voice;

/* Both players' audio into rec[]. */
static void record_both(struct tb_voice_config *cfg, uint64_t limit)
{
    for (int i = 0; i < 2; i++) {
        recorder_init(&rec[i], limit);
        cfg->player[i].sink = &recorder_ops;
        cfg->player[i].sink_arg = &rec[i];
    }
}

/* eSpeak's phonemes of text in a player's voice (-1: the speaker's). */
static const char *phonemes(int player, const char *text)
{
    static char ph[512];
    ASSERT_TRUE(tb_voice_phonemes(voice, player, text, ph, sizeof ph) > 0);
    return ph;
}

static void start_with(const char *pack_name, uint64_t limit, const char *scoresheet)
{
    struct tb_error err = {0};
    if (tb_voice_pack_load(pack_name, &pack, &err))
        TB_FAIL("%s", err.msg);
    struct tb_voice_config cfg = {.pack = pack};
    record_both(&cfg, limit);
    cfg.player[0].scoresheet_wav = scoresheet;
    if (tb_voice_new(&cfg, &voice, &err))
        TB_FAIL("%s", err.msg);
}

static void start(uint64_t limit)
{
    start_with("de-fide", limit, NULL);
}

static void stop(void)
{
    tb_voice_free(voice);
    tb_voice_free(NULL);
    for (int i = 0; i < 2; i++)
        recorder_destroy(&rec[i]);
    tb_voice_pack_free(pack);
}

/* Sound spans (first to last loud frame) of pcm, split at GAP frames of silence. */
static int spans(const int16_t *pcm, size_t n, size_t *len, int max)
{
    int count = 0;
    size_t start = 0, last = 0;
    bool in = false;
    for (size_t i = 0; i < n; i++) {
        if (abs(pcm[i]) < SILENCE)
            continue;
        if (in && i - last > GAP) {
            if (count < max)
                len[count] = last - start + 1;
            count++;
            in = false;
        }
        if (!in)
            start = i;
        in = true;
        last = i;
    }
    if (in) {
        if (count < max)
            len[count] = last - start + 1;
        count++;
    }
    return count;
}

/* Sound span of text as eSpeak renders it on its own. */
static size_t rendered_span(const char *text)
{
    int16_t *pcm = NULL;
    size_t n = 0, len[4];
    unsigned rate = 0;
    ASSERT_OK(tb_voice_render(voice, -1, text, &pcm, &n, &rate));
    ASSERT_EQ(rate, RATE);
    int k = spans(pcm, n, len, 4);
    free(pcm);
    ASSERT_EQ(k, 1);
    return len[0];
}

static void assert_close(size_t got, size_t want, const char *what)
{
    /* eSpeak's output varies by a few samples between renders in one process. */
    size_t tol = want / 20 + RATE / 50;
    if (got + tol < want || got > want + tol)
        TB_FAIL("%s: %zu frames, expected %zu +- %zu", what, got, want, tol);
}

static int take_events(struct tb_voice_event *ev, int max)
{
    int n = 0, k;
    while ((k = tb_voice_events(voice, ev + n, max - n)) > 0)
        n += k;
    return n;
}

/* Twenty announcements for one player are all spoken, in order, none overlapping: the recorded
 * audio splits into twenty spans matching each text's own rendering in turn. */
TB_TEST(burst_of_twenty_in_order_none_lost)
{
    start(INSTANT);
    char text[20][128];
    long id[20];
    for (int i = 0; i < 20; i++) {
        size_t p = 0;
        for (int j = 0; j <= i % 4; j++) {
            char sq[32];
            ASSERT_TRUE(tb_voice_phrase_square(pack, (i * 7 + j * 13) % 64, sq, sizeof sq) > 0);
            p += (size_t)snprintf(text[i] + p, sizeof text[i] - p, "%s%s", j ? " " : "", sq);
        }
        id[i] = tb_voice_announce(voice, TB_CHESS_WHITE, text[i], TB_VOICE_MOVE, i + 1);
        ASSERT_GT(id[i], 0);
    }
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 60000));
    struct tb_voice_event ev[32];
    ASSERT_EQ(take_events(ev, 32), 20);
    for (int i = 0; i < 20; i++) {
        ASSERT_EQ(ev[i].id, id[i]);
        ASSERT_EQ(ev[i].status, TB_VOICE_DONE);
        ASSERT_EQ(ev[i].player, TB_CHESS_WHITE);
    }
    size_t len[32];
    ASSERT_EQ(spans(rec[0].heard, rec[0].frames, len, 32), 20);
    for (int i = 0; i < 20; i++)
        assert_close(len[i], rendered_span(text[i]), text[i]);
    ASSERT_EQ(rec[1].frames, 0); /* nothing reached the other player */
    ASSERT_EQ(rec[0].flushes, 0);
    stop();
}

/* Each player hears only their own announcements. */
TB_TEST(players_hear_their_own)
{
    start(INSTANT);
    const char *w = "Läufer Felix eins schlägt Bella fünf, Schach", *b = "Kurze Rochade";
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, w, 0, 0), 0);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_BLACK, b, 0, 0), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    size_t lw[4], lb[4];
    ASSERT_EQ(spans(rec[0].heard, rec[0].frames, lw, 4), 1);
    ASSERT_EQ(spans(rec[1].heard, rec[1].frames, lb, 4), 1);
    assert_close(lw[0], rendered_span(w), w);
    assert_close(lb[0], rendered_span(b), b);
    ASSERT_GT(lw[0], lb[0] * 2);
    ASSERT_EQ(tb_voice_announce(voice, TB_VOICE_PLAYERS, w, 0, 0), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_announce(voice, 0, "", 0, 0), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_announce(voice, 0, w, 64, 0), TB_ERR_ARG);
    stop();
}

/* An urgent message cuts a message that is playing; the cut one is dropped (TB_VOICE_CUT). */
TB_TEST(urgent_cuts_a_message)
{
    start(0);
    const char *slow = "Bitte warten, Bitte warten, Bitte warten";
    char illegal[128];
    ASSERT_TRUE(tb_voice_phrase_msg(pack, TB_VOICE_MSG_ILLEGAL, NULL, illegal, sizeof illegal) > 0);
    long a = tb_voice_announce(voice, TB_CHESS_BLACK, slow, 0, 0);
    recorder_wait_frames(&rec[1], RATE / 2); /* it is being written; 0.3 s has been heard */
    recorder_set_limit(&rec[1], RATE * 3 / 10);
    long u = tb_voice_announce(voice, TB_CHESS_BLACK, illegal, TB_VOICE_URGENT, 0);
    recorder_wait_flushes(&rec[1], 1);
    recorder_set_limit(&rec[1], INSTANT);
    ASSERT_OK(tb_voice_wait_idle(voice, TB_CHESS_BLACK, 30000));
    struct tb_voice_event ev[8];
    ASSERT_EQ(take_events(ev, 8), 2);
    ASSERT_EQ(ev[0].id, a);
    ASSERT_EQ(ev[0].status, TB_VOICE_CUT);
    ASSERT_EQ(ev[1].id, u);
    ASSERT_EQ(ev[1].status, TB_VOICE_DONE);
    ASSERT_EQ(rec[1].flushes, 1);
    /* Heard: 0.3 s of the slow message, then the whole urgent one. */
    size_t len[4];
    int k = spans(rec[1].heard + RATE * 3 / 10, rec[1].frames - RATE * 3 / 10, len, 4);
    ASSERT_EQ(k, 1);
    assert_close(len[0], rendered_span(illegal), illegal);
    stop();
}

/* An opponent's move is never dropped: cut by an urgent message, it is said again in full after
 * it, and it stays available for "repeat". */
TB_TEST(urgent_never_drops_a_move)
{
    start(0);
    const char *move = "Springer Gustav eins Felix drei";
    const char *urgent = "Unzulässiger Zug";
    long m = tb_voice_announce(voice, TB_CHESS_WHITE, move, TB_VOICE_MOVE, 1);
    recorder_wait_frames(&rec[0], RATE / 2);
    recorder_set_limit(&rec[0], RATE / 4);
    long u = tb_voice_announce(voice, TB_CHESS_WHITE, urgent, TB_VOICE_URGENT, 0);
    recorder_wait_flushes(&rec[0], 1);
    recorder_set_limit(&rec[0], INSTANT);
    ASSERT_OK(tb_voice_wait_idle(voice, TB_CHESS_WHITE, 30000));
    struct tb_voice_event ev[8];
    ASSERT_EQ(take_events(ev, 8), 2);
    ASSERT_EQ(ev[0].id, u);
    ASSERT_EQ(ev[1].id, m);
    ASSERT_EQ(ev[1].status, TB_VOICE_DONE);
    size_t len[4];
    ASSERT_EQ(spans(rec[0].heard + RATE / 4, rec[0].frames - RATE / 4, len, 4), 2);
    assert_close(len[0], rendered_span(urgent), urgent);
    assert_close(len[1], rendered_span(move), move);
    long r = tb_voice_repeat(voice, TB_CHESS_WHITE);
    ASSERT_GT(r, u);
    ASSERT_OK(tb_voice_wait_idle(voice, TB_CHESS_WHITE, 30000));
    ASSERT_EQ(spans(rec[0].heard + RATE / 4, rec[0].frames - RATE / 4, len, 4), 3);
    assert_close(len[2], rendered_span(move), "repeated move");
    stop();
}

TB_TEST(repeat_last_move)
{
    start(INSTANT);
    ASSERT_EQ(tb_voice_repeat(voice, TB_CHESS_BLACK), TB_ERR_NOTFOUND);
    const char *m1 = "Bauer Eva zwei Eva vier", *m2 = "Lange Rochade";
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_BLACK, m1, TB_VOICE_MOVE, 1), 0);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_BLACK, "Bitte warten", 0, 0), 0);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_BLACK, m2, TB_VOICE_MOVE, 2), 0);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_BLACK, "Bitte warten", 0, 0), 0);
    long r = tb_voice_repeat(voice, TB_CHESS_BLACK);
    ASSERT_GT(r, 0);
    ASSERT_EQ(tb_voice_repeat(voice, TB_CHESS_WHITE), TB_ERR_NOTFOUND);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    size_t len[8];
    ASSERT_EQ(spans(rec[1].heard, rec[1].frames, len, 8), 5);
    assert_close(len[4], rendered_span(m2), "repeat says the last move");
    stop();
}

/* The daemon polls tb_voice_fd and then takes the events. */
TB_TEST(completion_events_on_fd)
{
    start(INSTANT);
    int fd = tb_voice_fd(voice);
    ASSERT_GE(fd, 0);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    ASSERT_EQ(poll(&p, 1, 0), 0);
    long id = tb_voice_announce(voice, TB_CHESS_WHITE, "Dame David acht Hector vier, Matt", 0, 0);
    ASSERT_EQ(poll(&p, 1, 30000), 1);
    struct tb_voice_event ev[4];
    ASSERT_EQ(tb_voice_events(voice, ev, 4), 1);
    ASSERT_EQ(ev[0].id, id);
    ASSERT_EQ(ev[0].status, TB_VOICE_DONE);
    ASSERT_EQ(poll(&p, 1, 0), 0);
    ASSERT_EQ(tb_voice_events(voice, ev, 4), 0);
    stop();
}

static size_t rendered_frames(const char *text)
{
    int16_t *pcm = NULL;
    size_t n = 0;
    ASSERT_OK(tb_voice_render(voice, -1, text, &pcm, &n, NULL));
    free(pcm);
    return n;
}

/* The WAV file's header matches its size (playable as it is) and it holds want frames. */
static void check_wav(const char *path, size_t want)
{
    struct stat st;
    ASSERT_OK(stat(path, &st));
    FILE *f = fopen(path, "rb");
    ASSERT_NOT_NULL(f);
    unsigned char h[44];
    ASSERT_EQ(fread(h, 1, 44, f), 44);
    fclose(f);
    uint32_t riff = h[4] | h[5] << 8 | h[6] << 16 | (uint32_t)h[7] << 24;
    uint32_t data = h[40] | h[41] << 8 | h[42] << 16 | (uint32_t)h[43] << 24;
    ASSERT_EQ(riff, st.st_size - 8);
    ASSERT_EQ(data, st.st_size - 44);
    int16_t *pcm;
    size_t n;
    unsigned rate;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_wav_read(path, &pcm, &n, &rate, &err));
    ASSERT_EQ(rate, RATE);
    assert_close(n, want, path);
    free(pcm);
}

/* D.2.7: every move goes into the player's audio scoresheet with its number first; the file is
 * valid after every append, so a crash leaves a playable recording. */
TB_TEST(law_D_2_7_audio_scoresheet)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/white-scoresheet.wav", tb_test_tmp_dir());
    start_with("de-fide", INSTANT, path);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, "Bauer Eva zwei Eva vier", TB_VOICE_MOVE, 1),
              0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    size_t first = rendered_frames("Zug 1: Bauer Eva zwei Eva vier");
    check_wav(path, first);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, "Bitte warten", 0, 0), 0); /* no move */
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, "Springer Gustav eins Felix drei",
                                TB_VOICE_MOVE, 12),
              0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    check_wav(path, first + rendered_frames("Zug 12: Springer Gustav eins Felix drei"));
    stop();
}

/* The pack's German voice is really in use: eSpeak's phonemes for the pack's words are German
 * ("Sp" as [S], "ch" as [x], "äu" as [OY]); the English voice, as a control, says them otherwise.
 */
TB_TEST(german_voice_really_used)
{
    start(INSTANT);
    char desc[512];
    ASSERT_TRUE(tb_voice_describe(voice, desc, sizeof desc) > 0);
    ASSERT_STR_CONTAINS(desc, "voice de");
    ASSERT_STR_CONTAINS(phonemes(-1, "Springer"), "Spr'IN");
    ASSERT_STR_CONTAINS(phonemes(-1, "Schach"), "S'ax");
    ASSERT_STR_CONTAINS(phonemes(-1, "Läufer"), "l'OYf");
    /* D.2.7: the scoresheet's move number is read as a German number. */
    ASSERT_STR_CONTAINS(phonemes(-1, "Zug 12"), "tsv'Wlf");
    stop();
}

/* The control for the test above: the English voice does not say them the German way. */
TB_TEST(english_voice_says_it_otherwise)
{
    start_with("en", INSTANT, NULL);
    const char *ph = phonemes(-1, "Springer Schach");
    ASSERT_TRUE(strstr(ph, "Spr'IN") == NULL);
    ASSERT_TRUE(strstr(ph, "S'ax") == NULL);
    stop();
}

/* voice-notes 2.8: the pack's phoneme spellings reach eSpeak; the written text is unchanged. */
TB_TEST(phoneme_spellings_reach_espeak)
{
    start(INSTANT);
    ASSERT_STR_CONTAINS(phonemes(-1, "Kurze Rochade"), "rOS'a:d@");
    ASSERT_STR_CONTAINS(phonemes(-1, "Cesar"), "ts'E:zar");
    stop();
}

TB_TEST(missing_espeak_data_is_a_clear_error)
{
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    struct tb_voice_config cfg = {.pack = pack, .espeak_data = tb_test_tmp_dir()};
    struct tb_voice *v = NULL;
    ASSERT_EQ(tb_voice_new(&cfg, &v, &err), TB_ERR_NOTFOUND);
    ASSERT_NULL(v);
    ASSERT_STR_CONTAINS(err.msg, "eSpeak NG data not found");
    ASSERT_STR_CONTAINS(err.msg, tb_test_tmp_dir());
    cfg.espeak_data = NULL;
    cfg.espeak_voice = "xx-nosuchvoice";
    ASSERT_EQ(tb_voice_new(&cfg, &v, &err), TB_ERR_NOTFOUND);
    ASSERT_STR_CONTAINS(err.msg, "xx-nosuchvoice");
    tb_voice_pack_free(pack);
}

/* The WAV sink writes what the player would hear. */
TB_TEST(wav_sink_and_null_sink)
{
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    char path[1024];
    snprintf(path, sizeof path, "%s/black.wav", tb_test_tmp_dir());
    struct tb_voice_config cfg = {.pack = pack};
    cfg.player[TB_CHESS_BLACK].sink = &tb_voice_sink_wav;
    cfg.player[TB_CHESS_BLACK].target = path;
    ASSERT_OK(tb_voice_new(&cfg, &voice, &err));
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_BLACK, "Lange Rochade", TB_VOICE_MOVE, 3), 0);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, "Lange Rochade", TB_VOICE_MOVE, 3), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    check_wav(path, rendered_frames("Lange Rochade"));
    tb_voice_free(voice);
    tb_voice_pack_free(pack);
}

TB_TEST(sink_that_cannot_open_is_a_clear_error)
{
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    struct tb_voice_config cfg = {.pack = pack};
    cfg.player[TB_CHESS_BLACK].sink = &tb_voice_sink_wav;
    cfg.player[TB_CHESS_BLACK].target = "/nonexistent/dir/black.wav";
    ASSERT_EQ(tb_voice_new(&cfg, &voice, &err), TB_ERR_SYS);
    ASSERT_STR_CONTAINS(err.msg, "/nonexistent/dir/black.wav");
    tb_voice_pack_free(pack);
}

/* Each player hears their own language: the sighted player's English pack and voice while the
 * VI player keeps the German one, in one speaker. */
TB_TEST(each_player_in_their_own_language)
{
    struct tb_error err = {0};
    struct tb_voice_pack *en = NULL;
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    ASSERT_OK(tb_voice_pack_load("en", &en, &err));
    struct tb_voice_config cfg = {.pack = pack};
    record_both(&cfg, INSTANT);
    cfg.player[TB_CHESS_BLACK].pack = en;
    ASSERT_OK(tb_voice_new(&cfg, &voice, &err));
    ASSERT_STR_CONTAINS(phonemes(TB_CHESS_WHITE, "Springer Schach"), "S'ax");
    ASSERT_TRUE(strstr(phonemes(TB_CHESS_BLACK, "Springer Schach"), "S'ax") == NULL);
    /* The English pack spells Cesar for the English voice. */
    ASSERT_STR_CONTAINS(phonemes(TB_CHESS_BLACK, "Cesar"), "s'i:z3");
    /* Alternating players switch voices; each announcement sounds as its player's render. */
    const char *text = "Springer Gustav eins Felix drei, Schach";
    for (int i = 0; i < 4; i++)
        ASSERT_GT(tb_voice_announce(voice, i % 2, text, 0, 0), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    for (int p = 0; p < 2; p++) {
        int16_t *pcm;
        size_t n, len[4], want[4];
        ASSERT_OK(tb_voice_render(voice, p, text, &pcm, &n, NULL));
        ASSERT_EQ(spans(pcm, n, want, 4), 1);
        free(pcm);
        ASSERT_EQ(spans(rec[p].heard, rec[p].frames, len, 4), 2);
        assert_close(len[0], want[0], p ? "English" : "German");
        assert_close(len[1], want[0], p ? "English" : "German");
    }
    tb_voice_free(voice);
    for (int i = 0; i < 2; i++)
        recorder_destroy(&rec[i]);
    tb_voice_pack_free(pack);
    tb_voice_pack_free(en);
}

static bool has_event(const struct tb_voice_event *ev, int n, long id, int player,
                      enum tb_voice_status status)
{
    for (int i = 0; i < n; i++)
        if (ev[i].id == id && ev[i].player == player && ev[i].status == status)
            return true;
    return false;
}

/* Waits (the speech thread's own time: the reopen period) until an event of status arrives. */
static int wait_event(struct tb_voice_event *ev, int max, enum tb_voice_status status)
{
    int n = 0;
    for (int tries = 0; tries < 200; tries++) {
        struct pollfd p = {.fd = tb_voice_fd(voice), .events = POLLIN};
        poll(&p, 1, 50);
        n += take_events(ev + n, max - n);
        for (int i = 0; i < n; i++)
            if (ev[i].status == status)
                return n;
    }
    TB_FAIL("no event %d", (int)status);
    return n;
}

/* A sink that never plays (a wedged device) fails the announcement after its length plus the
 * stall time; the device counts as lost, the queue behind it fails at once instead of hanging,
 * and the sink is opened again. */
TB_TEST(stalled_sink_is_lost_and_its_queue_moves_on)
{
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    struct tb_voice_config cfg = {.pack = pack, .stall_ms = 100, .reopen_ms = 50};
    recorder_init(&rec[0], 0); /* plays nothing, ever */
    cfg.player[TB_CHESS_WHITE].sink = &recorder_ops;
    cfg.player[TB_CHESS_WHITE].sink_arg = &rec[0];
    ASSERT_OK(tb_voice_new(&cfg, &voice, &err));
    long a = tb_voice_announce(voice, TB_CHESS_WHITE, "Eva vier", TB_VOICE_MOVE, 1);
    long b = tb_voice_announce(voice, TB_CHESS_WHITE, "David fünf", TB_VOICE_MOVE, 1);
    ASSERT_OK(tb_voice_wait_idle(voice, TB_CHESS_WHITE, 20000));
    struct tb_voice_event ev[8];
    int n = wait_event(ev, 8, TB_VOICE_DEVICE_BACK);
    ASSERT_TRUE(has_event(ev, n, a, TB_CHESS_WHITE, TB_VOICE_FAILED));
    ASSERT_TRUE(has_event(ev, n, b, TB_CHESS_WHITE, TB_VOICE_FAILED));
    ASSERT_TRUE(has_event(ev, n, 0, TB_CHESS_WHITE, TB_VOICE_DEVICE_LOST));
    ASSERT_GE(rec[0].opens, 2); /* opened again */
    tb_voice_free(voice);
    recorder_destroy(&rec[0]);
    tb_voice_pack_free(pack);
}

/* A headset pulled out during the game: the other player's speech goes on, the loss is an
 * event with its reason, the lost player's announcements fail at once (moves still go on the
 * spoken scoresheet), and the player hears speech again once the device opens again. */
TB_TEST(lost_device_other_player_speaks_on_and_it_comes_back)
{
    char sheet[1024];
    snprintf(sheet, sizeof sheet, "%s/lost-scoresheet.wav", tb_test_tmp_dir());
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    struct tb_voice_config cfg = {.pack = pack, .reopen_ms = 50};
    record_both(&cfg, INSTANT);
    cfg.player[TB_CHESS_BLACK].scoresheet_wav = sheet;
    ASSERT_OK(tb_voice_new(&cfg, &voice, &err));
    ASSERT_TRUE(tb_voice_device_ok(voice, TB_CHESS_BLACK, NULL, 0, NULL));

    recorder_set_broken(&rec[TB_CHESS_BLACK], true); /* pulled out */
    long lost = tb_voice_announce(voice, TB_CHESS_BLACK, "Eva vier", TB_VOICE_MOVE, 1);
    long heard = tb_voice_announce(voice, TB_CHESS_WHITE, "Eva fünf", TB_VOICE_MOVE, 1);
    struct tb_voice_event ev[16];
    int n = wait_event(ev, 16, TB_VOICE_DEVICE_LOST);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 20000));
    n += take_events(ev + n, 16 - n);
    ASSERT_TRUE(has_event(ev, n, lost, TB_CHESS_BLACK, TB_VOICE_FAILED));
    ASSERT_TRUE(has_event(ev, n, heard, TB_CHESS_WHITE, TB_VOICE_DONE));
    assert_close(rec[TB_CHESS_WHITE].frames, rendered_frames("Eva fünf"), "white's speech");
    char why[256] = "";
    ASSERT_FALSE(tb_voice_device_ok(voice, TB_CHESS_BLACK, why, sizeof why, NULL));
    ASSERT_STR_CONTAINS(why, "recorder");
    ASSERT_TRUE(tb_voice_device_ok(voice, TB_CHESS_WHITE, NULL, 0, NULL));

    /* while it is lost: Black's move fails at once, White still hears hers */
    long lost2 = tb_voice_announce(voice, TB_CHESS_BLACK, "David vier", TB_VOICE_MOVE, 2);
    long heard2 = tb_voice_announce(voice, TB_CHESS_WHITE, "David fünf", TB_VOICE_MOVE, 2);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 20000));
    n = take_events(ev, 16);
    ASSERT_TRUE(has_event(ev, n, lost2, TB_CHESS_BLACK, TB_VOICE_FAILED));
    ASSERT_TRUE(has_event(ev, n, heard2, TB_CHESS_WHITE, TB_VOICE_DONE));
    ASSERT_EQ(rec[TB_CHESS_BLACK].frames, 0u);

    recorder_set_broken(&rec[TB_CHESS_BLACK], false); /* plugged in again */
    n = wait_event(ev, 16, TB_VOICE_DEVICE_BACK);
    ASSERT_TRUE(has_event(ev, n, 0, TB_CHESS_BLACK, TB_VOICE_DEVICE_BACK));
    ASSERT_TRUE(tb_voice_device_ok(voice, TB_CHESS_BLACK, NULL, 0, NULL));
    long back = tb_voice_repeat(voice, TB_CHESS_BLACK); /* REPEAT: the last move */
    ASSERT_GT(back, 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 20000));
    n = take_events(ev, 16);
    ASSERT_TRUE(has_event(ev, n, back, TB_CHESS_BLACK, TB_VOICE_DONE));
    assert_close(rec[TB_CHESS_BLACK].frames, rendered_frames("David vier"), "black's repeat");
    size_t sheet_frames = rendered_frames("Zug 1: Eva vier") + rendered_frames("Zug 2: David vier");
    tb_voice_free(voice);
    /* D.2.7: both of Black's moves are on the spoken scoresheet although not heard */
    check_wav(sheet, sheet_frames);
    for (int i = 0; i < 2; i++)
        recorder_destroy(&rec[i]);
    tb_voice_pack_free(pack);
}

/* D.2.7 after a crash: the daemon restarts and the scoresheet goes on in the same file, even when
 * the crash came between a write and its header update. */
TB_TEST(law_D_2_7_scoresheet_continues_after_restart)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/scoresheet.wav", tb_test_tmp_dir());
    start_with("de-fide", INSTANT, path);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, "Eva vier", TB_VOICE_MOVE, 1), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    size_t first = rendered_frames("Zug 1: Eva vier");
    check_wav(path, first);
    stop();
    /* A crash mid-append: three more bytes on disk, header not updated. */
    FILE *f = fopen(path, "ab");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(fwrite("\x01\x02\x03", 1, 3, f), 3);
    fclose(f);
    start_with("de-fide", INSTANT, path);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, "Felix fünf", TB_VOICE_MOVE, 2), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    check_wav(path, first + 1 + rendered_frames("Zug 2: Felix fünf"));
    stop();
    /* Something else under that name is replaced, not appended to. */
    f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    fputs("not a wave file, but long enough to have a header of forty-four bytes", f);
    fclose(f);
    start_with("de-fide", INSTANT, path);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, "Felix fünf", TB_VOICE_MOVE, 2), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    check_wav(path, rendered_frames("Zug 2: Felix fünf"));
    stop();
}

/* Issue 13: a review (the player asked to hear the game) is the lowest priority. A new move
 * announcement cuts all of it at once, what plays and what waits, and is said in full. */
TB_TEST(review_is_cut_by_a_new_move)
{
    start(0);
    const char *review = "Zug 1, Weiß: Bauer Eva zwei Eva vier. Zug 1, Schwarz: Bauer Eva sieben "
                         "Eva fünf. Zug 2, Weiß: Springer Gustav eins Felix drei";
    const char *move = "Springer Bella acht Cesar sechs";
    long last = tb_voice_review(voice, TB_CHESS_WHITE, review);
    ASSERT_GT(last, 0);
    recorder_wait_frames(&rec[0], RATE / 2); /* the first sentence is being written */
    recorder_set_limit(&rec[0], RATE * 3 / 10);
    long m = tb_voice_announce(voice, TB_CHESS_WHITE, move, TB_VOICE_MOVE, 2);
    recorder_wait_flushes(&rec[0], 1);
    recorder_set_limit(&rec[0], INSTANT);
    ASSERT_OK(tb_voice_wait_idle(voice, TB_CHESS_WHITE, 30000));
    struct tb_voice_event ev[8];
    ASSERT_EQ(take_events(ev, 8), 4);
    for (int i = 0; i < 3; i++) { /* the three sentences: ids last-2, last-1, last */
        ASSERT_EQ(ev[i].id, last - 2 + i);
        ASSERT_EQ(ev[i].status, TB_VOICE_CUT);
    }
    ASSERT_EQ(ev[3].id, m);
    ASSERT_EQ(ev[3].status, TB_VOICE_DONE);
    /* Heard: 0.3 s of the review, then only the move, whole. */
    size_t len[4];
    ASSERT_EQ(spans(rec[0].heard + RATE * 3 / 10, rec[0].frames - RATE * 3 / 10, len, 4), 1);
    assert_close(len[0], rendered_span(move), move);
    stop();
}

/* A review left alone is said sentence by sentence, to its end. */
TB_TEST(review_plays_to_its_end)
{
    start(INSTANT);
    const char *a = "Bauer Eva zwei Eva vier.", *b = "Weiß am Zug";
    char review[256];
    snprintf(review, sizeof review, "%s %s", a, b);
    long last = tb_voice_review(voice, TB_CHESS_BLACK, review);
    ASSERT_GT(last, 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    struct tb_voice_event ev[4];
    ASSERT_EQ(take_events(ev, 4), 2);
    ASSERT_EQ(ev[1].id, last);
    ASSERT_EQ(ev[0].status, TB_VOICE_DONE);
    ASSERT_EQ(ev[1].status, TB_VOICE_DONE);
    size_t len[4];
    ASSERT_EQ(spans(rec[1].heard, rec[1].frames, len, 4), 2);
    assert_close(len[0], rendered_span(a), a);
    assert_close(len[1], rendered_span(b), b);
    ASSERT_EQ(tb_voice_review(voice, TB_CHESS_BLACK, ""), TB_ERR_ARG);
    ASSERT_EQ(tb_voice_review(voice, TB_VOICE_PLAYERS, a), TB_ERR_ARG);
    stop();
}

/* The player stops a review (any button of theirs): nothing of it is heard any more. */
TB_TEST(review_is_cut_on_request)
{
    start(0);
    long last = tb_voice_review(voice, TB_CHESS_WHITE,
                                "Weiß: König Eva eins. Schwarz: König "
                                "Eva acht");
    recorder_wait_frames(&rec[0], RATE / 4);
    long c = tb_voice_cancel_review(voice, TB_CHESS_WHITE);
    ASSERT_GT(c, last);
    recorder_wait_flushes(&rec[0], 1);
    ASSERT_OK(tb_voice_wait_idle(voice, TB_CHESS_WHITE, 30000));
    struct tb_voice_event ev[4];
    ASSERT_EQ(take_events(ev, 4), 3);
    ASSERT_EQ(ev[0].status, TB_VOICE_CUT);
    ASSERT_EQ(ev[1].status, TB_VOICE_CUT);
    ASSERT_EQ(ev[2].id, c);
    ASSERT_EQ(ev[2].status, TB_VOICE_DONE);
    ASSERT_EQ(rec[0].frames, 0); /* nothing had been played: nothing heard */
    stop();
}

/* Confirmation of the player's own move: off says nothing, earcon plays the 60 ms tone, word
 * says the pack's word; a move not taken is said at once in words, whatever the mode. */
TB_TEST(confirmation_off_earcon_word)
{
    start(INSTANT);
    ASSERT_EQ(tb_voice_confirm(voice, TB_CHESS_WHITE, TB_VOICE_CONFIRM_OFF, TB_VOICE_CONFIRM_TAKEN),
              0);
    ASSERT_GT(
        tb_voice_confirm(voice, TB_CHESS_WHITE, TB_VOICE_CONFIRM_EARCON, TB_VOICE_CONFIRM_TAKEN),
        0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    ASSERT_EQ(rec[0].frames, RATE * TB_VOICE_EARCON_MS / 1000);
    int peak = 0;
    for (size_t i = 0; i < rec[0].frames; i++)
        peak = abs(rec[0].heard[i]) > peak ? abs(rec[0].heard[i]) : peak;
    ASSERT_GT(peak, 12000);
    size_t before = rec[0].frames;
    ASSERT_GT(
        tb_voice_confirm(voice, TB_CHESS_WHITE, TB_VOICE_CONFIRM_WORD, TB_VOICE_CONFIRM_TAKEN), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    size_t len[4];
    ASSERT_EQ(spans(rec[0].heard + before, rec[0].frames - before, len, 4), 1);
    assert_close(len[0], rendered_span("Zug genommen"), "Zug genommen");
    before = rec[0].frames;
    ASSERT_GT(tb_voice_confirm(voice, TB_CHESS_WHITE, TB_VOICE_CONFIRM_OFF,
                               TB_VOICE_CONFIRM_UNRECOGNISED),
              0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    ASSERT_EQ(spans(rec[0].heard + before, rec[0].frames - before, len, 4), 1);
    assert_close(len[0], rendered_span("Zug nicht erkannt"), "Zug nicht erkannt");
    ASSERT_EQ(tb_voice_confirm(voice, TB_CHESS_WHITE, 3, TB_VOICE_CONFIRM_TAKEN), TB_ERR_ARG);
    ASSERT_EQ(rec[1].frames, 0);
    stop();
}

/* An illegal move is told at once: it cuts the message that plays (7.5.1). */
TB_TEST(law_7_5_1_illegal_move_word_cuts_in)
{
    start(0);
    long slow = tb_voice_announce(voice, TB_CHESS_BLACK, "Bitte warten, Bitte warten", 0, 0);
    recorder_wait_frames(&rec[1], RATE / 2);
    long c =
        tb_voice_confirm(voice, TB_CHESS_BLACK, TB_VOICE_CONFIRM_EARCON, TB_VOICE_CONFIRM_ILLEGAL);
    recorder_wait_flushes(&rec[1], 1);
    recorder_set_limit(&rec[1], INSTANT);
    ASSERT_OK(tb_voice_wait_idle(voice, TB_CHESS_BLACK, 30000));
    struct tb_voice_event ev[4];
    ASSERT_EQ(take_events(ev, 4), 2);
    ASSERT_EQ(ev[0].id, slow);
    ASSERT_EQ(ev[0].status, TB_VOICE_CUT);
    ASSERT_EQ(ev[1].id, c);
    size_t len[4];
    ASSERT_EQ(spans(rec[1].heard, rec[1].frames, len, 4), 1);
    assert_close(len[0], rendered_span("Unzulässiger Zug"), "Unzulässiger Zug");
    stop();
}

/* D.2.7: the spoken scoresheet of a game as a WAV file: a valid header, 22050 Hz mono 16-bit,
 * and as long as the text's own rendering (about 0.3 to 0.8 s a word at the pack's rate). */
TB_TEST(law_D_2_7_spoken_scoresheet_wav)
{
    start(INSTANT);
    tb_chess_game *g = calloc(1, sizeof *g);
    tb_chess_pos startpos;
    tb_chess_pos_startpos(&startpos);
    tb_chess_game_init(g, &startpos);
    static const char *const uci[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};
    for (int i = 0; i < 6; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_from_uci(&g->pos, uci[i], &m));
        ASSERT_OK(tb_chess_game_push(g, m));
    }
    char text[2048];
    ASSERT_GT(tb_voice_review_scoresheet(pack, g, "*", TB_VOICE_LONG, text, sizeof text), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/game-1.wav", tb_test_tmp_dir());
    struct tb_error err = {0};
    long frames = tb_voice_render_wav(voice, TB_CHESS_WHITE, text, path, &err);
    ASSERT_GT(frames, 0);
    check_wav(path, rendered_frames(text));
    FILE *f = fopen(path, "rb");
    unsigned char h[44];
    ASSERT_EQ(fread(h, 1, sizeof h, f), sizeof h);
    fclose(f);
    ASSERT_TRUE(memcmp(h, "RIFF", 4) == 0 && memcmp(h + 8, "WAVEfmt ", 8) == 0);
    ASSERT_EQ(h[20] | h[21] << 8, 1); /* PCM */
    ASSERT_EQ(h[22] | h[23] << 8, 1); /* mono */
    ASSERT_EQ(h[24] | h[25] << 8 | h[26] << 16, RATE);
    ASSERT_EQ(h[34] | h[35] << 8, 16); /* bits */
    int words = 1;
    for (const char *s = text; *s; s++)
        words += *s == ' ';
    double seconds = (double)frames / RATE;
    if (seconds < 0.3 * words || seconds > 0.8 * words)
        TB_FAIL("%d words in %.2f s", words, seconds);
    ASSERT_TRUE(tb_voice_render_wav(voice, 0, text, "/nonexistent/dir/game.wav", &err) < 0);
    ASSERT_STR_CONTAINS(err.msg, "/nonexistent/dir/game.wav");
    /* The same in one call from the game. */
    snprintf(path, sizeof path, "%s/game-2.wav", tb_test_tmp_dir());
    long again = tb_voice_scoresheet_wav(voice, TB_CHESS_BLACK, g, "*", TB_VOICE_LONG, path, &err);
    ASSERT_GT(again, 0);
    assert_close((size_t)again, (size_t)frames, "scoresheet from the game");
    check_wav(path, (size_t)again);
    /* A review request said to the player: one item per sentence, all played. */
    long last = tb_voice_review_game(voice, TB_CHESS_WHITE, g, TB_VOICE_REVIEW_LAST, 3, NULL,
                                     TB_VOICE_LONG);
    ASSERT_GT(last, 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    struct tb_voice_event ev[8];
    ASSERT_EQ(take_events(ev, 8), 3);
    ASSERT_EQ(ev[2].id, last);
    ASSERT_EQ(ev[2].status, TB_VOICE_DONE);
    ASSERT_GT(rec[0].frames, (size_t)RATE);
    free(g);
    stop();
}
