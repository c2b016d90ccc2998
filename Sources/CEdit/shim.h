// libedit's readline interface, for line editing in the terminal sheet's fields.
#include <stdio.h>
#include <editline/readline.h>

// Swift cannot assign libedit's global hooks safely, so they are set here, once, before the
// first readline(): no signal handlers of libedit's own (the command watches Ctrl-C itself),
// and characters from `getc_function`, which can give up when the sheet is dismissed.
static inline void cedit_configure(int (*getc_function)(FILE *)) {
    rl_catch_signals = 0;
    rl_getc_function = getc_function;
    rl_initialize();
}
