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

/* X(function suffix, command name, arguments, one-line summary) */
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
    X(status, "status", "[--socket PATH]", "the running game: state, boards, open mismatches")     \
    X(moves, "moves", "[--socket PATH]", "the moves both boards have agreed")                      \
    X(pgn, "pgn", "[--socket PATH]", "the running game as PGN, with the arbiter's notes")          \
    X(sheet, "sheet", "[en|nl|de] [--socket PATH]", "the running game's scoresheet (Article 8)")   \
    X(resolve, "resolve", "ID [--pin-file F] [--socket PATH]",                                     \
      "arbiter: confirm the resolution of mismatch ID (D.2.9); PIN: TB_PIN, file or prompt")       \
    X(takeback, "takeback", "[N] [--pin-file F] [--socket PATH]",                                  \
      "arbiter: take back N plies where the scoresheets differ (D.2.9)")                           \
    X(promote, "promote", "[vi|sighted] q|r|b|n [--socket PATH]",                                  \
      "the piece for a promotion (D.2.1)")                                                         \
    X(repeat, "repeat", "[vi|sighted] [--socket PATH]", "say the last move again to a player")     \
    X(new_game, "new-game",                                                                        \
      "[event=|site=|date=|round=|white=|black=VALUE]... [--pin-file F] [--socket PATH]",          \
      "arbiter: start a new game with the PGN tags given (its journal and PGN named by them)")     \
    X(result, "result",                                                                            \
      "resign white|black | draw | flag white|black | threefold | fifty | arbiter "                \
      "1-0|0-1|1/2-1/2 "                                                                           \
      "[REASON] [--pin-file F] [--socket PATH]",                                                   \
      "arbiter: the game's result (PGN, live broadcast, both players hear it)")                    \
    X(games, "games", "[--socket PATH]",                                                           \
      "the games kept: the running one, then each game's journal and PGN")                         \
    X(set_position, "set-position", "FEN [--pin-file F] [--socket PATH]",                          \
      "arbiter: set up a position on both boards")                                                 \
    X(move, "move", "vi|sighted|a|b SAN|UCI [--socket PATH]",                                      \
      "a move typed by the assistant for a keys: board (D.2.10.1; a|b: doorgeefschaak)")           \
    X(review, "review",                                                                            \
      "vi|sighted [last [N]|from N|position|to-move|material|scoresheet] [--socket PATH]",         \
      "say the game back to a player (D.2.7); prints what was said")                               \
    X(set_pin, "set-pin", "[--pin-file F] [--new-pin-file F] [--socket PATH]",                     \
      "arbiter: change the PIN (new one: TB_NEW_PIN, file or prompt)")                             \
    X(clock_set, "clock-set", "WHITE BLACK [--pin-file F] [--socket PATH]",                        \
      "arbiter: set the time left on both clocks, e.g. 1:25:00 1:20:30 (D.2.9, 6.10.2)")           \
    /* doorgeefschaak (docs/doorgeefschaak.md) */                                                  \
    X(bughouse_replay, "bughouse-replay",                                                          \
      "FILE [FILE] [--board-a NAME] [--board-b NAME] [--control SPEC] [--typed A|B] "              \
      "[--auto-press] [--hear-other-board SEAT] [--seat SEAT] [--say PACK] [--short] "             \
      "[--bpgn FILE] [--blip-ms N] [--prompt-ms N] [--until MS] [--fen-a FEN] [--fen-b FEN]",      \
      "doorgeefschaak: two boards' events through the match; what the arbiter or a seat hears")    \
    X(bughouse_events, "bughouse-events",                                                          \
      "FILE [--seed N] [--noise] [--blip-ms N] [--out-a FILE] [--out-b FILE]",                     \
      "doorgeefschaak: a BPGN game as the event scripts of its two boards")                        \
    X(hand, "hand", "white-a|black-a|white-b|black-b [--socket PATH]",                             \
      "doorgeefschaak: what that player holds, also said to them (2.6)")                           \
    X(bpgn, "bpgn", "[--socket PATH]", "doorgeefschaak: both games as BPGN")                       \
    X(resign, "resign", "a|b white|black [--pin-file F] [--socket PATH]",                          \
      "doorgeefschaak, arbiter: that player resigns (5.2)")                                        \
    X(choose, "choose", "a|b q|r|b|n|p [--socket PATH]",                                           \
      "doorgeefschaak: the piece of the drop or promotion waiting on that board")                  \
    X(accept, "accept", "a|b [--socket PATH]",                                                     \
      "doorgeefschaak: the illegal move pressed on that board stands (7.4)")                       \
    X(replace, "replace", "a|b [--socket PATH]",                                                   \
      "doorgeefschaak: the illegal move pressed on that board is replaced (7.4, 7.6)")

#define TB_CLI_DECLARE(fn, name, args, summary) int tb_cli_cmd_##fn(int argc, char **argv);
TB_CLI_COMMANDS(TB_CLI_DECLARE)
#undef TB_CLI_DECLARE

enum { TB_CLI_OK = 0, TB_CLI_FOUND = 1, TB_CLI_USAGE = 2 };

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
