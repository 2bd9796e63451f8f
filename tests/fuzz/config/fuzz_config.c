/* fuzz_config.c - fuzz target of the daemon's configuration parser (tb_config_parse, over
 * libinih, and the board resource strings it checks with tb_link_resource_parse).
 *
 * A refused file must leave the caller's configuration exactly as it was and name every
 * problem with a line inside the file; an accepted one must give a configuration the daemon can
 * use (terminated strings, a PIN of digits, two colours, values in their ranges, boards that
 * parse) and applying it again must change nothing. */
#include "tb_config.h"
#include "tb_ctl.h"
#include "tb_fuzz.h"
#include "tb_link.h"

static bool terminated(const char *s, size_t cap)
{
    return memchr(s, '\0', cap) != NULL;
}

static void check_config(const struct tb_config *c)
{
    TB_FUZZ_CHECK(terminated(c->arbiter_pin, sizeof c->arbiter_pin));
    size_t pin = strlen(c->arbiter_pin);
    TB_FUZZ_CHECK(pin >= TB_CONFIG_PIN_MIN && pin <= TB_CONFIG_PIN_MAX);
    TB_FUZZ_CHECK(strspn(c->arbiter_pin, "0123456789") == pin);
    TB_FUZZ_CHECK(tb_ctl_pin_weakness(c->arbiter_pin) == NULL); /* as set-pin would take */
    TB_FUZZ_CHECK(c->blip_window_ms >= 10 && c->blip_window_ms <= 2000);
    TB_FUZZ_CHECK(terminated(c->journal_dir, sizeof c->journal_dir) && c->journal_dir[0] == '/');
    TB_FUZZ_CHECK(terminated(c->socket_path, sizeof c->socket_path) && c->socket_path[0] == '/');
    TB_FUZZ_CHECK(strlen(c->socket_path) < 108);
    TB_FUZZ_CHECK(c->log_level >= TB_CONFIG_LOG_ERROR && c->log_level <= TB_CONFIG_LOG_DEBUG);
    TB_FUZZ_CHECK(c->player[0].colour != c->player[1].colour);
    for (int r = 0; r < 2; r++) {
        const struct tb_config_player *p = &c->player[r];
        TB_FUZZ_CHECK(terminated(p->board, sizeof p->board) && terminated(p->pack, sizeof p->pack));
        TB_FUZZ_CHECK(terminated(p->voice, sizeof p->voice) &&
                      terminated(p->audio, sizeof p->audio));
        struct tb_link_resource res;
        TB_FUZZ_CHECK(tb_link_resource_parse(p->board, &res, NULL) == TB_OK);
        TB_FUZZ_CHECK(p->rate >= 80 && p->rate <= 800); /* as a pack's rate */
        TB_FUZZ_CHECK(p->audio[0] != '\0');
    }
    const struct tb_config_game *g = &c->game; /* the game's tags: PGN-safe */
    TB_FUZZ_CHECK(terminated(g->white, sizeof g->white) && !strpbrk(g->white, "\"\\"));
    TB_FUZZ_CHECK(terminated(g->round, sizeof g->round) && !strpbrk(g->round, "\"\\"));
    char line[2048];
    int n = tb_config_summary(c, line, sizeof line);
    TB_FUZZ_CHECK(n > 0 && (size_t)n < sizeof line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct tb_config cfg, before, again;
    static struct tb_config_report rep;
    char *text = malloc(size ? size : 1); /* exactly the input: a read past it is caught */
    if (!text)
        abort();
    memcpy(text, data, size);
    long lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';

    const struct tb_config_place place = {.runtime_dir = "/run/user/1000",
                                          .state_home = "/var/lib"};
    tb_config_defaults(&cfg, &place, NULL);
    memcpy(&before, &cfg, sizeof cfg);
    int rc = tb_config_parse(&cfg, text, size, &rep);
    if (rc != TB_OK) {
        TB_FUZZ_CHECK(rc == TB_ERR_PARSE && rep.count > 0);
        TB_FUZZ_CHECK(memcmp(&cfg, &before, sizeof cfg) == 0);
        int stored = rep.count < TB_CONFIG_MAX_PROBLEMS ? rep.count : TB_CONFIG_MAX_PROBLEMS;
        for (int i = 0; i < stored; i++) {
            TB_FUZZ_CHECK(rep.problem[i].line >= 1 && rep.problem[i].line <= lines);
            TB_FUZZ_CHECK(rep.problem[i].msg[0] &&
                          terminated(rep.problem[i].msg, sizeof rep.problem[i].msg));
        }
    } else {
        TB_FUZZ_CHECK(rep.count == 0);
        check_config(&cfg);
        memcpy(&again, &cfg, sizeof cfg);
        TB_FUZZ_CHECK(tb_config_parse(&again, text, size, &rep) == TB_OK);
        TB_FUZZ_CHECK(memcmp(&again, &cfg, sizeof cfg) == 0);
    }
    free(text);
    return 0;
}
