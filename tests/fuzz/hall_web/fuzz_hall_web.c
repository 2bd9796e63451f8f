/* fuzz_hall_web.c - fuzz target of the dashboard's HTTP request handling (tb_hall_web.h) over
 * arbitrary bytes: a request's Host, Origin, Cookie and X-CSRF-Token headers and its form body,
 * one a line, then connection records.
 *
 * Host and Origin are taken only for the dashboard's names and port; a Cookie finds a session
 * only when it carries its id, a token is taken only when it is the session's; a form either
 * parses into NUL-terminated values without control characters, each a known field, or is
 * refused with a reason; the connection chosen to give way is one of the address at its limit
 * (or of the address holding the most) and has the least progress of them. */
#include <strings.h>

#include "tb_hall_web.h"
#include "tb_fuzz.h"

static char line[5][4097];

static void check_form(char *body, size_t len)
{
    static const char *const names[] = {"tournament", "table", "action", "mismatch", "n", "pin"};
    char *val[6], what[96] = "";
    char *end = body + len;
    if (tb_hall_web_form(body, len, names, 6, val, what, sizeof what) != 0) {
        TB_FUZZ_CHECK(what[0] != '\0');
        return;
    }
    for (int f = 0; f < 6; f++) {
        if (!val[f])
            continue;
        TB_FUZZ_CHECK(val[f] >= body && val[f] <= end);
        size_t n = strlen(val[f]);
        TB_FUZZ_CHECK(val[f] + n <= end);
        for (size_t i = 0; i < n; i++)
            TB_FUZZ_CHECK((unsigned char)val[f][i] >= 0x20 && val[f][i] != 0x7F);
    }
}

static void check_victim(const uint8_t *data, size_t size)
{
    struct tb_hall_web_conn c[64];
    int n = 0;
    for (size_t i = 0; i + 2 <= size && n < 64; i += 2, n++)
        c[n] = (struct tb_hall_web_conn){.addr = data[i] & 7u, .progress = data[i + 1]};
    uint32_t addr = size ? data[0] & 7u : 0;
    int per = size > 1 ? 1 + data[1] % 16 : 4, total = size > 2 ? 1 + data[2] % 64 : 32;
    int v = tb_hall_web_victim(c, n, addr, per, total);
    int of = 0;
    for (int i = 0; i < n; i++)
        of += c[i].addr == addr;
    if (of < per && n < total) {
        TB_FUZZ_CHECK(v == -1);
        return;
    }
    TB_FUZZ_CHECK(v >= 0 && v < n);
    for (int i = 0; i < n; i++)
        if (c[i].addr == c[v].addr)
            TB_FUZZ_CHECK(c[i].progress >= c[v].progress);
    if (of >= per)
        TB_FUZZ_CHECK(c[v].addr == addr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t pos = 0;
    size_t len[5] = {0};
    for (int k = 0; k < 5; k++) {
        const uint8_t *nl = pos < size ? memchr(data + pos, '\n', size - pos) : NULL;
        size_t end = k == 4 || !nl ? size : (size_t)(nl - data);
        len[k] = end - pos < 4096 ? end - pos : 4096;
        memcpy(line[k], data + pos, len[k]);
        line[k][len[k]] = '\0';
        pos = end < size ? end + 1 : size;
    }
    struct tb_hall_web w;
    tb_hall_web_init(&w, 8080);
    if (tb_hall_web_host_ok(&w, line[0])) {
        TB_FUZZ_CHECK(strchr(line[0], ':') && strcmp(strchr(line[0], ':'), ":8080") == 0);
        TB_FUZZ_CHECK(strncasecmp(line[0], "localhost:", 10) == 0 ||
                      strncmp(line[0], "127.0.0.1:", 10) == 0);
    }
    if (tb_hall_web_origin_ok(&w, line[1]))
        TB_FUZZ_CHECK(strncmp(line[1], "http://", 7) == 0 && tb_hall_web_host_ok(&w, line[1] + 7));
    uint8_t rnd[TB_HALL_WEB_RANDOM];
    for (int i = 0; i < TB_HALL_WEB_RANDOM; i++)
        rnd[i] = (uint8_t)(i * 29 + 7);
    struct tb_hall_web_session *s = tb_hall_web_login(&w, rnd, 1000);
    struct tb_hall_web_session *found = tb_hall_web_session(&w, line[2], 2000);
    if (found)
        TB_FUZZ_CHECK(found == s && strstr(line[2], s->id));
    if (tb_hall_web_csrf_ok(s, line[3]))
        TB_FUZZ_CHECK(strcmp(line[3], s->csrf) == 0);
    check_form(line[4], len[4]);
    check_victim(data, size);
    return 0;
}
