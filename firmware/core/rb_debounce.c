/* rb_debounce.c - per-element deferred debounce, the semantics of QMK's sym_defer_pk.
 *
 * Deferred, because a reed switch under a hand-moved magnet chatters near its pull-in distance
 * and a sliding piece brushes squares on its way: only a state that holds for the whole window
 * is reported. Per element, so a busy square never delays the others. */
#include "rb_core.h"

/* True when any of the eight countdowns of one byte runs; unrolled, as this is the idle path. */
static uint8_t any_running(const uint8_t *t)
{
    return (uint8_t)(t[0] | t[1] | t[2] | t[3] | t[4] | t[5] | t[6] | t[7]);
}

uint8_t rb_debounce(uint8_t *timers, const uint8_t *raw, uint8_t *cooked, uint8_t *changed,
                    uint8_t *aborted, uint8_t nbytes, uint8_t elapsed_ms, uint8_t debounce_ms)
{
    uint8_t n = 0;
    for (uint8_t i = 0; i < nbytes; i++) {
        uint8_t ch = 0, ab = 0;
        uint8_t diff = (uint8_t)(raw[i] ^ cooked[i]);
        uint8_t *t = timers + (uint8_t)(i * 8);
        if (diff || any_running(t)) {
            uint8_t mask = 1;
            for (uint8_t bit = 0; bit < 8; bit++, mask = (uint8_t)(mask << 1)) {
                if (t[bit]) {
                    if (t[bit] <= elapsed_ms) {
                        /* The window ran out with raw still differing: take it. */
                        t[bit] = 0;
                        if (diff & mask) {
                            ch |= mask;
                            n++;
                        }
                    } else if (diff & mask) {
                        t[bit] = (uint8_t)(t[bit] - elapsed_ms);
                    } else {
                        /* Raw went back before the window ended: chatter, start over later. */
                        t[bit] = 0;
                        ab |= mask;
                    }
                } else if (diff & mask) {
                    t[bit] = debounce_ms ? debounce_ms : 1;
                }
            }
            cooked[i] ^= ch;
        }
        if (changed) {
            changed[i] = ch;
        }
        if (aborted) {
            aborted[i] = ab;
        }
    }
    return n;
}
