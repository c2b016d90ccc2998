// libedit's readline interface, for line editing in the terminal sheet's fields.
#include <stdio.h>
#include <string.h>
#include <locale.h>
#include <langinfo.h>
#include <editline/readline.h>

// libedit converts the prompt and every typed character through the C library's character
// locale. A program starts in the "C" locale (Swift never calls setlocale), where any byte
// above 0x7F fails that conversion, and libedit then dereferences a null pointer: a prompt
// holding "1–99" crashed the sheet. So the character locale is taken from the environment and,
// when that one is not UTF-8 (LANG=C, or unset), from C.UTF-8, which glibc always has.
// Returns 1 when a UTF-8 locale is in effect, 0 when none could be had: the caller must then
// keep prompts to ASCII.
static inline int cedit_use_utf8_locale(void) {
    if (setlocale(LC_CTYPE, "") != NULL && strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return 1;
    if (setlocale(LC_CTYPE, "C.UTF-8") != NULL && strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return 1;
    return 0;
}

// Swift cannot assign libedit's global hooks safely, so they are set here, once, before the
// first readline(): no signal handlers of libedit's own (the command watches Ctrl-C itself),
// and characters from `getc_function`, which can give up when the sheet is dismissed.
static inline void cedit_configure(int (*getc_function)(FILE *)) {
    rl_catch_signals = 0;
    rl_getc_function = getc_function;
    rl_initialize();
}
