/* gen_tables.c - writes the chess core's const tables as C source (run at build time).
 *
 * Output: leaper attacks, between/line masks, fancy magic bitboards for sliders (magics found
 * here with a fixed-seed generator, so every build gets the same tables) and Zobrist keys.
 * Usage: gen_tables OUTPUT.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

/* splitmix64: simple, fixed seed, good enough for magics and Zobrist keys. */
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int popcount64(uint64_t b)
{
    int n = 0;
    for (; b; b &= b - 1)
        n++;
    return n;
}

static int on_board(int f, int r)
{
    return f >= 0 && f < 8 && r >= 0 && r < 8;
}

static uint64_t leaper(int sq, const int (*d)[2], int n)
{
    uint64_t b = 0;
    for (int i = 0; i < n; i++) {
        int f = sq % 8 + d[i][0], r = sq / 8 + d[i][1];
        if (on_board(f, r))
            b |= 1ULL << (r * 8 + f);
    }
    return b;
}

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* Slow ray walk: attacks of a slider on sq with blockers occ. */
static uint64_t slide(int sq, uint64_t occ, const int (*d)[2])
{
    uint64_t b = 0;
    for (int i = 0; i < 4; i++) {
        int f = sq % 8 + d[i][0], r = sq / 8 + d[i][1];
        while (on_board(f, r)) {
            b |= 1ULL << (r * 8 + f);
            if (occ & (1ULL << (r * 8 + f)))
                break;
            f += d[i][0];
            r += d[i][1];
        }
    }
    return b;
}

/* The relevant-occupancy mask: the rays without their last square. */
static uint64_t slide_mask(int sq, const int (*d)[2])
{
    uint64_t b = 0;
    for (int i = 0; i < 4; i++) {
        int f = sq % 8 + d[i][0], r = sq / 8 + d[i][1];
        while (on_board(f + d[i][0], r + d[i][1])) {
            b |= 1ULL << (r * 8 + f);
            f += d[i][0];
            r += d[i][1];
        }
    }
    return b;
}

struct magic {
    uint64_t mask, magic;
    unsigned offset, shift;
};

static uint64_t table[0x20000];
static unsigned table_len;

static void find_magic(int sq, const int (*d)[2], struct magic *m)
{
    static uint64_t occs[4096], atts[4096], used[4096];
    static unsigned epoch[4096], cur_epoch;
    uint64_t mask = slide_mask(sq, d);
    int bits = popcount64(mask), n = 0;
    uint64_t sub = 0;
    do {
        occs[n] = sub;
        atts[n] = slide(sq, sub, d);
        n++;
        sub = (sub - mask) & mask;
    } while (sub);
    m->mask = mask;
    m->shift = (unsigned)(64 - bits);
    m->offset = table_len;
    for (;;) {
        uint64_t magic = rng_next() & rng_next() & rng_next();
        if (popcount64((mask * magic) & 0xFF00000000000000ULL) < 6)
            continue;
        cur_epoch++;
        int ok = 1;
        for (int i = 0; i < n && ok; i++) {
            unsigned idx = (unsigned)((occs[i] * magic) >> m->shift);
            if (epoch[idx] != cur_epoch) {
                epoch[idx] = cur_epoch;
                used[idx] = atts[i];
            } else if (used[idx] != atts[i]) {
                ok = 0;
            }
        }
        if (!ok)
            continue;
        m->magic = magic;
        for (int i = 0; i < n; i++)
            table[table_len + ((occs[i] * magic) >> m->shift)] = atts[i];
        table_len += 1u << bits;
        return;
    }
}

/* Writes v[0..n) as an initializer; row > 0 groups every row values in braces (2-D arrays). */
static void put_array(FILE *f, const char *decl, const uint64_t *v, size_t n, size_t row)
{
    fprintf(f, "%s = {\n", decl);
    for (size_t i = 0; i < n; i++) {
        if (row && i % row == 0)
            fprintf(f, "    {\n");
        fprintf(f, "%s0x%016llxULL,%s", i % 4 == 0 ? "    " : " ", (unsigned long long)v[i],
                i % 4 == 3 || i == n - 1 ? "\n" : "");
        if (row && i % row == row - 1)
            fprintf(f, "    },\n");
    }
    fprintf(f, "};\n\n");
}

static void put_magics(FILE *f, const char *name, const struct magic *m)
{
    fprintf(f, "const struct tb_chess_magic %s[64] = {\n", name);
    for (int i = 0; i < 64; i++)
        fprintf(f, "    {0x%016llxULL, 0x%016llxULL, %uu, %uu},\n", (unsigned long long)m[i].mask,
                (unsigned long long)m[i].magic, m[i].offset, m[i].shift);
    fprintf(f, "};\n\n");
}

int main(int argc, char **argv)
{
    static const int knight_d[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_d[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int wpawn_d[2][2] = {{-1, 1}, {1, 1}};
    static const int bpawn_d[2][2] = {{-1, -1}, {1, -1}};
    static uint64_t knight[64], king[64], pawn[128], between[4096], line[4096],
        zob[16 * 64 + 4 * 64 + 64 + 1];
    static struct magic rook[64], bishop[64];

    if (argc != 2) {
        fprintf(stderr, "usage: gen_tables OUTPUT.c\n");
        return 2;
    }
    for (int sq = 0; sq < 64; sq++) {
        knight[sq] = leaper(sq, knight_d, 8);
        king[sq] = leaper(sq, king_d, 8);
        pawn[sq] = leaper(sq, wpawn_d, 2);
        pawn[64 + sq] = leaper(sq, bpawn_d, 2);
    }
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            uint64_t ba = 1ULL << a, bb = 1ULL << b;
            if (a == b)
                continue;
            const int(*dirs[2])[2] = {rook_dirs, bishop_dirs};
            for (int k = 0; k < 2; k++) {
                if (slide(a, 0, dirs[k]) & bb) {
                    between[a * 64 + b] = slide(a, bb, dirs[k]) & slide(b, ba, dirs[k]);
                    line[a * 64 + b] = (slide(a, 0, dirs[k]) & slide(b, 0, dirs[k])) | ba | bb;
                }
            }
        }
    for (int sq = 0; sq < 64; sq++)
        find_magic(sq, rook_dirs, &rook[sq]);
    for (int sq = 0; sq < 64; sq++)
        find_magic(sq, bishop_dirs, &bishop[sq]);
    for (size_t i = 0; i < sizeof zob / sizeof zob[0]; i++)
        zob[i] = rng_next();

    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fprintf(f, "/* Generated by host/chess/gen/gen_tables.c. Do not edit. */\n"
               "#include \"chess_internal.h\"\n\n");
    put_array(f, "const uint64_t tb_chess__knight_attacks[64]", knight, 64, 0);
    put_array(f, "const uint64_t tb_chess__king_attacks[64]", king, 64, 0);
    put_array(f, "const uint64_t tb_chess__pawn_attacks[2][64]", pawn, 128, 64);
    put_array(f, "const uint64_t tb_chess__between[64][64]", between, 4096, 64);
    put_array(f, "const uint64_t tb_chess__line[64][64]", line, 4096, 64);
    put_magics(f, "tb_chess__rook_magics", rook);
    put_magics(f, "tb_chess__bishop_magics", bishop);
    fprintf(f, "#if TB_CHESS_SLIDER_TABLE_SIZE != %u\n#error slider table size mismatch\n#endif\n",
            table_len);
    put_array(f, "const uint64_t tb_chess__slider_table[TB_CHESS_SLIDER_TABLE_SIZE]", table,
              table_len, 0);
    put_array(f, "const uint64_t tb_chess__zobrist_psq[16][64]", zob, 16 * 64, 64);
    put_array(f, "const uint64_t tb_chess__zobrist_castle[4][64]", zob + 16 * 64, 4 * 64, 64);
    put_array(f, "const uint64_t tb_chess__zobrist_ep[64]", zob + 20 * 64, 64, 0);
    fprintf(f, "const uint64_t tb_chess__zobrist_side = 0x%016llxULL;\n",
            (unsigned long long)zob[21 * 64]);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
