/* test_file.c - tb_read_file: whole files, NUL-terminated, every failure named. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_file.h"
#include "tb_test.h"

static const char *write_tmp(const char *name, const char *data, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tb_test_tmp_dir(), name);
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(fwrite(data, 1, len, f), len);
    ASSERT_OK(fclose(f));
    return path;
}

TB_TEST(reads_whole_file_with_nul_after)
{
    const char *path = write_tmp("a.txt", "one\ntwo\0three", 13);
    char *data = NULL;
    size_t len = 0;
    ASSERT_OK(tb_read_file(path, &data, &len, NULL));
    ASSERT_EQ(len, 13);
    ASSERT_TRUE(memcmp(data, "one\ntwo\0three", 13) == 0);
    ASSERT_EQ(data[13], '\0');
    free(data);
}

TB_TEST(empty_file_is_an_empty_string)
{
    const char *path = write_tmp("empty", "", 0);
    char *data = NULL;
    size_t len = 99;
    ASSERT_OK(tb_read_file(path, &data, &len, NULL));
    ASSERT_EQ(len, 0);
    ASSERT_STR_EQ(data, "");
    free(data);
}

/* Sizes around the buffer's growth steps, where an off-by-one would lose or add a byte. */
TB_TEST(growth_boundaries_keep_every_byte)
{
    static const size_t sizes[] = {4094, 4095, 4096, 4097, 8191, 100000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        char *src = malloc(n);
        ASSERT_NOT_NULL(src);
        for (size_t k = 0; k < n; k++)
            src[k] = (char)('a' + (k * 7 + n) % 26);
        const char *path = write_tmp("big", src, n);
        char *data = NULL;
        size_t len = 0;
        ASSERT_OK(tb_read_file(path, &data, &len, NULL));
        ASSERT_EQ(len, n);
        ASSERT_TRUE(memcmp(data, src, n) == 0);
        ASSERT_EQ(data[n], '\0');
        free(data);
        free(src);
    }
}

TB_TEST(missing_file_names_path_and_reason_and_keeps_errno)
{
    char *data = (char *)"untouched";
    size_t len = 5;
    struct tb_error err = {0};
    ASSERT_EQ(tb_read_file("/nonexistent/x.script", &data, &len, &err), TB_ERR_SYS);
    ASSERT_EQ(errno, ENOENT);
    ASSERT_EQ(err.code, TB_ERR_SYS);
    ASSERT_STR_EQ(err.msg, "cannot read /nonexistent/x.script: No such file or directory");
    ASSERT_NULL(data);
    ASSERT_EQ(len, 0);
}

TB_TEST(directory_is_refused)
{
    char *data = NULL;
    size_t len = 0;
    struct tb_error err = {0};
    ASSERT_EQ(tb_read_file(tb_test_tmp_dir(), &data, &len, &err), TB_ERR_SYS);
    ASSERT_EQ(errno, EISDIR);
    ASSERT_STR_CONTAINS(err.msg, "Is a directory");
    ASSERT_NULL(data);
}

TB_TEST(file_over_the_cap_is_refused)
{
    /* A sparse file one byte longer than the cap costs no disk space. */
    char path[512];
    snprintf(path, sizeof path, "%s/huge", tb_test_tmp_dir());
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_OK(fseek(f, (long)TB_READ_FILE_MAX, SEEK_SET));
    ASSERT_EQ(fputc('x', f), 'x');
    ASSERT_OK(fclose(f));
    char *data = NULL;
    size_t len = 0;
    struct tb_error err = {0};
    ASSERT_EQ(tb_read_file(path, &data, &len, &err), TB_ERR_FULL);
    remove(path);
    ASSERT_STR_CONTAINS(err.msg, path);
    ASSERT_STR_CONTAINS(err.msg, "longer than 64 MiB");
    ASSERT_NULL(data);
    ASSERT_EQ(len, 0);
}

TB_TEST(file_exactly_at_the_cap_is_read)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cap", tb_test_tmp_dir());
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_OK(fseek(f, (long)TB_READ_FILE_MAX - 1, SEEK_SET));
    ASSERT_EQ(fputc('z', f), 'z');
    ASSERT_OK(fclose(f));
    char *data = NULL;
    size_t len = 0;
    ASSERT_OK(tb_read_file(path, &data, &len, NULL));
    remove(path);
    ASSERT_U64_EQ(len, TB_READ_FILE_MAX);
    ASSERT_EQ(data[len - 1], 'z');
    ASSERT_EQ(data[len], '\0');
    free(data);
}

TB_TEST(null_arguments_are_refused)
{
    char *data;
    size_t len;
    struct tb_error err = {0};
    ASSERT_EQ(tb_read_file(NULL, &data, &len, &err), TB_ERR_ARG);
    ASSERT_NULL(data);
    ASSERT_EQ(tb_read_file("/dev/null", NULL, &len, NULL), TB_ERR_ARG);
    ASSERT_EQ(tb_read_file("/dev/null", &data, NULL, NULL), TB_ERR_ARG);
}
