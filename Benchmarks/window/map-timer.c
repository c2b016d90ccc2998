/*
 * map-timer: starts a program and prints, in milliseconds, how long it took from just before
 * posix_spawn to the first map of one of its top-level X windows (or, with --until exit, to its
 * exit), and the CPU time the program had used by then. Used by scripts/bench-window, one
 * sample per run.
 *
 *   map-timer [--until map|exit] [--any-window] [--timeout SECONDS] -- PROGRAM [ARGUMENT...]
 *
 * Map: with no window manager (Xvfb alone), a client's top-level window is a child of the root
 * window, so selecting SubstructureNotifyMask on the root delivers its MapNotify. The window
 * counts when it is not override-redirect (menus, tooltips) and its _NET_WM_PID, which GDK sets
 * before mapping, is the program's PID; a window without _NET_WM_PID counts too, and says so on
 * standard error. The root is watched before the program starts, so no map can be missed.
 * --any-window counts any client's top-level window: for a program started through a wrapper
 * (strace, perf record), whose PID is not the window's.
 *
 * The program runs in a process group of its own with the caller's environment plus
 * MAP_TIMER_START (CLOCK_MONOTONIC in ms when it was started, read by phase-marks.so); its
 * standard output goes to standard error, so standard output carries only the measurement.
 * After the map the group gets SIGTERM (SIGKILL after 3 s) and the program is reaped.
 *
 * Output: one line, "WALL CPU" in milliseconds. CPU is the run time of the program's threads
 * alive at the map (/proc/PID/task/TID/schedstat, in ns; a thread that ended before the map is
 * not counted), or user + system time from wait4 with --until exit. Wall time depends on what
 * else the machine runs; CPU time much less so.
 *
 * Exit status: 0 with the times on standard output; 1 when the program ended before mapping a
 * window, failed (--until exit: a nonzero status) or ran out of time; 2 for a usage or X error.
 */
#define _GNU_SOURCE
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <poll.h>
#include <signal.h>
#include <dirent.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A window may be gone by the time its property is read: ignore that error. */
static int ignore_x_error(Display *display, XErrorEvent *error) {
    (void)display;
    (void)error;
    return 0;
}

/* The window's _NET_WM_PID, 0 when it has none, -1 when it could not be read. */
static long window_pid(Display *display, Window window, Atom net_wm_pid) {
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    if (XGetWindowProperty(display, window, net_wm_pid, 0, 1, False, XA_CARDINAL, &type, &format, &count,
                           &after, &data) != Success)
        return -1;
    long pid = 0;
    if (data && type == XA_CARDINAL && format == 32 && count == 1) pid = (long)*(unsigned long *)data;
    if (data) XFree(data);
    return pid;
}

/* The run time, in ms, of the threads of `pid` now: the first field of each schedstat. */
static double cpu_ms(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks) return -1;
    double total = 0;
    struct dirent *task;
    while ((task = readdir(tasks))) {
        if (task->d_name[0] == '.') continue;
        char file[300];
        snprintf(file, sizeof file, "/proc/%d/task/%s/schedstat", (int)pid, task->d_name);
        FILE *stat = fopen(file, "r");
        if (!stat) continue;
        unsigned long long ns;
        if (fscanf(stat, "%llu", &ns) == 1) total += ns / 1e6;
        fclose(stat);
    }
    closedir(tasks);
    return total;
}

static void describe_status(const char *program, int status) {
    if (WIFEXITED(status))
        fprintf(stderr, "map-timer: %s exited with status %d\n", program, WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        fprintf(stderr, "map-timer: %s was killed by signal %d\n", program, WTERMSIG(status));
}

/* SIGTERM to the program's group, SIGKILL after 3 s; reaps the program. */
static void stop(pid_t pid, const char *program) {
    kill(-pid, SIGTERM);
    double deadline = now_ms() + 3000;
    int status;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            fprintf(stderr, "map-timer: %s ignored SIGTERM for 3 s; SIGKILL\n", program);
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        usleep(2000);
    }
    /* Anything the program started in its group goes with it. */
    if (kill(-pid, 0) == 0) kill(-pid, SIGKILL);
}

int main(int argc, char **argv) {
    int until_exit = 0, any_window = 0;
    double timeout_s = 20;
    int i = 1;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--")) { i++; break; }
        if (!strcmp(argv[i], "--until") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "exit")) until_exit = 1;
            else if (strcmp(argv[i], "map")) goto usage;
        } else if (!strcmp(argv[i], "--any-window")) {
            any_window = 1;
        } else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
            timeout_s = atof(argv[++i]);
        } else goto usage;
    }
    if (i >= argc) goto usage;
    char **command = argv + i;

    Display *display = NULL;
    Window root = 0;
    Atom net_wm_pid = 0;
    if (!until_exit) {
        display = XOpenDisplay(NULL);
        if (!display) {
            fprintf(stderr, "map-timer: cannot open display '%s'\n", getenv("DISPLAY") ? getenv("DISPLAY") : "");
            return 2;
        }
        XSetErrorHandler(ignore_x_error);
        root = DefaultRootWindow(display);
        net_wm_pid = XInternAtom(display, "_NET_WM_PID", False);
        XSelectInput(display, root, SubstructureNotifyMask);
        XSync(display, False);
    }

    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    if (display) posix_spawn_file_actions_addclose(&actions, ConnectionNumber(display));

    pid_t pid;
    double start = now_ms();
    /* For phase-marks.so: the same starting point, so its steps line up with this time. */
    char start_text[64];
    snprintf(start_text, sizeof start_text, "%.6f", start);
    setenv("MAP_TIMER_START", start_text, 1);
    int failed = posix_spawnp(&pid, command[0], &actions, &attributes, command, environ);
    if (failed) {
        fprintf(stderr, "map-timer: cannot start %s: %s\n", command[0], strerror(failed));
        return 2;
    }
    double deadline = start + timeout_s * 1000;

    if (until_exit) {
        int status;
        struct rusage usage;
        while (wait4(pid, &status, WNOHANG, &usage) == 0) {
            if (now_ms() > deadline) {
                fprintf(stderr, "map-timer: %s did not exit within %g s\n", command[0], timeout_s);
                stop(pid, command[0]);
                return 1;
            }
            usleep(200);
        }
        double end = now_ms();
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            describe_status(command[0], status);
            return 1;
        }
        double cpu = usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3 + usage.ru_stime.tv_sec * 1e3 +
                     usage.ru_stime.tv_usec / 1e3;
        printf("%.3f %.3f\n", end - start, cpu);
        return 0;
    }

    struct pollfd connection = {.fd = ConnectionNumber(display), .events = POLLIN};
    for (;;) {
        while (XPending(display)) {
            XEvent event;
            XNextEvent(display, &event);
            double seen = now_ms();
            if (event.type != MapNotify || event.xmap.event != root || event.xmap.override_redirect) continue;
            long owner = window_pid(display, event.xmap.window, net_wm_pid);
            if (owner > 0 && owner != pid && !any_window) continue;
            if (owner <= 0 && !any_window)
                fprintf(stderr, "map-timer: window 0x%lx has no _NET_WM_PID; counted as %s's\n",
                        event.xmap.window, command[0]);
            printf("%.3f %.3f\n", seen - start, cpu_ms(pid));
            fflush(stdout);
            stop(pid, command[0]);
            XCloseDisplay(display);
            return 0;
        }
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            fprintf(stderr, "map-timer: %s ended before mapping a window\n", command[0]);
            describe_status(command[0], status);
            return 1;
        }
        if (now_ms() > deadline) {
            fprintf(stderr, "map-timer: %s mapped no window within %g s\n", command[0], timeout_s);
            stop(pid, command[0]);
            return 1;
        }
        poll(&connection, 1, 5);
    }

usage:
    fprintf(stderr, "usage: map-timer [--until map|exit] [--any-window] [--timeout SECONDS] -- PROGRAM [ARGUMENT...]\n");
    return 2;
}
