/* daisy.c - a DAISY 2.02 talking book of games: ncc.html (the navigation: one heading per game,
 * one per half-move), one SMIL file and one audio file (MP3 or WAV, written by libsndfile) per
 * game. The audio is the voice's own: the header, then each half-move as the spoken review's
 * scoresheet says it. */
#include <errno.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record_internal.h"
#include "tb_record.h"
#include "tb_voice.h"

#define GAP_MS 300 /* silence after each clip, inside it, so moves do not run together */

struct clip {
    double begin, end; /* seconds in the game's audio */
    char label[64];    /* what the navigation shows: "12. Nf3" */
};

struct pcm {
    int16_t *s;
    size_t n, cap;
    unsigned rate;
};

static int pcm_add(struct pcm *p, const int16_t *s, size_t n)
{
    if (p->n + n > p->cap) {
        size_t cap = p->cap ? p->cap : 1 << 16;
        while (cap < p->n + n)
            cap *= 2;
        int16_t *t = realloc(p->s, cap * sizeof *t);
        if (!t)
            return TB_ERR_MEM;
        p->s = t;
        p->cap = cap;
    }
    if (s)
        memcpy(p->s + p->n, s, n * sizeof *s);
    else
        memset(p->s + p->n, 0, n * sizeof *s);
    p->n += n;
    return TB_OK;
}

/* Renders text and appends it and the gap to the game's audio; the clip spans both. */
static int say(struct tb_voice *voice, int player, const char *text, struct pcm *p, struct clip *c)
{
    int16_t *s = NULL;
    size_t n = 0;
    unsigned rate = 0;
    int rc = tb_voice_render(voice, player, text, &s, &n, &rate);
    if (!rc && p->rate && rate != p->rate)
        rc = TB_ERR_STATE;
    p->rate = rate;
    c->begin = p->rate ? (double)p->n / p->rate : 0;
    if (!rc)
        rc = pcm_add(p, s, n);
    if (!rc)
        rc = pcm_add(p, NULL, (size_t)rate * GAP_MS / 1000);
    c->end = p->rate ? (double)p->n / p->rate : 0;
    free(s);
    return rc;
}

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

static void hms(double t, char buf[32])
{
    long s = t > 0 && t < 3.6e8 ? (long)(t + 0.5) : 0;
    snprintf(buf, 32, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

/* The game's title: "White - Black". */
static void title(const tb_chess_pgn_game *g, char *buf, size_t len)
{
    const char *w = tb_chess_pgn_tag_get(g, "White"), *b = tb_chess_pgn_tag_get(g, "Black");
    snprintf(buf, len, "%s - %s", w ? w : "?", b ? b : "?");
}

static enum tb_chess_letters pack_lang(const struct tb_voice_pack *pack)
{
    const char *name = tb_voice_pack_name(pack);
    if (!strncmp(name, "nl", 2))
        return TB_CHESS_LETTERS_NL;
    if (!strncmp(name, "de", 2))
        return TB_CHESS_LETTERS_DE;
    return TB_CHESS_LETTERS_EN;
}

/* The clips of one game: [0] the header, [1 + ply] each half-move. */
static int game_audio(const tb_chess_pgn_game *g, struct tb_voice *voice, int player, struct pcm *p,
                      struct clip *clips, struct tb_error *err)
{
    const struct tb_voice_pack *pack = tb_voice_player_pack(voice, player < 0 ? 0 : player);
    enum tb_chess_letters lang = pack_lang(pack);
    char text[3300];
    title(g, clips[0].label, sizeof clips[0].label);
    int rc = tb_record_header_text(g, lang, text, sizeof text);
    if (rc >= 0)
        rc = say(voice, player, text, p, &clips[0]);
    tb_chess_pos pos = g->game.start;
    for (int ply = 0; !rc && ply < g->game.plies; ply++) {
        char phrase[512], san[16];
        tb_chess_move m = g->game.moves[ply];
        rc = tb_voice_review_ply(pack, &g->game, ply, TB_VOICE_LONG, phrase, sizeof phrase);
        if (rc >= 0)
            rc = tb_chess_move_to_san(&pos, m, lang, 0, san, sizeof san);
        if (rc < 0)
            return tb_error_set(err, rc, "game %ld (%s): ply %d: %s", g->number, clips[0].label,
                                ply + 1, tb_strerror(rc));
        snprintf(clips[1 + ply].label, sizeof clips[1 + ply].label, "%d.%s %s", pos.fullmove,
                 pos.side == TB_CHESS_WHITE ? "" : "..", san);
        rc = say(voice, player, phrase, p, &clips[1 + ply]);
        tb_chess_undo u;
        tb_chess_make(&pos, m, &u);
    }
    if (rc)
        return tb_error_set(err, rc, "game %ld (%s): the speech could not be rendered: %s",
                            g->number, clips[0].label, tb_strerror(rc));
    return TB_OK;
}

static const char *audio_ext(enum tb_record_audio audio)
{
    return audio == TB_RECORD_AUDIO_WAV ? "wav" : "mp3";
}

/* The game's audio through libsndfile: 16-bit PCM WAV, or MPEG-2 Layer III (DAISY 2.02 takes
 * both). */
static int write_audio(const char *path, const struct pcm *p, enum tb_record_audio audio,
                       struct tb_error *err)
{
    SF_INFO info = {.samplerate = (int)p->rate, .channels = 1};
    info.format = audio == TB_RECORD_AUDIO_WAV ? SF_FORMAT_WAV | SF_FORMAT_PCM_16
                                               : SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III;
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    if (!sf)
        return tb_error_set(err, TB_ERR_SYS, "%s: %s", path, sf_strerror(NULL));
    if (audio == TB_RECORD_AUDIO_MP3) {
        /* Constant bit rate (64 kbit/s mono at 22050 Hz): players find a clip's time in the
         * file by arithmetic, as the SMIL's clip-begin needs. */
        int mode = SF_BITRATE_MODE_CONSTANT;
        sf_command(sf, SFC_SET_BITRATE_MODE, &mode, sizeof mode);
    }
    sf_count_t n = sf_writef_short(sf, p->s, (sf_count_t)p->n);
    int rc = n == (sf_count_t)p->n ? TB_OK
                                   : tb_error_set(err, TB_ERR_SYS, "%s: %s", path, sf_strerror(sf));
    if (sf_close(sf) && !rc)
        rc = tb_error_set(err, TB_ERR_SYS, "%s: cannot finish the file", path);
    return rc;
}

static FILE *open_in(const char *dir, const char *name, struct tb_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        tb_error_set(err, TB_ERR_SYS, "%s: %s", path, strerror(errno));
    return f;
}

static int write_smil(const char *dir, int k, enum tb_record_audio audio, const struct clip *c,
                      int nclips, struct tb_error *err)
{
    char name[32], t[32];
    snprintf(name, sizeof name, "g%03d.smil", k);
    FILE *f = open_in(dir, name, err);
    if (!f)
        return TB_ERR_SYS;
    hms(c[nclips - 1].end, t);
    fputs("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE smil PUBLIC \"-//W3C//DTD SMIL "
          "1.0//EN\" \"http://www.w3.org/TR/REC-smil/SMIL10.dtd\">\n<smil>\n<head>\n"
          "<meta name=\"dc:format\" content=\"Daisy 2.02\"/>\n<meta name=\"dc:title\" content=\"",
          f);
    xml_text(f, c[0].label);
    fprintf(f,
            "\"/>\n<meta name=\"ncc:generator\" content=\"twinboard\"/>\n"
            "<meta name=\"ncc:timeInThisSmil\" content=\"%s\"/>\n<layout>\n<region "
            "id=\"txtView\"/>\n</layout>\n</head>\n<body>\n<seq dur=\"%.3fs\">\n",
            t, c[nclips - 1].end);
    for (int i = 0; i < nclips; i++)
        fprintf(f,
                "<par endsync=\"last\" id=\"g%dp%d\">\n<text src=\"ncc.html#g%dn%d\" "
                "id=\"g%dt%d\"/>\n<audio src=\"g%03d.%s\" clip-begin=\"npt=%.3fs\" "
                "clip-end=\"npt=%.3fs\" id=\"g%da%d\"/>\n</par>\n",
                k, i, k, i, k, i, k, audio_ext(audio), c[i].begin, c[i].end, k, i);
    fputs("</seq>\n</body>\n</smil>\n", f);
    return fclose(f) ? tb_error_set(err, TB_ERR_SYS, "%s: %s", name, strerror(errno)) : TB_OK;
}

/* A name for the book that is the same each time it is made from the same games (dc:identifier
 * must be unique to the publisher): FNV-1a over every game's tags and moves. */
static uint32_t book_id(const tb_chess_pgn_game *const *games, int ngames)
{
    uint32_t h = 2166136261u;
    static const char *const tags[] = {"Event", "Date", "Round", "White", "Black"};
    for (int k = 0; k < ngames; k++) {
        for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++)
            for (const char *v = tb_chess_pgn_tag_get(games[k], tags[t]); v && *v; v++)
                h = (h ^ (unsigned char)*v) * 16777619u;
        for (int ply = 0; ply < games[k]->game.plies; ply++)
            h = (h ^ (uint32_t)games[k]->game.moves[ply]) * 16777619u;
    }
    return h;
}

static void meta(FILE *f, const char *name, const char *content)
{
    fprintf(f, "<meta name=\"%s\" content=\"", name);
    xml_text(f, content);
    fputs("\"/>\n", f);
}

/* The NCC's metadata as DAISY 2.02 asks (its appendix 2; docs/record.md lists them), then one
 * heading per game (h1: the header) and per half-move (h2). */
static int write_ncc(const char *dir, const tb_chess_pgn_game *const *games, int ngames,
                     struct clip *const *clips, const int *nclips, double total,
                     enum tb_chess_letters lang, struct tb_error *err)
{
    FILE *f = open_in(dir, "ncc.html", err);
    if (!f)
        return TB_ERR_SYS;
    static const char *const codes[3] = {"en", "nl", "de"};
    int items = 0;
    for (int k = 0; k < ngames; k++)
        items += nclips[k];
    char buf[64];
    fputs("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD "
          "XHTML 1.0 Transitional//EN\" "
          "\"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n"
          "<html xmlns=\"http://www.w3.org/1999/xhtml\">\n<head>\n"
          "<meta http-equiv=\"Content-type\" content=\"text/html; charset=utf-8\"/>\n<title>",
          f);
    xml_text(f, clips[0][0].label);
    fputs("</title>\n", f);
    meta(f, "dc:title", clips[0][0].label);
    /* The content's creators: a game's players; a round's event. */
    const char *creators[2] = {tb_chess_pgn_tag_get(games[0], "White"),
                               tb_chess_pgn_tag_get(games[0], "Black")};
    if (ngames > 1)
        creators[0] = tb_chess_pgn_tag_get(games[0], "Event"), creators[1] = NULL;
    int named = 0;
    for (int i = 0; i < 2; i++)
        if (creators[i] && *creators[i] && strcmp(creators[i], "?"))
            meta(f, "dc:creator", creators[i]), named++;
    if (!named)
        meta(f, "dc:creator", "Unknown");
    /* dc:date is the book's own date of publication, yyyy-mm-dd. */
    time_t now = time(NULL);
    struct tm tm;
    strftime(buf, sizeof buf, "%Y-%m-%d", gmtime_r(&now, &tm));
    meta(f, "dc:date", buf);
    meta(f, "dc:format", "Daisy 2.02");
    snprintf(buf, sizeof buf, "twinboard-%08x", (unsigned)book_id(games, ngames));
    meta(f, "dc:identifier", buf);
    meta(f, "dc:language", codes[lang]);
    meta(f, "dc:publisher", "twinboard");
    meta(f, "ncc:charset", "utf-8");
    meta(f, "ncc:generator", "twinboard");
    meta(f, "ncc:multimediaType", "audioNcc");
    meta(f, "ncc:narrator", "eSpeak NG");
    meta(f, "ncc:depth", "2");
    snprintf(buf, sizeof buf, "%d", 1 + 2 * ngames); /* ncc.html, a SMIL and an audio per game */
    meta(f, "ncc:files", buf);
    meta(f, "ncc:setInfo", "1 of 1");
    static const char *const zero[] = {"ncc:pageFront",     "ncc:pageNormal", "ncc:pageSpecial",
                                       "ncc:maxPageNormal", "ncc:footnotes",  "ncc:prodNotes",
                                       "ncc:sidebars"};
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        meta(f, zero[i], "0");
    snprintf(buf, sizeof buf, "%d", items);
    meta(f, "ncc:tocItems", buf);
    hms(total, buf);
    meta(f, "ncc:totalTime", buf);
    fputs("</head>\n<body>\n", f);
    for (int k = 0; k < ngames; k++)
        for (int i = 0; i < nclips[k]; i++) {
            const char *h = i ? "h2" : "h1";
            fprintf(f, "<%s%s id=\"g%dn%d\"><a href=\"g%03d.smil#g%dp%d\">", h,
                    k == 0 && i == 0 ? " class=\"title\"" : "", k + 1, i, k + 1, k + 1, i);
            xml_text(f, clips[k][i].label);
            fprintf(f, "</a></%s>\n", h);
        }
    fputs("</body>\n</html>\n", f);
    return fclose(f) ? tb_error_set(err, TB_ERR_SYS, "ncc.html: %s", strerror(errno)) : TB_OK;
}

int tb_record_daisy_write(const tb_chess_pgn_game *const *games, int ngames, struct tb_voice *voice,
                          int player, enum tb_record_audio audio, const char *dir,
                          struct tb_error *err)
{
    if (!games || ngames < 1 || !voice || !dir)
        return tb_error_set(err, TB_ERR_ARG, "no games, voice or directory");
    struct clip **clips = calloc((size_t)ngames, sizeof *clips);
    int *nclips = calloc((size_t)ngames, sizeof *nclips);
    int rc = clips && nclips ? TB_OK : tb_error_set(err, TB_ERR_MEM, "out of memory");
    double total = 0;
    int items = 0;
    for (int k = 0; !rc && k < ngames; k++) {
        const tb_chess_pgn_game *g = games[k];
        nclips[k] = 1 + g->game.plies;
        clips[k] = calloc((size_t)nclips[k], sizeof **clips);
        struct pcm p = {0};
        rc = clips[k] ? game_audio(g, voice, player, &p, clips[k], err)
                      : tb_error_set(err, TB_ERR_MEM, "out of memory");
        if (!rc) {
            char path[4096];
            snprintf(path, sizeof path, "%s/g%03d.%s", dir, k + 1, audio_ext(audio));
            rc = write_audio(path, &p, audio, err);
        }
        if (!rc)
            rc = write_smil(dir, k + 1, audio, clips[k], nclips[k], err);
        total += clips[k] ? clips[k][nclips[k] - 1].end : 0;
        items += nclips[k];
        free(p.s);
    }
    if (!rc) {
        const struct tb_voice_pack *pack = tb_voice_player_pack(voice, player < 0 ? 0 : player);
        rc = write_ncc(dir, games, ngames, clips, nclips, total, pack_lang(pack), err);
    }
    for (int k = 0; clips && k < ngames; k++)
        free(clips[k]);
    free(clips);
    free(nclips);
    return rc ? rc : items;
}
