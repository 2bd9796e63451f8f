/* session.c - one program reading the virtual board: single-board and bus mode (pure). */
#include <string.h>

#include "broadcast_internal.h"

/* Room for the largest reply: a bus FROM_START of a full log. */
#define OUT_MAX (TB_BROADCAST_LOG_SIZE + TB_DGT_BUS_REPLY_EXTRA + 1)

struct out {
    tb_broadcast_emit_fn emit;
    void *user;
    struct tb_broadcast_session *s;
};

static void send_msg(struct out *o, const struct tb_dgt_msg *m)
{
    uint8_t buf[TB_DGT_MSG_MAX];
    int n = tb_dgt_msg_encode(buf, sizeof buf, m);
    if (n > 0) {
        o->emit(o->user, buf, (size_t)n);
        o->s->stats.messages++;
    }
}

static void send_bus(struct out *o, const struct tb_broadcast_board *b, uint8_t id,
                     const uint8_t *data, size_t n)
{
    static const size_t cap = OUT_MAX;
    uint8_t buf[OUT_MAX];
    int len = tb_dgt_bus_reply_encode(buf, cap, id, tb_broadcast_bus_address(&b->id), data, n);
    if (len > 0) {
        o->emit(o->user, buf, (size_t)len);
        o->s->stats.messages++;
    }
}

void tb_broadcast_session_init(struct tb_broadcast_session *s, const struct tb_broadcast_board *b)
{
    memset(s, 0, sizeof *s);
    s->mode = TB_BROADCAST_BUS; /* a board powers up in bus mode */
    tb_dgt_cmd_decoder_init(&s->cmd);
    tb_dgt_bus_decoder_init(&s->bus);
    s->cursor = s->rep_from = s->rep_to = b->log_end;
}

static void send_bwtime(struct out *o, const struct tb_broadcast_board *b, uint64_t now_ms)
{
    uint8_t p[7];
    struct tb_dgt_msg m;
    tb_broadcast_board_bwtime(b, now_ms, p);
    if (tb_dgt_msg_bwtime_raw(&m, p) == TB_OK)
        send_msg(o, &m);
}

/* The EE_MOVES dump: the log the ring holds, then EOF. */
static void send_ee_moves(struct out *o, const struct tb_broadcast_board *b)
{
    uint8_t buf[TB_DGT_HEADER_LEN + TB_BROADCAST_LOG_SIZE + 1];
    size_t n =
        tb_broadcast__log_copy(b, 0, b->log_end, buf + TB_DGT_HEADER_LEN, TB_BROADCAST_LOG_SIZE);
    buf[TB_DGT_HEADER_LEN + n] = TB_DGT_EE_EOF;
    size_t total = n + TB_DGT_HEADER_LEN + 1;
    buf[0] = TB_DGT_MSG_EE_MOVES;
    buf[1] = (uint8_t)(total >> 7);
    buf[2] = (uint8_t)(total & 0x7F);
    o->emit(o->user, buf, total);
    o->s->stats.messages++;
}

static void single(struct out *o, struct tb_broadcast_board *b, const struct tb_dgt_command *c,
                   uint64_t now_ms)
{
    struct tb_broadcast_session *s = o->s;
    struct tb_dgt_msg m;
    int rc = TB_OK;
    switch (c->cmd) {
    case TB_DGT_CMD_RESET:
        s->mode = TB_BROADCAST_IDLE;
        break;
    case TB_DGT_CMD_SEND_CLK:
        send_bwtime(o, b, now_ms);
        break;
    case TB_DGT_CMD_SEND_BRD:
        rc = tb_dgt_msg_board_dump(&m, b->codes);
        break;
    case TB_DGT_CMD_SEND_UPDATE:
    case TB_DGT_CMD_SEND_UPDATE_BRD:
    case TB_DGT_CMD_SEND_UPDATE_NICE:
        s->mode = c->cmd == TB_DGT_CMD_SEND_UPDATE       ? TB_BROADCAST_UPDATE
                  : c->cmd == TB_DGT_CMD_SEND_UPDATE_BRD ? TB_BROADCAST_UPDATE_BRD
                                                         : TB_BROADCAST_UPDATE_NICE;
        s->sent_bw = false; /* the first reading goes out at the next tick */
        s->next_bw_ms = now_ms;
        break;
    case TB_DGT_CMD_RETURN_SERIALNR:
        rc = tb_dgt_msg_serialnr(&m, b->id.serial);
        break;
    case TB_DGT_CMD_RETURN_LONG_SERIALNR:
        rc = tb_dgt_msg_long_serialnr(&m, b->id.long_serial);
        break;
    case TB_DGT_CMD_RETURN_BUSADRES:
        rc = tb_dgt_msg_busadres(&m, tb_broadcast_bus_address(&b->id));
        break;
    case TB_DGT_CMD_SEND_TRADEMARK:
        rc = tb_dgt_msg_trademark(&m, b->id.trademark);
        break;
    case TB_DGT_CMD_SEND_VERSION:
        rc = tb_dgt_msg_version(&m, TB_DGT_MSG_VERSION, b->id.version_major, b->id.version_minor);
        break;
    case TB_DGT_CMD_RETURN_HW_VERSION:
        rc = tb_dgt_msg_version(&m, TB_DGT_MSG_HARDWARE_VERSION, 1, 0);
        break;
    case TB_DGT_CMD_SEND_EE_MOVES:
        send_ee_moves(o, b);
        break;
    case TB_DGT_CMD_TO_BUSMODE:
        s->mode = TB_BROADCAST_BUS;
        s->cursor = b->log_end;
        break;
    default:
        /* A USB board has no battery; LEDs and clock messages: this board drives no LEDs and
         * its clock is twinboard's own, set by the arbiter, never by a program. */
        s->stats.ignored++;
        return;
    }
    s->stats.commands++;
    if (rc == TB_OK &&
        (c->cmd == TB_DGT_CMD_SEND_BRD || c->cmd == TB_DGT_CMD_RETURN_SERIALNR ||
         c->cmd == TB_DGT_CMD_RETURN_LONG_SERIALNR || c->cmd == TB_DGT_CMD_RETURN_BUSADRES ||
         c->cmd == TB_DGT_CMD_SEND_TRADEMARK || c->cmd == TB_DGT_CMD_SEND_VERSION ||
         c->cmd == TB_DGT_CMD_RETURN_HW_VERSION))
        send_msg(o, &m);
}

static void bus(struct out *o, struct tb_broadcast_board *b, const struct tb_dgt_bus_command *c,
                uint64_t now_ms)
{
    struct tb_broadcast_session *s = o->s;
    int me = tb_broadcast_bus_address(&b->id);
    /* Only PING goes to every board at address 0. */
    if (c->address != me && !(c->cmd == TB_DGT_BUS_PING && c->address == 0)) {
        s->stats.ignored++;
        return;
    }
    static const size_t cap = TB_BROADCAST_LOG_SIZE;
    uint8_t data[TB_BROADCAST_LOG_SIZE];
    size_t n;
    uint8_t p[7];
    switch (c->cmd) {
    case TB_DGT_BUS_PING:
        if (s->ignore_ping) {
            s->ignore_ping = false;
            break;
        }
        send_bus(o, b, TB_DGT_BUS_MSG_PING, NULL, 0);
        break;
    case TB_DGT_BUS_IGNORE_NEXT_PING:
        s->ignore_ping = true;
        break;
    case TB_DGT_BUS_SEND_BRD:
        send_bus(o, b, TB_DGT_BUS_MSG_BRD_DUMP, b->codes, 64);
        break;
    case TB_DGT_BUS_SEND_CLK:
        tb_broadcast_board_bwtime(b, now_ms, p);
        send_bus(o, b, TB_DGT_BUS_MSG_BWTIME, p, 7);
        break;
    case TB_DGT_BUS_SEND_VERSION:
        p[0] = (uint8_t)b->id.version_major;
        p[1] = (uint8_t)b->id.version_minor;
        send_bus(o, b, TB_DGT_BUS_MSG_VERSION, p, 2);
        break;
    case TB_DGT_BUS_SEND_CHANGES:
        /* A reader that fell behind the ring gets what it still holds. */
        s->rep_from =
            s->cursor < tb_broadcast__log_oldest(b) ? tb_broadcast__log_oldest(b) : s->cursor;
        s->rep_to = b->log_end;
        s->cursor = b->log_end;
        n = tb_broadcast__log_copy(b, s->rep_from, s->rep_to, data, cap);
        send_bus(o, b, TB_DGT_BUS_MSG_UPDATE, data, n);
        break;
    case TB_DGT_BUS_REPEAT_CHANGES:
        n = tb_broadcast__log_copy(b, s->rep_from, s->rep_to, data, cap);
        send_bus(o, b, TB_DGT_BUS_MSG_UPDATE, data, n);
        break;
    case TB_DGT_BUS_SEND_FROM_START:
        n = tb_broadcast__log_copy(b, b->start_at, b->log_end, data, cap);
        send_bus(o, b, TB_DGT_BUS_MSG_FROM_START, data, n);
        break;
    case TB_DGT_BUS_SET_START_GAME:
        /* The START_TAG goes to the shared log: every reader's changes carry it. */
        b->start_at = b->log_end;
        tb_broadcast__log_record(b, TB_DGT_EE_START_TAG);
        send_bus(o, b, TB_DGT_BUS_MSG_START_GAME_WRITTEN, NULL, 0);
        break;
    case TB_DGT_BUS_RESET:
        s->cursor = s->rep_from = s->rep_to = b->log_end;
        s->ignore_ping = false;
        break;
    case TB_DGT_BUS_END_BUSMODE:
        s->mode = TB_BROADCAST_IDLE;
        break;
    default:
        /* Draughts, "randomize ping" and unknown codes. */
        s->stats.ignored++;
        return;
    }
    s->stats.commands++;
}

int tb_broadcast_session_input(struct tb_broadcast_session *s, struct tb_broadcast_board *b,
                               const uint8_t *bytes, size_t n, uint64_t now_ms,
                               tb_broadcast_emit_fn emit, void *user)
{
    if (!s || !b || !emit || (n && !bytes))
        return TB_ERR_ARG;
    struct out o = {emit, user, s};
    uint64_t before = s->stats.commands;
    for (size_t i = 0; i < n; i++) {
        uint8_t byte = bytes[i];
        if (s->mode == TB_BROADCAST_BUS) {
            struct tb_dgt_bus_command bc;
            uint64_t bad = s->bus.bad_checksum;
            int r = tb_dgt_bus_decoder_push(&s->bus, byte, &bc);
            s->stats.bad_checksum += s->bus.bad_checksum - bad;
            if (r == 1) {
                bus(&o, b, &bc, now_ms);
                continue;
            }
            if (r == 0)
                continue;
            /* A byte outside a bus command: a single-board command leaves bus mode. */
        }
        struct tb_dgt_command c;
        uint64_t garbage = s->cmd.garbage;
        int r = tb_dgt_cmd_decoder_push(&s->cmd, byte, &c);
        s->stats.garbage += s->cmd.garbage - garbage;
        if (r != 1)
            continue;
        if (s->mode == TB_BROADCAST_BUS) {
            s->mode = TB_BROADCAST_IDLE;
            tb_dgt_bus_decoder_init(&s->bus);
        }
        single(&o, b, &c, now_ms);
    }
    return (int)(s->stats.commands - before);
}

void tb_broadcast_session_changes(struct tb_broadcast_session *s, const struct tb_dgt_update *ch,
                                  int n, tb_broadcast_emit_fn emit, void *user)
{
    if (s->mode != TB_BROADCAST_UPDATE && s->mode != TB_BROADCAST_UPDATE_BRD &&
        s->mode != TB_BROADCAST_UPDATE_NICE)
        return;
    struct out o = {emit, user, s};
    for (int i = 0; i < n; i++) {
        struct tb_dgt_msg m;
        if (tb_dgt_msg_field_update(&m, ch[i].field, ch[i].code) == TB_OK)
            send_msg(&o, &m);
    }
}

uint64_t tb_broadcast_session_due(const struct tb_broadcast_session *s,
                                  const struct tb_broadcast_board *b, uint64_t now_ms)
{
    if (!b->clock.known && s->sent_bw)
        return UINT64_MAX; /* no clock: said once, nothing more to say */
    if (s->mode == TB_BROADCAST_UPDATE)
        return s->next_bw_ms;
    if (s->mode != TB_BROADCAST_UPDATE_NICE)
        return UINT64_MAX;
    if (!s->sent_bw)
        return now_ms;
    uint8_t p[7];
    tb_broadcast_board_bwtime(b, now_ms, p);
    if (memcmp(p, s->last_bw, 7) != 0)
        return now_ms;
    if (b->clock.running == TB_BROADCAST_NO_SIDE)
        return UINT64_MAX;
    /* The running side's reading changes when its next whole second runs out. */
    uint64_t ms = b->clock.running == TB_CHESS_WHITE ? b->clock.white_ms : b->clock.black_ms;
    uint64_t gone = now_ms > b->clock.at_ms ? now_ms - b->clock.at_ms : 0;
    if (gone >= ms)
        return UINT64_MAX;
    uint64_t left = ms - gone;
    uint64_t part = left % 1000;
    return now_ms + (part ? part : 1000);
}

void tb_broadcast_session_tick(struct tb_broadcast_session *s, const struct tb_broadcast_board *b,
                               uint64_t now_ms, tb_broadcast_emit_fn emit, void *user)
{
    if (tb_broadcast_session_due(s, b, now_ms) > now_ms)
        return;
    struct out o = {emit, user, s};
    uint8_t p[7];
    tb_broadcast_board_bwtime(b, now_ms, p);
    if (s->mode == TB_BROADCAST_UPDATE_NICE && s->sent_bw && memcmp(p, s->last_bw, 7) == 0)
        return;
    struct tb_dgt_msg m;
    if (tb_dgt_msg_bwtime_raw(&m, p) == TB_OK)
        send_msg(&o, &m);
    memcpy(s->last_bw, p, 7);
    s->sent_bw = true;
    s->next_bw_ms = now_ms + 1000;
}
