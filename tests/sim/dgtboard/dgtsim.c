/* dgtsim.c - see dgtsim.h. */
#include "dgtsim.h"

#include <string.h>

static uint32_t rnd(struct dgtsim *s)
{
    s->rng = s->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(s->rng >> 33);
}

/* Stray bytes a noisy line puts before a message: payload-like bytes, sometimes a header cut
 * short. The next message's ID byte (bit 7) lets the host resync. */
static void garbage(struct dgtsim *s)
{
    if (s->garbage_permille == 0 || rnd(s) % 1000 >= s->garbage_permille)
        return;
    int n = 1 + (int)(rnd(s) % 4);
    for (int i = 0; i < n && s->nout < DGTSIM_OUT_MAX; i++) {
        s->out[s->nout++] = (uint8_t)(rnd(s) & 0x7F);
        s->garbage_bytes++;
    }
    if (rnd(s) % 2 && s->nout + 2 <= DGTSIM_OUT_MAX) {
        s->out[s->nout++] = TB_DGT_MSG_FIELD_UPDATE;
        s->out[s->nout++] = 0x00;
        s->garbage_bytes += 2;
    }
}

static void emit(struct dgtsim *s, const struct tb_dgt_msg *m)
{
    if (s->frozen)
        return;
    garbage(s);
    int n = tb_dgt_msg_encode(s->out + s->nout, DGTSIM_OUT_MAX - s->nout, m);
    if (n > 0)
        s->nout += (size_t)n;
}

void dgtsim_init(struct dgtsim *s, const uint8_t codes[64], enum tb_dgt_clock_kind clock,
                 uint64_t start_ms, uint32_t increment_ms, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    memcpy(s->codes, codes, 64);
    s->mode = DGTSIM_BUS;
    s->clock = clock;
    s->left_ms = s->right_ms = start_ms;
    s->increment_ms = increment_ms;
    s->ack_delay_ms = 150;
    s->rng = seed;
    tb_dgt_cmd_decoder_init(&s->cmd);
}

static uint32_t shown(uint64_t ms)
{
    return (uint32_t)((ms + 999) / 1000); /* a clock shows a started second */
}

static void bwtime_payload(const struct dgtsim *s, uint8_t p[7])
{
    if (s->clock == TB_DGT_CLOCK_NONE) {
        const uint8_t none[7] = {0, 0, 0, 0, 0, 0, TB_DGT_ST_NO_CLOCK};
        memcpy(p, none, 7);
        return;
    }
    struct tb_dgt_clock_side l = {.seconds = shown(s->left_ms), .flag_fell = s->left_ms == 0},
                             r = {.seconds = shown(s->right_ms), .flag_fell = s->right_ms == 0};
    if (l.seconds > 35999)
        l.seconds = 35999;
    if (r.seconds > 35999)
        r.seconds = 35999;
    uint8_t st = 0;
    if (s->running)
        st |= TB_DGT_ST_RUNNING;
    if (s->lever_right)
        st |= TB_DGT_ST_LEVER_RIGHT;
    if (s->running == DGTSIM_RIGHT)
        st |= TB_DGT_ST_RIGHT_TURN;
    if (s->running == DGTSIM_LEFT)
        st |= TB_DGT_ST_LEFT_TURN;
    tb_dgt_bwtime_encode_times(p, &l, &r, st);
}

static void send_bwtime(struct dgtsim *s, const uint8_t p[7])
{
    struct tb_dgt_msg m;
    tb_dgt_msg_bwtime_raw(&m, p);
    emit(s, &m);
}

static void send_times(struct dgtsim *s)
{
    uint8_t p[7];
    bwtime_payload(s, p);
    send_bwtime(s, p);
    memcpy(s->last_bw, p, 7);
    s->bw_sent = true;
    s->bw_at = s->now;
}

static void send_dump(struct dgtsim *s)
{
    struct tb_dgt_msg m;
    tb_dgt_msg_board_dump(&m, s->codes);
    emit(s, &m);
}

static void queue_ack(struct dgtsim *s, uint8_t ok, uint8_t cmd, uint8_t b2, uint8_t b3)
{
    if (s->drop_acks > 0) {
        s->drop_acks--;
        return;
    }
    if (s->nacks == (int)(sizeof s->acks / sizeof s->acks[0]))
        return;
    s->acks[s->nacks++] = (struct dgtsim_ack){{{ok, cmd, b2, b3}}, s->now + s->ack_delay_ms};
}

static bool updating(const struct dgtsim *s)
{
    return s->mode == DGTSIM_UPDATE || s->mode == DGTSIM_UPDATE_NICE;
}

static void clock_command(struct dgtsim *s, const struct tb_dgt_command *c)
{
    s->clock_commands++;
    /* A clock ACKs only in UPDATE or UPDATE_NICE mode, and only when there is a clock. */
    if (s->clock == TB_DGT_CLOCK_NONE || !updating(s))
        return;
    switch (c->clock_cmd) {
    case TB_DGT_CLK_VERSION:
        queue_ack(s, TB_DGT_ACK_OK, c->clock_cmd, s->clock == TB_DGT_CLOCK_3000 ? 0x21 : 0x11, 0);
        return;
    case TB_DGT_CLK_ASCII:
    case TB_DGT_CLK_REV2_ASCII: {
        size_t w = c->clock_cmd == TB_DGT_CLK_ASCII ? 8 : 11;
        bool fits = (c->clock_cmd == TB_DGT_CLK_ASCII && s->clock == TB_DGT_CLOCK_3000) ||
                    (c->clock_cmd == TB_DGT_CLK_REV2_ASCII && s->clock == TB_DGT_CLOCK_REV2);
        if (!fits || c->n < w + 1) {
            queue_ack(s, TB_DGT_ACK_ERROR, c->clock_cmd, 0, 0);
            return;
        }
        memcpy(s->display, c->content, w);
        s->display[w] = '\0';
        break;
    }
    case TB_DGT_CLK_DISPLAY:
        if (s->clock != TB_DGT_CLOCK_XL) {
            queue_ack(s, TB_DGT_ACK_ERROR, c->clock_cmd, 0, 0);
            return;
        }
        memcpy(s->display, "(segments)", 11);
        break;
    case TB_DGT_CLK_END:
        s->display[0] = '\0';
        break;
    case TB_DGT_CLK_SETNRUN:
        if (c->n < 7 || c->content[1] > 59 || c->content[2] > 59 || c->content[4] > 59 ||
            c->content[5] > 59) {
            queue_ack(s, TB_DGT_ACK_ERROR, c->clock_cmd, 0, 0);
            return;
        }
        s->left_ms = (c->content[0] * 3600u + c->content[1] * 60u + c->content[2]) * 1000ull;
        s->right_ms = (c->content[3] * 3600u + c->content[4] * 60u + c->content[5]) * 1000ull;
        s->running = c->content[6] & TB_DGT_RUN_PAUSE   ? 0
                     : c->content[6] & TB_DGT_RUN_LEFT  ? DGTSIM_LEFT
                     : c->content[6] & TB_DGT_RUN_RIGHT ? DGTSIM_RIGHT
                                                        : 0;
        if (s->running)
            s->lever_right = s->running == DGTSIM_RIGHT;
        break;
    case TB_DGT_CLK_BEEP:
    case TB_DGT_CLK_BUTTON:
    case TB_DGT_CLK_ICONS:
        break;
    default:
        queue_ack(s, TB_DGT_ACK_ERROR, c->clock_cmd, 0, 0);
        return;
    }
    queue_ack(s, TB_DGT_ACK_OK, c->clock_cmd, 0, 0);
}

static void command(struct dgtsim *s, const struct tb_dgt_command *c)
{
    struct tb_dgt_msg m;
    s->commands++;
    if (s->mode == DGTSIM_BUS && c->cmd != TB_DGT_CMD_CLOCK_MESSAGE &&
        c->cmd != TB_DGT_CMD_SET_LEDS)
        s->mode = DGTSIM_IDLE; /* any single-board command ends bus mode */
    switch (c->cmd) {
    case TB_DGT_CMD_RESET:
        s->mode = DGTSIM_IDLE;
        break;
    case TB_DGT_CMD_SEND_CLK:
        send_times(s);
        break;
    case TB_DGT_CMD_SEND_BRD:
        send_dump(s);
        break;
    case TB_DGT_CMD_SEND_UPDATE:
        s->mode = DGTSIM_UPDATE;
        break;
    case TB_DGT_CMD_SEND_UPDATE_BRD:
        s->mode = DGTSIM_UPDATE_BRD;
        break;
    case TB_DGT_CMD_SEND_UPDATE_NICE:
        s->mode = DGTSIM_UPDATE_NICE;
        s->bw_sent = false; /* the first reading goes out at once */
        break;
    case TB_DGT_CMD_RETURN_SERIALNR:
        tb_dgt_msg_serialnr(&m, "01025");
        emit(s, &m);
        break;
    case TB_DGT_CMD_RETURN_LONG_SERIALNR:
        tb_dgt_msg_long_serialnr(&m, "0102500000");
        emit(s, &m);
        break;
    case TB_DGT_CMD_RETURN_BUSADRES:
        tb_dgt_msg_busadres(&m, 0x0401); /* from serial 01025: 0x08 0x01 */
        emit(s, &m);
        break;
    case TB_DGT_CMD_SEND_TRADEMARK:
        tb_dgt_msg_trademark(&m, "Digital Game Technology (emulated by dgtboard-sim)");
        emit(s, &m);
        break;
    case TB_DGT_CMD_SEND_VERSION:
        tb_dgt_msg_version(&m, TB_DGT_MSG_VERSION, 1, 2);
        emit(s, &m);
        break;
    case TB_DGT_CMD_RETURN_HW_VERSION:
        tb_dgt_msg_version(&m, TB_DGT_MSG_HARDWARE_VERSION, 1, 0);
        emit(s, &m);
        break;
    case TB_DGT_CMD_SEND_BATTERY_STATUS: {
        const uint8_t bat[] = {
            TB_DGT_MSG_BATTERY_STATUS, 0, 12, 87, 5, 30, 0x7F, 0x7F, 1, 0, 0, 0, 2};
        if (!s->frozen && s->nout + sizeof bat <= DGTSIM_OUT_MAX) {
            memcpy(s->out + s->nout, bat, sizeof bat);
            s->nout += sizeof bat;
        }
        break;
    }
    case TB_DGT_CMD_SEND_EE_MOVES: {
        /* A short log: three NOPs, POWERUP, EOF. */
        const uint8_t ee[] = {TB_DGT_MSG_EE_MOVES, 0, 8, 0x7F, 0x7F, 0x7F, 0x6A, 0x6B};
        if (!s->frozen && s->nout + sizeof ee <= DGTSIM_OUT_MAX) {
            memcpy(s->out + s->nout, ee, sizeof ee);
            s->nout += sizeof ee;
        }
        break;
    }
    case TB_DGT_CMD_TO_BUSMODE:
        s->mode = DGTSIM_BUS;
        break;
    case TB_DGT_CMD_STARTBOOTLOADER:
        s->bootloader = true;
        s->frozen = true;
        break;
    case TB_DGT_CMD_SET_LEDS:
        s->leds++;
        if (!s->revelation)
            s->frozen = true; /* what a plain board did with an LED command */
        break;
    case TB_DGT_CMD_CLOCK_MESSAGE:
        clock_command(s, c);
        break;
    default:
        break;
    }
}

void dgtsim_input(struct dgtsim *s, const uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct tb_dgt_command c;
        if (buf[i] == TB_DGT_CMD_STARTBOOTLOADER && s->cmd.have == 0) {
            c = (struct tb_dgt_command){.cmd = TB_DGT_CMD_STARTBOOTLOADER};
            command(s, &c);
        } else if (tb_dgt_cmd_decoder_push(&s->cmd, buf[i], &c)) {
            command(s, &c);
        }
    }
}

void dgtsim_field(struct dgtsim *s, int field, int code)
{
    if (field < 0 || field > 63 || s->codes[field] == code)
        return;
    s->codes[field] = (uint8_t)code;
    if (s->mode == DGTSIM_UPDATE || s->mode == DGTSIM_UPDATE_BRD || s->mode == DGTSIM_UPDATE_NICE) {
        struct tb_dgt_msg m;
        tb_dgt_msg_field_update(&m, field, code);
        emit(s, &m);
    }
}

static void run_down(struct dgtsim *s, uint64_t now)
{
    if (now <= s->now) {
        return;
    }
    uint64_t d = now - s->now;
    s->now = now;
    uint64_t *t = s->running == DGTSIM_LEFT    ? &s->left_ms
                  : s->running == DGTSIM_RIGHT ? &s->right_ms
                                               : NULL;
    if (!t)
        return;
    *t = *t > d ? *t - d : 0;
    if (*t == 0)
        s->running = 0; /* flag fell: the clock blocks at 0 */
}

void dgtsim_start(struct dgtsim *s, int side)
{
    if (s->clock == TB_DGT_CLOCK_NONE)
        return;
    s->running = side;
    s->lever_right = side == DGTSIM_RIGHT;
}

void dgtsim_press(struct dgtsim *s, int side)
{
    if (s->clock == TB_DGT_CLOCK_NONE)
        return;
    if (s->running == side) {
        if (side == DGTSIM_LEFT)
            s->left_ms += s->increment_ms;
        else
            s->right_ms += s->increment_ms;
    }
    if (s->left_ms > 0 && s->right_ms > 0)
        dgtsim_start(s, side == DGTSIM_LEFT ? DGTSIM_RIGHT : DGTSIM_LEFT);
}

void dgtsim_tick(struct dgtsim *s, uint64_t now)
{
    run_down(s, now);
    for (int i = 0; i < s->nacks;) {
        if (s->acks[i].due <= s->now) {
            uint8_t p[7];
            tb_dgt_bwtime_encode_ack(p, &s->acks[i].ack);
            send_bwtime(s, p);
            s->acks_sent++;
            s->acks[i] = s->acks[--s->nacks];
        } else {
            i++;
        }
    }
    if (!updating(s) || s->frozen)
        return;
    uint8_t p[7];
    bwtime_payload(s, p);
    bool changed = !s->bw_sent || memcmp(p, s->last_bw, 7) != 0;
    if ((s->mode == DGTSIM_UPDATE_NICE && changed) ||
        (s->mode == DGTSIM_UPDATE && (changed || s->now >= s->bw_at + 1000)))
        send_times(s);
}

void dgtsim_unplug(struct dgtsim *s)
{
    s->mode = DGTSIM_BUS;
    s->nout = 0;
    s->nacks = 0;
    s->bw_sent = false;
    tb_dgt_cmd_decoder_init(&s->cmd);
}

size_t dgtsim_take(struct dgtsim *s, uint8_t *buf, size_t cap)
{
    size_t n = s->nout < cap ? s->nout : cap;
    memcpy(buf, s->out, n);
    memmove(s->out, s->out + n, s->nout - n);
    s->nout -= n;
    return n;
}
