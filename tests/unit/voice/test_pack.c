/* Pack loading: a pack with a missing, malformed, unknown or duplicate entry is refused, naming
 * file, line and entry; a pack is found through the search path; a new language is a file. */
#include <stdlib.h>

#include "tb_test.h"
#include "tb_voice.h"

/* The shipped de-fide pack as lines (TB_VOICE_PACKS points at the source packs). */
static char lines[200][256];
static int nlines;

static void read_pack(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/de-fide.pack", getenv("TB_VOICE_PACKS"));
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    while (nlines < 200 && fgets(lines[nlines], sizeof lines[0], f))
        nlines++;
    fclose(f);
    ASSERT_GT(nlines, 50);
}

/* 1-based number of the line starting with prefix. */
static int line_of(const char *prefix)
{
    for (int i = 0; i < nlines; i++)
        if (strncmp(lines[i], prefix, strlen(prefix)) == 0)
            return i + 1;
    TB_FAIL("no line starts with \"%s\"", prefix);
}

/* Writes the pack with line `at` (1-based) replaced by `text` (NULL: removed; text ending in
 * "\n+" is inserted before the line instead). Returns the path. */
static const char *write_pack(const char *name, int at, const char *text, bool insert)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s.pack", tb_test_tmp_dir(), name);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    for (int i = 0; i < nlines; i++) {
        if (i + 1 == at && text)
            fprintf(f, "%s\n", text);
        if (i + 1 == at && !insert)
            continue;
        fputs(lines[i], f);
    }
    fclose(f);
    return path;
}

static void refused(const char *path, long line, const char *entry, const char *why)
{
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_EQ(tb_voice_pack_load_file(path, &pack, &err), TB_ERR_PARSE);
    ASSERT_NULL(pack);
    ASSERT_EQ(err.code, TB_ERR_PARSE);
    ASSERT_EQ(err.line, line);
    ASSERT_STR_CONTAINS(err.msg, path);
    ASSERT_STR_CONTAINS(err.msg, entry);
    ASSERT_STR_CONTAINS(err.msg, why);
    if (line) {
        char at[1100];
        snprintf(at, sizeof at, "%s:%ld:", path, line);
        ASSERT_STR_CONTAINS(err.msg, at);
    }
}

TB_TEST(shipped_pack_loads)
{
    read_pack();
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load_file(write_pack("copy", 0, NULL, false), &pack, &err));
    ASSERT_STR_EQ(tb_voice_pack_name(pack), "de-fide");
    tb_voice_pack_free(pack);
    tb_voice_pack_free(NULL);
}

TB_TEST(missing_entry_is_named)
{
    read_pack();
    refused(write_pack("missing", line_of("knight ="), NULL, false), 0, "[pieces] knight",
            "missing entry");
    refused(write_pack("missing2", line_of("short.en_passant ="), NULL, false), 0,
            "[moves] short.en_passant", "missing entry");
}

TB_TEST(malformed_line_is_named)
{
    read_pack();
    int at = line_of("bishop =");
    refused(write_pack("malformed", at, "bishop Läufer", false), at, "bishop Läufer",
            "malformed line");
    refused(write_pack("header", at, "[pieces", false), at, "[pieces", "malformed section");
    refused(write_pack("section", at, "[figures]", false), at, "[figures]", "unknown section");
    refused(write_pack("empty", at, "bishop =", false), at, "[pieces] bishop", "empty value");
}

TB_TEST(unknown_key_is_named)
{
    read_pack();
    int at = line_of("bishop =");
    refused(write_pack("unknown", at, "bishup = Läufer", true), at, "[pieces] bishup",
            "unknown entry");
}

TB_TEST(duplicate_key_is_named)
{
    read_pack();
    int first = line_of("queen =");
    int at = line_of("rook =");
    char why[64];
    snprintf(why, sizeof why, "duplicate entry (first on line %d)", first);
    refused(write_pack("duplicate", at, "queen = Königin", true), at, "[pieces] queen", why);
    int ph = line_of("Rochade =");
    /* inserted before the original, so the original (now one line down) is the duplicate */
    refused(write_pack("dup_phoneme", ph, "Rochade = [[rOx'a:d@]]", true), ph + 1,
            "[phonemes] Rochade", "duplicate entry");
}

TB_TEST(bad_values_are_named)
{
    read_pack();
    int at = line_of("long.quiet =");
    refused(write_pack("placeholder", at, "long.quiet = {piece} {form} {to}", false), at,
            "[moves] long.quiet", "unknown placeholder {form}");
    refused(write_pack("brace", at, "long.quiet = {piece {from} {to}", false), at,
            "[moves] long.quiet", "unknown placeholder");
    at = line_of("suffix.check =");
    refused(write_pack("suffix", at, "suffix.check = , {mate}", false), at, "[moves] suffix.check",
            "unknown placeholder {mate}");
    at = line_of("rate =");
    refused(write_pack("rate", at, "rate = fast", false), at, "[voice] rate",
            "not a number from 80 to 800");
    refused(write_pack("rate2", at, "rate = 2000", false), at, "[voice] rate", "80 to 800");
    at = line_of("Cesar = [[");
    refused(write_pack("phoneme", at, "Cesar = ts'E:zar", false), at, "[phonemes] Cesar",
            "not an eSpeak phoneme spelling");
    at = line_of("a = Anna");
    refused(write_pack("utf8", at, "a = Ann\xe4", false), at, "[files] a", "not UTF-8");
    refused(write_pack("word", at, "a = {Anna}", false), at, "[files] a", "may not contain");
}

/* Words and templates have a documented longest length, so that every phrase built from them
 * fits the buffers the phrases are built in. */
TB_TEST(over_long_values_are_named)
{
    read_pack();
    char text[400];
    int at = line_of("2 = zwei");
    snprintf(text, sizeof text, "2 = %0*d", TB_VOICE_WORD_MAX, 0);
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load_file(write_pack("longest", at, text, false), &pack, &err));
    tb_voice_pack_free(pack);
    snprintf(text, sizeof text, "2 = %0*d", TB_VOICE_WORD_MAX + 1, 0);
    char why[64];
    snprintf(why, sizeof why, "word longer than %d bytes", TB_VOICE_WORD_MAX);
    refused(write_pack("too-long", at, text, false), at, "[ranks] 2", why);
    at = line_of("Rochade = [[");
    snprintf(text, sizeof text, "%0*d = [[a]]", TB_VOICE_WORD_MAX + 1, 0);
    refused(write_pack("phoneme-word", at, text, false), at, "[phonemes] 000", why);
    at = line_of("put_right =");
    snprintf(text, sizeof text, "put_right = {actions}%*s.", TB_VOICE_TEMPLATE_MAX - 10, "");
    ASSERT_OK(tb_voice_pack_load_file(write_pack("template", at, text, false), &pack, &err));
    tb_voice_pack_free(pack);
    snprintf(text, sizeof text, "put_right = {actions}%*s.", TB_VOICE_TEMPLATE_MAX - 9, "");
    snprintf(why, sizeof why, "template longer than %d bytes", TB_VOICE_TEMPLATE_MAX);
    refused(write_pack("template-long", at, text, false), at, "[messages] put_right", why);
}

TB_TEST(control_characters_are_named)
{
    read_pack();
    int at = line_of("a = Anna");
    refused(write_pack("ctrl", at, "a = An\x0fna", false), at, "[files] a",
            "control character 0x0f at byte 3");
    at = line_of("lift =");
    refused(write_pack("esc", at, "lift = {piece} \x1b{square}", false), at, "[messages] lift",
            "control character 0x1b");
    refused(write_pack("del", at, "lift = {piece}\x7f {square}", false), at, "[messages] lift",
            "control character 0x7f");
    at = line_of("Rochade = [[");
    refused(write_pack("ctrl-phoneme", at, "Rochade = [[rOS\x01'a:d@]]", false), at,
            "[phonemes] Rochade", "control character 0x01");
    refused(write_pack("ctrl-key", at,
                       "Roch\x02"
                       "ade = [[rOS'a:d@]]",
                       false),
            at, "", "control character 0x02 in a key");
}

/* A NUL byte would end the line early for the text functions: it is named, not taken for an
 * over-long line. */
TB_TEST(nul_byte_is_named)
{
    read_pack();
    int at = line_of("a = Anna");
    const char *path = write_pack("nul", at, "a = An@na", false);
    FILE *f = fopen(path, "r+b");
    ASSERT_NOT_NULL(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf, f);
    ASSERT_LT(n, sizeof buf);
    char *nul = memchr(buf, '@', n);
    ASSERT_NOT_NULL(nul);
    ASSERT_OK(fseek(f, nul - buf, SEEK_SET));
    ASSERT_EQ(fputc('\0', f), 0);
    fclose(f);
    refused(path, at, "", "NUL byte in line");
    /* An over-long line is still called so; 1000 bytes are allowed. */
    char text[1100];
    snprintf(text, sizeof text, "# %0998d", 0);
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load_file(write_pack("line-1000", at, text, true), &pack, &err));
    tb_voice_pack_free(pack);
    snprintf(text, sizeof text, "# %0999d", 0);
    refused(write_pack("long-line", at, text, false), at, "", "line longer than 1000 bytes");
}

TB_TEST(search_path_and_new_language_file)
{
    read_pack();
    /* A new language is a new file: "xx" exists only in the test's directory. */
    write_pack("xx", line_of("name = de-fide"), "name = xx", false);
    setenv("TB_VOICE_PACKS", "/nonexistent:", 1);
    char path[2048];
    snprintf(path, sizeof path, "/nonexistent:%s", tb_test_tmp_dir());
    setenv("TB_VOICE_PACKS", path, 1);
    char got[2048];
    ASSERT_TRUE(tb_voice_pack_search_path(got, sizeof got) > 0);
    ASSERT_STR_EQ(got, path);
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("xx", &pack, &err));
    ASSERT_STR_EQ(tb_voice_pack_name(pack), "xx");
    tb_voice_pack_free(pack);
    pack = NULL;
    ASSERT_EQ(tb_voice_pack_load("fr", &pack, &err), TB_ERR_NOTFOUND);
    ASSERT_NULL(pack);
    ASSERT_STR_CONTAINS(err.msg, "\"fr\"");
    ASSERT_STR_CONTAINS(err.msg, path);
    ASSERT_EQ(tb_voice_pack_load("../etc/passwd", &pack, &err), TB_ERR_ARG);
    /* An error in the first pack found is reported, not skipped for a later one. */
    write_pack("broken", line_of("king ="), NULL, false);
    ASSERT_EQ(tb_voice_pack_load("broken", &pack, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "[pieces] king: missing entry");
}

TB_TEST(missing_file)
{
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_EQ(tb_voice_pack_load_file("/nonexistent/de.pack", &pack, &err), TB_ERR_NOTFOUND);
    ASSERT_STR_CONTAINS(err.msg, "/nonexistent/de.pack");
}

/* A pack's text in memory loads as its file does (the file loader reads the bytes and hands
 * them over): the same name and the same phrases; a refusal names the name given and the line. */
TB_TEST(pack_text_in_memory_loads_as_its_file)
{
    read_pack();
    const char *path = write_pack("mem", 0, NULL, false);
    char text[16384];
    size_t len = 0;
    for (int i = 0; i < nlines; i++) {
        size_t n = strlen(lines[i]);
        ASSERT_LT(len + n, sizeof text);
        memcpy(text + len, lines[i], n);
        len += n;
    }
    struct tb_voice_pack *from_file = NULL, *from_text = NULL;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load_file(path, &from_file, &err));
    ASSERT_OK(tb_voice_pack_load_text("de-fide.pack", text, len, &from_text, &err));
    ASSERT_STR_EQ(tb_voice_pack_name(from_text), tb_voice_pack_name(from_file));
    tb_chess_pos pos;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", 0, NULL));
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_parse(&pos, "O-O-O", &m, NULL));
    char a[256], b[256];
    ASSERT_GT(tb_voice_phrase_move(from_file, &pos, m, TB_VOICE_LONG, a, sizeof a), 0);
    ASSERT_GT(tb_voice_phrase_move(from_text, &pos, m, TB_VOICE_LONG, b, sizeof b), 0);
    ASSERT_STR_EQ(b, a);
    tb_voice_pack_free(from_file);
    tb_voice_pack_free(from_text);

    /* A NUL byte on line 3 of the text, and the text cut before its end. */
    struct tb_voice_pack *pack = NULL;
    char *second = memchr(text, '\n', len);
    char *third = second ? memchr(second + 1, '\n', len - (size_t)(second + 1 - text)) : NULL;
    ASSERT_NOT_NULL(third);
    third[1] = '\0';
    ASSERT_EQ(tb_voice_pack_load_text("memory", text, len, &pack, &err), TB_ERR_PARSE);
    ASSERT_NULL(pack);
    ASSERT_EQ(err.line, 3);
    ASSERT_STR_CONTAINS(err.msg, "memory:3: NUL byte in line");
    ASSERT_EQ(tb_voice_pack_load_text("memory", text, (size_t)(third - text), &pack, &err),
              TB_ERR_PARSE);
    ASSERT_NULL(pack);
    ASSERT_STR_CONTAINS(err.msg, "memory: [");
    ASSERT_STR_CONTAINS(err.msg, "missing entry");
    ASSERT_EQ(tb_voice_pack_load_text("memory", NULL, 0, &pack, &err), TB_ERR_PARSE);
    ASSERT_EQ(tb_voice_pack_load_text(NULL, text, len, &pack, &err), TB_ERR_ARG);
}
