/* put_right.c - put-right instructions as heard, parsed back and followed. The words are the
 * English pack's (tb_voice_phrase_msg); they are read back by matching each action as the pack
 * says it alone, so the parse uses no words of its own. */
#include "put_right.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_voice.h"

void phys_from_pos(struct phys_board *p, const tb_chess_pos *pos)
{
    memcpy(p->sq, pos->board, sizeof p->sq);
}

void phys_move(struct phys_board *p, const tb_chess_pos *pos, tb_chess_move mv)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, mv, &ms);
    uint8_t piece = p->sq[ms.from], rook = 0;
    if (ms.capture_sq < 64)
        p->sq[ms.capture_sq] = 0;
    p->sq[ms.from] = 0;
    if (ms.rook_from < 64) { /* both off the board first: Chess960 squares may overlap */
        rook = p->sq[ms.rook_from];
        p->sq[ms.rook_from] = 0;
    }
    p->sq[ms.to] = ms.promo ? (uint8_t)TB_CHESS_PIECE(pos->side, ms.promo) : piece;
    if (ms.rook_to < 64)
        p->sq[ms.rook_to] = rook;
}

bool phys_shows(const struct phys_board *p, const tb_chess_pos *pos)
{
    return memcmp(p->sq, pos->board, sizeof p->sq) == 0;
}

/* Every single action as the pack says it: [lift?][piece code 0..14][square]. */
struct words {
    const struct tb_voice_pack *pack;
    size_t prefix; /* the template's words before the actions */
    char said[2][15][64][96];
};

static bool valid_code(int code)
{
    int t = TB_CHESS_PIECE_TYPE(code);
    return code == 0 || (t >= 1 && t <= 6);
}

/* One action alone as the pack says it, the whole message. */
static int say_one(const struct tb_voice_pack *pack, int lift, int code, int sq, char *buf,
                   size_t len)
{
    struct tb_voice_square_action act = {(uint8_t)sq, (uint8_t)code};
    struct tb_voice_msg_args args = {.lift = &act, .nlift = lift, .place = &act, .nplace = !lift};
    return tb_voice_phrase_msg(pack, TB_VOICE_MSG_PUT_RIGHT, &args, buf, len);
}

static const struct words *words(void)
{
    static struct words *w;
    struct tb_error err;
    struct tb_voice_pack *pack;
    char a[200], b[200];
    if (w)
        return w;
    if (tb_voice_pack_load("en", &pack, &err) < 0 || !(w = calloc(1, sizeof *w)))
        return NULL;
    w->pack = pack;
    /* the template's words before the actions: what a lift and a place said alone share */
    if (say_one(pack, 1, 0, 0, a, sizeof a) < 0 || say_one(pack, 0, 0, 0, b, sizeof b) < 0)
        return NULL;
    while (a[w->prefix] && a[w->prefix] == b[w->prefix])
        w->prefix++;
    for (int lift = 0; lift < 2; lift++)
        for (int code = 0; code < 15; code++)
            for (int sq = 0; valid_code(code) && sq < 64; sq++)
                if (say_one(pack, lift, code, sq, a, sizeof a) >= 0)
                    snprintf(w->said[lift][code][sq], sizeof w->said[0][0][0], "%s", a + w->prefix);
    return w;
}

/* The action said at s: the longest one that ends there or at ", ". */
static size_t read_action(const struct words *w, const char *s, int *lift, int *code, int *sq)
{
    size_t best = 0;
    for (int l = 0; l < 2; l++)
        for (int c = 0; c < 15; c++)
            for (int q = 0; valid_code(c) && q < 64; q++) {
                size_t n = strlen(w->said[l][c][q]);
                if (n > best && strncmp(s, w->said[l][c][q], n) == 0 &&
                    (s[n] == '\0' || strncmp(s + n, ", ", 2) == 0)) {
                    best = n;
                    *lift = l;
                    *code = c;
                    *sq = q;
                }
            }
    return best;
}

const char *put_right_follow(const struct tb_match_announce *a, struct phys_board *p,
                             struct put_right_stats *st)
{
    static char why[200];
    const struct words *w = words();
    char text[1024];
    if (!w)
        return "the English pack does not load";
    /* the match's squares in the voice's own type, as the daemon passes them */
    struct tb_voice_square_action say_lift[TB_MATCH_MAX_SQUARES], say_place[TB_MATCH_MAX_SQUARES];
    for (int i = 0; i < a->nlift && i < TB_MATCH_MAX_SQUARES; i++)
        say_lift[i] = (struct tb_voice_square_action){a->lift[i].sq, a->lift[i].piece};
    for (int i = 0; i < a->nplace && i < TB_MATCH_MAX_SQUARES; i++)
        say_place[i] = (struct tb_voice_square_action){a->place[i].sq, a->place[i].piece};
    struct tb_voice_msg_args args = {
        .lift = say_lift,
        .nlift = a->nlift < TB_MATCH_MAX_SQUARES ? a->nlift : TB_MATCH_MAX_SQUARES,
        .place = say_place,
        .nplace = a->nplace < TB_MATCH_MAX_SQUARES ? a->nplace : TB_MATCH_MAX_SQUARES};
    if (tb_voice_phrase_msg(w->pack, TB_VOICE_MSG_PUT_RIGHT, &args, text, sizeof text) < 0)
        return "the instruction cannot be said";
    st->instructions++;
    /* the words, back into actions, in the order said: lifts first */
    uint8_t hand = 0;
    int nlift = 0, nplace = 0;
    for (const char *s = text + w->prefix; *s;) {
        int lift, code, sq;
        size_t n = read_action(w, s, &lift, &code, &sq);
        if (!n) {
            snprintf(why, sizeof why, "words that read as no action: '%s'", s);
            return why;
        }
        s += n;
        s += strncmp(s, ", ", 2) == 0 ? 2 : 0;
        st->named += code != 0;
        char name[3];
        tb_chess_square_name(sq, name);
        if (lift) {
            if (!p->sq[sq]) {
                snprintf(why, sizeof why, "told to lift from the empty square %s", name);
                return why;
            }
            if (code && p->sq[sq] != code) {
                snprintf(why, sizeof why, "the piece on %s named %d, but it is %d", name, code,
                         p->sq[sq]);
                return why;
            }
            hand = p->sq[sq];
            p->sq[sq] = 0;
            nlift++;
        } else {
            if (p->sq[sq]) {
                snprintf(why, sizeof why, "told to put a piece on %s, where one stands", name);
                return why;
            }
            if (!code && !hand) {
                snprintf(why, sizeof why, "told to put a piece of no kind on %s", name);
                return why;
            }
            p->sq[sq] = (uint8_t)(code ? code : hand);
            nplace++;
        }
    }
    if (nlift != a->nlift || nplace != a->nplace)
        return "the words say another number of actions than the instruction holds";
    return NULL;
}
