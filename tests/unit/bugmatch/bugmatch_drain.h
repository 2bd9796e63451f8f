/* bugmatch_drain.h - the tests' reading of a match's outputs. */
#ifndef BUGMATCH_DRAIN_H
#define BUGMATCH_DRAIN_H

#include <string.h>

#include "tb_bugmatch.h"
#include "tb_test.h"

/* All outputs so far as lines, "|" between, touches left out. */
static inline const char *drain(tb_bugmatch *m)
{
    static char all[8192];
    char line[256];
    struct tb_bugmatch_out o;
    all[0] = '\0';
    while (tb_bugmatch_poll(m, &o)) {
        if (o.kind == TB_BUGMATCH_OUT_BOARD && o.sensor.kind == TB_SENSOR_OUT_TOUCH)
            continue;
        ASSERT_GT(tb_bugmatch_out_format(&o, line, sizeof line), 0);
        strncat(all, all[0] ? "|" : "", sizeof all - strlen(all) - 1);
        strncat(all, line, sizeof all - strlen(all) - 1);
    }
    return all;
}

#endif /* BUGMATCH_DRAIN_H */
