/* What the dashboard's web side accepts (tb_hall_web.h): Host and Origin against the allowed names
 * (a DNS rebinding page sends its own name), sessions and their CSRF tokens, strict forms, and
 * which connection gives way at a limit. */
#include <string.h>

#include "tb_hall_web.h"
#include "tb_test.h"

static void rnd(uint8_t *b, uint8_t seed)
{
    for (int i = 0; i < TB_HALL_WEB_RANDOM; i++)
        b[i] = (uint8_t)(seed * 37 + i * 11);
}

TB_TEST(only_the_dashboards_names_and_port_are_served)
{
    struct tb_hall_web w;
    tb_hall_web_init(&w, 8080);
    ASSERT_TRUE(tb_hall_web_host_ok(&w, "127.0.0.1:8080"));
    ASSERT_TRUE(tb_hall_web_host_ok(&w, "LOCALHOST:8080"));
    static const char *const bad[] = {"rebind.test:8080",
                                      "127.0.0.1:8081",
                                      "127.0.0.1",
                                      "127.0.0.1:",
                                      "127.0.0.1:08080",
                                      "127.0.0.1:08080x",
                                      ":8080",
                                      "127.0.0.1.evil:8080",
                                      "localhost:8080 ",
                                      ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (tb_hall_web_host_ok(&w, bad[i]))
            TB_FAIL("Host '%s' was taken", bad[i]);
    ASSERT_FALSE(tb_hall_web_host_ok(&w, NULL));
    ASSERT_OK(tb_hall_web_allow(&w, "hall.club.example"));
    ASSERT_TRUE(tb_hall_web_host_ok(&w, "hall.club.example:8080"));
    ASSERT_EQ(tb_hall_web_allow(&w, "a b"), -1);
    ASSERT_EQ(tb_hall_web_allow(&w, ""), -1);
    tb_hall_web_init(&w, 80); /* port 80: the browser leaves it out */
    ASSERT_TRUE(tb_hall_web_host_ok(&w, "localhost"));
}

TB_TEST(state_changes_only_from_the_dashboards_own_pages)
{
    struct tb_hall_web w;
    tb_hall_web_init(&w, 8080);
    ASSERT_TRUE(tb_hall_web_origin_ok(&w, "http://127.0.0.1:8080"));
    static const char *const bad[] = {"null",
                                      "http://rebind.test:8080",
                                      "https://127.0.0.1:8080",
                                      "http://127.0.0.1:8080/",
                                      "http://127.0.0.1",
                                      ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (tb_hall_web_origin_ok(&w, bad[i]))
            TB_FAIL("Origin '%s' was taken", bad[i]);
    ASSERT_FALSE(tb_hall_web_origin_ok(&w, NULL));
}

TB_TEST(a_session_is_its_cookie_and_its_csrf_token)
{
    struct tb_hall_web w;
    tb_hall_web_init(&w, 8080);
    uint8_t b[TB_HALL_WEB_RANDOM];
    rnd(b, 1);
    struct tb_hall_web_session *s = tb_hall_web_login(&w, b, 1000);
    ASSERT_EQ(strlen(s->id), 32u);
    ASSERT_EQ(strlen(s->csrf), 32u);
    ASSERT_TRUE(strcmp(s->id, s->csrf) != 0);
    ASSERT_NULL(strstr(s->tag, s->id)); /* the tag tells nothing of the id */
    char cookie[128];
    snprintf(cookie, sizeof cookie, "theme=dark; " TB_HALL_WEB_COOKIE "=%s", s->id);
    ASSERT_TRUE(tb_hall_web_session(&w, cookie, 2000) == s);
    ASSERT_TRUE(tb_hall_web_csrf_ok(s, s->csrf));
    char other[40];
    snprintf(other, sizeof other, "%s", s->csrf);
    other[5] = other[5] == 'a' ? 'b' : 'a';
    ASSERT_FALSE(tb_hall_web_csrf_ok(s, other));
    ASSERT_FALSE(tb_hall_web_csrf_ok(s, ""));
    ASSERT_FALSE(tb_hall_web_csrf_ok(s, NULL));
    ASSERT_NULL(tb_hall_web_session(&w, TB_HALL_WEB_COOKIE "=0123", 2000));
    ASSERT_NULL(tb_hall_web_session(&w, NULL, 2000));
    snprintf(cookie, sizeof cookie, TB_HALL_WEB_COOKIE "x=%s", s->id);
    ASSERT_NULL(tb_hall_web_session(&w, cookie, 2000));
    /* idle for 12 hours: gone */
    snprintf(cookie, sizeof cookie, TB_HALL_WEB_COOKIE "=%s", s->id);
    ASSERT_NULL(tb_hall_web_session(&w, cookie, 2000 + TB_HALL_WEB_IDLE_MS));
    /* logged out: gone */
    s = tb_hall_web_login(&w, b, 5000);
    tb_hall_web_logout(s);
    ASSERT_NULL(tb_hall_web_session(&w, cookie, 5001));
}

TB_TEST(the_session_idle_longest_makes_room)
{
    struct tb_hall_web w;
    tb_hall_web_init(&w, 8080);
    uint8_t b[TB_HALL_WEB_RANDOM];
    char first[64], second[64];
    for (int i = 0; i <= TB_HALL_WEB_SESSIONS; i++) {
        rnd(b, (uint8_t)(i + 1));
        struct tb_hall_web_session *s = tb_hall_web_login(&w, b, 1000u + (uint64_t)i);
        if (i == 0)
            snprintf(first, sizeof first, TB_HALL_WEB_COOKIE "=%s", s->id);
        if (i == 1)
            snprintf(second, sizeof second, TB_HALL_WEB_COOKIE "=%s", s->id);
    }
    ASSERT_NULL(tb_hall_web_session(&w, first, 3000));
    /* the second one is still there */
    ASSERT_NOT_NULL(tb_hall_web_session(&w, second, 3000));
}

TB_TEST(forms_are_taken_strictly)
{
    static const char *const names[] = {"pin", "action"};
    char *val[2], what[96], body[128];
    snprintf(body, sizeof body, "pin=12%%334&action=take+back");
    ASSERT_OK(tb_hall_web_form(body, strlen(body), names, 2, val, what, sizeof what));
    ASSERT_STR_EQ(val[0], "1234");
    ASSERT_STR_EQ(val[1], "take back");
    static const char *const bad[][2] = {
        {"pin=1&pin=2", "pin: given twice"},  {"evil=1", "evil: unknown field"},
        {"pin", "body: a field without '='"}, {"pin=%0a", "pin: not text"},
        {"pin=%zz", "pin: not text"},         {"pin=%4", "pin: not text"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(body, sizeof body, "%s", bad[i][0]);
        ASSERT_EQ(tb_hall_web_form(body, strlen(body), names, 2, val, what, sizeof what), -1);
        ASSERT_STR_EQ(what, bad[i][1]);
    }
    memcpy(body, "pin=1\0x", 7);
    ASSERT_EQ(tb_hall_web_form(body, 7, names, 2, val, what, sizeof what), -1);
    ASSERT_STR_EQ(what, "body: a NUL byte");
}

/* At an address's limit that address's connection without progress longest gives way; at the
 * total limit one of the address holding the most: a new client always gets in, the arbiter's
 * few connections are the last to go. */
TB_TEST(the_connection_without_progress_longest_gives_way)
{
    struct tb_hall_web_conn c[10];
    for (int i = 0; i < 10; i++)
        c[i] = (struct tb_hall_web_conn){.addr = i < 6 ? 2u : 3u, .progress = 100u - (uint64_t)i};
    c[9].addr = 1;                                      /* the arbiter's */
    ASSERT_EQ(tb_hall_web_victim(c, 10, 1, 4, 20), -1); /* no limit reached */
    ASSERT_EQ(tb_hall_web_victim(c, 10, 2, 4, 20), 5);  /* address 2 at its limit: its stalest */
    ASSERT_EQ(tb_hall_web_victim(c, 10, 1, 40, 10), 5); /* all full: address 2 holds the most */
    ASSERT_EQ(tb_hall_web_victim(c, 10, 9, 40, 10), 5); /* a new address too */
    ASSERT_EQ(tb_hall_web_victim(c, 10, 3, 3, 40), 8);  /* address 3 at its limit of 3 */
}
