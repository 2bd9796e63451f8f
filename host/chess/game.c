/* game.c - a game from a start position: the moves, repetition keys and the draw rules of
 * Article 9 that need the history. */
#include "chess_internal.h"

void tb_chess_game_init(tb_chess_game *game, const tb_chess_pos *start)
{
    game->start = *start;
    game->pos = *start;
    game->plies = 0;
    game->rep_keys[0] = tb_chess_repetition_key(start);
}

int tb_chess_game_push(tb_chess_game *game, tb_chess_move m)
{
    if (!tb_chess_is_legal(&game->pos, m))
        return TB_ERR_ILLEGAL;
    if (game->plies >= TB_CHESS_GAME_MAX_PLIES)
        return TB_ERR_FULL;
    int i = game->plies;
    tb_chess_make(&game->pos, m, &game->undo[i]);
    game->moves[i] = m;
    game->plies = i + 1;
    game->rep_keys[i + 1] = tb_chess_repetition_key(&game->pos);
    return TB_OK;
}

int tb_chess_game_pop(tb_chess_game *game)
{
    if (game->plies == 0)
        return TB_ERR_STATE;
    int i = --game->plies;
    tb_chess_unmake(&game->pos, game->moves[i], &game->undo[i]);
    return TB_OK;
}

/* Occurrences of key among the positions before ply `at` with the same side to move, looking
 * back no further than the last capture or pawn move (they cannot recur across one). */
static int count_key(const tb_chess_game *game, int at, uint64_t key, int reversible)
{
    int n = 0;
    for (int i = at - 2; i >= 0 && at - i <= reversible; i -= 2)
        n += game->rep_keys[i] == key;
    return n;
}

int tb_chess_game_repetitions(const tb_chess_game *game)
{
    int at = game->plies;
    return 1 + count_key(game, at, game->rep_keys[at], game->pos.halfmove);
}

enum tb_chess_state tb_chess_game_state(const tb_chess_game *game)
{
    enum tb_chess_state s = tb_chess_pos_state(&game->pos);
    if (s != TB_CHESS_PLAYING)
        return s; /* 9.6.2: checkmate on the last move takes precedence */
    if (tb_chess_game_repetitions(game) >= 5)
        return TB_CHESS_FIVEFOLD; /* 9.6.1 */
    if (game->pos.halfmove >= 150)
        return TB_CHESS_SEVENTYFIVE; /* 9.6.2: 75 moves by each player */
    return TB_CHESS_PLAYING;
}

/* 9.2.1: the position has just appeared for (at least) the third time, or the player's next
 * move would make it appear a third time. */
bool tb_chess_game_can_claim_threefold(const tb_chess_game *game)
{
    if (tb_chess_game_repetitions(game) >= 3)
        return true;
    tb_chess_move moves[TB_CHESS_MAX_MOVES];
    tb_chess_pos pos = game->pos;
    int n = tb_chess__gen(&pos, moves);
    for (int i = 0; i < n; i++) {
        tb_chess_undo undo;
        tb_chess_make(&pos, moves[i], &undo);
        uint64_t key = tb_chess_repetition_key(&pos);
        int seen = count_key(game, game->plies + 1, key, pos.halfmove);
        tb_chess_unmake(&pos, moves[i], &undo);
        if (seen >= 2)
            return true;
    }
    return false;
}

/* 9.3: the last 50 moves of each player had no pawn move and no capture, or the next move will
 * complete them. */
bool tb_chess_game_can_claim_fifty(const tb_chess_game *game)
{
    const tb_chess_pos *pos = &game->pos;
    if (pos->halfmove >= 100)
        return true;
    if (pos->halfmove < 99)
        return false;
    tb_chess_move moves[TB_CHESS_MAX_MOVES];
    int n = tb_chess__gen(pos, moves);
    for (int i = 0; i < n; i++) {
        int from = tb_chess_move_from(moves[i]), to = tb_chess_move_to(moves[i]);
        bool pawn = TB_CHESS_PIECE_TYPE(pos->board[from]) == TB_CHESS_PAWN;
        bool capture = !tb_chess_move_is_castle(moves[i]) && pos->board[to];
        if (!pawn && !capture)
            return true;
    }
    return false;
}
