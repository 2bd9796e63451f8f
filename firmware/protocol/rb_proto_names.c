/* rb_proto_names.c - English names of protocol numbers, for host logs and error messages.
 * Kept apart from rb_proto.c so the firmware, which never prints, does not carry the strings. */
#include "rb_proto.h"

const char *rb_proto_type_name(uint8_t type)
{
    switch (type) {
    case RB_PROTO_GET_INFO:
        return "GET_INFO";
    case RB_PROTO_GET_SNAPSHOT:
        return "GET_SNAPSHOT";
    case RB_PROTO_SET_OPTIONS:
        return "SET_OPTIONS";
    case RB_PROTO_PING:
        return "PING";
    case RB_PROTO_SET_OUTPUTS:
        return "SET_OUTPUTS";
    case RB_PROTO_SET_SERIAL:
        return "SET_SERIAL";
    case RB_PROTO_INFO:
        return "INFO";
    case RB_PROTO_SNAPSHOT:
        return "SNAPSHOT";
    case RB_PROTO_SQUARE:
        return "SQUARE";
    case RB_PROTO_BUTTON:
        return "BUTTON";
    case RB_PROTO_FAULT:
        return "FAULT";
    case RB_PROTO_PONG:
        return "PONG";
    default:
        return "unknown type";
    }
}

const char *rb_proto_fault_name(uint8_t code)
{
    switch (code) {
    case RB_PROTO_FAULT_STUCK_SQUARE:
        return "stuck square";
    case RB_PROTO_FAULT_MATRIX:
        return "impossible matrix reading";
    case RB_PROTO_FAULT_QUEUE_OVERRUN:
        return "event queue overrun";
    case RB_PROTO_FAULT_BAD_REQUEST:
        return "bad request";
    case RB_PROTO_FAULT_RX_ERROR:
        return "receive error";
    case RB_PROTO_FAULT_SELF_TEST:
        return "self-test";
    default:
        return "unknown fault";
    }
}

const char *rb_proto_reject_name(uint8_t reject)
{
    switch (reject) {
    case RB_PROTO_REJECT_NONE:
        return "none";
    case RB_PROTO_REJECT_GARBAGE:
        return "bytes outside a frame";
    case RB_PROTO_REJECT_OVERSIZE:
        return "length too large";
    case RB_PROTO_REJECT_CRC:
        return "CRC mismatch";
    case RB_PROTO_REJECT_TYPE:
        return "unknown message type";
    case RB_PROTO_REJECT_LENGTH:
        return "length does not match type";
    case RB_PROTO_REJECT_FIELD:
        return "field out of range";
    case RB_PROTO_REJECT_TRUNCATED:
        return "truncated frame";
    case RB_PROTO_REJECT_REFUSED:
        return "refused by the board";
    default:
        return "unknown reason";
    }
}
