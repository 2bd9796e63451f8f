/* hall_topic.c - twinboard/<tournament>/<table>/<leaf> topics. */
#include <stdio.h>
#include <string.h>

#include "hall_internal.h"
#include "tb_hall.h"

int tb_hall_topic(const char *tournament, const char *table, const char *leaf, char *buf,
                  size_t cap)
{
    if (!tb_hall_name_ok(tournament) || !tb_hall_name_ok(table) || !tb_hall_name_ok(leaf))
        return TB_ERR_ARG;
    int n = snprintf(buf, cap, "twinboard/%s/%s/%s", tournament, table, leaf);
    return n < 0 || (size_t)n >= cap ? TB_ERR_FULL : n;
}

/* The next level of a topic into out: its length, or -1 if empty or too long. */
static int level(const char **p, char *out, size_t cap)
{
    const char *slash = strchr(*p, '/');
    size_t n = slash ? (size_t)(slash - *p) : strlen(*p);
    if (n == 0 || n >= cap)
        return -1;
    memcpy(out, *p, n);
    out[n] = '\0';
    *p += n + (slash ? 1 : 0);
    return slash ? 1 : 0;
}

int tb_hall_topic_parse(const char *topic, char *tournament, char *table, char *leaf,
                        size_t leaf_cap)
{
    char root[16];
    const char *p = topic;
    if (level(&p, root, sizeof root) != 1 || strcmp(root, "twinboard") != 0 ||
        level(&p, tournament, TB_HALL_NAME_MAX) != 1 || level(&p, table, TB_HALL_NAME_MAX) != 1 ||
        level(&p, leaf, leaf_cap) != 0 || !tb_hall_name_ok(tournament) || !tb_hall_name_ok(table))
        return TB_ERR_PARSE;
    return TB_OK;
}
