/* replay.c - a record played through two simulated boards into a match. */
#include "bugmatch_internal.h"

struct feed {
    tb_bugmatch *m;
    long events;
    struct tb_error *err;
};

static int feed(void *user, const struct tb_script_event *ev, long line)
{
    struct feed *f = user;
    (void)line;
    f->events++;
    int rc = tb_bugmatch_feed_script(f->m, ev->board[0] - 'A', ev);
    /* a choice the recogniser has no use for (the only kind, already decided) is no fault */
    if (rc && !(ev->kind == TB_SCRIPT_CHOOSE && rc == TB_ERR_STATE))
        return tb_error_set(f->err, TB_ERR_STATE, "%s at %llu ms on board %s refused (%d)",
                            tb_script_kind_name(ev->kind), (unsigned long long)ev->ms, ev->board,
                            rc);
    return TB_OK;
}

int tb_bugmatch_replay(const tb_bug_record *rec, const struct tb_bugmatch_config *cfg,
                       const struct tb_bugmatch_gen_config *gcfg, uint64_t seed, tb_bugmatch **out,
                       long *events, struct tb_error *err)
{
    struct feed f = {.err = err};
    struct tb_bugmatch_gen_config named = {.blip_ms = 100, .noise = true};
    int rc = tb_bugmatch_new(cfg, &f.m, err);
    if (rc)
        return rc;
    if (gcfg)
        named = *gcfg;
    for (int b = 0; b < TB_BUGMATCH_BOARDS; b++) /* a DGT board names its pieces */
        named.dgt[b] = tb_bugmatch_board(f.m, b) == TB_BUGMATCH_DGT;
    rc = tb_bugmatch_gen_script(rec, &named, seed, feed, &f, err);
    uint64_t end = f.m->now + 24ULL * 3600 * 1000; /* every clock has run out by then */
    if (!rc)
        rc = tb_bugmatch_tick(f.m, end);
    if (rc) {
        tb_bugmatch_free(f.m);
        return rc;
    }
    if (events)
        *events = f.events;
    *out = f.m;
    return TB_OK;
}
