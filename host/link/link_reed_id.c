/* link_reed_id.c - reed:id=N: a reed board named by who it is, not by where it is plugged in.
 *
 * While the board is away the link asks the candidates (link_probe.c) one at a time, and takes
 * the tty whose board answers with identity N; from then on it is a reed board like serial:
 * (link_reed.c), and the tty stays locked so no other link or probe reads its bytes. Lost
 * (unplugged), it asks again. A candidate that answered with another identity, or not at all,
 * is not asked again until its device node is made anew (plugged in again): asking opens the
 * port, and opening an Arduino's port restarts it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_internal.h"

#define ROUND_MS       500 /* a look at the candidates while the board is away */
#define MAX_CANDIDATES 16
#define MAX_OTHERS     32

struct reed_id {
    uint32_t id;
    struct tb_link__reed reed;
    struct tb_link__probe probe;
    char cand[MAX_CANDIDATES][TB_LINK__PATH_MAX];
    int ncand, next;
    uint64_t next_round_ms;
    struct tb_link__plug other[MAX_OTHERS]; /* plugs that are not this board (a ring) */
    int nother, other_next;
};

static bool known_other(const struct reed_id *u, const struct tb_link__plug *p)
{
    for (int i = 0; i < u->nother; i++)
        if (tb_link__plug_same(&u->other[i], p))
            return true;
    return false;
}

static void remember_other(struct reed_id *u, const char *path)
{
    struct tb_link__plug p;
    if (!tb_link__plug_of(path, &p))
        return;
    u->other[u->other_next] = p;
    u->other_next = (u->other_next + 1) % MAX_OTHERS;
    if (u->nother < MAX_OTHERS)
        u->nother++;
}

/* The probe under way has answered (or given up): take the board, or pass on. */
static void probe_done(struct reed_id *u, int rc, uint64_t now_ms)
{
    if (rc == 1 && u->probe.info.serial == u->id) {
        u->reed.kind = u->probe.pty ? TB_LINK_PTY : TB_LINK_SERIAL;
        snprintf(u->reed.path, sizeof u->reed.path, "%s", u->probe.path);
        tb_link__reed_adopt(&u->reed, u->probe.fd, u->probe.port, now_ms);
        u->probe.fd = -1; /* the reed link has it now */
        u->probe.port = NULL;
        return;
    }
    if (rc == 1 || rc == TB_ERR_TIMEOUT) /* another board, or no reed board at all */
        remember_other(u, u->probe.path);
    tb_link__probe_end(&u->probe);
}

/* Asks the next candidate, starting a new round when every one has been asked. */
static void probe_next(struct reed_id *u, uint64_t now_ms)
{
    for (int tries = 0; tries <= MAX_CANDIDATES; tries++) {
        if (u->next >= u->ncand) {
            if (now_ms < u->next_round_ms)
                return;
            u->ncand = tb_link__candidates(u->cand, MAX_CANDIDATES);
            u->next = 0;
            u->next_round_ms = now_ms + ROUND_MS;
            if (!u->ncand)
                return;
        }
        const char *path = u->cand[u->next++];
        struct tb_link__plug p;
        if (!tb_link__plug_of(path, &p) || known_other(u, &p))
            continue;
        if (tb_link__probe_start(&u->probe, path, now_ms) == TB_OK)
            return; /* busy (another link has it) or gone: the next one */
    }
}

static void look(struct reed_id *u, uint64_t now_ms)
{
    if (u->reed.connected)
        return;
    if (u->probe.fd >= 0) {
        int rc = tb_link__probe_step(&u->probe, now_ms);
        if (rc == 0)
            return;
        probe_done(u, rc, now_ms);
        if (u->reed.connected)
            return;
    }
    probe_next(u, now_ms);
}

static int reed_id_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                        struct tb_error *err)
{
    struct reed_id *u = calloc(1, sizeof *u);
    if (!u)
        return tb_error_set(err, TB_ERR_MEM, "reed:id=%lu: out of memory",
                            (unsigned long)res->board_id);
    tb_link_set_priv(link, u);
    u->id = res->board_id;
    u->probe.fd = -1;
    tb_link__reed_init(&u->reed, TB_LINK_SERIAL, "", false);
    char why[TB_LINK_TEXT_MAX];
    snprintf(why, sizeof why,
             "waiting for reed board id %lu among %.40s/" TB_LINK_CANDIDATE_PREFIX "*",
             (unsigned long)u->id, tb_link_dev_dir());
    tb_link__reed_disconnect(&u->reed, why);
    look(u, now_ms);
    return TB_OK;
}

static int reed_id_fd(const struct tb_link *link)
{
    const struct reed_id *u = tb_link_priv(link);
    return u->reed.connected ? u->reed.fd : u->probe.fd;
}

static uint64_t reed_id_deadline(const struct tb_link *link)
{
    const struct reed_id *u = tb_link_priv(link);
    uint64_t d = tb_link__reed_deadline(&u->reed);
    if (u->reed.connected)
        return d;
    uint64_t mine = u->probe.fd >= 0 ? tb_link__probe_due(&u->probe) : u->next_round_ms;
    return mine < d ? mine : d;
}

static int reed_id_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                        struct tb_error *err)
{
    (void)err;
    struct reed_id *u = tb_link_priv(link);
    look(u, now_ms);
    int n = tb_link__reed_read(&u->reed, now_ms, ev, max);
    if (!u->reed.connected && u->probe.fd < 0)
        look(u, now_ms); /* lost just now: start asking at once */
    return n;
}

static int reed_id_request_snapshot(struct tb_link *link, struct tb_error *err)
{
    struct reed_id *u = tb_link_priv(link);
    return tb_link__reed_request_snapshot(&u->reed, err);
}

static void reed_id_stats(const struct tb_link *link, struct tb_link_stats *st)
{
    const struct reed_id *u = tb_link_priv(link);
    tb_link__reed_stats(&u->reed, st);
}

static void reed_id_close(struct tb_link *link)
{
    struct reed_id *u = tb_link_priv(link);
    if (!u)
        return;
    tb_link__probe_end(&u->probe);
    tb_link__reed_disconnect(&u->reed, NULL);
    free(u);
    tb_link_set_priv(link, NULL);
}

static unsigned reed_id_caps(const struct tb_link_resource *res)
{
    (void)res;
    return TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_HOTPLUG | TB_LINK_CAP_DEVICE;
}

const struct tb_link_ops tb_link__reed_id_ops = {
    .scheme = "reed",
    .caps = reed_id_caps,
    .open = reed_id_open,
    .fd = reed_id_fd,
    .deadline = reed_id_deadline,
    .read = reed_id_read,
    .request_snapshot = reed_id_request_snapshot,
    .stats = reed_id_stats,
    .close = reed_id_close,
};
