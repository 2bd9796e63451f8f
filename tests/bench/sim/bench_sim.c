/* bench_sim - the firmware under simavr over whole games: latency from a stable reed change
 * (end of bounce) to the first UART byte of its frame, and simulated seconds per wall second.
 *
 *   bench_sim [GAMEFILE NUMBER]...      default: twic0920.pgn 8, Carlsen.pgn 1, Kasparov.pgn 1
 */
#include <time.h>

#include "sim_common.h"

/* The helpers find the shared games through the test harness's function; this program has no
 * harness, so it answers the same way (TB_SHARED_DATA overrides the build's default). */
const char *tb_test_data_dir(void)
{
    const char *env = getenv("TB_SHARED_DATA");
    return env && *env ? env : TB_SHARED_DATA_DIR;
}

static double wall_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void bench(const char *file, long number, double bounce)
{
    struct script s;
    game_script(file, number, 0, &s);
    double t0 = wall_s();
    struct sim_run *r = sim_run_script(&s, bounce, 42);
    double wall = wall_s() - t0;
    double sim_s = rb_sim_cycles_to_ms(r->sim, rb_sim_cycle(r->sim)) / 1000.0;
    uint64_t *lat = malloc(r->nevents * sizeof *lat);
    ASSERT_NOT_NULL(lat);
    if (r->nevents != s.n)
        TB_FAIL("%s game %ld: %zu events for %zu changes", file, number, r->nevents, s.n);
    for (size_t i = 0; i < r->nevents; i++)
        lat[i] = r->events[i].first_cycle - r->events[i].stable_cycle;
    qsort(lat, r->nevents, sizeof *lat, cmp_u64);
    uint64_t lo = lat[0], med = lat[r->nevents / 2], hi = lat[r->nevents - 1];
    printf(
        "| %s #%ld | %.0f ms | %zu | %llu / %llu / %llu | %.3f / %.3f / %.3f | %.1f s | %.2f s | "
        "%.1f |\n",
        file, number, bounce, r->nevents, (unsigned long long)lo, (unsigned long long)med,
        (unsigned long long)hi, rb_sim_cycles_to_ms(r->sim, lo), rb_sim_cycles_to_ms(r->sim, med),
        rb_sim_cycles_to_ms(r->sim, hi), sim_s, wall, sim_s / wall);
    free(lat);
    sim_run_free(r);
    script_free(&s);
}

int main(int argc, char **argv)
{
    static const char *const def_files[] = {"twic0920.pgn", "Carlsen.pgn", "Kasparov.pgn"};
    printf("| game | bounce | changes | latency cycles min / median / max | latency ms min / "
           "median / max | simulated | wall | sim s per wall s |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    if (argc > 1) {
        for (int i = 1; i + 1 < argc; i += 2)
            for (int b = 0; b <= 5; b += 5)
                bench(argv[i], atol(argv[i + 1]), b);
        return 0;
    }
    for (int g = 0; g < 3; g++)
        for (int b = 0; b <= 5; b += 5)
            bench(def_files[g], g == 0 ? 8 : 1, b);
    return 0;
}
