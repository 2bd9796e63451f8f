/* wav.c - mono s16 WAV files: a writer whose header is valid after every append (a crash leaves
 * a playable file, D.2.7 audio scoresheet), and whole-file read/write helpers. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "voice_internal.h"

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v & 0xffff);
    put16(p + 2, v >> 16);
}
static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}
static uint32_t get32(const uint8_t *p)
{
    return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static void header(uint8_t h[44], unsigned rate, uint32_t data_bytes)
{
    memcpy(h, "RIFF", 4);
    put32(h + 4, 36 + data_bytes);
    memcpy(h + 8, "WAVEfmt ", 8);
    put32(h + 16, 16);
    put16(h + 20, 1); /* PCM */
    put16(h + 22, 1); /* mono */
    put32(h + 24, rate);
    put32(h + 28, rate * 2);
    put16(h + 32, 2);
    put16(h + 34, 16);
    memcpy(h + 36, "data", 4);
    put32(h + 40, data_bytes);
}

static int write_all(int fd, const void *buf, size_t n, off_t at)
{
    const uint8_t *p = buf;
    while (n > 0) {
        ssize_t k = at >= 0 ? pwrite(fd, p, n, at) : write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return TB_ERR_SYS;
        p += k;
        n -= (size_t)k;
        if (at >= 0)
            at += k;
    }
    return TB_OK;
}

/* An existing file this writer made (44-byte header, mono s16 at rate) is continued: after a
 * crash and restart the audio scoresheet goes on where it stopped. Sizes come from the file's
 * length, which also repairs a header a crash left between a write and its size update. */
static int continue_file(struct tb_voice__wav *w, unsigned rate)
{
    uint8_t h[44], want[44];
    off_t size = lseek(w->fd, 0, SEEK_END);
    if (size < 44 || pread(w->fd, h, 44, 0) != 44)
        return TB_ERR_PARSE;
    header(want, rate, 0);
    if (memcmp(h, want, 4) || memcmp(h + 8, want + 8, 28) || memcmp(h + 36, want + 36, 4))
        return TB_ERR_PARSE;
    off_t data = (size - 44) & ~(off_t)1;
    if (data > (off_t)(UINT32_MAX - 36) || ftruncate(w->fd, 44 + data))
        return TB_ERR_PARSE;
    w->data_bytes = (uint32_t)data;
    if (lseek(w->fd, 0, SEEK_END) < 0)
        return TB_ERR_SYS;
    return tb_voice__wav_append(w, NULL, 0);
}

int tb_voice__wav_open(struct tb_voice__wav *w, const char *path, unsigned rate, bool append,
                       struct tb_error *err)
{
    w->rate = rate;
    w->data_bytes = 0;
    w->fd = open(path, O_RDWR | O_CREAT | (append ? 0 : O_TRUNC) | O_CLOEXEC, 0644);
    if (w->fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "%s: cannot create: %s", path, strerror(errno));
    if (append && continue_file(w, rate) == TB_OK)
        return TB_OK;
    uint8_t h[44];
    header(h, rate, 0);
    if (ftruncate(w->fd, 0) || lseek(w->fd, 0, SEEK_SET) < 0 || write_all(w->fd, h, sizeof h, -1)) {
        int e = errno;
        close(w->fd);
        w->fd = -1;
        return tb_error_set(err, TB_ERR_SYS, "%s: cannot write: %s", path, strerror(e));
    }
    return TB_OK;
}

int tb_voice__wav_append(struct tb_voice__wav *w, const int16_t *pcm, size_t frames)
{
    if (w->fd < 0)
        return TB_ERR_STATE;
    if (frames > (UINT32_MAX - 36 - w->data_bytes) / 2)
        return TB_ERR_FULL;
    uint8_t buf[4096];
    for (size_t done = 0; done < frames;) {
        size_t n = frames - done < sizeof buf / 2 ? frames - done : sizeof buf / 2;
        for (size_t i = 0; i < n; i++)
            put16(buf + 2 * i, (uint16_t)pcm[done + i]);
        if (write_all(w->fd, buf, 2 * n, -1))
            return TB_ERR_SYS;
        done += n;
    }
    w->data_bytes += (uint32_t)(2 * frames);
    /* Rewrite both sizes so the file is complete after every append. */
    uint8_t size[4];
    put32(size, 36 + w->data_bytes);
    if (write_all(w->fd, size, 4, 4))
        return TB_ERR_SYS;
    put32(size, w->data_bytes);
    return write_all(w->fd, size, 4, 40);
}

void tb_voice__wav_close(struct tb_voice__wav *w)
{
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
}

int tb_voice_wav_write(const char *path, const int16_t *pcm, size_t frames, unsigned rate,
                       struct tb_error *err)
{
    struct tb_voice__wav w;
    int rc = tb_voice__wav_open(&w, path, rate, false, err);
    if (rc)
        return rc;
    rc = tb_voice__wav_append(&w, pcm, frames);
    if (rc)
        tb_error_set(err, rc, "%s: cannot write: %s", path, strerror(errno));
    tb_voice__wav_close(&w);
    return rc;
}

int tb_voice_wav_read(const char *path, int16_t **pcm, size_t *frames, unsigned *rate,
                      struct tb_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return tb_error_set(err, TB_ERR_SYS, "%s: cannot open: %s", path, strerror(errno));
    uint8_t h[12], ch[8];
    unsigned channels = 0, bits = 0;
    int rc = TB_ERR_PARSE;
    if (fread(h, 1, 12, f) != 12 || memcmp(h, "RIFF", 4) || memcmp(h + 8, "WAVE", 4)) {
        fclose(f);
        return tb_error_set(err, TB_ERR_PARSE, "%s: not a RIFF WAVE file", path);
    }
    *rate = 0;
    while (fread(ch, 1, 8, f) == 8) {
        uint32_t n = get32(ch + 4);
        if (memcmp(ch, "fmt ", 4) == 0 && n >= 16) {
            uint8_t fmt[16];
            if (fread(fmt, 1, 16, f) != 16 || fseek(f, (long)(n - 16 + (n & 1)), SEEK_CUR))
                break;
            channels = get16(fmt + 2);
            *rate = get32(fmt + 4);
            bits = get16(fmt + 14);
            if (get16(fmt) != 1 || bits != 16 || channels < 1 || channels > 2) {
                fclose(f);
                return tb_error_set(err, TB_ERR_SUPP, "%s: not 16-bit mono/stereo PCM", path);
            }
        } else if (memcmp(ch, "data", 4) == 0 && channels) {
            long here = ftell(f);
            fseek(f, 0, SEEK_END);
            long avail = ftell(f) - here;
            fseek(f, here, SEEK_SET);
            /* ALSA's file plugin leaves 0x7fffffff-like sizes until it closes; trust the file. */
            if (n > (uint32_t)avail)
                n = (uint32_t)avail;
            size_t count = n / (2 * channels);
            int16_t *out = malloc(count ? count * sizeof *out : 1);
            uint8_t *raw = malloc(n ? n : 1);
            if (!out || !raw || fread(raw, 1, n, f) != n) {
                free(out);
                free(raw);
                rc = out && raw ? TB_ERR_PARSE : TB_ERR_MEM;
                break;
            }
            for (size_t i = 0; i < count; i++) {
                int s = (int16_t)get16(raw + 2 * channels * i);
                if (channels == 2)
                    s = (s + (int16_t)get16(raw + 4 * i + 2)) / 2;
                out[i] = (int16_t)s;
            }
            free(raw);
            *pcm = out;
            *frames = count;
            fclose(f);
            return TB_OK;
        } else if (fseek(f, (long)(n + (n & 1)), SEEK_CUR)) {
            break;
        }
    }
    fclose(f);
    return tb_error_set(err, rc, "%s: no 16-bit PCM data chunk", path);
}
