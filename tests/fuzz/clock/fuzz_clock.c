/* fuzz_clock.c - fuzz target of the built-in clock (host/clock).
 *
 * The first line is a time control, also read as a warning list. A refused text must leave the
 * output as it was and name a column inside the text; an accepted control must write back, in
 * both its canonical and its PGN form, to text that reads as the same control.
 *
 * The bytes after the first line drive a clock on that control (the club's when refused), four
 * bytes a call: which call, and how far time moves (now and then backwards). A refused call must
 * change nothing. After every call: events come in time order and never from the future, a flag
 * is reported once per fall and only the first of the game is marked first, the next deadline
 * lies ahead, and a running clock's time only goes down while time passes. */
#include "tb_clock.h"
#include "tb_fuzz.h"

static void same_control(const struct tb_clock_control *a, const struct tb_clock_control *b)
{
    TB_FUZZ_CHECK(a->nperiods == b->nperiods);
    for (int i = 0; i < a->nperiods; i++) {
        TB_FUZZ_CHECK(a->periods[i].moves == b->periods[i].moves);
        TB_FUZZ_CHECK(a->periods[i].time_ms == b->periods[i].time_ms);
        TB_FUZZ_CHECK(a->periods[i].bonus == b->periods[i].bonus);
        TB_FUZZ_CHECK(a->periods[i].bonus_ms == b->periods[i].bonus_ms);
    }
}

static bool read_back(const struct tb_clock_control *c, bool pgn)
{
    char text[128];
    int n = pgn ? tb_clock_control_pgn(c, text, sizeof text)
                : tb_clock_control_format(c, text, sizeof text);
    TB_FUZZ_CHECK(n > 0 && (size_t)n < sizeof text && (size_t)n == strlen(text));
    struct tb_clock_control back;
    struct tb_error err;
    TB_FUZZ_CHECK(tb_clock_control_parse(&back, text, &err) == TB_OK);
    same_control(c, &back);
    return true;
}

/* Returns whether the control was accepted. */
static bool check_parsers(const char *text, struct tb_clock_control *out)
{
    struct tb_clock_control c;
    memset(&c, 0x5A, sizeof c);
    struct tb_clock_control before = c;
    struct tb_error err = {0};
    int rc = tb_clock_control_parse(&c, text, &err);
    if (rc < 0) {
        TB_FUZZ_CHECK_ERROR(rc, err);
        TB_FUZZ_CHECK(err.column >= 1 && (size_t)err.column <= strlen(text) + 1);
        TB_FUZZ_CHECK(memcmp(&c, &before, sizeof c) == 0);
    } else {
        TB_FUZZ_CHECK(rc == TB_OK && tb_clock_control_check(&c, NULL) == TB_OK);
        read_back(&c, false);
        read_back(&c, true);
        *out = c;
    }
    uint64_t w[TB_CLOCK_MAX_WARN] = {0};
    int n = tb_clock_warnings_parse(w, TB_CLOCK_MAX_WARN, text, &err);
    if (n < 0) {
        TB_FUZZ_CHECK_ERROR(n, err);
        TB_FUZZ_CHECK(err.column >= 1 && (size_t)err.column <= strlen(text) + 1);
        TB_FUZZ_CHECK(w[0] == 0);
    } else {
        TB_FUZZ_CHECK(n <= TB_CLOCK_MAX_WARN);
        for (int i = 0; i < n; i++)
            TB_FUZZ_CHECK(w[i] > 0 && w[i] <= TB_CLOCK_MAX_PERIOD_MS);
    }
    return rc == TB_OK;
}

struct watch {
    uint64_t last_event_ms;
    bool flagged[2];
    int firsts;
};

static void check_events(tb_clock *c, struct watch *w)
{
    struct tb_clock_event ev;
    while (tb_clock_event_pop(c, &ev)) {
        TB_FUZZ_CHECK(ev.at_ms >= w->last_event_ms && ev.at_ms <= c->now_ms);
        TB_FUZZ_CHECK(ev.side <= 1);
        w->last_event_ms = ev.at_ms;
        if (ev.kind == TB_CLOCK_EV_FLAG) {
            TB_FUZZ_CHECK(!w->flagged[ev.side]); /* once per fall */
            w->flagged[ev.side] = true;
            w->firsts += ev.first;
        } else {
            TB_FUZZ_CHECK(ev.kind == TB_CLOCK_EV_WARN || ev.kind == TB_CLOCK_EV_PERIOD);
        }
    }
    for (int s = 0; s < 2; s++) {
        if (!c->side[s].flagged)
            w->flagged[s] = false; /* the arbiter lifted it */
        TB_FUZZ_CHECK(c->side[s].flagged == w->flagged[s] || c->ev_lost);
    }
    TB_FUZZ_CHECK(w->firsts <= 1 || c->ev_lost);
    uint64_t next = tb_clock_next_deadline(c);
    TB_FUZZ_CHECK(next == TB_CLOCK_NEVER || next > c->now_ms);
    TB_FUZZ_CHECK(tb_clock_flag_deadline(c) >= next);
}

static void drive(const struct tb_clock_control *ctl, const uint8_t *p, size_t n)
{
    tb_clock c;
    TB_FUZZ_CHECK(tb_clock_init(&c, ctl, NULL) == TB_OK);
    struct watch w = {0};
    uint64_t t = 0;
    for (; n >= 4; p += 4, n -= 4) {
        uint64_t delta = (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
        uint64_t at =
            p[0] & 0x80 ? (t > delta ? t - delta : 0) : t + delta * (p[0] & 0x40 ? 97 : 1);
        int side = p[0] & 1;
        uint64_t before_left = tb_clock_remaining(&c, c.turn, c.now_ms);
        int before_turn = c.turn, before_state = c.state;
        tb_clock before = c;
        int rc;
        switch ((p[0] >> 1) & 7) {
        case 0:
        case 1:
            rc = tb_clock_press(&c, (p[0] >> 4) & 1 ? side : c.turn, at);
            break;
        case 2:
            rc = tb_clock_pause(&c, at);
            break;
        case 3:
            rc = tb_clock_resume(&c, at);
            break;
        case 4:
            rc = tb_clock_set(&c, side, delta * 1000, p[3], at);
            break;
        case 5: {
            uint64_t list[3] = {delta * 10 + 1, (uint64_t)p[1] * 1000 + 1, 60000};
            rc = tb_clock_set_warnings(&c, side, list, p[2] % 4);
            break;
        }
        case 6:
            rc = p[1] == 0 ? tb_clock_stop(&c, at) : tb_clock_set_turn(&c, side);
            break;
        default:
            rc = tb_clock_update(&c, at);
            break;
        }
        if (rc < 0) {
            TB_FUZZ_CHECK(memcmp(&c, &before, sizeof c) == 0);
            continue;
        }
        if (at > t)
            t = at;
        /* Time passing alone never gives the running side time. */
        if (((p[0] >> 1) & 7) == 7 && c.turn == before_turn && c.state == before_state)
            TB_FUZZ_CHECK(tb_clock_remaining(&c, c.turn, c.now_ms) <= before_left);
        check_events(&c, &w);
        struct tb_clock_report r;
        TB_FUZZ_CHECK(tb_clock_report(&c, side, c.now_ms, &r) == TB_OK);
        TB_FUZZ_CHECK(r.own.left_ms == tb_clock_remaining(&c, side, c.now_ms));
        TB_FUZZ_CHECK(r.own.left.hours * 3600000ULL + r.own.left.minutes * 60000ULL +
                          r.own.left.seconds * 1000ULL <=
                      r.own.left_ms);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t line = nl ? (size_t)(nl - data) : size;
    char *text = tb_fuzz_cstr(data, line);
    struct tb_clock_control ctl;
    if (!check_parsers(text, &ctl))
        TB_FUZZ_CHECK(tb_clock_control_parse(&ctl, "club", NULL) == TB_OK);
    free(text);
    if (nl)
        drive(&ctl, nl + 1, size - line - 1);
    return 0;
}
