/* fuzz_rb_proto.c - fuzz target of the reedboard wire decoder and encoder.
 *
 * Any byte stream: the decoder must never read or write out of bounds (ASan), never hold more
 * than one frame, deliver only messages that re-encode to a frame decoding to the same message,
 * and give the same messages whether fed byte by byte or in chunks. The same input is also read
 * as a message struct and encoded: the encoder must refuse it or produce a decodable frame. */
#include "rb_proto.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXMSG 64

struct seen {
    struct rb_proto_msg msg[MAXMSG];
    size_t n;
};

static void check(int ok)
{
    if (!ok) {
        abort();
    }
}

static void keep(void *ctx, const struct rb_proto_msg *m)
{
    struct seen *s = ctx;
    if (s->n < MAXMSG) {
        s->msg[s->n] = *m;
    }
    s->n++;
}

/* Re-encodes a delivered message and decodes it again: same bytes, same message. */
static void re_encode(const struct rb_proto_msg *m)
{
    uint8_t f[RB_PROTO_MAX_FRAME], g[RB_PROTO_MAX_FRAME];
    size_t n = rb_proto_encode(f, sizeof f, m);
    check(n == (size_t)rb_proto_payload_len(m->type) + RB_PROTO_OVERHEAD);
    struct rb_proto_decoder d;
    struct seen s;
    memset(&s, 0, sizeof s);
    rb_proto_decoder_init(&d);
    check(rb_proto_decoder_feed(&d, f, n, keep, &s) == 1);
    check(rb_proto_encode(g, sizeof g, &s.msg[0]) == n);
    check(memcmp(f, g, n) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Byte by byte, with next() draining. */
    struct rb_proto_decoder a;
    struct seen sa;
    memset(&sa, 0, sizeof sa);
    rb_proto_decoder_init(&a);
    struct rb_proto_msg m;
    for (size_t i = 0; i < size; i++) {
        if (rb_proto_decoder_push(&a, data[i], &m)) {
            do {
                keep(&sa, &m);
            } while (rb_proto_decoder_next(&a, &m));
        }
        check(a.have < RB_PROTO_MAX_FRAME);
    }
    for (size_t i = 0; i < sa.n && i < MAXMSG; i++) {
        re_encode(&sa.msg[i]);
    }
    check(a.stats.frames == sa.n);

    /* In chunks whose size comes from the first byte: the same messages. */
    struct rb_proto_decoder b;
    struct seen sb;
    memset(&sb, 0, sizeof sb);
    rb_proto_decoder_init(&b);
    size_t step = size ? (size_t)(data[0] % 7) + 1 : 1;
    for (size_t i = 0; i < size; i += step) {
        rb_proto_decoder_feed(&b, data + i, size - i < step ? size - i : step, keep, &sb);
    }
    check(sb.n == sa.n);
    for (size_t i = 0; i < sa.n && i < MAXMSG; i++) {
        check(memcmp(&sa.msg[i], &sb.msg[i], sizeof sa.msg[i]) == 0);
    }
    check(memcmp(&a.stats, &b.stats, sizeof a.stats) == 0);
    rb_proto_decoder_reset(&b);
    check(b.have == 0);

    /* The input as a message to encode. */
    if (size >= 1) {
        struct rb_proto_msg in;
        memset(&in, 0, sizeof in);
        memcpy(&in, data, size < sizeof in ? size : sizeof in);
        uint8_t f[RB_PROTO_MAX_FRAME];
        size_t n = rb_proto_encode(f, sizeof f, &in);
        if (n) {
            struct rb_proto_decoder d;
            struct seen s;
            memset(&s, 0, sizeof s);
            rb_proto_decoder_init(&d);
            check(rb_proto_decoder_feed(&d, f, n, keep, &s) == 1);
        }
    }
    return 0;
}
