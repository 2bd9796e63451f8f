/* review_say.c - review requests as whole texts, said to a player or written as a WAV file. */
#include <stdlib.h>
#include <string.h>

#include "voice_internal.h"

/* Calls the builder with a buffer that grows until the text fits. */
int tb_voice_review_text(const struct tb_voice_pack *pack, const tb_chess_game *game,
                         enum tb_voice_review_what what, int arg, const char *result,
                         enum tb_voice_form form, char **text)
{
    if (!pack || !game || !text || (unsigned)what >= TB_VOICE_REVIEW_WHAT_COUNT)
        return TB_ERR_ARG;
    for (size_t len = 4096;; len *= 2) {
        char *buf = malloc(len);
        if (!buf)
            return TB_ERR_MEM;
        int n = TB_ERR_ARG;
        switch (what) {
        case TB_VOICE_REVIEW_LAST:
            n = tb_voice_review_last(pack, game, arg > 0 ? arg : TB_VOICE_REVIEW_LAST_N, form, buf,
                                     len);
            break;
        case TB_VOICE_REVIEW_FROM:
            n = tb_voice_review_from(pack, game, arg, form, buf, len);
            break;
        case TB_VOICE_REVIEW_POSITION:
            n = tb_voice_review_position(pack, &game->pos, buf, len);
            break;
        case TB_VOICE_REVIEW_TO_MOVE:
            n = tb_voice_review_to_move(pack, &game->pos, buf, len);
            if (n >= 0 && (size_t)n + 2 < len) { /* "Weiß am Zug. Kein Schach" */
                memcpy(buf + n, ". ", 3);
                int k = tb_voice_review_check(pack, &game->pos, buf + n + 2, len - (size_t)n - 2);
                n = k < 0 ? k : n + 2 + k;
            } else if (n >= 0) {
                n = TB_ERR_FULL;
            }
            break;
        case TB_VOICE_REVIEW_MATERIAL:
            n = tb_voice_review_material(pack, &game->pos, buf, len);
            break;
        case TB_VOICE_REVIEW_SCORESHEET:
            n = tb_voice_review_scoresheet(pack, game, result, form, buf, len);
            break;
        case TB_VOICE_REVIEW_WHAT_COUNT:
            break;
        }
        if (n >= 0) {
            *text = buf;
            return n;
        }
        free(buf);
        if (n != TB_ERR_FULL || len > ((size_t)1 << 26))
            return n;
    }
}

long tb_voice_review_game(struct tb_voice *voice, int player, const tb_chess_game *game,
                          enum tb_voice_review_what what, int arg, const char *result,
                          enum tb_voice_form form)
{
    const struct tb_voice_pack *pack = tb_voice_player_pack(voice, player);
    if (!pack)
        return TB_ERR_ARG;
    char *text = NULL;
    int n = tb_voice_review_text(pack, game, what, arg, result, form, &text);
    if (n < 0)
        return n;
    long id = tb_voice_review(voice, player, text);
    free(text);
    return id;
}

long tb_voice_scoresheet_wav(struct tb_voice *voice, int player, const tb_chess_game *game,
                             const char *result, enum tb_voice_form form, const char *path,
                             struct tb_error *err)
{
    const struct tb_voice_pack *pack = tb_voice_player_pack(voice, player);
    if (!pack)
        return tb_error_set(err, TB_ERR_ARG, "no such player %d", player);
    char *text = NULL;
    int n = tb_voice_review_text(pack, game, TB_VOICE_REVIEW_SCORESHEET, 0, result, form, &text);
    if (n < 0)
        return tb_error_set(err, n, "%s: the scoresheet cannot be phrased: %s",
                            path ? path : "(no file)", tb_strerror(n));
    long frames = tb_voice_render_wav(voice, player, text, path, err);
    free(text);
    return frames;
}
