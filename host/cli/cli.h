/* cli.h - the commands of `twinboard` and the helpers they share.
 *
 * To add a command: one X(...) line in TB_CLI_COMMANDS below and one file cmd_<fn>.c that
 * defines `int tb_cli_cmd_<fn>(int argc, char **argv)` (argv[0] is the command's name). A
 * command prints its results on stdout, reports errors once on stderr through tb_cli_error, and
 * returns the exit status: 0 success, 1 the input has problems it found, 2 usage or I/O error.
 */
#ifndef TB_CLI_H
#define TB_CLI_H

#include <stddef.h>

/* X(function suffix, command name, arguments, one-line summary). The commands that send a
 * request to twinboardd come from the requests' rows (TB_CTL_VERBS in tb_ctl.h: the CLI name,
 * arguments and summary) and run through tb_cli_ctl (cmd_ctl.c). */
#define TB_CLI_COMMANDS(X)                                                                         \
    X(perft, "perft", "[--divide] [--960] DEPTH [FEN]",                                            \
      "count the leaf nodes of the legal move tree (default: the starting position)")              \
    X(replay, "replay",                                                                            \
      "--events FILE [--fen FEN] [--board NAME] [--blip-ms N] [--promo-wait-ms N] [--touches]",    \
      "recognise the moves in one board's event script; problems as '! kind ...' lines")           \
    X(events_from_pgn, "events-from-pgn",                                                          \
      "FILE [--seed N] [--game N] [--board NAME] [--blips] [--fault "                              \
      "wrong-square|knocked-piece|same-side-twice] [--fault-rate P]",                              \
      "write a game of a PGN file as the event script a board would report")                       \
    X(pgn_check, "pgn-check", "FILE...",                                                           \
      "replay every game of PGN files; report illegal or unreadable moves")                        \
    X(say, "say",                                                                                  \
      "[--fen FEN] [--pack NAME] [--short] [--wav FILE] [--play [--device NAME]] [--rate WPM] "    \
      "[--phonemes] MOVE... | --list-devices",                                                     \
      "print (and speak) the D.2.1 announcement of each move, moves in UCI or SAN")                \
    X(board_test, "board-test", "[--wait-ms N] [--debounce-ms N] [--timeout-s N] PORT",            \
      "run a reed board's self-test square by square and print the map of its switches")           \
    X(flash, "flash", "[--hex FILE] [--baud 115200|57600] [PORT]",                                 \
      "write the reed board's firmware image to its Nano with avrdude")                            \
    X(devices, "devices", "",                                                                      \
      "list the audio output devices and the boards by the names to put in the configuration")     \
    X(board_id, "board-id", "TTY [ID|new]",                                                        \
      "show a reed board's identity, or give one that has none an identity (set once)")            \
    X(scoresheet, "scoresheet", "[--letters en|nl|de] [--game N] FILE",                            \
      "print one game of a PGN file as a scoresheet (Appendix C notation)")                        \
    X(braille, "braille",                                                                          \
      "FILE [--lang de|nl|en] [--grade 1|2] [--cells N] [--lines N] [--unicode] [--game N] "       \
      "[-o FILE]",                                                                                 \
      "the games of a PGN file as a braille scoresheet: BRF for an embosser, or --unicode "        \
      "(D.2.7)")                                                                                   \
    X(daisy, "daisy", "FILE -o DIR [--pack NAME] [--game N] [--rate WPM] [--audio mp3|wav]",       \
      "the games of a PGN file as a DAISY 2.02 talking book, one navigation point a move (D.2.7)") \
    X(large_print, "large-print",                                                                  \
      "FILE -o FILE.pdf [--pt N] [--lang de|nl|en] [--figurine] [--diagram] [--game N]",           \
      "the games of a PGN file as a large-print PDF scoresheet (D.2.7)")                           \
    X(demo, "demo", "[--realtime] [--sim] [--audio wav:DIR|pa|null] [--keep DIR] [--limit S]",     \
      "a game on two simulated boards through twinboardd, with one replication error resolved")    \
    /* doorgeefschaak (docs/doorgeefschaak.md) */                                                  \
    X(bughouse_replay, "bughouse-replay",                                                          \
      "FILE [FILE] [--board-a NAME] [--board-b NAME] [--control SPEC] [--typed A|B] "              \
      "[--auto-press] [--hear-other-board SEAT] [--seat SEAT] [--say PACK] [--short] "             \
      "[--bpgn FILE] [--blip-ms N] [--prompt-ms N] [--until MS] [--fen-a FEN] [--fen-b FEN]",      \
      "doorgeefschaak: two boards' events through the match; what the arbiter or a seat hears")    \
    X(bughouse_events, "bughouse-events",                                                          \
      "FILE [--seed N] [--noise] [--blip-ms N] [--out-a FILE] [--out-b FILE]",                     \
      "doorgeefschaak: a BPGN game as the event scripts of its two boards")

#define TB_CLI_DECLARE(fn, name, args, summary) int tb_cli_cmd_##fn(int argc, char **argv);
TB_CLI_COMMANDS(TB_CLI_DECLARE)
#undef TB_CLI_DECLARE

enum { TB_CLI_OK = 0, TB_CLI_FOUND = 1, TB_CLI_USAGE = 2 };

/* A control request's command (its row: struct tb_ctl_verb_info) with its arguments. */
struct tb_ctl_verb_info;
int tb_cli_ctl(const struct tb_ctl_verb_info *v, int argc, char **argv);

/* "twinboard: <message>" on stderr. */
void tb_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the command's usage line on stderr and returns TB_CLI_USAGE. */
int tb_cli_usage(const char *name);
/* The whole file, NUL-terminated, in memory the caller frees; NULL after reporting why. */
char *tb_cli_read_file(const char *path, size_t *len);
/* A whole decimal number in [min, max]; false if s is anything else. */
int tb_cli_parse_int(const char *s, long min, long max, long *out);

struct option;
/* getopt_long over a command's arguments (argv[0] is its name): options and operands in any
 * order, "--opt=value" and "--opt value" alike. shorts: the short options ("c:"), may be "".
 * Returns an option's val, 1 for an operand (optarg is it), -1 at the end, or '?' once an
 * unknown option or a missing value has been reported. */
int tb_cli_getopt(int argc, char **argv, const char *shorts, const struct option *longs);

#endif /* TB_CLI_H */
