/* voice_internal.h - declarations shared between the files of the voice module only. */
#ifndef TB_VOICE_INTERNAL_H
#define TB_VOICE_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "tb_voice.h"

/* ---- pack ---- */

/* Every required entry of a pack, in file order. pack.c's table gives section, key and the
 * placeholders each may use. */
enum tb_voice__key {
    K_PACK_NAME,
    K_PACK_LANGUAGE,
    K_VOICE_ESPEAK,
    K_VOICE_RATE,
    K_VOICE_PITCH,
    K_VOICE_VOLUME,
    K_VOICE_WORDGAP,
    K_PIECE_KING,
    K_PIECE_QUEEN,
    K_PIECE_ROOK,
    K_PIECE_BISHOP,
    K_PIECE_KNIGHT,
    K_PIECE_PAWN,
    K_CPIECE_WHITE_KING,
    K_CPIECE_WHITE_QUEEN,
    K_CPIECE_WHITE_ROOK,
    K_CPIECE_WHITE_BISHOP,
    K_CPIECE_WHITE_KNIGHT,
    K_CPIECE_WHITE_PAWN,
    K_CPIECE_BLACK_KING,
    K_CPIECE_BLACK_QUEEN,
    K_CPIECE_BLACK_ROOK,
    K_CPIECE_BLACK_BISHOP,
    K_CPIECE_BLACK_KNIGHT,
    K_CPIECE_BLACK_PAWN,
    K_FILE_A,
    K_FILE_B,
    K_FILE_C,
    K_FILE_D,
    K_FILE_E,
    K_FILE_F,
    K_FILE_G,
    K_FILE_H,
    K_RANK_1,
    K_RANK_2,
    K_RANK_3,
    K_RANK_4,
    K_RANK_5,
    K_RANK_6,
    K_RANK_7,
    K_RANK_8,
    K_W_CAPTURE,
    K_W_CHECK,
    K_W_MATE,
    K_W_EP,
    K_W_CASTLE_SHORT,
    K_W_CASTLE_LONG,
    K_W_WHITE,
    K_W_BLACK,
    K_W_PIECE,
    K_W_AND,
    K_M_LONG_QUIET,
    K_M_LONG_CAPTURE,
    K_M_LONG_EP,
    K_M_LONG_CASTLE,
    K_M_LONG_PROMO,
    K_M_LONG_PROMO_CAPTURE,
    K_M_SHORT_QUIET,
    K_M_SHORT_CAPTURE,
    K_M_SHORT_EP,
    K_M_SHORT_CASTLE,
    K_M_SHORT_PROMO,
    K_M_SHORT_PROMO_CAPTURE,
    K_M_SUFFIX_CHECK,
    K_M_SUFFIX_MATE,
    K_MSG_MISMATCH,
    K_MSG_ILLEGAL,
    K_MSG_WAIT,
    K_MSG_REPLICATE,
    K_MSG_PUT_RIGHT,
    K_MSG_LIFT,
    K_MSG_PLACE,
    K_MSG_ARBITER,
    K_MSG_CLOCK,
    K_MSG_TIME,
    K_MSG_MOVE_NUMBER,
    K_MSG_CORRECTION,
    K_MSG_NO_MOVE,
    K_MSG_TAKEN,
    K_MSG_NOT_RECOGNISED,
    K_MSG_PROMOTION_ASK,
    K_MSG_PROMOTION_PIECE,
    K_MSG_PROMOTION_NONE,
    K_MSG_PROMOTION_QUEEN,
    K_MSG_WINS, /* the game's result */
    K_MSG_DRAW,
    K_MSG_FLAG,
    /* [plurals]: NOUN.one, NOUN.other for each enum tb_voice__noun, in that order. */
    K_PL_FIRST,
    K_PL_LAST = K_PL_FIRST + 2 * 10 - 1,
    K_R_PLY,
    K_R_TO_MOVE,
    K_R_CHECK,
    K_R_NO_CHECK,
    K_R_CHECKMATE,
    K_R_STALEMATE,
    K_R_POSITION,
    K_R_GROUP,
    K_R_COUNT,
    K_R_MATERIAL,
    K_R_MATERIAL_EQUAL,
    K_R_MATERIAL_AHEAD,
    K_R_RESULT_WHITE,
    K_R_RESULT_BLACK,
    K_R_RESULT_DRAW,
    /* [bughouse]: doorgeefschaak */
    K_B_DROP,
    K_B_RECEIVED,
    K_B_POOL,
    K_B_POOL_EMPTY,
    K_B_CHOOSE,
    K_B_OR,
    K_B_REFUSED,
    K_B_ILLEGAL, /* article 7 of doorgeefschaak */
    K_B_ACCEPTED,
    K_B_REPLACE,
    K_B_RETURNED,
    K_B_BLOCKED,
    K_B_HANDED_BACK,
    K_B_OVER, /* the end of a game of the match, and why */
    K_B_WHY_MATE,
    K_B_WHY_RESIGN,
    K_B_WHY_FLAG,
    K_B_WHY_FLAGS,
    K_B_WHY_STALEMATE,
    K_B_WHY_DEAD,
    K_B_WHY_AGREED,
    K__COUNT
};

/* Nouns with a singular and a plural ([plurals] NOUN.one / NOUN.other). The first six are the
 * piece types in tb_chess order (pawn = 1 ... king = 6, minus one). */
enum tb_voice__noun {
    TB_VOICE__PAWNS,
    TB_VOICE__KNIGHTS,
    TB_VOICE__BISHOPS,
    TB_VOICE__ROOKS,
    TB_VOICE__QUEENS,
    TB_VOICE__KINGS,
    TB_VOICE__MOVES,
    TB_VOICE__MINUTES,
    TB_VOICE__SECONDS,
    TB_VOICE__POINTS,
    TB_VOICE__NOUNS
};
_Static_assert(K_PL_LAST - K_PL_FIRST + 1 == 2 * TB_VOICE__NOUNS, "two forms per noun");

/* The noun's form for count n: .one for 1, .other for any other count (the rule of German,
 * Dutch and English; docs/voice.md). */
const char *tb_voice__noun(const struct tb_voice_pack *pack, enum tb_voice__noun noun, long n);
/* A count ("3 Minuten") is at most this long: each byte of the count template becomes at most
 * TB_VOICE_WORD_MAX / 6 bytes ("{noun}" is 6 bytes and becomes a word; "{n}" a number). */
#define TB_VOICE__COUNT_MAX (TB_VOICE_TEMPLATE_MAX * (TB_VOICE_WORD_MAX / (sizeof "{noun}" - 1)))
/* "{n} {noun}" through the pack's [review] count template, appended at *pos. */
int tb_voice__count(const struct tb_voice_pack *pack, enum tb_voice__noun noun, long n, char *buf,
                    size_t len, size_t *pos);

struct tb_voice__phoneme {
    char *word;     /* as written, "Rochade" */
    char *spelling; /* "[[rOS'a:d@]]" */
};

struct tb_voice_pack {
    char *path;
    char *value[K__COUNT];
    struct tb_voice_settings settings;
    struct tb_voice__phoneme *phonemes;
    int nphonemes;
};

/* Appends s to buf at *pos; TB_ERR_FULL when it does not fit. */
int tb_voice__put(char *buf, size_t len, size_t *pos, const char *s);
/* The pack's word for a piece type ("Springer"); its word for "piece" for no type. */
const char *tb_voice__piece_word(const struct tb_voice_pack *pack, int ptype);
/* tb_voice_phrase_move with the check suffix given: check 0 none, 1 check, 2 mate, -1 as the
 * chess core judges it. */
int tb_voice__phrase_move(const struct tb_voice_pack *pack, const tb_chess_pos *pos,
                          tb_chess_move m, enum tb_voice_form form, int check, char *buf,
                          size_t len);

/* A template with its {name} placeholders replaced by values: names[i] -> values[i] (a NULL
 * value is empty). Spaces are collapsed, trimmed and removed before ',' '.' ':'; the result is
 * appended to buf at *pos. Returns 0 or TB_ERR_FULL / TB_ERR_ARG (unknown placeholder). */
int tb_voice__expand(const char *tmpl, const char *const *names, const char *const *values, int n,
                     char *buf, size_t len, size_t *pos);
/* Collapses and trims spaces in place as described above. */
void tb_voice__tidy(char *s);

/* ---- eSpeak NG (speech thread only) ---- */

typedef int (*tb_voice__pcm_fn)(void *arg, const int16_t *pcm, size_t frames);

int tb_voice__tts_init(const char *data_path, const struct tb_voice_settings *settings,
                       struct tb_voice_settings *current, unsigned *rate, char *describe,
                       size_t describe_len, struct tb_error *err);
/* Makes eSpeak speak with want; *current is what it speaks with now (updated; a voice name of
 * "" means unknown). Only what differs is set. */
int tb_voice__tts_select(const struct tb_voice_settings *want, struct tb_voice_settings *current,
                         struct tb_error *err);
/* Synthesises speech text; fn gets the PCM chunk by chunk (returning nonzero stops). */
int tb_voice__tts_say(const char *speech, tb_voice__pcm_fn fn, void *arg);
int tb_voice__tts_phonemes(const char *speech, char *buf, size_t len);

/* ---- WAV writer (libsndfile) that keeps its header valid after every append ---- */

struct tb_voice__wav {
    void *sf; /* libsndfile's SNDFILE; NULL when closed */
    unsigned rate;
};
/* append: continue a file this writer made at the same rate (else start it afresh). */
int tb_voice__wav_open(struct tb_voice__wav *w, const char *path, unsigned rate, bool append,
                       struct tb_error *err);
int tb_voice__wav_append(struct tb_voice__wav *w, const int16_t *pcm, size_t frames);
void tb_voice__wav_close(struct tb_voice__wav *w);

/* ---- resampler (libsamplerate, callback mode; safe inside an audio callback) ---- */

#define TB_VOICE__RS_BLOCK 64 /* input frames per pull: 2.9 ms at 22050 Hz */

struct tb_voice__resampler {
    void *src; /* libsamplerate's SRC_STATE; NULL when not made */
    double ratio;
    int (*next)(void *arg, int16_t *sample);
    void *arg;
    float in[TB_VOICE__RS_BLOCK];
};
/* Makes the converter (allocates: not in the audio callback). TB_ERR_MEM when it cannot. */
int tb_voice__resampler_init(struct tb_voice__resampler *r, unsigned in_rate, unsigned out_rate);
/* Forgets buffered input (a cut); no allocation. */
void tb_voice__resampler_reset(struct tb_voice__resampler *r);
void tb_voice__resampler_free(struct tb_voice__resampler *r);
/* Produces out_frames frames; next(arg, &sample) supplies input and returns 0 when none is left
 * (silence is used then, not counted). No allocation, no locks. */
void tb_voice__resample(struct tb_voice__resampler *r, int16_t *out, size_t out_frames,
                        int (*next)(void *arg, int16_t *sample), void *arg);

#endif /* TB_VOICE_INTERNAL_H */
