/* outputs.c - what the bugmatch tests read back from a match. */
#include "outputs.h"

#include <stdlib.h>
#include <string.h>

#include "tb_test.h"

const char *bugmatch_lines(tb_bugmatch *m)
{
    static char all[4096];
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

char *bugmatch_bpgn(const tb_bug_record *rec)
{
    int n = tb_bug_bpgn_write(rec, NULL, 0);
    ASSERT_GT(n, 0);
    char *buf = malloc((size_t)n + 1);
    ASSERT_NOT_NULL(buf);
    ASSERT_EQ(tb_bug_bpgn_write(rec, buf, (size_t)n + 1), n);
    return buf;
}
