/* daemon_parts.c - the daemon's parts list, the one place that names them: the loop (daemon.c)
 * opens, serves and closes them through it (and hands the mode their order in status) and calls
 * none of their slots by name. */
#include "daemon_shell.h"

/* The parts, in the order they are opened (closed in the reverse): the VI player's state and
 * the clock before recovery (the writer's open) rebuilds them, the journal before any board is
 * heard, the voice and the braille displays after it (recovery's words are heard by nobody), the
 * control socket last (a client finds a daemon ready). */
const struct tb_daemon__part *const tb_daemon__parts_opened[] = {
    &tb_daemon__part_vi,     &tb_daemon__part_clock,     &tb_daemon__part_games,
    &tb_daemon__part_writer, &tb_daemon__part_voice,     &tb_daemon__part_braille,
    &tb_daemon__part_boards, &tb_daemon__part_broadcast, &tb_daemon__part_hall,
    &tb_daemon__part_ctl,
};

/* The same parts in the order each turn serves them (their pollfds, then their handles). */
const struct tb_daemon__part *const tb_daemon__parts_served[] = {
    &tb_daemon__part_voice,  &tb_daemon__part_writer, &tb_daemon__part_braille,
    &tb_daemon__part_boards, &tb_daemon__part_ctl,    &tb_daemon__part_broadcast,
    &tb_daemon__part_hall,   &tb_daemon__part_clock,  &tb_daemon__part_games,
    &tb_daemon__part_vi, /* nothing to serve: its deadline is the session's (tb_daemon__vi_next) */
};

/* The same parts in the order their lines are read in the status answer, after the game's own:
 * the boards, the game's clock, the speech and the headsets, the broadcast, the hall. */
const struct tb_daemon__part *const tb_daemon__parts_status[] = {
    &tb_daemon__part_boards,    &tb_daemon__part_clock, &tb_daemon__part_voice,
    &tb_daemon__part_broadcast, &tb_daemon__part_hall,  &tb_daemon__part_braille,
    &tb_daemon__part_writer,    &tb_daemon__part_games, &tb_daemon__part_ctl,
    &tb_daemon__part_vi,
};

_Static_assert(sizeof tb_daemon__parts_opened / sizeof tb_daemon__parts_opened[0] == TBD_NPARTS,
               "every part is opened");
_Static_assert(sizeof tb_daemon__parts_served / sizeof tb_daemon__parts_served[0] == TBD_NPARTS,
               "every part is served");
_Static_assert(sizeof tb_daemon__parts_status / sizeof tb_daemon__parts_status[0] == TBD_NPARTS,
               "every part has its place in status");
