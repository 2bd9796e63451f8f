/* speaker.c - the speaker: one speech thread, one ordered queue and one sink per player.
 *
 * Threads: callers only append requests under the mutex. The speech thread owns eSpeak NG, every
 * sink call and both players' play queues, so none of those needs a lock. PCM is handed to the
 * sink chunk by chunk while eSpeak renders it, so the first frame reaches the sink a fraction of
 * a millisecond after the request is taken.
 *
 * Per player only the head of the queue is written to the sink; the next announcement starts
 * when the sink has played the head to its end, so two never overlap. An URGENT announcement
 * flushes the sink and goes first; a cut MOVE goes back to the queue to be said again in full
 * (an opponent's move is never dropped), a cut message is dropped with a TB_VOICE_CUT event.
 *
 * A sink whose write fails or that stops playing (a headset pulled out) is lost: it is closed,
 * what waits for that player fails, and it is opened again every reopen_ms on the speech thread
 * until it opens. The other player's queue and sink never wait for it. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "voice_internal.h"

#define EVENT_QUEUE 256
#define FLAG_CANCEL 0x100    /* internal request: cut the player's review, say nothing */
#define POLL_NS     5000000L /* how often a playing sink is checked for the end of an announcement */

struct item {
    struct item *next;
    long id;
    int player;
    unsigned flags;
    char *speech;       /* text for eSpeak NG (phoneme spellings applied) */
    char *score_speech; /* D.2.7 scoresheet line, NULL when not recorded */
    int16_t *pcm;
    size_t frames, cap, fed;
    bool synthesized, fully_fed;
    uint64_t end;    /* sink position of its last frame, once fully fed */
    double deadline; /* monotonic seconds by which the sink must have played it */
};

enum job_kind { JOB_RENDER, JOB_PHONEMES };
struct job {
    struct job *next;
    enum job_kind kind;
    int player; /* whose pack and voice; -1: the speaker's */
    const char *speech;
    char *out;
    size_t out_len;
    struct item pcm; /* render target */
    int rc;
    bool done;
};

struct player {
    const struct tb_voice_pack *pack;
    struct tb_voice_settings settings;
    const struct tb_voice_sink_ops *ops;
    void *sink;
    char *target; /* the sink's target, device_rate and argument: to open it again */
    unsigned device_rate;
    void *sink_arg;
    struct item *head, *tail; /* speech thread only */
    uint64_t written;
    struct tb_voice__wav score;
    double retry_at; /* while lost: when to open the sink again (speech thread) */
    /* Under the mutex (written by the speech thread only, so it reads them without): */
    bool lost;
    char lost_why[sizeof((struct tb_error *)0)->msg]; /* the sink's own words, whole */
    double lost_since;
    char *last_move;
    int pending; /* announcements not yet done, cut or failed */
};

struct tb_voice {
    const struct tb_voice_config *cfg; /* valid during tb_voice_new only */
    const struct tb_voice_pack *pack;
    struct tb_voice_settings settings; /* the speaker's; each player has its own too */
    struct tb_voice_settings current;  /* what eSpeak speaks with now (speech thread) */
    unsigned rate;
    double stall;       /* seconds of grace after an announcement's own length */
    double reopen;      /* seconds between attempts to open a lost sink again */
    struct item *synth; /* the item eSpeak renders now (speech thread) */
    char describe[320];

    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake; /* to the speech thread */
    pthread_cond_t news; /* from it: init done, job done, announcement finished */
    bool quit, init_done;
    int init_rc;
    struct tb_error init_err;
    struct item *req_head, *req_tail;
    struct job *job_head, *job_tail;
    long next_id;
    struct player pl[TB_VOICE_PLAYERS];

    int evfd[2];
    struct tb_voice_event events[EVENT_QUEUE];
    int ev_first, ev_count;
};

static double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void item_free(struct item *it)
{
    if (!it)
        return;
    free(it->speech);
    free(it->score_speech);
    free(it->pcm);
    free(it);
}

static int pcm_append(struct item *it, const int16_t *pcm, size_t n)
{
    if (it->frames + n > it->cap) {
        size_t cap = it->cap ? it->cap : 32768;
        while (cap < it->frames + n)
            cap *= 2;
        int16_t *p = realloc(it->pcm, cap * sizeof *p);
        if (!p)
            return TB_ERR_MEM;
        it->pcm = p;
        it->cap = cap;
    }
    memcpy(it->pcm + it->frames, pcm, n * sizeof *pcm);
    it->frames += n;
    return TB_OK;
}

/* ---- events (any thread, under the mutex) ---- */

static void push_event(struct tb_voice *v, long id, int player, enum tb_voice_status status)
{
    if (v->ev_count == EVENT_QUEUE) { /* nobody reads: keep the newest */
        v->ev_first = (v->ev_first + 1) % EVENT_QUEUE;
        v->ev_count--;
    }
    v->events[(v->ev_first + v->ev_count++) % EVENT_QUEUE] =
        (struct tb_voice_event){.id = id, .player = player, .status = status};
    ssize_t w = write(v->evfd[1], "e", 1); /* a full pipe is still readable: fine */
    (void)w;
    pthread_cond_broadcast(&v->news);
}

static void emit(struct tb_voice *v, const struct item *it, enum tb_voice_status status)
{
    pthread_mutex_lock(&v->mu);
    v->pl[it->player].pending--;
    push_event(v, it->id, it->player, status);
    pthread_mutex_unlock(&v->mu);
}

/* ---- the play queue of one player (speech thread only) ---- */

static struct item *pop_head(struct player *p)
{
    struct item *it = p->head;
    p->head = it->next;
    if (!p->head)
        p->tail = NULL;
    it->next = NULL;
    return it;
}

/* The player's sink failed: closed, everything waiting fails, reopened later (reopen). */
static void lose(struct tb_voice *v, struct player *p, const char *why)
{
    p->ops->flush(p->sink);
    p->ops->close(p->sink);
    p->sink = NULL;
    while (p->head) {
        struct item *it = pop_head(p);
        if (it == v->synth)
            continue; /* failed by take_request once eSpeak has stopped */
        emit(v, it, TB_VOICE_FAILED);
        item_free(it);
    }
    double now = mono_now();
    p->retry_at = now + v->reopen;
    pthread_mutex_lock(&v->mu);
    p->lost = true;
    p->lost_since = now;
    snprintf(p->lost_why, sizeof p->lost_why, "%s", why);
    push_event(v, 0, (int)(p - v->pl), TB_VOICE_DEVICE_LOST);
    pthread_mutex_unlock(&v->mu);
}

/* Opens a lost sink again when its time has come; the player hears speech again once it opens. */
static void reopen(struct tb_voice *v, struct player *p, double now)
{
    if (!p->lost || now < p->retry_at)
        return;
    struct tb_error err = {0};
    if (p->ops->open(&p->sink, p->target, v->rate, p->device_rate, p->sink_arg, &err) != TB_OK) {
        p->sink = NULL;
        p->retry_at = now + v->reopen;
        pthread_mutex_lock(&v->mu);
        if (err.msg[0]) /* status follows what the device says now */
            snprintf(p->lost_why, sizeof p->lost_why, "%s", err.msg);
        pthread_mutex_unlock(&v->mu);
        return;
    }
    p->written = 0;
    pthread_mutex_lock(&v->mu);
    p->lost = false;
    push_event(v, 0, (int)(p - v->pl), TB_VOICE_DEVICE_BACK);
    pthread_mutex_unlock(&v->mu);
}

/* Writes the head to the sink and retires it once played; then the next one. */
static void feed(struct tb_voice *v, struct player *p)
{
    while (p->head && !p->lost) {
        struct item *it = p->head;
        if (it->fed < it->frames) {
            long n = p->ops->write(p->sink, it->pcm + it->fed, it->frames - it->fed);
            if (n < 0) {
                char why[160];
                snprintf(why, sizeof why, "the %s output refused the audio (%s)", p->ops->name,
                         tb_strerror((int)n));
                lose(v, p, why);
                return;
            }
            it->fed += (size_t)n;
            p->written += (uint64_t)n;
            if (it->fed < it->frames)
                return; /* sink full: offered again on the next round */
        }
        if (!it->synthesized)
            return;
        if (!it->fully_fed) {
            it->fully_fed = true;
            it->end = p->written;
            it->deadline = mono_now() + (double)it->frames / v->rate + v->stall;
        }
        if (p->ops->played(p->sink) < it->end) {
            if (mono_now() < it->deadline)
                return;
            char why[160]; /* the device is stuck: lost until it opens again */
            snprintf(why, sizeof why, "the %s output stopped playing (%.1f s overdue)",
                     p->ops->name, v->stall);
            lose(v, p, why);
            return;
        } else {
            emit(v, it, TB_VOICE_DONE);
        }
        item_free(pop_head(p));
    }
}

/* An urgent announcement arrives: cut what the player hears now. */
static void cut(struct tb_voice *v, struct player *p)
{
    struct item *it = p->head;
    if (!it || (it->fed == 0 && !it->fully_fed))
        return;
    p->ops->flush(p->sink);
    if (it->flags & TB_VOICE_MOVE) { /* said again in full after the urgent one */
        it->fed = 0;
        it->fully_fed = false;
        return;
    }
    emit(v, it, TB_VOICE_CUT);
    item_free(pop_head(p));
}

struct synth_ctx {
    struct tb_voice *v;
    struct item *it;
    int rc;
};

/* eSpeak's chunks go straight to the sink when the item is the one playing. */
static int on_pcm(void *arg, const int16_t *pcm, size_t n)
{
    struct synth_ctx *c = arg;
    if ((c->rc = pcm_append(c->it, pcm, n)))
        return 1;
    struct player *p = &c->v->pl[c->it->player];
    if (p->head == c->it)
        feed(c->v, p);
    return p->lost; /* nobody hears the rest */
}

static int collect(void *arg, const int16_t *pcm, size_t n)
{
    return pcm_append(arg, pcm, n) ? 1 : 0;
}

/* D.2.7: the scoresheet line ("Zug 12: ...") is rendered on its own and appended, never played. */
static void record(struct player *p, const char *speech)
{
    struct item line = {0};
    if (p->score.sf && tb_voice__tts_say(speech, collect, &line) == TB_OK)
        tb_voice__wav_append(&p->score, line.pcm, line.frames);
    free(line.pcm);
}

/* A review is the lowest priority: anything else for the player cuts all of it, what plays and
 * what waits (the head is the only item the sink holds). */
static void cut_reviews(struct tb_voice *v, struct player *p)
{
    struct item **pp = &p->head, *prev = NULL;
    while (*pp) {
        struct item *it = *pp;
        if (!(it->flags & TB_VOICE_REVIEW)) {
            prev = it;
            pp = &it->next;
            continue;
        }
        if (it == p->head && (it->fed > 0 || it->fully_fed))
            p->ops->flush(p->sink);
        *pp = it->next;
        if (p->tail == it)
            p->tail = prev;
        emit(v, it, TB_VOICE_CUT);
        item_free(it);
    }
}

static void take_request(struct tb_voice *v, struct item *it)
{
    struct player *p = &v->pl[it->player];
    if (p->lost) { /* nobody hears it; a move still goes on the spoken scoresheet (D.2.7) */
        if (it->score_speech)
            record(p, it->score_speech);
        emit(v, it, it->flags & FLAG_CANCEL ? TB_VOICE_DONE : TB_VOICE_FAILED);
        item_free(it);
        return;
    }
    if (!(it->flags & TB_VOICE_REVIEW))
        cut_reviews(v, p);
    if (it->flags & FLAG_CANCEL) {
        emit(v, it, TB_VOICE_DONE);
        item_free(it);
        feed(v, p);
        return;
    }
    if (it->flags & TB_VOICE_URGENT) {
        cut(v, p);
        it->next = p->head;
        p->head = it;
        if (!p->tail)
            p->tail = it;
    } else {
        if (p->tail)
            p->tail->next = it;
        else
            p->head = it;
        p->tail = it;
    }
    struct synth_ctx c = {v, it, 0};
    int rc = TB_OK;
    v->synth = it;
    if (it->speech) { /* else its PCM came with the request (an earcon) */
        rc = tb_voice__tts_select(&p->settings, &v->current, NULL);
        if (!rc)
            rc = tb_voice__tts_say(it->speech, on_pcm, &c);
    }
    v->synth = NULL;
    it->synthesized = true;
    if (p->lost) { /* lost while it was rendered: lose() took it off the queue */
        if (it->score_speech)
            record(p, it->score_speech);
        emit(v, it, TB_VOICE_FAILED);
        item_free(it);
        return;
    }
    if (rc || c.rc) {
        /* Unlink it wherever it is; what was already written plays out. */
        struct item **pp = &p->head, *prev = NULL;
        while (*pp != it) {
            prev = *pp;
            pp = &(*pp)->next;
        }
        *pp = it->next;
        if (p->tail == it)
            p->tail = prev;
        emit(v, it, TB_VOICE_FAILED);
        item_free(it);
    } else if (it->score_speech) {
        record(p, it->score_speech);
    }
    feed(v, p);
}

static void run_job(struct tb_voice *v, struct job *j)
{
    const struct tb_voice_settings *st = j->player < 0 ? &v->settings : &v->pl[j->player].settings;
    if ((j->rc = tb_voice__tts_select(st, &v->current, NULL)))
        return;
    if (j->kind == JOB_RENDER)
        j->rc = tb_voice__tts_say(j->speech, collect, &j->pcm);
    else
        j->rc = tb_voice__tts_phonemes(j->speech, j->out, j->out_len);
}

static int open_players(struct tb_voice *v, struct tb_error *err)
{
    for (int i = 0; i < TB_VOICE_PLAYERS; i++) {
        const struct tb_voice_player_config *pc = &v->cfg->player[i];
        struct player *p = &v->pl[i];
        p->ops = pc->sink ? pc->sink : &tb_voice_sink_null;
        p->device_rate = pc->device_rate;
        p->sink_arg = pc->sink_arg;
        if (pc->target && !(p->target = strdup(pc->target)))
            return tb_error_set(err, TB_ERR_MEM, "out of memory");
        int rc = p->ops->open(&p->sink, pc->target, v->rate, pc->device_rate, pc->sink_arg, err);
        if (rc) {
            p->ops = NULL;
            return rc;
        }
        if (pc->scoresheet_wav &&
            (rc = tb_voice__wav_open(&p->score, pc->scoresheet_wav, v->rate, true, err)))
            return rc;
        /* A voice eSpeak does not have is refused now, not at the first move. */
        if ((rc = tb_voice__tts_select(&p->settings, &v->current, err)))
            return rc;
    }
    return TB_OK;
}

static void close_players(struct tb_voice *v)
{
    for (int i = 0; i < TB_VOICE_PLAYERS; i++) {
        struct player *p = &v->pl[i];
        while (p->head)
            item_free(pop_head(p));
        if (p->ops && !p->lost) {
            p->ops->flush(p->sink);
            p->ops->close(p->sink);
        }
        p->ops = NULL;
        free(p->target);
        p->target = NULL;
        tb_voice__wav_close(&p->score);
    }
}

static bool playing(const struct tb_voice *v)
{
    for (int i = 0; i < TB_VOICE_PLAYERS; i++)
        if (v->pl[i].head)
            return true;
    return false;
}

static void *speech_thread(void *arg)
{
    struct tb_voice *v = arg;
    struct tb_error err = {0};
    int rc = tb_voice__tts_init(v->cfg->espeak_data, &v->settings, &v->current, &v->rate,
                                v->describe, sizeof v->describe, &err);
    if (!rc)
        rc = open_players(v, &err);
    pthread_mutex_lock(&v->mu);
    v->init_rc = rc;
    v->init_err = err;
    v->init_done = true;
    pthread_cond_broadcast(&v->news);
    pthread_mutex_unlock(&v->mu);

    while (!rc) {
        double now = mono_now(), wake_at = 0; /* 0: nothing to wait for but requests */
        for (int i = 0; i < TB_VOICE_PLAYERS; i++) {
            reopen(v, &v->pl[i], now);
            feed(v, &v->pl[i]);
            if (v->pl[i].lost && (!wake_at || v->pl[i].retry_at < wake_at))
                wake_at = v->pl[i].retry_at;
        }
        if (playing(v))
            wake_at = now + POLL_NS * 1e-9;
        pthread_mutex_lock(&v->mu);
        if (v->quit) {
            pthread_mutex_unlock(&v->mu);
            break;
        }
        if (v->job_head) {
            struct job *j = v->job_head;
            v->job_head = j->next;
            if (!v->job_head)
                v->job_tail = NULL;
            pthread_mutex_unlock(&v->mu);
            run_job(v, j);
            pthread_mutex_lock(&v->mu);
            j->done = true;
            pthread_cond_broadcast(&v->news);
        } else if (v->req_head) {
            struct item *it = v->req_head;
            v->req_head = it->next;
            if (!v->req_head)
                v->req_tail = NULL;
            it->next = NULL;
            pthread_mutex_unlock(&v->mu);
            take_request(v, it);
            continue;
        } else if (wake_at > 0) {
            double at = wake_at > now ? wake_at : now;
            struct timespec t = {.tv_sec = (time_t)at,
                                 .tv_nsec = (long)((at - (double)(time_t)at) * 1e9)};
            pthread_cond_timedwait(&v->wake, &v->mu, &t);
        } else {
            pthread_cond_wait(&v->wake, &v->mu);
        }
        pthread_mutex_unlock(&v->mu);
    }
    close_players(v);
    return NULL;
}

/* ---- the API (any thread) ---- */

/* speech text for text, malloc'd. */
static char *speech_of(const struct tb_voice_pack *pack, const char *text)
{
    for (size_t len = strlen(text) * 2 + 64;; len *= 2) {
        char *buf = malloc(len);
        if (!buf)
            return NULL;
        int n = tb_voice_pack_speech_text(pack, text, buf, len);
        if (n >= 0)
            return buf;
        free(buf);
        if (n != TB_ERR_FULL)
            return NULL;
    }
}

int tb_voice_new(const struct tb_voice_config *cfg, struct tb_voice **out, struct tb_error *err)
{
    if (!cfg || !cfg->pack || !out)
        return tb_error_set(err, TB_ERR_ARG, "voice: no configuration or no phrase pack");
    struct tb_voice *v = calloc(1, sizeof *v);
    if (!v)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    v->cfg = cfg;
    v->pack = cfg->pack;
    tb_voice_pack_settings(cfg->pack, &v->settings);
    struct tb_voice_settings *st = &v->settings;
    if (cfg->espeak_voice && *cfg->espeak_voice)
        snprintf(st->espeak_voice, sizeof st->espeak_voice, "%s", cfg->espeak_voice);
    if (cfg->rate)
        st->rate = cfg->rate;
    if (cfg->pitch)
        st->pitch = cfg->pitch;
    if (cfg->volume)
        st->volume = cfg->volume;
    if (cfg->wordgap)
        st->wordgap = cfg->wordgap;
    for (int i = 0; i < TB_VOICE_PLAYERS; i++) {
        const struct tb_voice_player_config *pc = &cfg->player[i];
        struct player *p = &v->pl[i];
        p->pack = pc->pack ? pc->pack : cfg->pack;
        if (pc->pack)
            tb_voice_pack_settings(pc->pack, &p->settings);
        else
            p->settings = *st;
        if (pc->espeak_voice && *pc->espeak_voice)
            snprintf(p->settings.espeak_voice, sizeof p->settings.espeak_voice, "%s",
                     pc->espeak_voice);
        if (pc->rate)
            p->settings.rate = pc->rate;
    }
    v->next_id = 1;
    v->stall = (cfg->stall_ms > 0 ? cfg->stall_ms : 5000) / 1000.0;
    v->reopen = (cfg->reopen_ms > 0 ? cfg->reopen_ms : 1000) / 1000.0;
    for (int i = 0; i < TB_VOICE_PLAYERS; i++)
        v->pl[i].score.sf = NULL;
    if (pipe(v->evfd) || fcntl(v->evfd[0], F_SETFL, O_NONBLOCK) ||
        fcntl(v->evfd[1], F_SETFL, O_NONBLOCK) || fcntl(v->evfd[0], F_SETFD, FD_CLOEXEC) ||
        fcntl(v->evfd[1], F_SETFD, FD_CLOEXEC)) {
        free(v);
        return tb_error_set(err, TB_ERR_SYS, "voice: pipe: %s", strerror(errno));
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&v->mu, NULL);
    pthread_cond_init(&v->wake, &ca);
    pthread_cond_init(&v->news, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&v->thread, NULL, speech_thread, v)) {
        close(v->evfd[0]);
        close(v->evfd[1]);
        free(v);
        return tb_error_set(err, TB_ERR_SYS, "voice: cannot start the speech thread");
    }
    pthread_mutex_lock(&v->mu);
    while (!v->init_done)
        pthread_cond_wait(&v->news, &v->mu);
    int rc = v->init_rc;
    pthread_mutex_unlock(&v->mu);
    v->cfg = NULL;
    if (rc) {
        if (err)
            *err = v->init_err;
        tb_voice_free(v);
        return rc;
    }
    *out = v;
    return TB_OK;
}

void tb_voice_free(struct tb_voice *v)
{
    if (!v)
        return;
    pthread_mutex_lock(&v->mu);
    v->quit = true;
    pthread_cond_signal(&v->wake);
    pthread_mutex_unlock(&v->mu);
    pthread_join(v->thread, NULL);
    while (v->req_head) {
        struct item *it = v->req_head;
        v->req_head = it->next;
        item_free(it);
    }
    for (int i = 0; i < TB_VOICE_PLAYERS; i++)
        free(v->pl[i].last_move);
    close(v->evfd[0]);
    close(v->evfd[1]);
    pthread_cond_destroy(&v->wake);
    pthread_cond_destroy(&v->news);
    pthread_mutex_destroy(&v->mu);
    free(v);
}

/* Queues a chain of items (linked by next, all for one player) at once, so nothing queued by
 * another thread lands between them; returns the id of the last. */
static long enqueue(struct tb_voice *v, struct item *it, const char *remember)
{
    char *copy = remember ? strdup(remember) : NULL;
    if (remember && !copy) {
        while (it) {
            struct item *next = it->next;
            item_free(it);
            it = next;
        }
        return TB_ERR_MEM;
    }
    pthread_mutex_lock(&v->mu);
    struct player *p = &v->pl[it->player];
    long id = 0;
    for (struct item *i = it; i; i = i->next) {
        i->id = id = v->next_id++;
        p->pending++;
        if (!i->next) {
            if (v->req_tail)
                v->req_tail->next = it;
            else
                v->req_head = it;
            v->req_tail = i;
        }
    }
    if (copy) {
        free(p->last_move);
        p->last_move = copy;
    }
    pthread_cond_signal(&v->wake);
    pthread_mutex_unlock(&v->mu);
    return id;
}

long tb_voice_announce(struct tb_voice *v, int player, const char *text, unsigned flags,
                       int move_number)
{
    if (!v || player < 0 || player >= TB_VOICE_PLAYERS || !text || !*text ||
        (flags & ~(unsigned)(TB_VOICE_MOVE | TB_VOICE_URGENT)))
        return TB_ERR_ARG;
    const struct tb_voice_pack *pack = v->pl[player].pack;
    struct item *it = calloc(1, sizeof *it);
    if (!it || !(it->speech = speech_of(pack, text))) {
        item_free(it);
        return TB_ERR_MEM;
    }
    it->player = player;
    it->flags = flags;
    if ((flags & TB_VOICE_MOVE) && move_number > 0 && v->pl[player].score.sf) {
        char line[512];
        struct tb_voice_msg_args a = {.n = move_number, .move = text};
        if (tb_voice_phrase_msg(pack, TB_VOICE_MSG_MOVE_NUMBER, &a, line, sizeof line) < 0 ||
            !(it->score_speech = speech_of(pack, line))) {
            item_free(it);
            return TB_ERR_FULL;
        }
    }
    return enqueue(v, it, flags & TB_VOICE_MOVE ? text : NULL);
}

long tb_voice_review(struct tb_voice *v, int player, const char *text)
{
    if (!v || player < 0 || player >= TB_VOICE_PLAYERS || !text || !*text)
        return TB_ERR_ARG;
    const struct tb_voice_pack *pack = v->pl[player].pack;
    struct item *first = NULL, **link = &first;
    /* One item per sentence: a whole scoresheet is not rendered in one piece. */
    for (const char *s = text; *s;) {
        const char *end = strstr(s, ". ");
        size_t n = end ? (size_t)(end - s) + 1 : strlen(s);
        char *sentence = strndup(s, n);
        struct item *it = sentence ? calloc(1, sizeof *it) : NULL;
        if (it && !(it->speech = speech_of(pack, sentence))) {
            free(it);
            it = NULL;
        }
        free(sentence);
        if (!it) {
            while (first) {
                struct item *next = first->next;
                item_free(first);
                first = next;
            }
            return TB_ERR_MEM;
        }
        it->player = player;
        it->flags = TB_VOICE_REVIEW;
        *link = it;
        link = &it->next;
        s += n;
        while (*s == ' ')
            s++;
    }
    return first ? enqueue(v, first, NULL) : TB_ERR_ARG;
}

const struct tb_voice_pack *tb_voice_player_pack(const struct tb_voice *v, int player)
{
    return v && player >= 0 && player < TB_VOICE_PLAYERS ? v->pl[player].pack : NULL;
}

long tb_voice_cancel_review(struct tb_voice *v, int player)
{
    if (!v || player < 0 || player >= TB_VOICE_PLAYERS)
        return TB_ERR_ARG;
    struct item *it = calloc(1, sizeof *it);
    if (!it)
        return TB_ERR_MEM;
    it->player = player;
    it->flags = FLAG_CANCEL;
    return enqueue(v, it, NULL);
}

long tb_voice_play_pcm(struct tb_voice *v, int player, const int16_t *pcm, size_t frames,
                       unsigned flags)
{
    if (!v || player < 0 || player >= TB_VOICE_PLAYERS || !pcm || frames == 0 ||
        (flags & ~(unsigned)TB_VOICE_URGENT))
        return TB_ERR_ARG;
    struct item *it = calloc(1, sizeof *it);
    if (!it || pcm_append(it, pcm, frames)) {
        item_free(it);
        return TB_ERR_MEM;
    }
    it->player = player;
    it->flags = flags;
    return enqueue(v, it, NULL);
}

int tb_voice_confirm_mode_parse(const char *text, enum tb_voice_confirm_mode *out,
                                struct tb_error *err)
{
    static const char *const names[] = {"off", "earcon", "word"};
    for (int i = 0; text && out && i < 3; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = (enum tb_voice_confirm_mode)i;
            return TB_OK;
        }
    return tb_error_set(err, TB_ERR_PARSE, "confirmation \"%s\": expected off, earcon or word",
                        text ? text : "(none)");
}

long tb_voice_confirm(struct tb_voice *v, int player, enum tb_voice_confirm_mode mode,
                      enum tb_voice_confirm_what what)
{
    if (!v || player < 0 || player >= TB_VOICE_PLAYERS || (unsigned)mode > TB_VOICE_CONFIRM_WORD ||
        (unsigned)what > TB_VOICE_CONFIRM_UNRECOGNISED)
        return TB_ERR_ARG;
    if (what == TB_VOICE_CONFIRM_TAKEN && mode == TB_VOICE_CONFIRM_OFF)
        return 0;
    if (what == TB_VOICE_CONFIRM_TAKEN && mode == TB_VOICE_CONFIRM_EARCON) {
        int16_t pcm[192000 * TB_VOICE_EARCON_MS / 1000];
        int n = tb_voice_earcon(pcm, sizeof pcm / sizeof *pcm, v->rate, TB_VOICE_EARCON_HZ,
                                TB_VOICE_EARCON_MS);
        return n < 0 ? n : tb_voice_play_pcm(v, player, pcm, (size_t)n, 0);
    }
    static const enum tb_voice_msg msg[] = {TB_VOICE_MSG_TAKEN, TB_VOICE_MSG_ILLEGAL,
                                            TB_VOICE_MSG_NOT_RECOGNISED};
    char text[TB_VOICE_TEMPLATE_MAX + 1];
    int n = tb_voice_phrase_msg(v->pl[player].pack, msg[what], NULL, text, sizeof text);
    if (n < 0)
        return n;
    /* A move that was not taken is said at once: the player must not play on. */
    return tb_voice_announce(v, player, text,
                             what == TB_VOICE_CONFIRM_TAKEN ? 0u : (unsigned)TB_VOICE_URGENT, 0);
}

long tb_voice_repeat(struct tb_voice *v, int player)
{
    if (!v || player < 0 || player >= TB_VOICE_PLAYERS)
        return TB_ERR_ARG;
    pthread_mutex_lock(&v->mu);
    char *text = v->pl[player].last_move ? strdup(v->pl[player].last_move) : NULL;
    bool none = !v->pl[player].last_move;
    pthread_mutex_unlock(&v->mu);
    if (none)
        return TB_ERR_NOTFOUND;
    if (!text)
        return TB_ERR_MEM;
    /* Not a MOVE again: it is not a new move for the scoresheet. */
    long id = tb_voice_announce(v, player, text, 0, 0);
    free(text);
    return id;
}

bool tb_voice_device_ok(struct tb_voice *v, int player, char *why, size_t len, double *since)
{
    if (!v || player < 0 || player >= TB_VOICE_PLAYERS)
        return false;
    pthread_mutex_lock(&v->mu);
    bool ok = !v->pl[player].lost;
    if (!ok && why && len)
        snprintf(why, len, "%s", v->pl[player].lost_why);
    if (!ok && since)
        *since = v->pl[player].lost_since;
    pthread_mutex_unlock(&v->mu);
    return ok;
}

int tb_voice_fd(const struct tb_voice *v)
{
    return v ? v->evfd[0] : -1;
}

int tb_voice_events(struct tb_voice *v, struct tb_voice_event *ev, int max)
{
    if (!v || (!ev && max > 0))
        return TB_ERR_ARG;
    pthread_mutex_lock(&v->mu);
    int n = 0;
    for (; n < max && v->ev_count > 0; n++) {
        ev[n] = v->events[v->ev_first];
        v->ev_first = (v->ev_first + 1) % EVENT_QUEUE;
        v->ev_count--;
    }
    /* One byte per event; when the queue is empty, drain whatever is left. */
    char sink[EVENT_QUEUE];
    if (v->ev_count == 0) {
        while (read(v->evfd[0], sink, sizeof sink) > 0)
            ;
    } else if (n > 0) {
        ssize_t r = read(v->evfd[0], sink, (size_t)n);
        (void)r;
    }
    pthread_mutex_unlock(&v->mu);
    return n;
}

int tb_voice_wait_idle(struct tb_voice *v, int player, int timeout_ms)
{
    if (!v || player < -1 || player >= TB_VOICE_PLAYERS)
        return TB_ERR_ARG;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (timeout_ms >= 0) {
        t.tv_sec += timeout_ms / 1000;
        t.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
    }
    int rc = TB_OK;
    pthread_mutex_lock(&v->mu);
    for (;;) {
        int busy = 0;
        for (int i = 0; i < TB_VOICE_PLAYERS; i++)
            if (player < 0 || player == i)
                busy += v->pl[i].pending;
        if (!busy)
            break;
        if (timeout_ms < 0) {
            pthread_cond_wait(&v->news, &v->mu);
        } else if (pthread_cond_timedwait(&v->news, &v->mu, &t) == ETIMEDOUT) {
            rc = TB_ERR_TIMEOUT;
            break;
        }
    }
    pthread_mutex_unlock(&v->mu);
    return rc;
}

/* Runs a job on the speech thread and waits for it. */
static int run_on_thread(struct tb_voice *v, struct job *j, const char *text)
{
    char *speech = speech_of(j->player < 0 ? v->pack : v->pl[j->player].pack, text);
    if (!speech)
        return TB_ERR_MEM;
    j->speech = speech;
    pthread_mutex_lock(&v->mu);
    if (v->job_tail)
        v->job_tail->next = j;
    else
        v->job_head = j;
    v->job_tail = j;
    pthread_cond_signal(&v->wake);
    while (!j->done)
        pthread_cond_wait(&v->news, &v->mu);
    pthread_mutex_unlock(&v->mu);
    free(speech);
    return j->rc;
}

int tb_voice_render(struct tb_voice *v, int player, const char *text, int16_t **pcm, size_t *frames,
                    unsigned *rate)
{
    if (!v || !text || !pcm || !frames || player < -1 || player >= TB_VOICE_PLAYERS)
        return TB_ERR_ARG;
    struct job j = {.kind = JOB_RENDER, .player = player};
    int rc = run_on_thread(v, &j, text);
    if (rc) {
        free(j.pcm.pcm);
        return rc;
    }
    *pcm = j.pcm.pcm;
    *frames = j.pcm.frames;
    if (rate)
        *rate = v->rate;
    return TB_OK;
}

long tb_voice_render_wav(struct tb_voice *v, int player, const char *text, const char *path,
                         struct tb_error *err)
{
    if (!path)
        return tb_error_set(err, TB_ERR_ARG, "no WAV file named");
    int16_t *pcm = NULL;
    size_t frames = 0;
    unsigned rate = 0;
    int rc = tb_voice_render(v, player, text, &pcm, &frames, &rate);
    if (rc) {
        free(pcm);
        return tb_error_set(err, rc, "%s: the text could not be rendered: %s", path,
                            tb_strerror(rc));
    }
    rc = tb_voice_wav_write(path, pcm, frames, rate, err);
    free(pcm);
    return rc ? rc : (long)frames;
}

int tb_voice_phonemes(struct tb_voice *v, int player, const char *text, char *buf, size_t len)
{
    if (!v || !text || !buf || len == 0 || player < -1 || player >= TB_VOICE_PLAYERS)
        return TB_ERR_ARG;
    struct job j = {.kind = JOB_PHONEMES, .player = player, .out = buf, .out_len = len};
    return run_on_thread(v, &j, text);
}

int tb_voice_describe(struct tb_voice *v, char *buf, size_t len)
{
    if (!v || !buf)
        return TB_ERR_ARG;
    int n = snprintf(buf, len, "%s", v->describe);
    return n < 0 || (size_t)n >= len ? TB_ERR_FULL : n;
}
