/* config_check.h - shared by the configuration tests: a file parsed over the user's defaults,
 * and files that must each be refused with one problem naming its line, nothing changed. */
#ifndef TB_TEST_CONFIG_CHECK_H
#define TB_TEST_CONFIG_CHECK_H

#include <stddef.h>

#include "tb_config.h"

/* text parsed over the defaults of a user's daemon (/run/user/1000, /home/a). */
int config_check_parse(const char *text, struct tb_config *c, struct tb_config_report *rep);

struct config_check_bad {
    const char *text;
    long line;
    const char *msg;
};

/* Each text refused: exactly one problem, at its line, its message containing msg, the
 * configuration as it was. */
void config_check_refused(const struct config_check_bad *bad, size_t n);

#endif
