/* tb_voice.h - spoken announcements (FIDE Laws Appendix D.2.1) for each player's own ears.
 *
 * Three layers, usable on their own:
 *   1. Phrase packs: the words and word orders of one language, loaded from a text file
 *      (voice/packs/NAME.pack, format in docs/voice.md). A new language is a new file.
 *   2. Phrases: pure functions from a position and a move (or a system message and its
 *      parameters) to UTF-8 text in a pack's words: "Springer Gustav eins Felix drei".
 *   3. The speaker (struct tb_voice): one speech thread owns every eSpeak NG call and renders
 *      22050 Hz mono s16 PCM into one output sink per player (PortAudio device, WAV file, null,
 *      or the caller's own ops table). Each player has an ordered queue; an urgent message cuts in;
 *      the last move can be repeated; completions are reported through a pollable fd.
 *
 * Errors are the codes of tb_err.h; where a person must be told what went wrong, functions
 * fill a struct tb_error (NULL allowed). The library never prints.
 */
#ifndef TB_VOICE_H
#define TB_VOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_err.h"

/* ---- phrase packs ------------------------------------------------------------------------ */

struct tb_voice_pack;

/* Longest entry a pack may hold, in bytes (NUL excluded); the loader refuses longer ones. Every
 * phrase is built in buffers sized from these, so a pack that loads never makes a phrase fail
 * or be cut: a phrase that does not fit the caller's buffer is TB_ERR_FULL. */
#define TB_VOICE_WORD_MAX     48  /* a word, name or number: "Springer", "de+f3", "170" */
#define TB_VOICE_TEMPLATE_MAX 256 /* a template or a phoneme spelling */
/* A square's words, "Gustav eins": file word, space, rank word. */
#define TB_VOICE_SQUARE_MAX (2 * TB_VOICE_WORD_MAX + 1)

/* Loads a pack from a file. A missing, malformed, unknown or duplicate entry, or a template with
 * a placeholder it may not use, is refused with err naming file, line and entry
 * (err->line is the line; 0 when the entry is missing entirely). */
int tb_voice_pack_load_file(const char *path, struct tb_voice_pack **out, struct tb_error *err);
/* Loads a pack from len bytes of text in memory, as tb_voice_pack_load_file does from a file
 * (which reads the file and calls this): name stands for the file in the messages. */
int tb_voice_pack_load_text(const char *name, const char *text, size_t len,
                            struct tb_voice_pack **out, struct tb_error *err);

/* Loads pack NAME ("de-fide", "nl", "en") from the search path: the directories of the
 * environment variable TB_VOICE_PACKS (colon-separated) when it is set, else
 * $TWINBOARD_DATA_DIR/packs when that is set, otherwise the installed packs relative to the
 * running program (PREFIX/share/twinboard/packs beside PREFIX/bin), the build directory's copy,
 * the configured prefix's copy and the source tree's voice/packs/. NULL or "" means the default
 * pack, "de-fide". */
int tb_voice_pack_load(const char *name, struct tb_voice_pack **out, struct tb_error *err);

/* Finds pack NAME: the first readable DIR/NAME.pack of the colon-separated dirs (NULL: the search
 * path above). Writes the file's path into path; returns its length, TB_ERR_NOTFOUND naming the
 * directories, or TB_ERR_ARG for a name that is not letters, digits, - and _. Any pack file
 * found can be named: the set of packs is not fixed. */
int tb_voice_pack_find(const char *name, const char *dirs, char *path, size_t len,
                       struct tb_error *err);
/* The packs available in dirs (NULL: the search path): fn is called once per pack name, in
 * name order, with the path that tb_voice_pack_find gives (an earlier directory wins). Files
 * are not loaded, so a listed pack can still be refused by tb_voice_pack_load_file. Returns the
 * number of packs, or TB_ERR_MEM. */
int tb_voice_pack_list(const char *dirs, void (*fn)(void *arg, const char *name, const char *path),
                       void *arg);

/* Is s well-formed UTF-8 (no overlong two-byte forms)? Packs must be; so is text for a braille
 * display. */
bool tb_voice_utf8_valid(const char *s);

/* Writes the search path used by tb_voice_pack_load (colon-separated) into buf; returns its
 * length or TB_ERR_FULL. */
int tb_voice_pack_search_path(char *buf, size_t len);

void tb_voice_pack_free(struct tb_voice_pack *pack);

/* The pack's name (its [pack] name entry) and its eSpeak NG voice settings. */
const char *tb_voice_pack_name(const struct tb_voice_pack *pack);
struct tb_voice_settings {
    char espeak_voice[64]; /* eSpeak NG voice name, "de", "de+f3" ... */
    int rate;              /* words per minute, 80..800 */
    int pitch;             /* 0..100 */
    int volume;            /* 0..200, 100 is normal */
    int wordgap;           /* pause between words in 10 ms units */
};
void tb_voice_pack_settings(const struct tb_voice_pack *pack, struct tb_voice_settings *out);

/* The text handed to eSpeak NG for written text `text`: words the pack gives a phoneme spelling
 * for are replaced, as whole words, by that spelling ("[[rOS'a:d@]]"). The written text itself
 * never contains phonemes. Returns the length, or TB_ERR_FULL. */
int tb_voice_pack_speech_text(const struct tb_voice_pack *pack, const char *text, char *buf,
                              size_t len);

/* ---- phrases ----------------------------------------------------------------------------- */

enum tb_voice_form {
    TB_VOICE_LONG = 0,  /* departure and arrival square: "Springer Gustav eins Felix drei" */
    TB_VOICE_SHORT = 1, /* as in SAN: "Springer Felix drei", pawns "Eva vier" */
};

/* The announcement of legal move m in pos (check and mate suffixes included). Returns the length
 * (excluding the NUL), TB_ERR_ILLEGAL if m is not legal in pos, TB_ERR_FULL if len is too small.
 * 256 bytes always suffice for the shipped packs. */
int tb_voice_phrase_move(const struct tb_voice_pack *pack, const tb_chess_pos *pos, tb_chess_move m,
                         enum tb_voice_form form, char *buf, size_t len);

/* A square in the pack's words: 28 -> "Eva vier". */
int tb_voice_phrase_square(const struct tb_voice_pack *pack, int sq, char *buf, size_t len);

/* System messages the daemon speaks. The parameters each one uses are listed. */
enum tb_voice_msg {
    TB_VOICE_MSG_MISMATCH = 0, /* D.2.9: the boards differ; board */
    TB_VOICE_MSG_ILLEGAL,      /* the move made is not legal */
    TB_VOICE_MSG_WAIT,         /* please wait */
    TB_VOICE_MSG_REPLICATE,    /* please make the announced move on your board; move */
    TB_VOICE_MSG_PUT_RIGHT,    /* how to correct a board: lift[], place[] */
    TB_VOICE_MSG_ARBITER,      /* the arbiter has been called */
    TB_VOICE_MSG_CLOCK, /* D.2.6: time of both players and moves made; white_ms, black_ms, n */
    TB_VOICE_MSG_MOVE_NUMBER,    /* D.2.7 audio scoresheet line; n, move */
    TB_VOICE_MSG_CORRECTION,     /* D.2.8 slip of the tongue corrected; move */
    TB_VOICE_MSG_NO_MOVE,        /* nothing to repeat yet */
    TB_VOICE_MSG_TAKEN,          /* the player's own move was taken (confirmation word) */
    TB_VOICE_MSG_NOT_RECOGNISED, /* the player's own move was not recognised */
    /* Promotion by the player's own board (4.6, D.2.1): */
    TB_VOICE_MSG_PROMOTION_ASK,   /* the promotion waits for its piece: which one? */
    TB_VOICE_MSG_PROMOTION_PIECE, /* the piece a press of the promote button offers; piece */
    TB_VOICE_MSG_PROMOTION_NONE,  /* the promote button with no promotion to make */
    TB_VOICE_MSG_PROMOTION_QUEEN, /* 7.5.2: the move was ended without a choice; piece */
    TB_VOICE_MSG_WINS,            /* the game is over, board (a colour) wins */
    TB_VOICE_MSG_DRAW,            /* the game is over, drawn */
    TB_VOICE_MSG_FLAG, /* 6.9: board's flag fell; n: the result, 0 draw, 1 White wins, 2 Black */
    TB_VOICE_MSG_COUNT
};

/* One square to empty or fill when putting a board right. piece: a piece code of tb_chess.h, or
 * 0 when unknown (the pack's word for "piece" is said). */
struct tb_voice_square_action {
    uint8_t sq;
    uint8_t piece;
};

struct tb_voice_msg_args {
    int board;        /* TB_CHESS_WHITE or TB_CHESS_BLACK: whose board */
    const char *move; /* a move phrase built by tb_voice_phrase_move */
    int n;            /* a move number or count */
    long white_ms, black_ms;
    const struct tb_voice_square_action *lift; /* pieces to take off */
    int nlift;
    const struct tb_voice_square_action *place; /* pieces to put on */
    int nplace;
    int piece; /* PROMOTION_PIECE, PROMOTION_QUEEN: a piece type (TB_CHESS_KNIGHT..QUEEN) */
};

/* A system message in the pack's words. Returns the length, TB_ERR_ARG for an unknown message or
 * a missing parameter, TB_ERR_FULL if len is too small. */
int tb_voice_phrase_msg(const struct tb_voice_pack *pack, enum tb_voice_msg msg,
                        const struct tb_voice_msg_args *args, char *buf, size_t len);

/* ---- doorgeefschaak (bughouse): drops, pieces in hand ([bughouse] in the packs) ----------- */

/* A move of a game with pieces in hand, as tb_voice_phrase_move says it, with the check state
 * the caller knows (mate there depends on the pieces in hand, which the chess position does
 * not hold): check 0 none, 1 check, 2 mate. TB_ERR_ILLEGAL for a move not legal in pos. */
int tb_voice_phrase_move_check(const struct tb_voice_pack *pack, const tb_chess_pos *pos,
                               tb_chess_move m, enum tb_voice_form form, int check, char *buf,
                               size_t len);
/* A drop (doorgeefschaak 2.2): ptype (TB_CHESS_PAWN..QUEEN) put on sq: "Springer auf Felix
 * drei". Never with a check: a drop may not give one (2.4). */
int tb_voice_phrase_drop(const struct tb_voice_pack *pack, int ptype, int sq, char *buf,
                         size_t len);
/* A piece type's word alone ("Springer"), as a button cycling through pieces says it. */
int tb_voice_phrase_piece(const struct tb_voice_pack *pack, int ptype, char *buf, size_t len);
/* The piece the partner passes (2.1): "Du bekommst: Springer". */
int tb_voice_phrase_received(const struct tb_voice_pack *pack, int ptype, char *buf, size_t len);
/* The pieces in hand (2.6), pool[type] of each type, queen first: "Du hast: 2 Springer, 1
 * Bauer"; "Du hast nichts" when empty. */
int tb_voice_phrase_pool(const struct tb_voice_pack *pack, const uint8_t pool[6], char *buf,
                         size_t len);
/* The question a drop of several possible kinds waits on: "Welche Figur auf Eva vier? Läufer
 * oder Springer" (kinds: bits 1 << type, queen first). */
int tb_voice_phrase_drop_choice(const struct tb_voice_pack *pack, int sq, unsigned kinds, char *buf,
                                size_t len);
/* A drop refused: "Einsetzen nicht erlaubt, Artikel 2.5". */
int tb_voice_phrase_drop_refused(const struct tb_voice_pack *pack, const char *article, char *buf,
                                 size_t len);

/* Article 7 of doorgeefschaak: an illegal move completed with the clock pressed, as its
 * opponent hears it: "Regelwidriger Zug: Läufer Cesar eins Hugo sechs. Annehmen oder Ersatz
 * verlangen, Artikel 7.4" (ptype the piece moved, PAWN..KING). */
int tb_voice_phrase_illegal(const struct tb_voice_pack *pack, int ptype, int from, int to,
                            const char *article, char *buf, size_t len);
/* What follows it: ACCEPTED (article), REPLACE (the touched square, article), RETURNED (ptype
 * given back from the hand), BLOCKED (ptype to come off board, 'A' or 'B', article),
 * HANDED_BACK (ptype on the square). */
enum tb_voice_irregular {
    TB_VOICE_IRR_ACCEPTED,
    TB_VOICE_IRR_REPLACE,
    TB_VOICE_IRR_RETURNED,
    TB_VOICE_IRR_BLOCKED,
    TB_VOICE_IRR_HANDED_BACK,
};
int tb_voice_phrase_irregular(const struct tb_voice_pack *pack, enum tb_voice_irregular what,
                              int ptype, int sq, int board, const char *article, char *buf,
                              size_t len);

/* Why a game of the match ended (article 5 of doorgeefschaak). */
enum tb_voice_game_end {
    TB_VOICE_END_MATE,      /* FIDE 5.1.1 */
    TB_VOICE_END_RESIGN,    /* 5.2 */
    TB_VOICE_END_FLAG,      /* 5.4: one flag fell */
    TB_VOICE_END_FLAGS,     /* 5.6: both flags */
    TB_VOICE_END_STALEMATE, /* 5.3 */
    TB_VOICE_END_DEAD,      /* 5.3 */
    TB_VOICE_END_AGREED,    /* 5.5 */
};
/* The end of the game on board ('A' or 'B'), said to all four players: "Brett A: Schachmatt,
 * Weiß gewinnt". result: 0 a draw, 1 White wins, 2 Black wins. TB_ERR_ARG for a bad board,
 * reason or result. */
int tb_voice_phrase_game_over(const struct tb_voice_pack *pack, int board,
                              enum tb_voice_game_end why, int result, char *buf, size_t len);

/* ---- review: the game by ear (D.2.7), pure functions of the game ------------------------- */

/* Each returns the text's length, TB_ERR_ARG for a bad argument (NULL, a ply or move number
 * outside the game), TB_ERR_FULL when len is too small (the text is never cut), or
 * TB_ERR_STATE when the game's moves do not replay. Moves are phrased as tb_voice_phrase_move
 * says them in `form`. A ply is numbered as on the scoresheet: the move number with White's and
 * Black's halves (a game from a FEN starts at its fullmove number and side). */

/* One half-move: "Zug 12, Weiß: Springer Gustav eins Felix drei". ply: 0 = the first. */
int tb_voice_review_ply(const struct tb_voice_pack *pack, const tb_chess_game *game, int ply,
                        enum tb_voice_form form, char *buf, size_t len);
/* The last n half-moves, oldest first, as sentences ("... . Zug 12, Schwarz: ..."); fewer when
 * the game has fewer; no_move ("Noch kein Zug") when it has none. */
int tb_voice_review_last(const struct tb_voice_pack *pack, const tb_chess_game *game, int n,
                         enum tb_voice_form form, char *buf, size_t len);
/* The score from move number `move` (White's half, or the game's first half if later) to the
 * end. */
int tb_voice_review_from(const struct tb_voice_pack *pack, const tb_chess_game *game, int move,
                         enum tb_voice_form form, char *buf, size_t len);
/* The position: per colour, White first, "Weiß: König Gustav eins, Dame David eins, Türme Anna
 * eins und Hector eins, ..., Bauern Anna zwei, ... und Hector zwei." Pieces in the order king,
 * queen, rook, bishop, knight, pawn; a piece's squares from a1 to h8 (rank by rank). */
int tb_voice_review_position(const struct tb_voice_pack *pack, const tb_chess_pos *pos, char *buf,
                             size_t len);
/* Whose move it is: "Weiß am Zug". */
int tb_voice_review_to_move(const struct tb_voice_pack *pack, const tb_chess_pos *pos, char *buf,
                            size_t len);
/* The check state of the side to move: "Weiß steht im Schach", "Kein Schach", "Schwarz ist
 * schachmatt" (5.1.1), "Patt" (5.2.1). */
int tb_voice_review_check(const struct tb_voice_pack *pack, const tb_chess_pos *pos, char *buf,
                          size_t len);
/* The material: "Weiß: 1 Dame, 2 Türme, ... 8 Bauern. Schwarz: ... . Weiß 3 Punkte vorn" (or
 * "Material gleich"); points count queen 9, rook 5, bishop 3, knight 3, pawn 1. Kings are not
 * counted. */
int tb_voice_review_material(const struct tb_voice_pack *pack, const tb_chess_pos *pos, char *buf,
                             size_t len);
/* The spoken scoresheet (D.2.7): every half-move from the first, then the result when result
 * is "1-0", "0-1" or "1/2-1/2" (NULL or "*": none). */
int tb_voice_review_scoresheet(const struct tb_voice_pack *pack, const tb_chess_game *game,
                               const char *result, enum tb_voice_form form, char *buf, size_t len);

/* What a player can ask to hear (one request of the daemon's buttons or control requests). */
enum tb_voice_review_what {
    TB_VOICE_REVIEW_LAST = 0,   /* the last arg half-moves (arg <= 0: TB_VOICE_REVIEW_LAST_N) */
    TB_VOICE_REVIEW_FROM,       /* the score from move number arg */
    TB_VOICE_REVIEW_POSITION,   /* the position */
    TB_VOICE_REVIEW_TO_MOVE,    /* whose move, then the check state */
    TB_VOICE_REVIEW_MATERIAL,   /* the material */
    TB_VOICE_REVIEW_SCORESHEET, /* the whole scoresheet with the result */
    TB_VOICE_REVIEW_WHAT_COUNT
};
#define TB_VOICE_REVIEW_LAST_N 6

/* The text of a request for game (result: as for tb_voice_review_scoresheet, used by
 * SCORESHEET only), malloc'd into *text however long the game is. Returns the length or the
 * error of the function that builds it (TB_ERR_ARG for an unknown request). */
int tb_voice_review_text(const struct tb_voice_pack *pack, const tb_chess_game *game,
                         enum tb_voice_review_what what, int arg, const char *result,
                         enum tb_voice_form form, char **text);

/* ---- confirmation of the player's own move ------------------------------------------------- */

enum tb_voice_confirm_mode {
    TB_VOICE_CONFIRM_OFF = 0,    /* nothing when the move was taken */
    TB_VOICE_CONFIRM_EARCON = 1, /* a short tone */
    TB_VOICE_CONFIRM_WORD = 2,   /* the pack's taken word: "Zug genommen" */
};
/* "off", "earcon", "word" (the configuration's words) -> mode; TB_ERR_PARSE naming the text. */
int tb_voice_confirm_mode_parse(const char *text, enum tb_voice_confirm_mode *out,
                                struct tb_error *err);

enum tb_voice_confirm_what {
    TB_VOICE_CONFIRM_TAKEN = 0,        /* the move was recognised and is in the game */
    TB_VOICE_CONFIRM_ILLEGAL = 1,      /* the move made is not legal (7.5.1) */
    TB_VOICE_CONFIRM_UNRECOGNISED = 2, /* the board shows no move that can be read */
};

/* The earcon: a sine tone of freq_hz for ms milliseconds at rate, with 5 ms raised-cosine fades
 * so it does not click, peak about -6 dBFS. Writes the frames into pcm (cap frames); returns
 * their count or TB_ERR_FULL / TB_ERR_ARG. The default earcon is 880 Hz for 60 ms. */
#define TB_VOICE_EARCON_HZ 880
#define TB_VOICE_EARCON_MS 60
int tb_voice_earcon(int16_t *pcm, size_t cap, unsigned rate, int freq_hz, int ms);

/* ---- output sinks ------------------------------------------------------------------------ */

/* Where one player's audio goes. All calls come from the speech thread, one at a time.
 * PCM is mono signed 16-bit at the rate given to open (eSpeak NG's rate, 22050 Hz). */
struct tb_voice_sink_ops {
    const char *name;
    /* Opens the sink. target: device name (PortAudio; NULL or "" = default device), file path
     * (WAV), ignored (null). device_rate: rate to open the device at, 0 = choose. arg: the
     * caller's pointer from the player's configuration. */
    int (*open)(void **state, const char *target, unsigned rate, unsigned device_rate, void *arg,
                struct tb_error *err);
    /* Queues frames after everything queued before. Returns how many were taken (fewer when the
     * sink is full; the rest is offered again later) or a negative error. Never blocks long. */
    long (*write)(void *state, const int16_t *pcm, size_t frames);
    /* Drops everything queued and cuts what is playing now. */
    int (*flush)(void *state);
    /* Frames played or dropped since open (at the input rate). Written minus played is what is
     * still waiting; the speaker reports an announcement done when played passes its end. */
    uint64_t (*played)(void *state);
    void (*close)(void *state);
};

extern const struct tb_voice_sink_ops tb_voice_sink_portaudio; /* callback stream + ring */
extern const struct tb_voice_sink_ops tb_voice_sink_wav;       /* a WAV file, valid at all times */
extern const struct tb_voice_sink_ops tb_voice_sink_null;      /* discards, plays instantly */

/* Lists PortAudio output devices: calls fn once per device with its name, maximum output
 * channels and default rate. Returns the count or an error. */
int tb_voice_portaudio_devices(void (*fn)(void *arg, const char *name, int channels, double rate),
                               void *arg, struct tb_error *err);
/* The device a configured name opens, as tb_voice_sink_portaudio chooses it: the device named
 * exactly, else the one device whose name contains target (NULL or "": the default device). Its
 * full name goes into name. TB_ERR_NOTFOUND when none matches and TB_ERR_ARG when several do
 * (two headsets whose names both contain it), err naming every output device there is. */
int tb_voice_portaudio_resolve(const char *target, char *name, size_t len, struct tb_error *err);

/* ---- the speaker ------------------------------------------------------------------------- */

/* index: TB_CHESS_WHITE, TB_CHESS_BLACK (the player whose ears); doorgeefschaak's four seats
 * use all four (0 White A, 1 Black A, 2 White B, 3 Black B) */
#define TB_VOICE_PLAYERS 4

struct tb_voice_player_config {
    const struct tb_voice_sink_ops *sink; /* NULL = tb_voice_sink_null */
    const char *target;                   /* device name or file path, see open */
    unsigned device_rate;                 /* 0 = choose */
    void *sink_arg;                       /* handed to open */
    /* D.2.7: append every move announcement here; NULL = off. A file this speaker wrote
     * before (a restart after a crash) is continued, anything else is replaced. */
    const char *scoresheet_wav;
    /* This player's language and voice, when it differs from the speaker's (NULL / 0 = the
     * speaker's): phoneme spellings and the scoresheet line come from this pack, eSpeak NG
     * speaks with this voice (switching voices costs about 2 ms per switch). */
    const struct tb_voice_pack *pack;
    const char *espeak_voice;
    int rate;
};

struct tb_voice_config {
    const struct tb_voice_pack *pack; /* required; packs must outlive the speaker */
    const char *espeak_data;          /* eSpeak NG data directory; NULL = the library default */
    const char *espeak_voice;         /* NULL = the pack's; likewise 0 below */
    int rate, pitch, volume, wordgap;
    struct tb_voice_player_config player[TB_VOICE_PLAYERS];
    /* A sink that has not played an announcement this long after its own length (a headset
     * pulled out, a wedged device) fails it (TB_VOICE_FAILED) so the queue moves on; 0 = 5000. */
    int stall_ms;
    /* A sink whose write fails or that stalls is lost: it is closed, the player's announcements
     * fail at once (the other player's go on), and it is opened again every reopen_ms until it
     * opens (TB_VOICE_DEVICE_LOST, then TB_VOICE_DEVICE_BACK); 0 = 1000. */
    int reopen_ms;
};

struct tb_voice;

/* Starts the speech thread, initialises eSpeak NG (checking its data and the voice) and opens
 * both players' sinks. eSpeak NG keeps global state: one speaker per process at a time. */
int tb_voice_new(const struct tb_voice_config *cfg, struct tb_voice **out, struct tb_error *err);
/* Stops after cutting whatever is still playing; NULL is a no-op. */
void tb_voice_free(struct tb_voice *voice);

enum {
    TB_VOICE_MOVE = 1,   /* a move: never dropped, kept for repeat, written to the scoresheet */
    TB_VOICE_URGENT = 2, /* cut in: stop what this player hears now and say this first */
    TB_VOICE_REVIEW = 4, /* lowest priority: cut (TB_VOICE_CUT) by anything else queued for the
                            player after it, and by tb_voice_cancel_review */
};

/* Queues text for a player's ears; returns its id (> 0) or an error. Announcements for one
 * player are spoken in order, never overlapping. An URGENT one cuts what is playing: a cut move
 * is said again in full afterwards (a move is never dropped); a cut message is dropped (event
 * TB_VOICE_CUT). move_number is used for the scoresheet line of a MOVE (0 = none). */
long tb_voice_announce(struct tb_voice *voice, int player, const char *text, unsigned flags,
                       int move_number);
/* Queues the player's last move announcement again ("repeat last move"); TB_ERR_NOTFOUND if
 * there has been none. Returns the new id. */
long tb_voice_repeat(struct tb_voice *voice, int player);

/* A review (what the player asked to hear again): text is split into its sentences (at ". "),
 * each queued as a TB_VOICE_REVIEW item, so a long scoresheet is rendered a sentence at a time.
 * Anything else queued for the player afterwards (a move, a message, a confirmation) cuts the
 * whole review: the rest of it is dropped with TB_VOICE_CUT events. Returns the id of the last
 * sentence (the review is over when that one is DONE or CUT) or an error. */
long tb_voice_review(struct tb_voice *voice, int player, const char *text);
/* A request answered into the player's ears in their pack: tb_voice_review_text, then
 * tb_voice_review. The daemon's one call per review button or control request. */
long tb_voice_review_game(struct tb_voice *voice, int player, const tb_chess_game *game,
                          enum tb_voice_review_what what, int arg, const char *result,
                          enum tb_voice_form form);
/* The player's pack (the speaker's when the player has none of their own); NULL for a bad
 * player. */
const struct tb_voice_pack *tb_voice_player_pack(const struct tb_voice *voice, int player);
/* Cuts the player's review (what plays and what waits); returns a request id (reported DONE). */
long tb_voice_cancel_review(struct tb_voice *voice, int player);

/* Queues PCM (mono s16 at tb_voice_render's rate) for a player like an announcement (flags:
 * TB_VOICE_URGENT or 0). The frames are copied. */
long tb_voice_play_pcm(struct tb_voice *voice, int player, const int16_t *pcm, size_t frames,
                       unsigned flags);

/* Confirms the player's own move as mode says: TAKEN gives nothing (returns 0), the earcon or the
 * taken word; ILLEGAL and UNRECOGNISED always give their word at once (TB_VOICE_URGENT), whatever
 * the mode. Returns the id, 0 for nothing, or an error. */
long tb_voice_confirm(struct tb_voice *voice, int player, enum tb_voice_confirm_mode mode,
                      enum tb_voice_confirm_what what);

enum tb_voice_status {
    TB_VOICE_DONE = 0,
    TB_VOICE_CUT = 1,
    TB_VOICE_FAILED = 2,
    TB_VOICE_DEVICE_LOST = 3, /* the player's sink failed (id 0): tb_voice_device says why */
    TB_VOICE_DEVICE_BACK = 4, /* it opened again (id 0): the player hears speech again */
};
struct tb_voice_event {
    long id;
    int player;
    enum tb_voice_status status;
};

/* Whether the player's sink works now; when it is lost, why (the failure, into why) and since
 * when (CLOCK_MONOTONIC seconds, into since; NULL allowed). */
bool tb_voice_device_ok(struct tb_voice *voice, int player, char *why, size_t len, double *since);

/* A file descriptor that becomes readable when events are waiting (for the daemon's poll). */
int tb_voice_fd(const struct tb_voice *voice);
/* Takes up to max waiting events, oldest first; returns how many. */
int tb_voice_events(struct tb_voice *voice, struct tb_voice_event *ev, int max);
/* Waits until everything queued for the player (-1: both) has been played; TB_ERR_TIMEOUT after
 * timeout_ms (negative: no limit). */
int tb_voice_wait_idle(struct tb_voice *voice, int player, int timeout_ms);

/* Renders text (written form) to PCM without playing it, in player's pack and voice (-1: the
 * speaker's). *pcm is malloc'd; *rate is the sample rate. Runs on the speech thread. */
int tb_voice_render(struct tb_voice *voice, int player, const char *text, int16_t **pcm,
                    size_t *frames, unsigned *rate);
/* Renders text as tb_voice_render does and writes it as a complete WAV file at path (the spoken
 * scoresheet of a game, D.2.7). Returns the number of frames written or an error (err names the
 * file). */
long tb_voice_render_wav(struct tb_voice *voice, int player, const char *text, const char *path,
                         struct tb_error *err);
/* D.2.7: the spoken scoresheet of game (tb_voice_review_scoresheet in the player's pack) as a
 * WAV file at path, one file per game. Returns the frames written or an error (err says). */
long tb_voice_scoresheet_wav(struct tb_voice *voice, int player, const tb_chess_game *game,
                             const char *result, enum tb_voice_form form, const char *path,
                             struct tb_error *err);
/* eSpeak NG's phonemes (its ASCII alphabet) for text in player's pack and voice (-1: the
 * speaker's), phoneme spellings applied. Returns the length or an error. */
int tb_voice_phonemes(struct tb_voice *voice, int player, const char *text, char *buf, size_t len);
/* The eSpeak NG voice really in use ("German") and its data path, for logs. */
int tb_voice_describe(struct tb_voice *voice, char *buf, size_t len);

/* ---- WAV files (libsndfile) ---------------------------------------------------------------- */

/* Writes mono s16 PCM as a complete WAV file. */
int tb_voice_wav_write(const char *path, const int16_t *pcm, size_t frames, unsigned rate,
                       struct tb_error *err);
/* Reads a mono or stereo s16 PCM WAV file (stereo is mixed down); a data size past the file's
 * end (the ALSA file plugin's until it closes) is taken as what the file holds. *pcm is
 * malloc'd. TB_ERR_PARSE: not a sound file; TB_ERR_SUPP: another format or sample type. */
int tb_voice_wav_read(const char *path, int16_t **pcm, size_t *frames, unsigned *rate,
                      struct tb_error *err);

#endif /* TB_VOICE_H */
