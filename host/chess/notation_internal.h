/* notation_internal.h - helpers shared by the notation, PGN and scoresheet files of the chess
 * module. Not part of the public API. */
#ifndef TB_CHESS_NOTATION_INTERNAL_H
#define TB_CHESS_NOTATION_INTERNAL_H

#include <stddef.h>

#include "tb_chess.h"

/* An output buffer with snprintf semantics: writes what fits, always NUL-terminates (when
 * len > 0) and counts everything that would have been written. */
struct tb_chess__out {
    char *buf;
    size_t len;
    size_t n;
};

static inline void tb_chess__out_init(struct tb_chess__out *o, char *buf, size_t len)
{
    o->buf = buf;
    o->len = buf ? len : 0;
    o->n = 0;
    if (o->len)
        buf[0] = '\0';
}

static inline void tb_chess__putc(struct tb_chess__out *o, char c)
{
    if (o->n + 1 < o->len) {
        o->buf[o->n] = c;
        o->buf[o->n + 1] = '\0';
    }
    o->n++;
}

static inline void tb_chess__putn(struct tb_chess__out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tb_chess__putc(o, s[i]);
}

static inline void tb_chess__puts(struct tb_chess__out *o, const char *s)
{
    while (*s)
        tb_chess__putc(o, *s++);
}

/* For fixed small buffers: the length, or TB_ERR_FULL when it did not fit. */
static inline int tb_chess__out_result(const struct tb_chess__out *o)
{
    return o->n < o->len ? (int)o->n : TB_ERR_FULL;
}

/* Is m a capture in pos (e.p. included, castling excluded)? */
bool tb_chess__is_capture(const tb_chess_pos *pos, tb_chess_move m);

/* Writes the move in the given notation without any check sign; list holds pos's legal moves
 * (SAN needs them for disambiguation). */
void tb_chess__san_body(const tb_chess_pos *pos, const tb_chess_movelist *list, tb_chess_move m,
                        enum tb_chess_letters letters, unsigned flags, struct tb_chess__out *o);
void tb_chess__long_body(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters letters,
                         struct tb_chess__out *o);

#endif /* TB_CHESS_NOTATION_INTERNAL_H */
