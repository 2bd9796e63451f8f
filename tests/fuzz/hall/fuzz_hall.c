/* fuzz_hall.c - fuzz target of the hall's payload decoders (host/hall) over arbitrary bytes (a
 * payload from the broker: malformed, oversized, forged).
 *
 * The same bytes are read as a state, an event and a command, and as a topic. A refusal must
 * say why; a payload a decoder accepts must encode, and its encoding must decode to a value
 * that encodes to the same bytes (what the dashboard serves is stable); every string of an
 * accepted payload is NUL-terminated within its field; an accepted command has a PIN of
 * digits and an action that exists. */
#include "tb_fuzz.h"
#include "tb_hall.h"

static struct tb_hall_state state, state2;
static char out[TB_HALL_PAYLOAD_MAX], out2[TB_HALL_PAYLOAD_MAX];

static void check_state(const uint8_t *data, size_t size)
{
    struct tb_error err = {0};
    int rc = tb_hall_state_decode((const char *)data, size, &state, &err);
    if (rc) {
        TB_FUZZ_CHECK_ERROR(rc, err);
        return;
    }
    TB_FUZZ_CHECK(memchr(state.table, '\0', sizeof state.table) && tb_hall_name_ok(state.table));
    TB_FUZZ_CHECK(state.ntouch >= 0 && state.ntouch <= TB_HALL_MAX_TOUCH);
    TB_FUZZ_CHECK(state.nhistory >= 0 && state.nhistory <= TB_HALL_MAX_HISTORY);
    for (int b = 0; b < 2; b++)
        TB_FUZZ_CHECK(state.board[b].nsheet >= 0 && state.board[b].nsheet <= TB_HALL_MAX_PLIES);
    /* a doorgeefschaak table has its two games, a twin table none */
    TB_FUZZ_CHECK(state.ngames == (state.bughouse ? 2 : 0));
    for (int g = 0; g < state.ngames; g++)
        TB_FUZZ_CHECK(state.game[g].nsheet >= 0 && state.game[g].nsheet <= TB_HALL_BUG_PLIES &&
                      state.game[g].nlog >= 0 && state.game[g].nlog <= TB_HALL_BUG_LOG);
    int n = tb_hall_state_encode(&state, out, sizeof out, &err);
    TB_FUZZ_CHECK(n > 0);
    TB_FUZZ_CHECK(tb_hall_state_decode(out, (size_t)n, &state2, &err) == TB_OK);
    int n2 = tb_hall_state_encode(&state2, out2, sizeof out2, &err);
    TB_FUZZ_CHECK(n2 == n && memcmp(out, out2, (size_t)n) == 0);
}

static void check_event(const uint8_t *data, size_t size)
{
    struct tb_error err = {0};
    struct tb_hall_event e, e2;
    int rc = tb_hall_event_decode((const char *)data, size, &e, &err);
    if (rc) {
        TB_FUZZ_CHECK_ERROR(rc, err);
        return;
    }
    TB_FUZZ_CHECK(memchr(e.text, '\0', sizeof e.text) && memchr(e.detail, '\0', sizeof e.detail));
    TB_FUZZ_CHECK(!e.board[0] || !strcmp(e.board, "A") || !strcmp(e.board, "B"));
    int n = tb_hall_event_encode(&e, out, sizeof out, &err);
    TB_FUZZ_CHECK(n > 0);
    TB_FUZZ_CHECK(tb_hall_event_decode(out, (size_t)n, &e2, &err) == TB_OK);
    TB_FUZZ_CHECK(tb_hall_event_encode(&e2, out2, sizeof out2, &err) == n &&
                  memcmp(out, out2, (size_t)n) == 0);
}

static void check_cmd(const uint8_t *data, size_t size)
{
    struct tb_error err = {0};
    struct tb_hall_cmd c, c2;
    int rc = tb_hall_cmd_decode((const char *)data, size, &c, &err);
    if (rc) {
        TB_FUZZ_CHECK_ERROR(rc, err);
        return;
    }
    TB_FUZZ_CHECK(c.action == TB_HALL_CMD_RESOLVE || c.action == TB_HALL_CMD_TAKEBACK);
    TB_FUZZ_CHECK(c.pin[0] && strspn(c.pin, "0123456789") == strlen(c.pin));
    int n = tb_hall_cmd_encode(&c, out, sizeof out, &err);
    TB_FUZZ_CHECK(n > 0);
    TB_FUZZ_CHECK(tb_hall_cmd_decode(out, (size_t)n, &c2, &err) == TB_OK);
    TB_FUZZ_CHECK(tb_hall_cmd_encode(&c2, out2, sizeof out2, &err) == n &&
                  memcmp(out, out2, (size_t)n) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_state(data, size);
    check_event(data, size);
    check_cmd(data, size);
    char *topic = tb_fuzz_cstr(data, size);
    char t[TB_HALL_NAME_MAX], x[TB_HALL_NAME_MAX], leaf[8];
    if (tb_hall_topic_parse(topic, t, x, leaf, sizeof leaf) == TB_OK)
        TB_FUZZ_CHECK(tb_hall_name_ok(t) && tb_hall_name_ok(x));
    free(topic);
    return 0;
}
