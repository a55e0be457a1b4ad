// libedit's readline interface: line editing, history and completion for `statechart repl`.
// Debian's libedit-dev on Linux; part of the system on macOS.
#include <stdio.h>
#include <editline/readline.h>

// libedit's settings are C globals, which Swift 6 does not let code touch; these set them.

/// Names the program for ~/.editrc and installs the completion hook.
static inline void statechart_line_editing_setup(rl_completion_func_t *complete) {
    rl_readline_name = "statechart";
    rl_attempted_completion_function = complete;
}

/// Tells libedit not to fall back to file names when the hook finds nothing.
static inline void statechart_completion_over(void) { rl_attempted_completion_over = 1; }
