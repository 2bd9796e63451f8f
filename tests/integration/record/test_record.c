/* test_record.c - the VI player's own record (D.2.7: the score kept in braille, in ordinary
 * writing, or on a recording device) as the player receives it: the DAISY talking book opened by
 * a real DAISY reader (daisy-player) and checked clip by clip against the spoken review, the
 * large-print PDF read back by poppler, and the commands' refusals of bad input. */
#include <ctype.h>
#include <dirent.h>
#include <sndfile.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tb_record.h"
#include "tb_run.h"
#include "tb_test.h"
#include "tb_voice.h"

#define OUT_MAX (1 << 20)

static char out[OUT_MAX];

static int twinboard(const char *args)
{
    return tb_run(out, OUT_MAX, "'%s' %s 2>&1", TB_TWINBOARD, args);
}

static const char *reference_pgn(void)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/reference.pgn", getenv("TB_RECORD_DATA"));
    return path;
}

/* Game `number` of twic0920.pgn written alone to a file; its path. */
static const char *corpus_game(long number, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/games/twic0920.pgn", tb_test_data_dir());
    size_t len;
    char *pgn = tb_run_read_file(path, &len);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, pgn, len);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    while (tb_chess_pgn_read(&r, g, NULL) == 1 && r.games < number)
        ;
    ASSERT_EQ(r.games, number);
    int n = tb_chess_pgn_write(g, NULL, 0);
    char *text = malloc((size_t)n + 1);
    tb_chess_pgn_write(g, text, (size_t)n + 1);
    const char *dst = tb_test_tmp(name);
    tb_run_write_file(dst, text);
    free(text);
    free(g);
    free(pgn);
    return dst;
}

static tb_chess_pgn_game *read_game(const char *path)
{
    size_t len;
    char *pgn = tb_run_read_file(path, &len);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, pgn, len);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_EQ(tb_chess_pgn_read(&r, g, NULL), 1);
    free(pgn);
    return g;
}

/* The text between the first `open` after *at and the next `close`; *at moves past it. */
static int between(const char **at, const char *open, const char *close, char *buf, size_t len)
{
    const char *a = strstr(*at, open);
    if (!a)
        return 0;
    a += strlen(open);
    const char *b = strstr(a, close);
    ASSERT_NOT_NULL(b);
    ASSERT_LT((size_t)(b - a), len);
    memcpy(buf, a, (size_t)(b - a));
    buf[b - a] = 0;
    *at = b + strlen(close);
    return 1;
}

/* How a half-move is written: as the talking book's navigation labels it ("12... Sf3"), or
 * as the large print has it ("12. Sf3" for White's half, the move alone for Black's). */
enum label_style { LABEL_NAV, LABEL_PRINT };

static void move_label(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters letters,
                       enum label_style style, char *buf, size_t len)
{
    char san[16];
    ASSERT_GT(tb_chess_move_to_san(pos, m, letters, 0, san, sizeof san), 0);
    if (style == LABEL_NAV)
        snprintf(buf, len, "%d.%s %s", pos->fullmove, pos->side == TB_CHESS_WHITE ? "" : "..", san);
    else if (pos->side == TB_CHESS_WHITE)
        snprintf(buf, len, "%d. %s", pos->fullmove, san);
    else
        snprintf(buf, len, "%s", san);
}

/* Every half-move of g is in text, in order, written as style says between prefix and suffix;
 * returns where the last one ends. */
static const char *moves_in_order(const char *text, const tb_chess_pgn_game *g,
                                  enum tb_chess_letters letters, enum label_style style,
                                  const char *prefix, const char *suffix, const char *reader)
{
    tb_chess_pos pos = g->game.start;
    const char *at = text;
    for (int ply = 0; ply < g->game.plies; ply++) {
        char label[64], word[96];
        move_label(&pos, g->game.moves[ply], letters, style, label, sizeof label);
        snprintf(word, sizeof word, "%s%s%s", prefix, label, suffix);
        const char *hit = strstr(at, word);
        if (!hit)
            TB_FAIL("%s does not show \"%s\" (ply %d) after the moves before it", reader, word,
                    ply + 1);
        at = hit + strlen(word);
        tb_chess_undo u;
        tb_chess_make(&pos, g->game.moves[ply], &u);
    }
    return at;
}

/* Where the frames of want begin in pcm within 1 ms of frame near, or -1. */
static long find_pcm(const int16_t *pcm, size_t n, const int16_t *want, size_t wn, long near)
{
    for (long at = near - 30; at <= near + 30; at++)
        if (at >= 0 && (size_t)at + wn <= n && !memcmp(pcm + at, want, wn * sizeof *want))
            return at;
    return -1;
}

/* The loudest sample of pcm[from, to). */
static int peak(const int16_t *pcm, long from, long to)
{
    int p = 0;
    for (long i = from; i < to; i++)
        p = abs(pcm[i]) > p ? abs(pcm[i]) : p;
    return p;
}

/* The WAV book of the game in pgn (titled title; header_want: its header's sentences, NULL to
 * skip that check), checked clip by clip against the voice and the spoken review. */
static void check_book(const char *pgn, const char *title, const char *header_want)
{
    char want_items[64];
    /* The book is made by the command, in a process of its own: eSpeak NG carries state from
     * one text to the next within a process, so this one, fresh, renders what the book should
     * say in the book's order and compares the samples. */
    const char *dir = tb_test_tmp("book-wav-check");
    char args[2048];
    snprintf(args, sizeof args, "daisy '%s' -o '%s' --audio wav", pgn, dir);
    ASSERT_EQ(twinboard(args), 0);
    tb_chess_pgn_game *g = read_game(pgn);
    snprintf(want_items, sizeof want_items, "1 game, %d navigation points", 1 + g->game.plies);
    ASSERT_STR_CONTAINS(out, want_items);
    struct tb_voice_pack *pack = NULL;
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, NULL));
    struct tb_voice_config cfg = {.pack = pack};
    struct tb_voice *voice = NULL;
    struct tb_error err = {0};
    if (tb_voice_new(&cfg, &voice, &err))
        TB_FAIL("voice: %s", err.msg);

    char path[1024], buf[256], want[300];
    snprintf(path, sizeof path, "%s/ncc.html", dir);
    char *ncc = tb_run_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/g001.smil", dir);
    char *smil = tb_run_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/g001.wav", dir);
    int16_t *pcm = NULL;
    size_t frames = 0;
    unsigned rate = 0;
    ASSERT_OK(tb_voice_wav_read(path, &pcm, &frames, &rate, NULL));
    ASSERT_STR_CONTAINS(ncc, "<meta name=\"dc:format\" content=\"Daisy 2.02\"/>");
    snprintf(want, sizeof want,
             "<h1 class=\"title\" id=\"g1n0\"><a href=\"g001.smil#g1p0\">%s</a></h1>\n<h2", title);
    ASSERT_STR_CONTAINS(ncc, want); /* the header's heading first, before the moves' */

    /* What the spoken review's scoresheet says (`review vi scoresheet`, D.2.7): the book must
     * say the same sentences, one clip each. */
    char *review = NULL;
    ASSERT_GT(tb_voice_review_text(pack, &g->game, TB_VOICE_REVIEW_SCORESHEET, 0, g->result,
                                   TB_VOICE_LONG, &review),
              0);
    const char *r_at = review;

    /* The header clip first, its own navigation point: the header's sentences. */
    char header[3300];
    ASSERT_GT(tb_record_header_text(g, TB_CHESS_LETTERS_DE, header, sizeof header), 0);
    if (header_want)
        ASSERT_STR_EQ(header, header_want);
    int16_t *said = NULL;
    size_t nsaid = 0;
    ASSERT_OK(tb_voice_render(voice, -1, header, &said, &nsaid, NULL));
    ASSERT_TRUE(nsaid < frames && !memcmp(pcm, said, nsaid * sizeof *said));
    free(said);

    /* The navigation: the game, then every half-move in order, each pointing at its par. */
    const char *n_at = ncc, *s_at = smil;
    tb_chess_pos pos = g->game.start;
    double last_end = 0;
    for (int i = 0; i <= g->game.plies; i++) {
        char href[64];
        ASSERT_TRUE(
            between(&n_at, i ? "<h2 id=\"" : "<h1 class=\"title\" id=\"", "\"", buf, sizeof buf));
        snprintf(want, sizeof want, "g1n%d", i);
        ASSERT_STR_EQ(buf, want);
        ASSERT_TRUE(between(&n_at, "<a href=\"", "\"", href, sizeof href));
        ASSERT_TRUE(between(&n_at, ">", "</a>", buf, sizeof buf));
        if (i > 0) {
            char label[64];
            move_label(&pos, g->game.moves[i - 1], TB_CHESS_LETTERS_DE, LABEL_NAV, label,
                       sizeof label);
            ASSERT_STR_EQ(buf, label);
            tb_chess_undo u;
            tb_chess_make(&pos, g->game.moves[i - 1], &u);
        }
        /* The par the heading names is the next one in the SMIL: same order. */
        ASSERT_TRUE(between(&s_at, "<par endsync=\"last\" id=\"", "\"", buf, sizeof buf));
        snprintf(want, sizeof want, "g001.smil#%s", buf);
        ASSERT_STR_EQ(href, want);
        ASSERT_TRUE(between(&s_at, "<text src=\"", "\"", buf, sizeof buf));
        snprintf(want, sizeof want, "ncc.html#g1n%d", i);
        ASSERT_STR_EQ(buf, want);
        double b, e;
        ASSERT_TRUE(between(&s_at, "<audio src=\"", "\"", buf, sizeof buf));
        ASSERT_STR_EQ(buf, "g001.wav");
        ASSERT_TRUE(between(&s_at, "clip-begin=\"npt=", "s\"", buf, sizeof buf));
        b = atof(buf);
        ASSERT_TRUE(between(&s_at, "clip-end=\"npt=", "s\"", buf, sizeof buf));
        e = atof(buf);
        /* Every clip lies in the audio, after the one before, and is not empty. */
        ASSERT_TRUE(b >= last_end - 0.0015 && b < e);
        ASSERT_TRUE(e <= (double)frames / rate + 0.0015);
        last_end = e;
        if (i == 0)
            continue;
        /* The clip says what the spoken review's scoresheet says for this half-move: its next
         * sentence (the scoresheet is the half-moves' phrases, ". " between them). */
        char phrase[512];
        ASSERT_GT(tb_voice_review_ply(pack, &g->game, i - 1, TB_VOICE_LONG, phrase, sizeof phrase),
                  0);
        size_t plen = strlen(phrase);
        if (plen && phrase[plen - 1] == '.')
            phrase[--plen] = 0;
        if (strncmp(r_at, phrase, plen))
            TB_FAIL("ply %d: the review's scoresheet says \"%.60s\", the book \"%s\"", i, r_at,
                    phrase);
        r_at += plen;
        r_at += strncmp(r_at, ". ", 2) ? 0 : 2;
        ASSERT_OK(tb_voice_render(voice, -1, phrase, &said, &nsaid, NULL));
        /* The clip holds exactly the samples of the phrase rendered after the ones before it
         * (eSpeak NG carries state from one text to the next, so the sequence is the same). */
        long near = (long)(b * rate + 0.5);
        if (find_pcm(pcm, frames, said, nsaid, near) < 0)
            TB_FAIL("the clip of ply %d (%.3f s) is not \"%s\"", i, b, phrase);
        ASSERT_LE((double)(near + (long)nsaid) / rate, e + 0.0015);
        long fe = (long)(e * rate) > (long)frames ? (long)frames : (long)(e * rate);
        ASSERT_LT(peak(pcm, fe - rate / 4, fe), 100); /* then the gap of silence */
        free(said);
    }
    ASSERT_NULL(strstr(n_at, "<h2"));
    /* After the moves the review says only the result. */
    char result[128];
    ASSERT_GT(tb_voice_review_scoresheet(pack, &(tb_chess_game){.start = g->game.start}, g->result,
                                         TB_VOICE_LONG, result, sizeof result),
              0);
    ASSERT_STR_EQ(r_at, result);
    free(review);
    free(pcm);
    free(smil);
    free(ncc);
    free(g);
    tb_voice_free(voice);
    tb_voice_pack_free(pack);
}

TB_TEST(law_D_2_7_talking_book_has_one_clip_per_move_saying_that_move)
{
    check_book(reference_pgn(), "Anna - Jan",
               "Turnier: Club. Weiß: Anna. Schwarz: Jan. Ergebnis: 1-0. ");
}

/* Done when: the audio of move N of a 60-move game is that move's phrase. */
TB_TEST(law_D_2_7_talking_book_of_a_sixty_move_game_says_every_move)
{
    check_book(corpus_game(88, "sixty-wav.pgn"), "Alekseev,Evgeny - Yuzhakov,O", NULL);
}

static char *pdf_text(const char *pdf);

/* Where word is in text after *at, moving *at past it; fails naming what is missing. */
static void next_word(const char **at, const char *word, const char *what, int ply, const char *san)
{
    const char *hit = strstr(*at, word);
    if (!hit)
        TB_FAIL("%s does not write \"%s\" (ply %d, %s) after the moves before it", what,
                word + (word[0] == '\n'), ply + 1, san);
    *at = hit + strlen(word);
}

/* D.2.7, item by item: the braille scoresheet and the large print write the scoresheet's moves,
 * the SAN of each half-move in the language's letters, in order: the BRF as the print score in
 * braille's capitals (0-0 for castling, the promotion's piece straight after the square, S for
 * the English knight), the
 * PDF as printed (d8D in German and Dutch as Appendix C writes it, d8=Q in English). */
TB_TEST(law_D_2_7_braille_and_large_print_write_the_scoresheets_moves)
{
    static const struct {
        const char *code;
        enum tb_chess_letters letters;
    } langs[] = {
        {"de", TB_CHESS_LETTERS_DE}, {"nl", TB_CHESS_LETTERS_NL}, {"en", TB_CHESS_LETTERS_EN}};
    tb_chess_pgn_game *g = read_game(reference_pgn());
    const char *brf = tb_test_tmp("ref.brf"), *pdf = tb_test_tmp("ref.pdf");
    char args[2048];
    for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
        bool en = langs[l].letters == TB_CHESS_LETTERS_EN;
        snprintf(args, sizeof args, "braille '%s' --lang %s -o '%s'", reference_pgn(),
                 langs[l].code, brf);
        ASSERT_EQ(twinboard(args), 0);
        snprintf(args, sizeof args, "large-print '%s' --lang %s -o '%s'", reference_pgn(),
                 langs[l].code, pdf);
        ASSERT_EQ(twinboard(args), 0);
        char *cells = tb_run_read_file(brf, NULL);
        char *text = pdf_text(pdf);
        tb_chess_pos pos = g->game.start;
        const char *b_at = cells, *p_at = text;
        for (int ply = 0; ply < g->game.plies; ply++) {
            char san[16], in_brf[40], in_print[40], *b = in_brf, *p = in_print;
            ASSERT_GT(tb_chess_move_to_san(&pos, g->game.moves[ply], langs[l].letters, 0, san,
                                           sizeof san),
                      0);
            if (pos.side == TB_CHESS_WHITE) {
                b += sprintf(b, "\n%d ", pos.fullmove);
                p += sprintf(p, "%d. ", pos.fullmove);
            } else {
                *b++ = ' ';
            }
            for (const char *c = san; *c; c++) {
                if (*c != '=') /* the English braille code writes the knight s */
                    *b++ = *c == 'O'         ? '0'
                           : en && *c == 'N' ? 'S'
                                             : (char)toupper((unsigned char)*c);
                if (*c != '=' || en)
                    *p++ = *c;
            }
            *b = *p = 0;
            next_word(&b_at, in_brf, langs[l].code, ply, san);
            next_word(&p_at, in_print, "the large print", ply, san);
            tb_chess_undo u;
            tb_chess_make(&pos, g->game.moves[ply], &u);
        }
        free(text);
        free(cells);
    }
    free(g);
}

/* The content of the NCC's <meta name="name">; fails when it is missing. */
static void ncc_meta(const char *ncc, const char *name, char *buf, size_t len)
{
    char open[96];
    snprintf(open, sizeof open, "<meta name=\"%s\" content=\"", name);
    const char *at = ncc;
    if (!between(&at, open, "\"", buf, len))
        TB_FAIL("ncc.html has no %s (DAISY 2.02 asks for it)", name);
}

static int count(const char *text, const char *word)
{
    int n = 0;
    for (const char *at = text; (at = strstr(at, word)); at += strlen(word))
        n++;
    return n;
}

/* A sound file as libsndfile decodes it (MP3 through mpg123): mono samples, rate, format. */
static int16_t *decode(const char *path, size_t *frames, int *rate, int *format)
{
    SF_INFO info = {0};
    SNDFILE *sf = sf_open(path, SFM_READ, &info);
    if (!sf)
        TB_FAIL("%s: %s", path, sf_strerror(NULL));
    ASSERT_EQ(info.channels, 1);
    size_t cap = (size_t)info.frames + 1 + (size_t)info.samplerate, n = 0;
    int16_t *pcm = malloc(cap * sizeof *pcm);
    sf_count_t k;
    while (n < cap && (k = sf_readf_short(sf, pcm + n, (sf_count_t)(cap - n))) > 0)
        n += (size_t)k;
    sf_close(sf);
    *frames = n;
    *rate = info.samplerate;
    *format = info.format;
    return pcm;
}

/* DAISY 2.02's NCC metadata (the specification's appendix 2; the DAISY Consortium's list marks
 * dc:title, dc:creator, dc:date, dc:format, dc:identifier, dc:language, dc:publisher,
 * ncc:charset, ncc:pageFront/Normal/Special, ncc:tocItems and ncc:totalTime mandatory), each
 * present and true of the book; and the default audio: MP3 through libsndfile, a fraction of
 * the WAV's size, the same length, every clip holding its speech and ending in its silence. */
TB_TEST(law_D_2_7_talking_book_mp3_with_the_ncc_metadata_daisy_2_02_asks_for)
{
    const char *mp3 = tb_test_tmp("book-mp3"), *wav = tb_test_tmp("book-wav");
    char args[2048], path[1024], buf[256], want[64];
    snprintf(args, sizeof args, "daisy '%s' -o '%s'", reference_pgn(), mp3);
    ASSERT_EQ(twinboard(args), 0);
    snprintf(args, sizeof args, "daisy '%s' -o '%s' --audio wav", reference_pgn(), wav);
    ASSERT_EQ(twinboard(args), 0);
    tb_chess_pgn_game *g = read_game(reference_pgn());
    snprintf(path, sizeof path, "%s/ncc.html", mp3);
    char *ncc = tb_run_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/g001.smil", mp3);
    char *smil = tb_run_read_file(path, NULL);

    ncc_meta(ncc, "dc:title", buf, sizeof buf);
    ASSERT_STR_EQ(buf, "Anna - Jan");
    ASSERT_STR_CONTAINS(ncc, "<meta name=\"dc:creator\" content=\"Anna\"/>");
    ASSERT_STR_CONTAINS(ncc, "<meta name=\"dc:creator\" content=\"Jan\"/>");
    ncc_meta(ncc, "dc:date", buf, sizeof buf); /* the book's own date, yyyy-mm-dd */
    time_t now = time(NULL);
    struct tm tm;
    strftime(want, sizeof want, "%Y-%m-%d", gmtime_r(&now, &tm));
    ASSERT_EQ(strlen(buf), 10);
    ASSERT_TRUE(strcmp(buf, want) <= 0 && buf[4] == '-' && buf[7] == '-');
    ncc_meta(ncc, "dc:format", buf, sizeof buf);
    ASSERT_STR_EQ(buf, "Daisy 2.02");
    ncc_meta(ncc, "dc:identifier", buf, sizeof buf);
    ASSERT_EQ(strncmp(buf, "twinboard-", 10), 0);
    snprintf(path, sizeof path, "%s/ncc.html", wav);
    char *ncc_wav = tb_run_read_file(path, NULL);
    char other[64];
    ncc_meta(ncc_wav, "dc:identifier", other, sizeof other);
    ASSERT_STR_EQ(buf, other); /* the same games, the same book */
    ncc_meta(ncc, "dc:language", buf, sizeof buf);
    ASSERT_STR_EQ(buf, "de"); /* the de-fide pack speaks German */
    ncc_meta(ncc, "dc:publisher", buf, sizeof buf);
    ASSERT_GT(strlen(buf), 0);
    ncc_meta(ncc, "ncc:charset", buf, sizeof buf);
    ASSERT_STR_EQ(buf, "utf-8");
    ASSERT_STR_CONTAINS(ncc, "encoding=\"utf-8\"");
    ncc_meta(ncc, "ncc:generator", buf, sizeof buf);
    ASSERT_STR_EQ(buf, "twinboard");
    ncc_meta(ncc, "ncc:multimediaType", buf, sizeof buf);
    ASSERT_STR_EQ(buf, "audioNcc"); /* audio with the NCC's headings as its only text */
    ncc_meta(ncc, "ncc:narrator", buf, sizeof buf);
    ASSERT_GT(strlen(buf), 0);
    ncc_meta(ncc, "ncc:depth", buf, sizeof buf);
    ASSERT_STR_EQ(buf, "2");
    ASSERT_EQ(count(ncc, "<h3"), 0);
    const char *pages[] = {"ncc:pageFront", "ncc:pageNormal", "ncc:pageSpecial"};
    for (int i = 0; i < 3; i++) {
        ncc_meta(ncc, pages[i], buf, sizeof buf);
        ASSERT_STR_EQ(buf, "0"); /* no print pages in a game */
    }
    ncc_meta(ncc, "ncc:tocItems", buf, sizeof buf);
    ASSERT_EQ(atoi(buf), 1 + g->game.plies);
    ASSERT_EQ(count(ncc, "<h1") + count(ncc, "<h2"), 1 + g->game.plies);
    /* ncc:files: every file of the book, counted in its directory. */
    ncc_meta(ncc, "ncc:files", buf, sizeof buf);
    DIR *d = opendir(mp3);
    ASSERT_NOT_NULL(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));)
        files += e->d_name[0] != '.';
    closedir(d);
    ASSERT_EQ(atoi(buf), files);
    ASSERT_EQ(files, 3);

    /* The audio: MP3, its SMIL pointing at it, about a tenth of the WAV. */
    ASSERT_STR_CONTAINS(smil, "<audio src=\"g001.mp3\"");
    ASSERT_NULL(strstr(smil, ".wav"));
    size_t nm, nw;
    int rm, rw, fm, fw;
    snprintf(path, sizeof path, "%s/g001.mp3", mp3);
    struct stat sm, sw;
    ASSERT_OK(stat(path, &sm));
    int16_t *pm = decode(path, &nm, &rm, &fm);
    snprintf(path, sizeof path, "%s/g001.wav", wav);
    ASSERT_OK(stat(path, &sw));
    int16_t *pw = decode(path, &nw, &rw, &fw);
    ASSERT_EQ(fm, SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III);
    ASSERT_EQ(fw, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
    ASSERT_EQ(rm, rw);
    ASSERT_LT(sm.st_size * 4, sw.st_size);
    ASSERT_LT(labs((long)nm - (long)nw), rm / 10); /* the same length within 0.1 s */
    /* ncc:totalTime is the audio's length, hh:mm:ss. */
    ncc_meta(ncc, "ncc:totalTime", buf, sizeof buf);
    long secs = (long)((double)nw / rw + 0.5);
    snprintf(want, sizeof want, "%02ld:%02ld:%02ld", secs / 3600, secs / 60 % 60, secs % 60);
    ASSERT_STR_EQ(buf, want);
    /* Each clip of the MP3 holds speech and ends in its silence: the encoder's delay (about
     * 50 ms) stays inside the 300 ms gap, so no clip cuts a word. */
    const char *s_at = smil;
    for (int i = 0; i <= g->game.plies; i++) {
        ASSERT_TRUE(between(&s_at, "clip-begin=\"npt=", "s\"", buf, sizeof buf));
        long b = (long)(atof(buf) * rm);
        ASSERT_TRUE(between(&s_at, "clip-end=\"npt=", "s\"", buf, sizeof buf));
        long e = (long)(atof(buf) * rm);
        if (e > (long)nm)
            e = (long)nm;
        if (peak(pm, b, e) < 2000)
            TB_FAIL("clip %d of the MP3 (%ld..%ld) holds no speech", i, b, e);
        if (peak(pm, e - rm / 5, e) > 300)
            TB_FAIL("clip %d of the MP3 does not end in silence: %d", i, peak(pm, e - rm / 5, e));
    }
    free(pm);
    free(pw);
    free(ncc_wav);
    free(smil);
    free(ncc);
    free(g);
}

TB_TEST(law_D_2_7_daisy_player_lists_every_move_of_a_sixty_move_game)
{
    const char *pgn = corpus_game(88, "sixty.pgn"); /* 120 plies */
    const char *book = tb_test_tmp("sixty-book");
    char args[2048];
    snprintf(args, sizeof args, "daisy '%s' -o '%s'", pgn, book);
    ASSERT_EQ(twinboard(args), 0);
    ASSERT_STR_CONTAINS(out, "1 game, 121 navigation points");
    /* daisy-player in a terminal of its own (tmux): each screen of the book's items as the
     * terminal shows it, then key 3 for the next screen, then q. It wants a sound card listed
     * and plays nothing. */
    const char *cards = tb_test_tmp("cards");
    tb_run_write_file(cards,
                      " 0 [Dummy          ]: Dummy - Dummy\n                      Dummy 1\n");
    const char *home = tb_test_tmp("home");
    mkdir(home, 0777);
    const char *log = tb_test_tmp("daisy-player.screens");
    const char *sock = tb_test_tmp("tmux.sock");
    int tries = tb_test_ms(100); /* tenths of a second: 10 s */
    int rc = tb_run(out, OUT_MAX,
                    "t() { tmux -S '%s' \"$@\"; }; "
                    "t new-session -d -x 100 -y 40 \"env HOME='%s' TERM=xterm "
                    "TB_FAKE_ASOUND_CARDS='%s' LD_PRELOAD='%s' daisy-player -i -n -d default:alsa "
                    "'%s'\" || exit 1; "
                    "for s in 1 2 3 4 5 6; do "
                    "  for i in $(seq %d); do t capture-pane -p | grep -q \" $s/6 -\" && break; "
                    "    sleep 0.1; done; "
                    "  t capture-pane -p >> '%s'; t send-keys 3; "
                    "done; t send-keys q; sleep 0.2; t kill-server 2>/dev/null; echo ok",
                    sock, home, cards, TB_FAKE_ASOUND, book, tries, log);
    ASSERT_EQ(rc, 0);
    ASSERT_STR_EQ(out, "ok\n");
    size_t len;
    char *screen = tb_run_read_file(log, &len);
    /* What it shows: the book's length and levels, then every item in navigation order. */
    ASSERT_STR_CONTAINS(screen, "level: 1 of 2");
    ASSERT_STR_CONTAINS(screen, " 6/6 -");
    tb_chess_pgn_game *g = read_game(pgn);
    moves_in_order(screen, g, TB_CHESS_LETTERS_DE, LABEL_NAV, "     ", " ", "daisy-player");
    free(g);
    free(screen);
}

/* pdftotext's words of a PDF, one string. */
static char *pdf_text(const char *pdf)
{
    const char *txt = tb_test_tmp("pdf.txt");
    ASSERT_EQ(tb_run(out, OUT_MAX, "pdftotext -enc UTF-8 '%s' '%s' 2>&1", pdf, txt), 0);
    return tb_run_read_file(txt, NULL);
}

TB_TEST(law_D_2_7_large_print_holds_every_move_in_order)
{
    const char *pgn = corpus_game(88, "sixty.pgn");
    const char *pdf = tb_test_tmp("sixty.pdf");
    char args[2048];
    snprintf(args, sizeof args, "large-print '%s' -o '%s' --lang en --diagram", pgn, pdf);
    ASSERT_EQ(twinboard(args), 0);
    char *text = pdf_text(pdf);
    tb_chess_pgn_game *g = read_game(pgn);
    ASSERT_STR_CONTAINS(text, "White: ");
    const char *at = moves_in_order(text, g, TB_CHESS_LETTERS_EN, LABEL_PRINT, "", "", "pdftotext");
    ASSERT_STR_CONTAINS(at, g->result);
    /* It renders: poppler draws the last page (the diagram) without complaint. */
    const char *png = tb_test_tmp("page");
    ASSERT_EQ(tb_run(out, OUT_MAX, "pdfinfo '%s' | sed -n 's/^Pages: *//p'", pdf), 0);
    int pages = atoi(out);
    ASSERT_GT(pages, 1);
    ASSERT_EQ(tb_run(out, OUT_MAX, "pdftoppm -r 30 -f %d -l %d -png '%s' '%s' 2>&1 && ls '%s'*",
                     pages, pages, pdf, png, png),
              0);
    ASSERT_STR_CONTAINS(out, ".png");
    free(g);
    free(text);
}

/* The height pdftotext gives the word "e4" in a PDF at pt points. */
static double word_height(const char *pdf)
{
    const char *html = tb_test_tmp("bbox.html");
    ASSERT_EQ(tb_run(out, OUT_MAX, "pdftotext -bbox '%s' '%s' 2>&1", pdf, html), 0);
    char *t = tb_run_read_file(html, NULL);
    const char *w = strstr(t, ">e4</word>");
    ASSERT_NOT_NULL(w);
    while (w > t && strncmp(w, "<word", 5))
        w--;
    double x0, y0, x1, y1;
    ASSERT_EQ(
        sscanf(w, "<word xMin=\"%lf\" yMin=\"%lf\" xMax=\"%lf\" yMax=\"%lf\"", &x0, &y0, &x1, &y1),
        4);
    free(t);
    return y1 - y0;
}

TB_TEST(law_D_2_7_large_print_type_size_and_figurines)
{
    const char *pdf = tb_test_tmp("ref.pdf");
    char args[2048];
    snprintf(args, sizeof args, "large-print '%s' -o '%s'", reference_pgn(), pdf);
    ASSERT_EQ(twinboard(args), 0);
    double h24 = word_height(pdf);
    char *text = pdf_text(pdf);
    ASSERT_STR_CONTAINS(text, "Weiß: Anna");
    ASSERT_STR_CONTAINS(text, "5. cxb8S e6"); /* under-promotion in German letters */
    ASSERT_STR_CONTAINS(text, "7. Lb5 O-O");
    free(text);
    snprintf(args, sizeof args, "large-print '%s' -o '%s' --pt 48 --figurine", reference_pgn(),
             pdf);
    ASSERT_EQ(twinboard(args), 0);
    double h48 = word_height(pdf);
    /* The type is as big as asked: twice the points, twice the height, 24 pt well above 20. */
    ASSERT_TRUE(h24 > 20 && h24 < 36);
    ASSERT_TRUE(h48 > 1.8 * h24 && h48 < 2.2 * h24);
    text = pdf_text(pdf);
    ASSERT_STR_CONTAINS(text, "6. ♘f3 ♗d6");
    ASSERT_STR_CONTAINS(text, "8. O-O ♕xb5");
    free(text);
    /* A round: every game of the file, each from a page of its own. */
    char *one = tb_run_read_file(reference_pgn(), NULL);
    size_t n1 = strlen(one);
    char *two = malloc(2 * n1 + 2);
    snprintf(two, 2 * n1 + 2, "%s\n%s", one, one);
    const char *round = tb_test_tmp("round.pgn");
    tb_run_write_file(round, two);
    snprintf(args, sizeof args, "large-print '%s' -o '%s'", round, pdf);
    ASSERT_EQ(twinboard(args), 0);
    ASSERT_EQ(tb_run(out, OUT_MAX, "pdfinfo '%s' | sed -n 's/^Pages: *//p'", pdf), 0);
    ASSERT_STR_EQ(out, "2\n");
    text = pdf_text(pdf);
    const char *second = strchr(text, '\f');
    ASSERT_NOT_NULL(second);
    ASSERT_STR_CONTAINS(second, "Weiß: Anna");
    free(text);
    free(two);
    free(one);
}

TB_TEST(law_D_2_7_commands_refuse_bad_input_naming_it)
{
    const char *bad = tb_test_tmp("bad.pgn");
    tb_run_write_file(bad, "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n");
    char args[2048];
    const char *brf = tb_test_tmp("never.brf");
    snprintf(args, sizeof args, "braille '%s' -o '%s'", bad, brf);
    ASSERT_EQ(twinboard(args), 1);
    ASSERT_STR_CONTAINS(out, "'Ke3'");
    ASSERT_STR_CONTAINS(out, "line 4");
    struct stat st;
    ASSERT_TRUE(stat(brf, &st) != 0); /* nothing written */
    snprintf(args, sizeof args, "braille '%s' --cells 8", reference_pgn());
    ASSERT_EQ(twinboard(args), 2);
    ASSERT_STR_CONTAINS(out, "cells '8'");
    snprintf(args, sizeof args, "braille '%s' --lang nl --grade 2", reference_pgn());
    ASSERT_EQ(twinboard(args), 2);
    ASSERT_STR_CONTAINS(out, "Dutch braille has no contracted grade");
    snprintf(args, sizeof args, "braille '%s' --lang fr", reference_pgn());
    ASSERT_EQ(twinboard(args), 2);
    ASSERT_STR_CONTAINS(out, "language 'fr'");
    const char *pdf = tb_test_tmp("never.pdf");
    snprintf(args, sizeof args, "large-print '%s' -o '%s' --pt 6", reference_pgn(), pdf);
    ASSERT_EQ(twinboard(args), 2);
    ASSERT_STR_CONTAINS(out, "pt '6'");
    snprintf(args, sizeof args, "large-print '%s' -o '%s'", bad, pdf);
    ASSERT_EQ(twinboard(args), 1);
    ASSERT_TRUE(stat(pdf, &st) != 0); /* nothing written */
    snprintf(args, sizeof args, "daisy '%s' -o '%s'", bad, tb_test_tmp("never-book"));
    ASSERT_EQ(twinboard(args), 1);
    ASSERT_STR_CONTAINS(out, "'Ke3'");
    snprintf(args, sizeof args, "daisy '%s' -o '%s' --audio ogg", reference_pgn(),
             tb_test_tmp("never-book-2"));
    ASSERT_EQ(twinboard(args), 2);
    ASSERT_STR_CONTAINS(out, "audio 'ogg': use mp3 or wav");
    ASSERT_TRUE(stat(tb_test_tmp("never-book-2"), &st) != 0); /* nothing made */
    /* A round in Unicode braille: the games apart by a blank line (the result 1-0, then the
     * next game's "Turnier"). */
    char *one = tb_run_read_file(reference_pgn(), NULL);
    char two[2048];
    snprintf(two, sizeof two, "%s\n%s", one, one);
    free(one);
    const char *round = tb_test_tmp("round.pgn");
    tb_run_write_file(round, two);
    snprintf(args, sizeof args, "braille '%s' --unicode", round);
    ASSERT_EQ(twinboard(args), 0);
    ASSERT_STR_CONTAINS(out, "\n⠼⠁⠤⠼⠚\n\n⠞⠥⠗⠝⠬⠗⠒");
    /* The whole file: an embosser's pages with form feeds, 40 cells by default. */
    snprintf(args, sizeof args, "braille '%s' --lang en", reference_pgn());
    ASSERT_EQ(twinboard(args), 0);
    ASSERT_STR_CONTAINS(out, "7 BB5 0-0\r\n");
    ASSERT_NOT_NULL(strchr(out, '\f'));
}
