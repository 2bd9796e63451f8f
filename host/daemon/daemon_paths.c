/* daemon_paths.c - the control socket's and the journal's directories: made when missing
 * (0700 for a user, 0750 for the service, as its unit's RuntimeDirectoryMode and
 * StateDirectoryMode) and checked before anything is opened in them: no symbolic link, owned by
 * the daemon's user or root, no other user may write there. A default never lands in /tmp
 * (paths.c); a configured path gets the same check. */
#include <stdio.h>

#include "daemon_shell.h"

int tb_daemon__paths_prepare(struct tb_daemon *d, struct tb_error *err)
{
    struct tb_config need = {0}; /* only what came from the defaults must have a place */
    snprintf(need.socket_path, sizeof need.socket_path, "%s",
             d->opt.socket_path ? "-" : d->cfg->socket_path);
    snprintf(need.journal_dir, sizeof need.journal_dir, "%s",
             d->opt.journal_dir ? "-" : d->cfg->journal_dir);
    int rc = tb_config_require_paths(&need, err);
    if (rc != TB_OK)
        return rc;
    struct tb_config_place place;
    tb_config_place_from_env(&place);
    unsigned mode = place.service ? 0750 : 0700;
    if (d->socket_path[0] &&
        (rc = tb_config_make_dir(d->socket_path, false, mode, "control socket", err)) != TB_OK)
        return rc;
    return tb_config_make_dir(d->cfg->journal_dir, true, mode, "journal", err);
}
