/* console_capture.h: what host tests can ask of the console stub (tests/stubs/console.c). */
#ifndef STUBS_CONSOLE_CAPTURE_H
#define STUBS_CONSOLE_CAPTURE_H

const char *stub_console_text(void);
void stub_console_reset(void);

#endif
