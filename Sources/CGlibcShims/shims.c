#define _GNU_SOURCE
#include "CGlibcShims.h"

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

int cglibc_open_unnamed_file(const char *folder, mode_t mode) {
    return open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}

int64_t cglibc_copy_file_range(int input, int64_t *inputOffset, int output, int64_t *outputOffset, size_t length) {
    loff_t in = *inputOffset, out = *outputOffset;
    ssize_t copied = copy_file_range(input, &in, output, &out, length, 0);
    *inputOffset = in;
    *outputOffset = out;
    return copied;
}

int64_t cglibc_seek_data(int fd, int64_t offset) { return lseek(fd, offset, SEEK_DATA); }

int64_t cglibc_seek_hole(int fd, int64_t offset) { return lseek(fd, offset, SEEK_HOLE); }

short cglibc_posix_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }
