#ifndef CGLIBC_SHIMS_H
#define CGLIBC_SHIMS_H

#include <stdint.h>
#include <sys/types.h>

/// Opens an unnamed file in `folder` (O_TMPFILE): it has no name until linked, and the kernel
/// frees it when the last descriptor closes, even when the process is killed. Returns -1 and sets
/// errno when the filesystem cannot do this.
int cglibc_open_unnamed_file(const char *folder, mode_t mode);

/// `copy_file_range(2)` with explicit offsets, which Swift cannot see without _GNU_SOURCE.
int64_t cglibc_copy_file_range(int input, int64_t *inputOffset, int output, int64_t *outputOffset, size_t length);

/// `lseek(fd, offset, SEEK_DATA)`: the start of the next data region at or after `offset`.
int64_t cglibc_seek_data(int fd, int64_t offset);

/// `lseek(fd, offset, SEEK_HOLE)`: the start of the next hole at or after `offset`.
int64_t cglibc_seek_hole(int fd, int64_t offset);

/// The `POSIX_SPAWN_SETSID` flag: the child starts a session of its own.
short cglibc_posix_spawn_setsid_flag(void);

#endif
