/* daemon_written.c - the journal and its writer thread as one part of the loop: opened with the
 * journal (recovery), its eventfd says a write has finished. */
#include "daemon_inputs.h"
#include "daemon_internal.h"

/* The journal and its writer thread. The journal comes first: recovery rebuilds the game before
 * any board is heard; the writer runs the commits off the loop. */
static int writer_part_open(struct tb_daemon *d, struct tb_error *err)
{
    int rc = tb_daemon__writer_open(d, err);
    if (rc == TB_OK)
        rc = tb_daemon__journal_open(d, err);
    if (rc == TB_OK)
        tb_match_status(d->match, &d->shown); /* recovered: all of it on disk */
    return rc;
}

static int writer_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    if (d->writer.efd < 0 || max < 1)
        return 0;
    p[0] = (struct pollfd){.fd = d->writer.efd, .events = POLLIN}; /* a write has finished */
    return 1;
}

static int writer_handle(struct tb_daemon *d, const struct pollfd *p, int n)
{
    if (n > 0 && (p[0].revents & POLLIN))
        tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_WRITTEN},
                         tb_daemon__clock(d), NULL);
    return TB_OK;
}

const struct tb_daemon__part tb_daemon__part_writer = {
    .name = "journal writer",
    .open = writer_part_open,
    .close = tb_daemon__writer_close,
    .pollfds = writer_pollfds,
    .handle = writer_handle,
};
