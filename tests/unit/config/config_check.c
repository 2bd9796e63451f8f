/* config_check.c - the configuration tests' shared checks (config_check.h). */
#include "config_check.h"

#include <string.h>

#include "tb_test.h"

static const struct tb_config_place user_place = {.runtime_dir = "/run/user/1000",
                                                  .home = "/home/a"};

int config_check_parse(const char *text, struct tb_config *c, struct tb_config_report *rep)
{
    tb_config_defaults(c, &user_place, NULL);
    return tb_config_parse(c, text, strlen(text), rep);
}

void config_check_refused(const struct config_check_bad *bad, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct tb_config c, before;
        struct tb_config_report rep;
        tb_config_defaults(&c, &user_place, NULL);
        before = c;
        ASSERT_EQ(tb_config_parse(&c, bad[i].text, strlen(bad[i].text), &rep), TB_ERR_PARSE);
        ASSERT_EQ(rep.count, 1);
        if (rep.problem[0].line != bad[i].line || !strstr(rep.problem[0].msg, bad[i].msg))
            TB_FAIL("bad file %zu: line %ld: %s (want line %ld: %s)", i, rep.problem[0].line,
                    rep.problem[0].msg, bad[i].line, bad[i].msg);
        ASSERT_EQ(memcmp(&c, &before, sizeof c), 0); /* nothing changed */
    }
}
