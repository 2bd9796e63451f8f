/* wav.c - mono s16 WAV files through libsndfile: a writer whose header is valid after every
 * append (a crash leaves a playable file, D.2.7 audio scoresheet), and whole-file read/write
 * helpers. */
#include <errno.h>
#include <fcntl.h>
#include <sndfile.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "voice_internal.h"

#define WAV_S16 (SF_FORMAT_WAV | SF_FORMAT_PCM_16)
#define HEADER  44 /* libsndfile's canonical header for s16 PCM: RIFF, fmt (16 bytes), data */

/* libsndfile trusts the header's sizes; a crash between an append and libsndfile's header update
 * leaves frames past them. The sizes are set from the file's length (an odd last byte dropped)
 * so those frames are kept. Only a file laid out as libsndfile writes it is touched. */
static void repair_sizes(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    unsigned char h[HEADER];
    if (fd < 0)
        return;
    if (!fstat(fd, &st) && st.st_size >= HEADER && st.st_size - 8 <= (off_t)UINT32_MAX &&
        pread(fd, h, HEADER, 0) == HEADER && !memcmp(h, "RIFF", 4) &&
        !memcmp(h + 8, "WAVEfmt ", 8) && h[16] == 16 && !memcmp(h + 36, "data", 4)) {
        off_t data = (st.st_size - HEADER) & ~(off_t)1;
        uint32_t sizes[2] = {(uint32_t)(data + HEADER - 8), (uint32_t)data};
        unsigned char le[8];
        for (int i = 0; i < 8; i++)
            le[i] = (unsigned char)(sizes[i / 4] >> (8 * (i % 4)));
        if (!ftruncate(fd, HEADER + data) && pwrite(fd, le, 4, 4) == 4)
            (void)!pwrite(fd, le + 4, 4, 40);
    }
    close(fd);
}

/* An existing file of the same format and rate is continued: after a crash and restart the
 * audio scoresheet goes on where it stopped. */
static int continue_file(struct tb_voice__wav *w, const char *path, unsigned rate)
{
    repair_sizes(path);
    SF_INFO info = {0};
    SNDFILE *sf = sf_open(path, SFM_RDWR, &info);
    if (!sf)
        return TB_ERR_PARSE;
    if (info.format != WAV_S16 || info.channels != 1 || info.samplerate != (int)rate ||
        sf_seek(sf, 0, SEEK_END) < 0) {
        sf_close(sf);
        return TB_ERR_PARSE;
    }
    sf_command(sf, SFC_SET_UPDATE_HEADER_AUTO, NULL, SF_TRUE);
    w->sf = sf;
    return TB_OK;
}

int tb_voice__wav_open(struct tb_voice__wav *w, const char *path, unsigned rate, bool append,
                       struct tb_error *err)
{
    w->rate = rate;
    w->sf = NULL;
    if (append && continue_file(w, path, rate) == TB_OK)
        return TB_OK;
    SF_INFO info = {.samplerate = (int)rate, .channels = 1, .format = WAV_S16};
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    if (!sf)
        return tb_error_set(err, TB_ERR_SYS, "%s: cannot create: %s", path, sf_strerror(NULL));
    /* Header sizes rewritten after every write: the file is complete at all times. */
    sf_command(sf, SFC_SET_UPDATE_HEADER_AUTO, NULL, SF_TRUE);
    w->sf = sf;
    return TB_OK;
}

int tb_voice__wav_append(struct tb_voice__wav *w, const int16_t *pcm, size_t frames)
{
    if (!w->sf)
        return TB_ERR_STATE;
    if (frames > UINT32_MAX / 4)
        return TB_ERR_FULL;
    if (frames && sf_writef_short(w->sf, pcm, (sf_count_t)frames) != (sf_count_t)frames)
        return TB_ERR_SYS;
    return TB_OK;
}

void tb_voice__wav_close(struct tb_voice__wav *w)
{
    if (w->sf)
        sf_close(w->sf);
    w->sf = NULL;
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
        tb_error_set(err, rc, "%s: cannot write: %s", path, sf_strerror(w.sf));
    tb_voice__wav_close(&w);
    return rc;
}

int tb_voice_wav_read(const char *path, int16_t **pcm, size_t *frames, unsigned *rate,
                      struct tb_error *err)
{
    SF_INFO info = {0};
    SNDFILE *sf = sf_open(path, SFM_READ, &info);
    if (!sf)
        return tb_error_set(err, TB_ERR_PARSE, "%s: not a sound file libsndfile reads: %s", path,
                            sf_strerror(NULL));
    int major = info.format & SF_FORMAT_TYPEMASK, sub = info.format & SF_FORMAT_SUBMASK;
    if ((major != SF_FORMAT_WAV && major != SF_FORMAT_WAVEX) || sub != SF_FORMAT_PCM_16 ||
        info.channels < 1 || info.channels > 2) {
        sf_close(sf);
        return tb_error_set(err, TB_ERR_SUPP, "%s: not 16-bit mono/stereo PCM", path);
    }
    /* libsndfile clamps a data size past the end (ALSA's file plugin leaves 0x7fffffff-like
     * sizes until it closes) to what the file holds. */
    size_t count = info.frames > 0 ? (size_t)info.frames : 0;
    int16_t *out = malloc((count ? count : 1) * (size_t)info.channels * sizeof *out);
    if (!out) {
        sf_close(sf);
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    }
    count = (size_t)sf_readf_short(sf, out, (sf_count_t)count);
    sf_close(sf);
    if (info.channels == 2) /* down-mix: the voice is mono */
        for (size_t i = 0; i < count; i++)
            out[i] = (int16_t)((out[2 * i] + out[2 * i + 1]) / 2);
    *pcm = out;
    *frames = count;
    *rate = (unsigned)info.samplerate;
    return TB_OK;
}
