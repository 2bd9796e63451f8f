/* bcast_client.c - a DGT program reading a board (bcast_client.h). */
#include "bcast_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_file.h"
#include "tb_run.h"
#include "tb_test.h"

static void on_msg(void *user, const struct tb_dgt_msg *m)
{
    struct bcast_client *c = user;
    switch (m->id) {
    case TB_DGT_MSG_BOARD_DUMP:
        memcpy(c->shadow, m->data, 64);
        c->dumps++;
        break;
    case TB_DGT_MSG_FIELD_UPDATE:
        c->shadow[m->field] = m->code;
        c->updates++;
        break;
    case TB_DGT_MSG_BWTIME:
        memcpy(c->bw, m->data, 7);
        c->bwtimes++;
        break;
    case TB_DGT_MSG_SERIALNR:
        memcpy(c->serial, m->data, m->n < 15 ? m->n : 15);
        break;
    case TB_DGT_MSG_LONG_SERIALNR:
        memcpy(c->long_serial, m->data, m->n < 15 ? m->n : 15);
        break;
    case TB_DGT_MSG_TRADEMARK:
        memcpy(c->trademark, m->data, m->n);
        c->trademark[m->n] = '\0';
        break;
    case TB_DGT_MSG_VERSION:
        c->major = m->major;
        c->minor = m->minor;
        c->versions++;
        break;
    case TB_DGT_MSG_BUSADRES:
        c->busadres = m->busadres;
        break;
    default:
        break;
    }
}

void bcast_client_init(struct bcast_client *c, bool bus)
{
    memset(c, 0, sizeof *c);
    c->bus = bus;
    c->dec = tb_dgt_decoder_new();
    c->last_bus_id = -1;
}

void bcast_client_free(struct bcast_client *c)
{
    tb_dgt_decoder_free(c->dec);
}

int bcast_client_apply_ee(uint8_t f[64], const uint8_t *r, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint8_t b = r[i];
        if (b >= 0x40 && b <= 0x5F) {
            if (i + 1 >= n || r[i + 1] > 63)
                return -1;
            f[r[i + 1]] = b & 0x0F;
            i += 2;
        } else if ((b >= 0x60 && b <= 0x69) || (b >= 0x70 && b <= 0x79)) {
            i += 3; /* a clock record */
        } else {
            i++; /* one-byte records */
        }
    }
    return 0;
}

static void on_reply(struct bcast_client *c, const struct tb_dgt_bus_reply *r)
{
    c->last_bus_id = r->id;
    c->address = r->address;
    switch (r->id) {
    case TB_DGT_BUS_MSG_BRD_DUMP:
        if (r->n == 64) {
            memcpy(c->shadow, r->data, 64);
            c->dumps++;
        }
        break;
    case TB_DGT_BUS_MSG_UPDATE:
        memcpy(c->data, r->data, r->n);
        c->ndata = r->n;
        if (bcast_client_apply_ee(c->shadow, r->data, r->n) != 0)
            c->bad++;
        c->updates++;
        break;
    case TB_DGT_BUS_MSG_FROM_START:
        memcpy(c->data, r->data, r->n);
        c->ndata = r->n;
        break;
    case TB_DGT_BUS_MSG_PING:
        c->pings++;
        break;
    case TB_DGT_BUS_MSG_BWTIME:
        if (r->n == 7)
            memcpy(c->bw, r->data, 7);
        c->bwtimes++;
        break;
    case TB_DGT_BUS_MSG_VERSION:
        c->major = r->data[0];
        c->minor = r->data[1];
        c->versions++;
        break;
    default:
        break;
    }
}

void bcast_client_feed(struct bcast_client *c, const uint8_t *bytes, size_t n)
{
    if (!c->bus) {
        tb_dgt_decoder_feed(c->dec, bytes, n, on_msg, c);
        return;
    }
    for (size_t i = 0; i < n && c->npending < sizeof c->pending; i++)
        c->pending[c->npending++] = bytes[i];
    for (;;) {
        struct tb_dgt_bus_reply r;
        int got = tb_dgt_bus_reply_parse(c->pending, c->npending, &r);
        if (got == 0)
            return;
        size_t skip = got > 0 ? (size_t)got : 1;
        if (got > 0)
            on_reply(c, &r);
        else
            c->bad++;
        memmove(c->pending, c->pending + skip, c->npending - skip);
        c->npending -= skip;
    }
}

tb_chess_pgn_game *bcast_load_game(const char *file, long number)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    size_t len;
    char *buf = tb_run_read_file(path, &len);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_NOT_NULL(g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, buf, len);
    for (long i = 1; i <= number; i++)
        ASSERT_EQ(tb_chess_pgn_read(&r, g, NULL), 1);
    free(buf);
    return g;
}

void *bcast_loop_reader(void *arg)
{
    struct bcast_looper *l = arg;
    tb_chess_pgn_game *g = malloc(sizeof *g);
    while (!atomic_load(&l->stop)) {
        char *text;
        size_t len;
        if (tb_read_file(l->path, &text, &len, NULL) != TB_OK)
            continue;
        tb_chess_pgn_reader r;
        tb_chess_pgn_reader_init(&r, text, len);
        struct tb_error err;
        int rc = tb_chess_pgn_read(&r, g, &err);
        const char *res = rc == 1 ? tb_chess_pgn_tag_get(g, "Result") : NULL;
        size_t rl = res ? strlen(res) : 0;
        bool whole = res && len > rl + 1 && text[len - 1] == '\n' &&
                     memcmp(text + len - 1 - rl, res, rl) == 0;
        if (!whole && !l->bad)
            snprintf(l->why, sizeof l->why, "read %zu bytes: %s", len, rc == 1 ? "cut" : err.msg);
        l->bad += !whole;
        l->reads++;
        free(text);
    }
    free(g);
    return NULL;
}
